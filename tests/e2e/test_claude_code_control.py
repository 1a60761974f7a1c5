"""Positive control: every request the real Claude Code sends passes the fake's validator.

The fake refuses what the real APIs refuse; if it also refused what a real client sends
(one that talks to the real API every day), it would be stricter than the API and the
sidecar's tests would chase a fiction. Claude Code is installed from npm (pinned), run
headless with ``-p`` against the fake, through tool rounds (parallel reads, a shell
command), a manual /compact, a continued session and an auto-compaction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply, default_reply
from tests import claude_code


@pytest.fixture(scope="module")
def claude_binary() -> Path:
    try:
        return claude_code.install()
    except claude_code.ClaudeCodeUnavailable as exc:
        pytest.skip(f"Claude Code cannot be installed here: {exc}")


def is_summary(req: Any) -> bool:
    text = req.last_user_text
    return "TEXT ONLY" in text or "<summary>" in text


def has_results(req: Any) -> bool:
    """Whether the latest user message carries tool results (Claude Code may put a
    mid-conversation ``system`` message after it)."""
    last = next(m for m in reversed(req.body["messages"]) if m["role"] == "user")["content"]
    return isinstance(last, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in last)


def is_side_call(req: Any) -> bool:
    """Claude Code's own one-message calls (e.g. about a file it just read): no tools."""
    return not req.body.get("tools")


def test_claude_code_requests_pass_the_validator(
        claude_binary: Path, llm: Any, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "CLAUDE.md").write_text("Answer in one sentence.\n")
    (workspace / "app.py").write_text("print('hi')\n")
    (workspace / "util.py").write_text("def f():\n    return 1\n")
    for i in range(4):
        (workspace / f"big{i}.py").write_text(
            "".join(f"def f_{i}_{j}(x):\n    return x * {j}\n" for j in range(900)))
    phase = {"name": "pair", "round": 0}

    ids = iter(range(1000))

    def read(name: str, tid: str) -> dict[str, Any]:
        # Ids are never reused: Claude Code treats a repeated id as an interrupted call.
        return {"type": "tool_use", "id": f"{tid}_{next(ids)}", "name": "Read",
                "input": {"file_path": str(workspace / name)}}

    def respond(req: Any) -> Any:
        if is_summary(req) or is_side_call(req):
            return default_reply(req)
        if not has_results(req):
            if phase["name"] == "pair":
                phase["round"] = 0
                return Reply(content=[{"type": "text", "text": "Reading both."},
                                      read("app.py", "toolu_app"), read("util.py", "toolu_util")])
            # After its compaction Claude Code carries on: no new start, or it would loop.
            if phase["round"] >= 4:
                return Reply.text("Done.")
            return Reply(content=[read(f"big{phase['round']}.py", f"toolu_big{phase['round']}")])
        phase["round"] += 1
        n = phase["round"]
        if phase["name"] == "pair":
            if n == 1:
                return Reply(content=[{"type": "tool_use", "id": "toolu_wc", "name": "Bash",
                                       "input": {"command": "wc -l app.py util.py",
                                                 "description": "Count lines"}}])
            return Reply.text("Both files are tiny.")
        if n < 4:
            return Reply(content=[read(f"big{n}.py", f"toolu_big{n}")])
        return Reply.text("Done.")

    llm.responder = respond
    home = tmp_path / "home"
    home.mkdir()

    def claude(*args: str, env: dict[str, str] | None = None) -> claude_code.Run:
        done = claude_code.run(claude_binary, list(args), cwd=workspace, home=home,
                               base_url=llm.url, extra_env=env)
        assert done.returncode == 0 and not done.result.get("is_error"), (done.result, done.stderr)
        return done

    claude("-p", "read app.py and util.py and count their lines", "--allowedTools", "Read,Bash")
    claude("--continue", "-p", "/compact")
    claude("--continue", "-p", "what did we find?", "--allowedTools", "Read,Bash")
    phase.update(name="big", round=0)
    claude("-p", "read big0.py to big3.py", "--allowedTools", "Read",
           env={"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "60000"})

    requests = [r for r in llm.requests if r.path.startswith("/v1/messages")]
    summaries = [r for r in requests if is_summary(r)]
    tool_rounds = [r for r in requests if has_results(r)]
    assert len(summaries) >= 2, "a manual and an automatic compaction"
    assert len(tool_rounds) >= 5
    assert any(len([b for b in r.body["messages"][-1]["content"] if isinstance(b, dict)
                    and b.get("type") == "tool_result"]) == 2 for r in tool_rounds)
    # The positive control proper: the real client's every request is accepted.
    assert [r.refusal for r in requests if r.refusal] == []
    assert llm.checker.checked == len(llm.requests) and llm.checker.refused == 0
