"""The terminal client and the demo, run as real processes (``python -m sidecar chat|demo``)."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sidecar import PROTOCOL_VERSION
from sidecar.fake_llm import Reply
from sidecar.fake_llm.script import web_search
from sidecar.terminal.client import protocol_major
from sidecar.terminal.style import Style, gauge_bar, gauge_label, tokens_short

ROOT = Path(__file__).resolve().parents[2]
KEY_ENV = "TERMINAL_TEST_KEY"


def chat_env(tmp_path: Path, url: str, key: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CONTEXT_SIDECAR_SETTINGS", "NO_COLOR")}
    if key:
        env[KEY_ENV] = "test-key"
    else:
        env.pop(KEY_ENV, None)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["CONTEXT_SIDECAR_LOG_FILE"] = str(tmp_path / "sidecar.log")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps({
        "provider": "anthropic", "model": "claude-sonnet-5-5", "baseUrl": url, "apiKeyEnv": KEY_ENV,
        "storageDir": str(tmp_path / "store"), "retry": {"maxRetries": 1, "baseDelayMs": 10, "maxDelayMs": 20},
    })
    return env


class ChatProcess:
    """``context-sidecar chat`` behind pipes, with its output read on a thread."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sidecar", "chat", "--cwd", str(cwd)], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        )
        self.out = ""
        self._chunks: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        while True:
            chunk = self.proc.stdout.read(1)
            if not chunk:
                return
            self._chunks.put(chunk)

    def wait_for(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.out:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} not printed; output so far:\n{self.out}")
            try:
                self.out += self._chunks.get(timeout=min(left, 0.2))
            except queue.Empty:
                pass
            while not self._chunks.empty():
                self.out += self._chunks.get_nowait()
        return self.out

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout: float = 30) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout)
        time.sleep(0.05)
        while not self._chunks.empty():
            self.out += self._chunks.get_nowait()
        return code


def tool_result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(str(c.get("text", "")) for c in content or [] if isinstance(c, dict))


