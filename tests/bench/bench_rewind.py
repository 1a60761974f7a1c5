"""Checkpoints on a 100-file workload: what they store, and how long a rewind takes.

A session of four prompts, through the real sidecar process and the fake LLM server, edits
100 files of 2-20 KB (the edits change a file's first line, as a small Edit does; each file
is read first with a one-line Read):

  1. edits 40 files (A) and creates 10 (N);
  2. edits 40 others (B), 10 files of identical content (S), and 20 of A again;
  3. puts those 20 of A back as prompt 1 left them, and edits the 10 it created;
  4. edits the same 20 of A (their kept content is then prompt 2's: nothing new to keep),
     the 10 identical ones again, and 10 of B.

Storage: after each prompt, the bytes and contents (blobs) under
``<storageDir>/projects/<sanitized cwd>/file-history/``, the backups its checkpoint recorded,
and the transcript bytes of its checkpoint records (checkpoint, file_backup, file_write).
Rewind: wall time of ``sidecar/rewind`` back to prompt 1's checkpoint, restoring the 100
files (90 restored, 10 deleted): preview, code only, and both (each on a fork of the session,
so every run rewinds the same conversation); the files are put back as the turns left them
before each run. Median of several runs. Figures only; nothing here asserts a timing.

Run: python tests/bench/bench_rewind.py [RUNS]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.core.checkpoints.records import META  # noqa: E402
from sidecar.fake_llm import FakeLLMServer, Reply  # noqa: E402
from sidecar.storage.paths import project_dir, transcript_path  # noqa: E402
from tests.bench.figures import header, median  # noqa: E402
from tests.bench.sidecar_process import (  # noqa: E402
    quiet_fake_disconnects,
    server_pid,
    sidecar_env,
)
from tests.e2e.rewind_crash_trials import source_text, tool  # noqa: E402
from tests.e2e.session_client import (  # noqa: E402
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

os.environ.setdefault("FAKE_LLM_KEY", "bench-key")
SETTINGS = {"permissions": {"defaultMode": "acceptEdits"}}
SHARED = "# shared module header"
SETTLE = 0.5


class Files:
    """The workload: each file's marker line (its first), version and text."""

    def __init__(self, workspace: Path, rng: random.Random) -> None:
        self.workspace = workspace
        self.marker: dict[str, str] = {}
        self.version: dict[str, int] = {}
        self.read: set[str] = set()
        self.initial: dict[str, bytes | None] = {}
        shared = source_text(random.Random(0), "shared", 4_000).replace(
            "# shared: version 0", f"{SHARED}: version 0", 1)
        for i in range(80):
            rel = f"src/pkg{i // 10}/mod_{i:02d}.py"
            size = int(2_000 * 10 ** rng.uniform(0, 1))  # 2-20 KB, log-uniform
            self._put(rel, f"# {rel}", source_text(rng, rel, size))
        for i in range(10):
            self._put(f"src/pkg{i}/__init__.py", SHARED, shared)
        self.created = [f"src/new/feature_{i}.py" for i in range(10)]
        self.new_text = {rel: source_text(rng, rel, rng.randrange(2_000, 6_000))
                         for rel in self.created}

    def _put(self, rel: str, marker: str, text: str) -> None:
        path = self.workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        self.marker[rel] = marker
        self.version[rel] = 0
        self.initial[rel] = text.encode()

    def replies(self, tag: str, edits: dict[str, int], writes: list[str]) -> list[Reply]:
        """The model's answers for one prompt: Read what it has not read, then every Edit
        (to the version given) and Write in one answer."""
        reads = [tool("Read", f"toolu_{tag}_r{i}", file_path=rel, limit=1)
                 for i, rel in enumerate(r for r in edits if r not in self.read
                                         and r not in self.created)]
        calls = []
        for i, (rel, new) in enumerate(edits.items()):
            marker = self.marker[rel]
            calls.append(tool("Edit", f"toolu_{tag}_e{i}", file_path=rel,
                              old_string=f"{marker}: version {self.version[rel]}",
                              new_string=f"{marker}: version {new}"))
            self.version[rel] = new
            self.read.add(rel)
        for i, rel in enumerate(writes):
            calls.append(tool("Write", f"toolu_{tag}_w{i}", file_path=rel,
                              content=self.new_text[rel]))
            self.marker[rel] = f"# {rel}"
            self.version[rel] = 0
            self.initial[rel] = None
            self.read.add(rel)
        out = [Reply(content=[{"type": "text", "text": "Reading."}, *reads])] if reads else []
        return [*out, Reply(content=[{"type": "text", "text": "Editing."}, *calls]),
                Reply.text("Done.")]

    def snapshot(self) -> dict[Path, bytes]:
        return {self.workspace / rel: (self.workspace / rel).read_bytes() for rel in self.marker}

    async def put_back(self, snapshot: dict[Path, bytes]) -> None:
        """The files as the turns left them; then a pause, so the sidecar has taken in the
        changes its file watcher reports before the next rewind is timed."""
        for path, data in snapshot.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        await asyncio.sleep(SETTLE)

    def is_initial(self) -> bool:
        for rel, data in self.initial.items():
            path = self.workspace / rel
            if (path.read_bytes() if path.exists() else None) != data:
                return False
        return True


