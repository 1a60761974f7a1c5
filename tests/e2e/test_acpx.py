"""acpx, a third-party ACP client, drives ``context-sidecar serve --acp`` against the fake LLM.

acpx (npm, pinned in tools/acpx and installed there by scripts/install.sh) is a headless
client built on the official TypeScript SDK, whose schema refuses any ``session/update`` kind
it does not know with -32602. It is the positive control for the ACP side: what a real client
prints, and what the fake model received, for a prompt, a read, an edit written through
``fs/write_text_file``, a shell command, a retried 529, ``/compact``, and a session resumed by
a second acpx process.

Every acpx call spawns its own sidecar. ``--format json`` prints the ACP messages acpx sent
and received, one per line; the assertions read those.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.acp_client import acp_env

ROOT = Path(__file__).resolve().parents[2]
ACPX = ROOT / "tools" / "acpx" / "node_modules" / ".bin" / "acpx"
VERSION = "0.19.1"
AGENT = shlex.join([sys.executable, "-m", "sidecar", "serve", "--acp"])
# A persistent session's queue owner (which keeps the agent running between prompts) exits
# this long after its last prompt, so the next prompt starts a fresh sidecar and resumes.
TTL_SECONDS = "0.2"
# What acpx prints when the agent sends something the ACP schema refuses.
PROTOCOL_ERRORS = re.compile(r"Invalid params|code\W{0,4}-326\d\d|Error handling (notification|request)")


def _require_acpx() -> None:
    if ACPX.exists() and shutil.which("node"):
        return
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("acpx needs Node.js and npm, which are not installed", allow_module_level=True)
    pytest.fail(f"acpx is not installed in {ACPX.parents[2]}: run bash scripts/install.sh", pytrace=False)


@dataclass
class Run:
    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    messages: list[dict[str, Any]] = field(default_factory=list)  # --format json lines
    other_lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for line in self.stdout.splitlines():
            try:
                self.messages.append(json.loads(line))
            except ValueError:
                if line.strip():
                    self.other_lines.append(line)

    def updates(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [m["params"]["update"] for m in self.messages if m.get("method") == "session/update"
                and (kind is None or m["params"]["update"].get("sessionUpdate") == kind)]

    def answer(self) -> str:
        return "".join(u["content"]["text"] for u in self.updates("agent_message_chunk")
                       if u["content"].get("type") == "text")

    def requests(self, method: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("method") == method and "id" in m]

    def result_of(self, request: dict[str, Any]) -> Any:
        """The answer to ``request`` (ids are per direction, so the first one after it)."""
        at = self.messages.index(request)
        return next(m for m in self.messages[at + 1:] if m.get("id") == request["id"] and "method" not in m)

    def tool_rows(self) -> dict[str, dict[str, Any]]:
        """Each tool call as acpx would show it: its start merged with every later update."""
        rows: dict[str, dict[str, Any]] = {}
        for u in self.updates():
            if u["sessionUpdate"] in ("tool_call", "tool_call_update"):
                rows.setdefault(u["toolCallId"], {}).update({k: v for k, v in u.items() if v is not None})
        return rows

    def stop_reason(self) -> str | None:
        prompt = self.requests("session/prompt")
        return self.result_of(prompt[-1]).get("result", {}).get("stopReason") if prompt else None

    def describe(self) -> str:
        return (f"acpx {' '.join(self.args)} -> exit {self.returncode} in {self.seconds:.1f}s\n"
                f"--- stdout (tail)\n{self.stdout[-4000:]}\n--- stderr (tail)\n{self.stderr[-4000:]}")


def assert_clean(run: Run) -> None:
    """acpx finished, printed only protocol messages, and refused nothing the sidecar sent."""
    assert run.returncode == 0, run.describe()
    assert not PROTOCOL_ERRORS.search(run.stdout + run.stderr), run.describe()
    assert not [m for m in run.messages if "error" in m], run.describe()
    assert not run.other_lines, run.describe()


class Acpx:
    """acpx run in one workspace, with its own HOME (where it keeps sessions and queues)."""

    def __init__(self, root: Path, fake_url: str) -> None:
        self.root = root
        self.ws = root / "ws"
        self.ws.mkdir()
        self.home = root / "home"
        self.home.mkdir()
        self.log = root / "sidecar.log"
        self.env = acp_env(root / "store", fake_url, self.log)
        self.env["HOME"] = str(self.home)

    def __call__(self, *args: str, fmt: str = "json", timeout: float = 120) -> Run:
        cmd = [str(ACPX), "--agent", AGENT, "--cwd", str(self.ws), "--approve-all", "--format", fmt,
               "--ttl", TTL_SECONDS, "--timeout", "90", *args]
        start = time.monotonic()
        proc = subprocess.run(cmd, env=self.env, cwd=self.ws, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
        return Run(args, proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start)

    def sidecars_started(self) -> int:
        return self.log.read_text().count("serving ACP over stdio") if self.log.exists() else 0

    def wait_for_idle(self, timeout: float = 20) -> None:
        """Until no queue owner (and so no sidecar) of a persistent session is left running."""
        queues = self.home / ".acpx" / "queues"
        deadline = time.monotonic() + timeout
        while any(queues.glob("*.lock")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(queues.glob("*.lock")), "an acpx queue owner is still running"

    def cleanup(self) -> None:
        self.wait_for_idle()
        # Queue owners listen on sockets under /tmp, in a folder named after HOME.
        shutil.rmtree(Path("/tmp") / f"acpx-{hashlib.sha256(str(self.home).encode()).hexdigest()[:10]}",
                      ignore_errors=True)


@pytest.fixture(scope="module")
def acpx(fake_llm: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    _require_acpx()
    client = Acpx(tmp_path_factory.mktemp("acpx"), fake_llm.url)
    yield client
    client.cleanup()


def main_requests(llm: Any) -> list[Any]:
    return [r for r in llm.requests if r.call == "main"]


def tool_results(request: Any) -> list[str]:
    """The text of every tool_result the model was sent in ``request``."""
    found = []
    for message in request.body["messages"]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "tool_result":
                content = block.get("content")
                found.append(content if isinstance(content, str) else json.dumps(content))
    return found


def test_version_is_the_pinned_one(acpx: Acpx) -> None:
    run = acpx("--version", fmt="text")
    assert run.stdout.strip() == VERSION, run.describe()


def test_plain_prompt_prints_the_answer(acpx: Acpx, llm: Any) -> None:
    llm.queue(Reply.text("The answer is 42.", chunk_size=4))
    run = acpx("exec", "what is six times seven?", fmt="text")
    assert run.returncode == 0 and not PROTOCOL_ERRORS.search(run.stdout + run.stderr), run.describe()
    # What a user of acpx reads: the streamed chunks joined, then how the turn ended.
    assert "The answer is 42." in run.stdout and "[done] end_turn" in run.stdout, run.describe()
    [request] = main_requests(llm)
    assert request.last_user_text.endswith("what is six times seven?")


def test_read_sends_the_file_to_the_model(acpx: Acpx, llm: Any) -> None:
    path = acpx.ws / "notes.txt"
    path.write_text("the launch code is TANGERINE\n")
    llm.queue(Reply.tool_use("Read", {"file_path": str(path)}, id="toolu_read"))
    llm.queue(Reply.text("The file names a fruit."))
    run = acpx("exec", "what does notes.txt say?")
    assert_clean(run)
    row = run.tool_rows()["toolu_read"]
    assert row["kind"] == "read" and row["status"] == "completed" and row["title"] == "Read notes.txt"
    assert "TANGERINE" in json.dumps(row["content"])
    assert run.answer() == "The file names a fruit." and run.stop_reason() == "end_turn"
    # The sidecar read it through the client (acpx answers fs/read_text_file from disk).
    assert [r["params"]["path"] for r in run.requests("fs/read_text_file")] == [str(path)]
    first, second = main_requests(llm)
    assert not tool_results(first) and "TANGERINE" in tool_results(second)[-1]


def test_edit_is_written_through_the_client(acpx: Acpx, llm: Any) -> None:
    path = acpx.ws / "greet.py"
    path.write_text("def greet():\n    return 'hi'\n")
    llm.queue(Reply.tool_use("Read", {"file_path": str(path)}, id="toolu_r"))
    llm.queue(Reply.tool_use("Edit", {"file_path": str(path), "old_string": "'hi'", "new_string": "'hello'"},
                             id="toolu_e"))
    llm.queue(Reply.text("greet now says hello."))
    run = acpx("exec", "make greet say hello")
    assert_clean(run)
    assert path.read_text() == "def greet():\n    return 'hello'\n"
    # acpx was asked (it approves everything here), then wrote the file it was sent.
    [asked] = run.requests("session/request_permission")
    assert asked["params"]["toolCall"]["toolCallId"] == "toolu_e"
    assert run.result_of(asked)["result"]["outcome"]["outcome"] == "selected"
    [write] = run.requests("fs/write_text_file")
    assert write["params"]["path"] == str(path) and write["params"]["content"] == path.read_text()
    assert "error" not in run.result_of(write)
    row = run.tool_rows()["toolu_e"]
    assert row["kind"] == "edit" and row["status"] == "completed" and row["title"] == "Edit greet.py"
    [diff] = [c for c in row["content"] if c["type"] == "diff"]
    assert diff["path"] == str(path) and "'hello'" in diff["newText"] and "'hi'" in diff["oldText"]
    assert run.answer() == "greet now says hello."
    last = main_requests(llm)[-1]
    assert len(main_requests(llm)) == 3 and "error" not in tool_results(last)[-1].lower()


def test_shell_command_output_reaches_the_model(acpx: Acpx, llm: Any) -> None:
    llm.queue(Reply.tool_use("Bash", {"command": "echo out-$((6*7))"}, id="toolu_sh"))
    llm.queue(Reply.text("It printed out-42."))
    run = acpx("exec", "run the command")
    assert_clean(run)
    row = run.tool_rows()["toolu_sh"]
    assert row["kind"] == "execute" and row["status"] == "completed"
    assert "out-42" in json.dumps(row["content"]) and "$((6*7))" in row["title"]
    assert run.answer() == "It printed out-42."
    assert "out-42" in tool_results(main_requests(llm)[-1])[-1]


def test_overloaded_call_is_retried_without_a_protocol_error(acpx: Acpx, llm: Any) -> None:
    llm.queue(Reply.failure("overloaded"))
    llm.queue(Reply.text("Answered on the second try."))
    run = acpx("exec", "say something")
    assert_clean(run)
    assert run.answer() == "Answered on the second try." and run.stop_reason() == "end_turn"
    assert [r.status for r in main_requests(llm)] == [529, 200]
    # The user saw the retry, as a thought (a kind the ACP schema has), with the status.
    told = [u["content"]["text"] for u in run.updates("agent_thought_chunk")]
    assert any("529" in text and re.search("retr", text, re.I) for text in told), told


NOTED = "Noted: the codeword is PELICAN.\n"


@pytest.fixture(scope="module")
def persistent(acpx: Acpx, fake_llm: Any) -> dict[str, Any]:
    """A persistent acpx session with one turn, its queue owner gone again."""
    created = acpx("sessions", "new", fmt="text")
    assert created.returncode == 0, created.describe()
    # Long enough that a summary of it makes the context smaller.
    fake_llm.queue(Reply.text(NOTED + "".join(f"{i}. a note about the launch plan.\n" for i in range(400)),
                              chunk_size=4000))
    first = acpx("prompt", "remember the codeword PELICAN")
    assert_clean(first)
    assert first.answer().startswith(NOTED)
    acpx.wait_for_idle()
    return {"session": created.stdout.strip(), "first": first}


def test_second_acpx_call_resumes_the_session(acpx: Acpx, persistent: dict[str, Any], llm: Any) -> None:
    started = acpx.sidecars_started()
    llm.queue(Reply.text("The codeword was PELICAN."))
    run = acpx("prompt", "what was the codeword?")
    assert_clean(run)
    assert run.answer() == "The codeword was PELICAN."
    # A new sidecar process, which acpx asked to resume the session it had stored.
    assert acpx.sidecars_started() == started + 1
    [resume] = run.requests("session/resume")
    sid = persistent["first"].requests("session/prompt")[0]["params"]["sessionId"]
    assert resume["params"]["sessionId"] == sid and "result" in run.result_of(resume)
    assert not run.requests("session/new")
    # The model got the first turn back.
    [request] = main_requests(llm)
    sent = json.dumps(request.body["messages"])
    assert "remember the codeword PELICAN" in sent and "Noted: the codeword is PELICAN." in sent
    assert "399. a note about the launch plan." in sent
    assert request.last_user_text.endswith("what was the codeword?")
    acpx.wait_for_idle()


def test_compact_command_runs_a_compaction(acpx: Acpx, persistent: dict[str, Any], llm: Any) -> None:
    run = acpx("prompt", "/compact keep the codeword")
    assert_clean(run)
    assert run.stop_reason() == "end_turn"
    # The fake was asked for a summary of the conversation, with the instructions.
    summaries = [r for r in llm.requests if r.call == "summary"]
    assert summaries, [r.call for r in llm.requests]
    assert "keep the codeword" in json.dumps(summaries[-1].body)
    assert "PELICAN" in json.dumps(summaries[-1].body["messages"])
    # acpx printed the outcome: the compaction as a finished row, or a message saying so.
    shown = [u for u in run.updates() if u["sessionUpdate"] != "usage_update"]
    assert re.search(r"compact", json.dumps(shown), re.I), run.describe()
    assert all(row.get("status") != "failed" for row in run.tool_rows().values()), run.describe()
    # The context shrank: the last gauge acpx got is below the one before the compaction.
    used = [u["used"] for u in run.updates("usage_update")]
    assert used and used[-1] < used[0], used
    acpx.wait_for_idle()