def test_chat_through_a_pipe(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.py").write_text("VALUE = 42\n")
    chat = ChatProcess(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("]> ")
        assert "\x1b[" not in chat.out  # not a terminal: no colour
        # A streamed answer with thinking and a tool call.
        llm.queue(Reply(content=[{"type": "thinking", "thinking": "The user wants the value."},
                                 {"type": "text", "text": "Reading it."},
                                 {"type": "tool_use", "id": "toolu_r", "name": "Read",
                                  "input": {"file_path": "notes.py"}}]))
        llm.queue(Reply.text("The value is forty-two, streamed in small pieces.", chunk_size=3))
        chat.send("what is VALUE?")
        chat.wait_for("The value is forty-two, streamed in small pieces.")
        assert "The user wants the value." in chat.out
        assert "Read notes.py" in chat.out
        # The provider's web search: the call and the pages it read, title and address.
        llm.queue(Reply(content=[*web_search("python news", [("PEP 779", "https://peps.python.org/pep-0779/")]),
                                 {"type": "text", "text": "Free threading is supported."}]))
        chat.send("any python news?")
        chat.wait_for("Free threading is supported.")
        chat.wait_for("PEP 779 — https://peps.python.org/pep-0779/")
        assert "Web search: python news (1 source)" in chat.out
        # A shell command asks first; "n" rejects it, and an empty "why" adds nothing.
        llm.queue(Reply.tool_use("Bash", {"command": "echo should-not-run"}, id="toolu_b"))
        llm.queue(Reply.text("Understood, I did not run it."))
        chat.send("run something")
        chat.wait_for("[y] allow once, [a] always, [n] reject > ")
        chat.send("n")
        chat.wait_for("Why? (Enter to skip): ")
        chat.send("")
        chat.wait_for("Understood, I did not run it.")
        results = [b for b in llm.requests[-1].body["messages"][-1]["content"] if b.get("type") == "tool_result"]
        assert [r["tool_use_id"] for r in results] == ["toolu_b"]
        assert tool_result_text(results[0]) == "Permission denied by the user"
        assert "permission: echo should-not-run\r\n" in chat.out or "permission: echo should-not-run\n" in chat.out
        # Ctrl-C during a turn cancels it and the client stays up.
        llm.queue(Reply.text("slow " * 60, chunk_size=5, chunk_delay_ms=100))
        chat.send("talk slowly")
        chat.wait_for("slow slow")
        chat.proc.send_signal(signal.SIGINT)
        chat.wait_for("(cancelled)")
        # A server-side slash command, then end of input.
        chat.send("/context")
        chat.wait_for("messages in the model's view.")
        assert "**Context**" in chat.out
        chat.wait_for("web search: offered — Anthropic's web_search_20260318 server tool")
        code = chat.finish()
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert code == 0, chat.out
    prompts = [line for line in chat.out.splitlines() if line.startswith("[ctx ")]
    assert prompts and all("/1M]" in p for p in prompts)  # Sonnet 5.5: a 1M window


def test_chat_prints_the_error_and_its_fix(fake_llm: Any, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    chat = ChatProcess(ws, chat_env(tmp_path, fake_llm.url, key=False))
    try:
        chat.wait_for("]> ")
        chat.send("hello")
        chat.wait_for("fix: ")
        code = chat.finish()
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert code == 0
    assert "error: " in chat.out and KEY_ENV in chat.out


def test_demo_fast_shows_compaction(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["TMPDIR"] = str(tmp_path)
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sidecar", "demo", "--fast"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=180)
    elapsed = time.monotonic() - started
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "compacted: " in out
    assert "-> allow_always" in out
    assert "demo summary" in out and "cache read tokens" in out
    checked = next(line for line in out.splitlines() if "requests checked" in line)
    assert "0 refused; 0 invariant violations" in checked, checked
    # The whole demo shows every tier and no failure: the manual /compact comes when there
    # is something to summarize, API context edits fire between compactions, and the
    # manual summary's refusal shows the prompt-too-long retry.
    summary = out[out.index("demo summary"):]
    assert "failed compactions" not in summary and "answered with an error" not in summary, summary
    assert "full (manual): 1" in summary and "session memory (auto)" in summary, summary
    assert "applied by the server" in summary, summary
    assert "retried with the oldest rounds dropped" in summary, summary
    transcript = next(line for line in out.splitlines() if line.strip().startswith("transcript"))
    path = Path(transcript.split(None, 1)[1].strip())
    assert path.is_file() and '"compact_boundary"' in path.read_text()
    assert elapsed < 120


def test_protocol_major_and_gauge_forms() -> None:
    assert protocol_major(1) == 1 and protocol_major("1.3") == 1 and protocol_major("2") == 2
    assert protocol_major(None) is None and protocol_major(True) is None
    assert tokens_short(142_300) == "142.3K" and tokens_short(200_000) == "200K" and tokens_short(850) == "850"
    gauge = {"used": 142_300, "size": 200_000, "percentUsed": 71.15, "level": "warning", "autoCompactAt": 167_000}
    plain = Style(colour=False, unicode=False)
    assert gauge_label(gauge, plain) == "[ctx 71% 142.3K/200K]"
    coloured = gauge_label(gauge, Style(colour=True, unicode=True))
    assert coloured.startswith("\x1b[33m") and coloured.endswith("\x1b[0m")
    bar = gauge_bar(gauge, plain, width=20)
    assert bar == "[" + "#" * 14 + "..." + "|" + ".." + "]"


def test_client_refuses_another_protocol_major(tmp_path: Path) -> None:
    """A server that answers protocolVersion 1 (whose error codes differ) is refused with a reason."""
    import asyncio

    from sidecar.terminal.client import ProtocolMismatch, SidecarClient
    from sidecar.terminal.screen import Screen
    from sidecar.terminal.updates import UpdatePrinter

    script = tmp_path / "server_v1.py"
    script.write_text(
        "import json, sys\n"
        "def read():\n"
        "    n = None\n"
        "    while True:\n"
        "        line = sys.stdin.buffer.readline()\n"
        "        if not line: sys.exit(0)\n"
        "        if line.strip() == b'': break\n"
        "        k, _, v = line.decode().partition(':')\n"
        "        if k.lower() == 'content-length': n = int(v)\n"
        "    return json.loads(sys.stdin.buffer.read(n))\n"
        "def send(m):\n"
        "    b = json.dumps(m).encode()\n"
        "    sys.stdout.buffer.write(b'Content-Length: %d\\r\\n\\r\\n' % len(b) + b); sys.stdout.buffer.flush()\n"
        "while True:\n"
        "    m = read()\n"
        "    if m.get('method') == 'initialize':\n"
        "        send({'jsonrpc': '2.0', 'id': m['id'], 'result': {'serverInfo': {'name': 'older-sidecar'},\n"
        "              'capabilities': {'experimental': {'contextSidecar': {'protocolVersion': 1}}}}})\n"
        "    elif m.get('method') == 'shutdown':\n"
        "        send({'jsonrpc': '2.0', 'id': m['id'], 'result': None})\n"
        "    elif m.get('method') == 'exit':\n"
        "        sys.exit(0)\n"
    )

    async def main() -> str:
        async def never(params: dict[str, Any]) -> None:
            return None

        client = SidecarClient(tmp_path, UpdatePrinter(Screen()), never, command=[sys.executable, str(script)])
        await client.start()
        try:
            await client.initialize()
        except ProtocolMismatch as exc:
            return str(exc)
        finally:
            await client.stop()
        return "accepted"

    message = asyncio.run(main())
    assert f"protocol version {PROTOCOL_VERSION}" in message and "protocol version 1" in message


def test_chat_shows_the_mode_and_reviews_edits_as_diffs(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.py").write_text("VALUE = 42\nOTHER = 1\n")
    chat = ChatProcess(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("]> ")
        assert " · mode default" in chat.out  # the banner says the mode it starts in
        chat.send("/plan")
        chat.wait_for("mode: plan")
        chat.wait_for("] plan> ")
        chat.send("/plan off")
        chat.wait_for("mode: default")
        # Two edits in one turn: the first shows its diff and asks; "t" accepts the rest.
        llm.queue(Reply.tool_use("Read", {"file_path": "notes.py"}, id="toolu_r"))
        llm.queue(Reply.tool_use("Edit", {"file_path": "notes.py", "old_string": "42", "new_string": "43"}, id="toolu_e1"))
        llm.queue(Reply.tool_use("Edit", {"file_path": "notes.py", "old_string": "OTHER = 1", "new_string": "OTHER = 2"},
                                 id="toolu_e2"))
        llm.queue(Reply.text("Both values changed."))
        chat.send("change both values")
        chat.wait_for("[y] accept, [t] accept all edits this turn, [n] reject > ")
        assert "-VALUE = 42" in chat.out and "+VALUE = 43" in chat.out
        chat.send("t")
        chat.wait_for("Both values changed.")
        assert chat.out.count("accept all edits this turn") == 1
        assert (ws / "notes.py").read_text() == "VALUE = 43\nOTHER = 2\n"
        code = chat.finish()
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert code == 0, chat.out


def test_chat_says_what_an_untrusted_folder_does_not_get(fake_llm: Any, tmp_path: Path) -> None:
    fake_llm.reset()
    ws = tmp_path / "cloned"
    (ws / ".claude").mkdir(parents=True)
    marker = tmp_path / "hook-ran"
    (ws / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [
        {"hooks": [{"type": "command", "command": f"touch {marker}"}]}]}}))
    home = tmp_path / "home"  # no Claude Code trust record for the folder
    home.mkdir()
    env = {**chat_env(tmp_path, fake_llm.url), "HOME": str(home)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    chat = ChatProcess(ws, env)
    try:
        out = chat.wait_for("]> ")
        said = [line for line in out.splitlines() if "not trusted" in line]
        assert len(said) == 1, out
        assert "hooks in .claude/settings.json" in said[0]
        assert said[0].endswith("Type /trust to trust this folder.")
        assert not marker.exists()
        code = chat.finish()
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert code == 0, chat.out


def test_chat_says_nothing_of_trust_in_a_folder_that_ships_nothing(fake_llm: Any, tmp_path: Path) -> None:
    fake_llm.reset()
    ws = tmp_path / "plain"
    ws.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    env = {**chat_env(tmp_path, fake_llm.url), "HOME": str(home)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    chat = ChatProcess(ws, env)
    try:
        out = chat.wait_for("]> ")
        assert "trust" not in out.lower(), out
        code = chat.finish()
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert code == 0, chat.out


MARKDOWN_ANSWER = ("# Plan\n\nChange **one** line in `notes.py`:\n\n```python\nVALUE = 43\n```\n\n"
                   "| file | lines |\n|---|---|\n| notes.py | 1 |\n")


class PtyChat:
    """``context-sidecar chat`` on a pseudo-terminal 100 columns wide, as a person runs it."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        import fcntl
        import pty
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        env = {**env, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "40"}
        self.proc = subprocess.Popen([sys.executable, "-m", "sidecar", "chat", "--cwd", str(cwd)], cwd=ROOT,
                                     env=env, stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                                     start_new_session=True)
        os.close(slave)
        self.out = ""
        self._chunks: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            self._chunks.put(data.decode("utf-8", "replace"))

    wait_for = ChatProcess.wait_for

    def wait_for_prompt(self, after: int, timeout: float = 30) -> None:
        """The prompt printed after ``after`` characters of output (readline is reading)."""
        deadline = time.monotonic() + timeout
        while "> " not in self.out[after:]:
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt after {after}; output so far:\n{self.out}")
            time.sleep(0.05)
            while not self._chunks.empty():
                self.out += self._chunks.get_nowait()

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def finish(self, timeout: float = 30) -> int:
        os.write(self.master, b"\x04")  # Ctrl-D at the prompt
        code = self.proc.wait(timeout)
        os.close(self.master)
        return code


def _answer_turn_reaches_the_model_unchanged(llm: Any) -> None:
    messages = llm.requests[-1].body["messages"]
    said = [b.get("text") if isinstance(b, dict) else b for msg in messages
            for b in (msg["content"] if isinstance(msg["content"], list) else [msg["content"]])]
    assert MARKDOWN_ANSWER.strip() in [str(s).strip() for s in said], said
    assert any("show me the plan" in str(s) for s in said), said


def test_chat_renders_markdown_on_a_terminal(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    chat = PtyChat(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("Ctrl-D exits")
        chat.wait_for("> ")
        llm.queue(Reply.text(MARKDOWN_ANSWER, chunk_size=7))
        chat.send("show me the plan")
        out = chat.wait_for("VALUE", timeout=30)
        chat.wait_for_prompt(out.index("VALUE"))
        start = out.index("show me the plan")
        llm.queue(Reply.text("Done."))
        chat.send("thanks")
        out = chat.wait_for("Done.")
        chat.wait_for_prompt(out.index("Done."))
        answer = chat.out[start:chat.out.index("thanks", start + 20)]
        assert chat.finish() == 0, chat.out
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    for raw in ("**one**", "```", "# Plan", "|---|", "| notes.py |"):
        assert raw not in answer, (raw, answer)
    assert "\x1b[1m" in answer or "\x1b[1;" in answer, answer  # bold / heading styles
    assert "━" in answer or "─" in answer, answer  # the table is drawn
    assert "notes.py" in answer and "Plan" in answer
    # The model's turn went back to it as the text it wrote, not as what was shown.
    _answer_turn_reaches_the_model_unchanged(llm)


def test_chat_piped_prints_the_markdown_raw(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    chat = ChatProcess(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("]> ")
        llm.queue(Reply.text(MARKDOWN_ANSWER, chunk_size=7))
        chat.send("show me the plan")
        chat.wait_for("| notes.py | 1 |")
        llm.queue(Reply.text("Done."))
        chat.send("thanks")
        chat.wait_for("Done.")
        assert chat.finish() == 0, chat.out
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert MARKDOWN_ANSWER in chat.out and "\x1b[" not in chat.out
    _answer_turn_reaches_the_model_unchanged(llm)


def _asked_with(llm: Any, text: str) -> Any:
    """The last request to the fake model whose messages carry ``text`` (a turn's, not a
    background call's)."""
    found = [r for r in llm.requests if text in json.dumps(r.body.get("messages"))]
    assert found, f"no request carried {text!r}"
    return found[-1]


def test_model_alone_picks_from_the_list_and_a_new_session_keeps_it(fake_llm: Any, tmp_path: Path) -> None:
    import re

    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    chat = PtyChat(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("Ctrl-D exits")
        chat.wait_for("> ")
        chat.send("/model")
        out = re.sub(r"\x1b\[[0-9;]*m", "", chat.wait_for("(number or name, Enter keeps claude-sonnet-5-5) > "))
        numbered = dict(re.findall(r"^\s*(\d+)\. (\S+)", out, re.MULTILINE)[::-1])
        listed = {name: number for number, name in numbered.items()}
        assert "claude-sonnet-5-5" in listed and "claude-opus-5-5" in listed, out
        assert re.search(r"\d\. claude-sonnet-5-5 \(current\) · Claude Sonnet 5 5 · 1M context", out), out
        chat.send(listed["claude-opus-5-5"])  # picked by its number
        chat.wait_for("model: claude-opus-5-5")
        llm.queue(Reply.text("Answered by the picked model."))
        chat.send("first question")
        chat.wait_for("Answered by the picked model.")
        assert _asked_with(llm, "first question").body["model"] == "claude-opus-5-5"
        # A new session keeps the model; a name picks too.
        chat.send("/new")
        chat.wait_for("· claude-opus-5-5")
        llm.queue(Reply.text("Still the picked model."))
        chat.send("second question")
        chat.wait_for("Still the picked model.")
        second = _asked_with(llm, "second question")
        assert second.body["model"] == "claude-opus-5-5"
        assert "first question" not in json.dumps(second.body["messages"])  # a new session
        chat.send("/model")
        chat.wait_for("Enter keeps claude-opus-5-5) > ")
        chat.send("claude-haiku-5-5")
        chat.wait_for("model: claude-haiku-5-5")
        llm.queue(Reply.text("Haiku here."))
        chat.send("third question")
        out = chat.wait_for("Haiku here.")
        assert _asked_with(llm, "third question").body["model"] == "claude-haiku-5-5"
        # Ctrl-D ends the chat at its prompt, once the turn is over.
        chat.wait_for_prompt(out.index("Haiku here."))
        assert chat.finish() == 0, chat.out
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()


def test_a_rejection_on_a_terminal_asks_why_and_the_model_reads_it(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.py").write_text("VALUE = 42\n")
    chat = PtyChat(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("Ctrl-D exits")
        chat.wait_for("> ")
        # A command: "n", then why.
        llm.queue(Reply.tool_use("Bash", {"command": "rm -rf build"}, id="toolu_b"))
        llm.queue(Reply.text("I will keep build/."))
        chat.send("clean up")
        chat.wait_for("[n] reject > ")
        chat.send("n")
        chat.wait_for("Why? (Enter to skip): ")
        chat.send("build/ holds the release")
        out = chat.wait_for("I will keep build/.")
        chat.wait_for_prompt(out.index("I will keep build/."))
        # An edit: its diff, "n", then why.
        llm.queue(Reply.tool_use("Read", {"file_path": "notes.py"}, id="toolu_r"))
        llm.queue(Reply.tool_use("Edit", {"file_path": "notes.py", "old_string": "42", "new_string": "43"}, id="toolu_e"))
        llm.queue(Reply.text("Left VALUE alone."))
        chat.send("bump VALUE")
        chat.wait_for("[y] accept, [t] accept all edits this turn, [n] reject > ")
        chat.send("n")
        deadline = time.monotonic() + 30
        while chat.out.count("Why? (Enter to skip): ") < 2:
            assert time.monotonic() < deadline, chat.out
            time.sleep(0.05)
            while not chat._chunks.empty():
                chat.out += chat._chunks.get_nowait()
        chat.send("42 is the answer")
        out = chat.wait_for("Left VALUE alone.")
        chat.wait_for_prompt(out.index("Left VALUE alone."))
        assert chat.finish() == 0, chat.out
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert (ws / "notes.py").read_text() == "VALUE = 42\n"
    said = {b["tool_use_id"]: tool_result_text(b) for r in llm.requests for m in r.body["messages"]
            if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"}
    assert said["toolu_b"] == "Permission denied by the user. The user said: build/ holds the release"
    assert said["toolu_e"] == "The user rejected this edit. The user said: 42 is the answer"


def test_plan_feedback_on_a_terminal_reaches_the_model(fake_llm: Any, tmp_path: Path) -> None:
    """Leaving plan mode declined with what should change: the model reads it with the answer."""
    import re

    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()

    def responder(request: Any) -> Any:
        body = json.dumps(request.body)
        answered = {b.get("tool_use_id") for m in request.body["messages"][-1:]
                    if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"}
        if "toolu_exit" in answered:
            return Reply.text("I will split the plan in two steps.")
        if "toolu_plan" in answered:
            return Reply.tool_use("ExitPlanMode", {}, id="toolu_exit")
        if "plan the change" in body and not answered:
            found = re.search(r"Your plan file is (\S+?)[;:]? ", body)
            assert found, "the plan file is named in plan mode"
            return Reply.tool_use("Write", {"file_path": found.group(1), "content": "# Plan\n1. Change main\n"},
                                  id="toolu_plan")
        return Reply.text("ok")

    llm.responder = responder
    chat = PtyChat(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("Ctrl-D exits")
        out = chat.wait_for("> ")
        chat.send("/plan")
        out = chat.wait_for("mode: plan")
        chat.wait_for_prompt(out.index("mode: plan"))
        chat.send("plan the change")
        chat.wait_for("[n] no, keep planning >")
        chat.send("n")
        chat.wait_for("What should change in the plan? (Enter to skip): ")
        chat.send("split it in two steps")
        out = chat.wait_for("split the plan in two steps.")
        chat.wait_for_prompt(out.index("split the plan in two steps."))
        assert chat.finish() == 0, chat.out
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    said = {b["tool_use_id"]: tool_result_text(b) for r in llm.requests for m in r.body["messages"]
            if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"}
    assert "keep planning" in said["toolu_exit"], said
    assert said["toolu_exit"].endswith("The user said: split it in two steps"), said
