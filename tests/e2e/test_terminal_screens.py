"""``context-sidecar chat`` in a real terminal (tmux), as a person sees it: screenshots of an
answer in markdown and of a command waiting for permission go to docs/screenshots/, and the
fake model's requests show what the user's words became."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.test_terminal import MARKDOWN_ANSWER, chat_env, tool_result_text
from tests.terminal_screens import TmuxScreen, tmux_available

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")


def test_the_chat_on_a_terminal_screen(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.py").write_text("VALUE = 42\n")
    screen = TmuxScreen([sys.executable, "-m", "sidecar", "chat", "--cwd", str(ws)], ws,
                        chat_env(tmp_path, llm.url), width=100, height=34)
    try:
        screen.wait_for("Ctrl-D exits")
        screen.wait_for("]>")  # the prompt (the screen's text ends its lines at the last mark)
        llm.queue(Reply.text(MARKDOWN_ANSWER, chunk_size=7))
        screen.type("show me the plan")
        screen.wait_for("VALUE = 43")
        screen.wait_for("notes.py  1")  # the table, drawn
        shots = [screen.save("terminal-chat", "context-sidecar chat: an answer in markdown")]

        llm.queue(Reply.tool_use("Bash", {"command": "rm -rf build", "description": "Remove the build folder"},
                                 id="toolu_b"))
        llm.queue(Reply.text("I will keep build/."))
        screen.type("clean up")
        screen.wait_for("[n] reject >")
        shots.append(screen.save("terminal-permission", "context-sidecar chat: a command asks first"))
        screen.type("n")
        screen.wait_for("Why? (Enter to skip):")
        screen.type("build/ holds the release")
        screen.wait_for("I will keep build/.")
        shown = screen.text()
    finally:
        screen.close()
    print("screenshots:", *shots, sep="\n  ")
    assert all(p.exists() and p.stat().st_size > 10_000 for p in shots), shots
    # What the screen showed, in words: drawn markdown, not its marks.
    assert "**" not in shown and "```" not in shown
    # What reached the model: the prompts as typed, and the refusal with the user's reason.
    asked = [m["content"] for r in llm.requests for m in r.body["messages"] if m["role"] == "user"]
    assert any("show me the plan" in str(c) for c in asked) and any("clean up" in str(c) for c in asked)
    said = {b["tool_use_id"]: tool_result_text(b) for r in llm.requests for m in r.body["messages"]
            if isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"}
    assert said["toolu_b"] == "Permission denied by the user. The user said: build/ holds the release"


def test_a_rewind_preview_on_a_terminal_screen(fake_llm: Any, tmp_path: Path) -> None:
    """``/rewind`` lists the checkpoints and ``/rewind 2`` shows what it would restore and asks;
    the screenshot is of that question, and "y" restores the file on disk."""
    import json

    from tests.e2e.test_terminal_rewind import responder_for

    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("A0\n")
    (ws / "b.py").write_text("B0\n")
    (ws / "gone.txt").write_text("G0\n")
    llm.responder = responder_for(ws)
    env = chat_env(tmp_path, llm.url)
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps({**json.loads(env["CONTEXT_SIDECAR_SETTINGS"]),
                                                  "permissions": {"defaultMode": "bypassPermissions"}})
    screen = TmuxScreen([sys.executable, "-m", "sidecar", "chat", "--cwd", str(ws)], ws, env, width=100, height=40)
    try:
        screen.wait_for("Ctrl-D exits")
        screen.wait_for("bypassPermissions>")
        screen.type("make the first change")
        screen.wait_for("First change made.")
        screen.type("make the second change")
        screen.wait_for("Second change made.")
        screen.keys("C-l")
        screen.type("/rewind")
        screen.wait_for("/fork N: go on in a copy")
        screen.type("/rewind 2")
        screen.wait_for("[n] no >")
        shot = screen.save("terminal-rewind", "context-sidecar chat: a rewind previewed before it restores")
        shown = screen.text()
        screen.type("y")
        screen.wait_for("rewound to before prompt 2 (code and conversation)")
    finally:
        screen.close()
    print("screenshot:", shot)
    assert shot.exists() and shot.stat().st_size > 10_000, shot
    assert "2. make the second change" in shown and "restore   b.py" in shown, shown
    assert (ws / "a.py").read_text() == "A1\n" and (ws / "b.py").read_text() == "B0\n"