def store_figures(root: Path) -> tuple[int, int, int]:
    """Blobs, their bytes, and the blocks they take on disk."""
    blobs = [p for p in root.rglob("*") if p.is_file()] if root.exists() else []
    return (len(blobs), sum(p.stat().st_size for p in blobs),
            sum(p.stat().st_blocks * 512 for p in blobs))


def record_bytes(transcript: Path) -> dict[str, dict[str, int]]:
    """Per checkpoint: the bytes (lines with their newline) and count of its records, and
    its backups (with a kept content, and of files the turn created)."""
    out: dict[str, dict[str, int]] = {}
    for line in transcript.read_bytes().splitlines(keepends=True):
        record = json.loads(line)
        meta = ((record.get("sidecar") or {}).get("extra") or {}).get(META)
        if record.get("type") != "system" or not isinstance(meta, dict):
            continue
        entry = out.setdefault(meta["checkpointId"], {"bytes": 0, "records": 0, "backups": 0,
                                                      "absent": 0})
        entry["bytes"] += len(line)
        entry["records"] += 1
        if record.get("subtype") == "file_backup":
            entry["backups"] += 1
            entry["absent"] += meta.get("blob") is None
    return out


def diff_bytes(transcript: Path) -> int:
    """Bytes of the edits' diffs the transcript keeps for replay (each the whole file before
    and after the edit)."""
    total = 0
    for line in transcript.read_bytes().splitlines():
        calls = ((json.loads(line).get("sidecar") or {}).get("extra") or {}).get("toolCalls")
        for call_ in (calls or {}).values():
            total += sum(len(json.dumps(c)) for c in call_.get("content") or []
                         if isinstance(c, dict) and c.get("type") == "diff")
    return total


