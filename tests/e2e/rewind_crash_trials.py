"""kill -9 of the sidecar at random moments during a ``sidecar/rewind`` that restores code.

Each trial starts the real sidecar on a shared storage directory and workspace. First it
checks the session the previous trial's kill left: the session loads in this new process,
``sidecar/checkpoints`` answers, and the rewind the kill interrupted can be finished (asked
again, it reports no conflict and leaves every file restored). Then it opens a new session
whose two prompts edit some tens of files of distinct content (tens of KB each, read with a
one-line Read and edited in their first line) and create others with Write, and sends
``sidecar/rewind`` to the first prompt's checkpoint, restoring "code" or "both", and kills
the process with SIGKILL after a random delay from sending it: before the sidecar has read
it, while it writes the files, after it answered.

After every kill each file the rewind touches must be byte for byte its restored content
(an edited file's original, a created file absent) or its untouched content (what the turns
left), never anything else; the rewind's temporary files left beside them
(``.<name>.rewind-*``) are counted, not hidden; and the transcript still loads. A
conversation rewound (its ``rewind`` record written) means every file was restored first.
Used by the test suite (a few trials) and the kill -9 benchmark (more).
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from sidecar.core.checkpoints.records import REWIND, meta_of
from sidecar.fake_llm import Reply
from sidecar.storage.paths import project_dir, transcript_path
from sidecar.storage.transcript_loader import load_transcript
from tests.e2e.session_client import call, initialize, prompt, settings_for, start_client

SETTINGS = {"permissions": {"defaultMode": "acceptEdits"}}
REWIND_TEMP = ".rewind-"


@dataclass
class RewindCrashReport:
    trials: int = 0
    killed_before_files: int = 0  # no answer, no file restored yet
    killed_during_files: int = 0  # no answer, some files restored and some not
    killed_after_files: int = 0  # no answer, every file restored
    killed_after_answer: int = 0  # the answer had arrived
    conversations_rewound: int = 0  # a "both" whose rewind record was written before the kill
    files_restored: int = 0
    files_untouched: int = 0
    files_torn: int = 0
    temp_files: int = 0  # .<name>.rewind-* left in the workspace
    temp_files_after_resume: int = 0  # still there once a new process finished the rewind
    trials_with_temp_files: int = 0
    resumed: int = 0  # killed sessions loaded by a new process, checkpoints listed
    finished: int = 0  # interrupted rewinds completed after the resume
    torn_lines: int = 0
    rewind_ms: list[float] = field(default_factory=list)  # uninterrupted, code only
    failures: list[str] = field(default_factory=list)
    temp_examples: list[str] = field(default_factory=list)

    @property
    def kills_during_rewind(self) -> int:
        """Kills with the request sent and not yet answered."""
        return self.killed_before_files + self.killed_during_files + self.killed_after_files


def source_text(rng: random.Random, name: str, size: int) -> str:
    """Something like a source file of about ``size`` bytes, its first line naming it (the
    line the turns edit) and every line its own."""
    stem = name.replace("/", "_").replace(".", "_")
    parts = [f"# {name}: version 0\n", '"""Generated module."""\n\n']
    total = sum(len(p) for p in parts)
    n = 0
    while total < size:
        part = (f"def {stem}_{n}(value: int) -> int:\n"
                f"    \"\"\"Step {n} of {name}.\"\"\"\n"
                f"    return value * {rng.randrange(10**9)} + {n}\n\n")
        parts.append(part)
        total += len(part)
        n += 1
    return "".join(parts)


def tool(name: str, tid: str, **args: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": args}


def version_edit(rel: str, old: int, new: int, tid: str) -> dict[str, Any]:
    return tool("Edit", tid, file_path=rel, old_string=f"# {rel}: version {old}",
                new_string=f"# {rel}: version {new}")


@dataclass
class Workload:
    """One trial's files: ``restored`` what a rewind to the first checkpoint gives back (None:
    absent), ``untouched`` what the turns left."""

    folder: Path
    restored: dict[Path, bytes | None]
    untouched: dict[Path, bytes]


def make_files(workspace: Path, folder: str, rng: random.Random, edited: int,
               sizes: tuple[int, int]) -> dict[str, str]:
    """``edited`` files of distinct content under ``workspace/folder``, by relative path."""
    (workspace / folder).mkdir(parents=True, exist_ok=True)
    texts: dict[str, str] = {}
    for i in range(edited):
        rel = f"{folder}/mod_{i:03d}.py"
        texts[rel] = source_text(rng, rel, rng.randrange(*sizes))
        (workspace / rel).write_text(texts[rel])
    return texts


async def edit_session(client: Any, llm: Any, sid: str, workspace: Path, folder: str,
                       rng: random.Random, edited: int = 30, created: int = 10,
                       sizes: tuple[int, int] = (20_000, 60_000)) -> tuple[Workload, list[str]]:
    """Two prompts: the first edits ``edited`` files and creates ``created``; the second
    edits half of the edited ones again and one created one. Their checkpoint ids."""
    texts = make_files(workspace, folder, rng, edited, sizes)
    paths = sorted(texts)
    new = {f"{folder}/new_{i:03d}.py": source_text(rng, f"{folder}/new_{i:03d}.py",
                                                    rng.randrange(2_000, 6_000))
           for i in range(created)}
    reads = [tool("Read", f"toolu_r{i}", file_path=p, limit=1) for i, p in enumerate(paths)]
    edits = [version_edit(p, 0, 1, f"toolu_e{i}") for i, p in enumerate(paths)]
    writes = [tool("Write", f"toolu_w{i}", file_path=p, content=t)
              for i, (p, t) in enumerate(new.items())]
    llm.queue(Reply(content=[{"type": "text", "text": "Reading them."}, *reads]))
    llm.queue(Reply(content=[{"type": "text", "text": "Changing them."}, *edits, *writes]))
    llm.queue(Reply.text("Changed."))
    first = await prompt(client, sid, f"change the files of {folder}")
    again = paths[::2]
    new_again = sorted(new)[:1]
    redo = [version_edit(p, 1, 2, f"toolu_f{i}") for i, p in enumerate(again)]
    redo += [version_edit(p, 0, 1, f"toolu_g{i}") for i, p in enumerate(new_again)]
    llm.queue(Reply(content=[{"type": "text", "text": "Once more."}, *redo]))
    llm.queue(Reply.text("Changed again."))
    second = await prompt(client, sid, f"change {folder} once more")
    restored: dict[Path, bytes | None] = {workspace / p: t.encode() for p, t in texts.items()}
    restored.update({workspace / p: None for p in new})
    untouched = {path: path.read_bytes() for path in restored}
    expected = {p: texts[p].replace("version 0", f"version {2 if p in again else 1}", 1)
                for p in paths}
    expected.update({p: t.replace("version 0", "version 1", 1) if p in new_again else t
                     for p, t in new.items()})
    for rel, text in expected.items():
        if untouched[workspace / rel] != text.encode():
            raise AssertionError(f"the turns did not leave {rel} as scripted")
    return Workload(workspace / folder, restored, untouched), \
        [first["checkpointId"], second["checkpointId"]]


def temp_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob(f".*{REWIND_TEMP}*"))


def classify(workload: Workload) -> tuple[int, int, list[str]]:
    """Files restored, untouched, and those neither (torn)."""
    restored = untouched = 0
    torn: list[str] = []
    for path, want in workload.restored.items():
        try:
            now: bytes | None = path.read_bytes()
        except FileNotFoundError:
            now = None
        if now == want:
            restored += 1
        elif now == workload.untouched[path]:
            untouched += 1
        else:
            torn.append(f"{path.name}: {'absent' if now is None else f'{len(now)} bytes'}")
    return restored, untouched, torn


def rewound_conversation(messages: list[Any], checkpoint_id: str) -> bool:
    """Whether a loaded transcript holds a rewind record to ``checkpoint_id``."""
    return any((meta_of(m, REWIND) or {}).get("checkpointId") == checkpoint_id
               for m in messages)


@dataclass
class Killed:
    """What a trial left for the next process to check."""

    sid: str
    checkpoint_id: str
    restore: str
    workload: Workload
    conversation: bool


async def check_resume(client: Any, killed: Killed, report: RewindCrashReport) -> None:
    """The killed session loads in a new process, and its rewind can be finished; the
    temporary files the kill left are counted again after that."""
    await call(client, "session/load", {"sessionId": killed.sid})
    try:
        await finish(client, killed, report)
    finally:
        report.temp_files_after_resume += len(temp_files(killed.workload.folder))


async def finish(client: Any, killed: Killed, report: RewindCrashReport) -> None:
    """``sidecar/checkpoints`` answers; unless the conversation was rewound (its checkpoints
    gone, every file restored), the same rewind asked again finds no conflict and leaves
    every file restored."""
    listed = (await call(client, "sidecar/checkpoints", {"sessionId": killed.sid}))["checkpoints"]
    report.resumed += 1
    ids = [c["checkpointId"] for c in listed]
    if killed.conversation:
        if ids:
            report.failures.append(f"{killed.sid}: rewound conversation still lists {ids}")
        return
    if killed.checkpoint_id not in ids:
        report.failures.append(f"{killed.sid}: checkpoint {killed.checkpoint_id} lost")
        return
    done = await call(client, "sidecar/rewind", {"sessionId": killed.sid, "restore": killed.restore,
                                                 "checkpointId": killed.checkpoint_id})
    conflicts = [f["path"] for f in done["files"] if f["action"] == "conflict"]
    if conflicts:
        report.failures.append(f"{killed.sid}: finishing the rewind found conflicts {conflicts}")
    restored, _, torn = classify(killed.workload)
    if restored != len(killed.workload.restored) or torn:
        report.failures.append(f"{killed.sid}: finished rewind restored {restored} of "
                               f"{len(killed.workload.restored)} files")
    else:
        report.finished += 1


async def run_rewind_trials(llm: Any, store: Path, workspace: Path, trials: int, seed: int = 1,
                            env: dict[str, str] | None = None, edited: int = 30,
                            created: int = 10,
                            sizes: Sequence[tuple[int, int]] = ((20_000, 60_000),)
                            ) -> RewindCrashReport:
    """``sizes``: the range of the edited files' sizes, trial after trial (cycled); larger
    files make the moments a kill finds a file half copied beside its place longer."""
    rng = random.Random(seed)
    report = RewindCrashReport()
    killed: Killed | None = None
    for trial in range(trials + 1):
        client = await start_client(env)
        try:
            await initialize(client, settings_for("anthropic", llm.url, store, **SETTINGS))
            if killed is not None:
                await check_resume(client, killed, report)
            if trial == trials:
                break
            killed = await one_trial(client, llm, store, workspace, trial, rng, report,
                                     edited, created, sizes[trial % len(sizes)])
        finally:
            await _kill(client)
    return report


async def one_trial(client: Any, llm: Any, store: Path, workspace: Path, trial: int,
                    rng: random.Random, report: RewindCrashReport, edited: int,
                    created: int, sizes: tuple[int, int]) -> Killed:
    sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
    workload, (first, _) = await edit_session(client, llm, sid, workspace, f"t{trial:03d}", rng,
                                              edited, created, sizes)
    restore = rng.choice(["code", "both"])
    params = {"sessionId": sid, "checkpointId": first, "restore": restore}
    seen = await call(client, "sidecar/rewind", {**params, "preview": True})
    if {f["action"] for f in seen["files"]} - {"restore", "delete"} or \
            classify(workload)[1] != len(workload.restored):
        report.failures.append(f"trial {trial}: the preview was not a plain restore, or changed files")
    # How long the rewind takes here, uninterrupted (code only: the transcript is left as it
    # is); then the files are put back as the turns left them and the kill lands at a
    # random moment up to one and a half times that after sending the same rewind again.
    started = time.perf_counter()
    await call(client, "sidecar/rewind", {**params, "restore": "code"})
    took = time.perf_counter() - started
    report.rewind_ms.append(took * 1000)
    if classify(workload)[0] != len(workload.restored):
        report.failures.append(f"trial {trial}: an uninterrupted rewind did not restore every file")
    for path, data in workload.untouched.items():
        path.write_bytes(data)
    answer = asyncio.ensure_future(call(client, "sidecar/rewind", params))
    await asyncio.sleep(rng.uniform(0.0, 1.5 * took))
    answered = answer.done() and not answer.cancelled() and answer.exception() is None
    process = client._server
    process.send_signal(signal.SIGKILL)
    await process.wait()
    answer.cancel()
    report.trials += 1

    restored, untouched, torn = classify(workload)
    report.files_restored += restored
    report.files_untouched += untouched
    report.files_torn += len(torn)
    for name in torn:
        report.failures.append(f"trial {trial}: torn {name}")
    left = temp_files(workload.folder)
    report.temp_files += len(left)
    report.trials_with_temp_files += bool(left)
    for path in left[:2]:
        size = path.stat().st_size
        whole = workload.restored.get(path.with_name(path.name[1:].split(REWIND_TEMP)[0]))
        report.temp_examples.append(f"{path.relative_to(workspace)}: {size} bytes of the "
                                    f"{len(whole or b'')} being restored")
    transcript = transcript_path(store, str(workspace), sid)
    loaded = load_transcript(transcript)  # must not raise
    report.torn_lines += loaded.torn_lines
    conversation = rewound_conversation(loaded.messages, first)
    report.conversations_rewound += conversation

    total = len(workload.restored)
    if answered:
        report.killed_after_answer += 1
    elif restored == 0:
        report.killed_before_files += 1
    elif restored < total:
        report.killed_during_files += 1
    else:
        report.killed_after_files += 1
    if (answered or conversation) and restored != total:
        report.failures.append(f"trial {trial}: answered or rewound the conversation with "
                               f"{total - restored} files not restored")
    if conversation and restore != "both":
        report.failures.append(f"trial {trial}: a code rewind rewound the conversation")
    if answered and restore == "both" and not conversation:
        report.failures.append(f"trial {trial}: answered without the rewind record")
    history = project_dir(store, str(workspace)) / "file-history"
    strays = [p for p in history.rglob(".*")] if history.exists() else []
    if strays:
        report.failures.append(f"trial {trial}: {len(strays)} half-kept contents in file-history")
    return Killed(sid, first, restore, workload, conversation)


async def _kill(client: Any) -> None:
    process = getattr(client, "_server", None)
    if process is not None and process.returncode is None:
        process.send_signal(signal.SIGKILL)
        await process.wait()
    try:
        await client.stop()
    except Exception:
        pass