def kept_bytes(root: Path, transcript: Path) -> int:
    """Bytes of every backup recorded, as if each were kept on its own."""
    total = 0
    for line in transcript.read_bytes().splitlines():
        record = json.loads(line)
        meta = ((record.get("sidecar") or {}).get("extra") or {}).get(META)
        if record.get("subtype") == "file_backup" and isinstance(meta, dict) and meta.get("blob"):
            total += (root / meta["blob"][:2] / meta["blob"]).stat().st_size
    return total


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (/proc, Linux; 10 ms steps)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Timings:
    """Wall time of each run, and the sidecar's CPU time in it (which other work on the
    machine does not stretch)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    async def rewind(self, client: Any, params: dict[str, Any]) -> dict[str, Any]:
        pid = server_pid(client)
        cpu = cpu_seconds(pid)
        started = time.perf_counter()
        result = await call(client, "sidecar/rewind", params)
        self.wall.append(time.perf_counter() - started)
        self.cpu.append(cpu_seconds(pid) - cpu)
        return result  # type: ignore[no-any-return]

    def line(self) -> str:
        return (f"{median(self.wall) * 1000:7.1f} ms (min {min(self.wall) * 1000:.1f}); "
                f"sidecar CPU {median(self.cpu) * 1000:.0f} ms")


async def run(runs: int) -> int:
    quiet_fake_disconnects()
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-rewind-") as tmpdir, FakeLLMServer() as llm:
        tmp = Path(tmpdir)
        workspace = tmp / "ws"
        workspace.mkdir()
        store = tmp / "store"
        files = Files(workspace, random.Random(7))
        client = await start_client(sidecar_env(tmp))
        try:
            await initialize(client, settings_for("anthropic", llm.url, store, **SETTINGS))
            sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
            history = project_dir(store, str(workspace)) / "file-history"
            transcript = transcript_path(store, str(workspace), sid)
            distinct = [rel for rel in files.marker if rel.endswith(".py")
                        and "__init__" not in rel]
            a, b = distinct[:40], distinct[40:80]
            shared = [rel for rel in files.marker if "__init__" in rel]
            prompts = [
                ("edit the first half and add the features",
                 {rel: 1 for rel in a}, files.created),
                ("edit the second half, the package headers, and some of the first again",
                 {**{rel: 1 for rel in b + shared}, **{rel: 2 for rel in a[:20]}}, []),
                ("put those back and change the features",
                 {**{rel: 1 for rel in a[:20]}, **{rel: 1 for rel in files.created}}, []),
                ("once more",
                 {**{rel: 3 for rel in a[:20]}, **{rel: 2 for rel in shared},
                  **{rel: 2 for rel in b[:10]}}, []),
            ]
            rows = []
            checkpoints: list[str] = []
            before_blobs, before_bytes, _ = store_figures(history)
            before_transcript = transcript.stat().st_size if transcript.exists() else 0
            for n, (text, edits, writes) in enumerate(prompts, 1):
                llm.queue_many(files.replies(f"p{n}", edits, writes))
                started = time.perf_counter()
                answer = await prompt(client, sid, text)
                turn = time.perf_counter() - started
                checkpoints.append(answer["checkpointId"])
                blobs, size, _ = store_figures(history)
                grown = transcript.stat().st_size
                rows.append((n, len(edits) + len(writes), blobs - before_blobs,
                             size - before_bytes, grown - before_transcript, turn))
                before_blobs, before_bytes, before_transcript = blobs, size, grown
            final = files.snapshot()
            for rel, version in files.version.items():
                head = (workspace / rel).read_text().split("\n", 1)[0]
                if head != f"{files.marker[rel]}: version {version}":
                    failures.append(f"the turns left {rel} starting {head!r}")
            per = record_bytes(transcript)
            blobs, size, blocks = store_figures(history)
            kept = kept_bytes(history, transcript)
            workspace_bytes = sum(len(d) for d in final.values())
            transcript_bytes = transcript.stat().st_size
            diffs = diff_bytes(transcript)

            listed = (await call(client, "sidecar/checkpoints", {"sessionId": sid}))["checkpoints"]
            if [c["checkpointId"] for c in listed] != checkpoints:
                failures.append("sidecar/checkpoints does not list the four prompts")

            target = {"sessionId": sid, "checkpointId": checkpoints[0]}
            # The three kinds take turns, run after run, so a busy moment of the machine
            # does not fall on one kind only.
            previews, codes, boths = Timings(), Timings(), Timings()
            preview_bytes = 0
            actions: dict[str, int] = {}
            for _ in range(runs):
                result = await previews.rewind(client, {**target, "restore": "code",
                                                        "preview": True})
                preview_bytes = len(json.dumps(result))

                await files.put_back(final)
                result = await codes.rewind(client, {**target, "restore": "code"})
                actions = {}
                for f in result["files"]:
                    actions[f["action"]] = actions.get(f["action"], 0) + 1
                if not files.is_initial():
                    failures.append("a code rewind did not give every file back")

                fork = (await call(client, "sidecar/fork", {"sessionId": sid}))["sessionId"]
                await files.put_back(final)
                result = await boths.rewind(client, {"sessionId": fork, "restore": "both",
                                                     "checkpointId": checkpoints[0]})
                if not files.is_initial() or not result["conversation"]:
                    failures.append("a rewind of both did not give every file and the "
                                    "conversation back")
                await files.put_back(final)
        finally:
            await stop_client(client)

    print(f"   workload: {len(final)} files, {workspace_bytes / 1024:.0f} KiB after the turns "
          f"(80 distinct of 2-20 KB, 10 identical of 4 KB, 10 created of 2-6 KB)")
    print("   per checkpoint (prompt): files changed, backups recorded, contents kept (new "
          "blobs) and their bytes, its checkpoint records and their transcript bytes / all the "
          "prompt added; the turn's time (the first pays for importing the provider SDK)")
    for (n, changed, new_blobs, new_bytes, added, turn), cid in zip(rows, checkpoints):
        mine = per.get(cid, {})
        print(f"   {n}: {changed:3d} files, {mine.get('backups', 0):3d} backups "
              f"({mine.get('absent', 0)} of files it created), {new_blobs:3d} new blobs, "
              f"{new_bytes / 1024:7.1f} KiB kept; records {mine.get('records', 0):3d}, "
              f"{mine.get('bytes', 0) / 1024:6.1f} KiB of {added / 1024:7.1f} KiB added; "
              f"turn {turn:.2f} s")
    backups = sum(p["backups"] for p in per.values())
    absent = sum(p["absent"] for p in per.values())
    records = sum(p["bytes"] for p in per.values())
    print(f"   file-history: {blobs} blobs for {backups - absent} backups with content "
          f"({absent} of created files keep none); {size / 1024:.1f} KiB "
          f"({blocks / 1024:.0f} KiB in disk blocks), {size / len(checkpoints) / 1024:.1f} KiB "
          f"per checkpoint; {kept / 1024:.1f} KiB were it kept per backup")
    print(f"   transcript: {transcript_bytes / 1024:.1f} KiB, of which checkpoint records "
          f"{records / 1024:.1f} KiB ({records / transcript_bytes:.1%}), "
          f"{records / max(1, sum(p['records'] for p in per.values())):.0f} bytes a record; "
          f"the edits' diffs kept for replay {diffs / 1024:.1f} KiB ({diffs / transcript_bytes:.1%})")
    print(f"   rewind to checkpoint 1 ({', '.join(f'{v} {k}' for k, v in sorted(actions.items()))}"
          f"), median of {runs}:")
    print(f"     preview {previews.line()}; answer {preview_bytes / 1024:.0f} KiB")
    print(f"     code    {codes.line()}")
    print(f"     both    {boths.line()}")
    for failure in failures[:10]:
        print(f"   FAILURE: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    header("bench_rewind: checkpoint storage and rewind time on a 100-file workload")
    raise SystemExit(asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 9)))
