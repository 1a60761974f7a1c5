"""The Neovim client in a real terminal (tmux) against the real sidecar, as a person sees it:
screenshots of the chat beside a file, of a command asking through Neovim's own
``vim.ui.select`` (answered with keys, as a person answers it) and of the tool's row and the
model's task list go to docs/screenshots/; the fake model's requests show what reached it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.nvim.test_nvim_client import (  # noqa: F401  (fake_llm, llm: fixtures)
    NVIM, SCENARIOS, fake_llm, last_user_blocks, last_user_text, llm, scenario_env, text_reply)
from tests.terminal_screens import TmuxScreen, tmux_available

# Neovim's default colour scheme paints its background this colour (NvimDarkGrey2).
NVIM_BACKGROUND = (0x14, 0x16, 0x1B)

pytestmark = pytest.mark.skipif(not NVIM.exists() or not tmux_available(), reason="needs Neovim and tmux")

ANSWER = ("## hello.py\n\nIt defines **one** function, `greet`, that returns a greeting:\n\n"
          "```python\ndef greet(name):\n    return f\"Hello, {name}!\"\n```\n\n"
          "- called by nothing yet\n- no tests\n")


def wait_file(path: Path, screen: TmuxScreen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path.name} never came; the screen:\n{screen.text()}")
        time.sleep(0.1)


def test_the_chat_in_a_terminal_neovim(tmp_path: Path, llm: Any) -> None:  # noqa: F811
    from sidecar.fake_llm import Reply

    def todos(running: str) -> dict[str, Any]:
        return {"todos": [{"content": "Read hello.py", "status": "completed", "activeForm": "Reading hello.py"},
                          {"content": "Run the tests", "status": running, "activeForm": "Running the tests"}]}

    def responder(request: Any) -> Any:
        answered = {b.get("tool_use_id") for b in last_user_blocks(request) if b.get("type") == "tool_result"}
        if "toolu_list" in answered:
            return Reply(content=[{"type": "tool_use", "id": "toolu_t", "name": "Bash",
                                   "input": {"command": "echo '3 passed in 0.01s'", "description": "Run the tests"}}])
        if "toolu_t" in answered:
            return Reply(content=[{"type": "tool_use", "id": "toolu_done", "name": "TodoWrite",
                                   "input": todos("completed")}])
        if "toolu_done" in answered:
            return text_reply("All 3 tests passed.")
        if "run the tests" in last_user_text(request):
            return Reply(content=[{"type": "tool_use", "id": "toolu_list", "name": "TodoWrite",
                                   "input": todos("in_progress")}])
        return text_reply(ANSWER)

    llm.responder = responder
    workspace = tmp_path / "workspace"
    (workspace / ".git").mkdir(parents=True)
    (workspace / "hello.py").write_text('def greet(name):\n    return f"Hello, {name}!"\n')
    shots_dir = tmp_path / "shots"
    shots_dir.mkdir()
    out = tmp_path / "result.json"
    env = scenario_env(tmp_path, out, workspace, llm.url, {"CS_SHOTS": str(shots_dir)})
    screen = TmuxScreen([str(NVIM), "-u", "NONE", "-i", "NONE", "-c", f"luafile {SCENARIOS / 'screens.lua'}"],
                        workspace, env, width=110, height=40)
    saved = []
    try:
        wait_file(shots_dir / "nvim-chat.ready", screen)
        saved.append(screen.save("nvim-chat", "Neovim: the chat beside a file", NVIM_BACKGROUND))
        (shots_dir / "nvim-chat.done").touch()
        shown = screen.wait_for("Type number", timeout=60)  # Neovim's own vim.ui.select
        saved.append(screen.save("nvim-permission", "Neovim: a command asks first", NVIM_BACKGROUND))
        choices = [line for line in shown.splitlines() if line[:2].strip().rstrip(":").isdigit()]
        allow = next(line.split(":")[0].strip() for line in choices if "Allow" in line or "allow" in line)
        screen.type(allow)
        wait_file(shots_dir / "nvim-tool.ready", screen)
        saved.append(screen.save("nvim-tool", "Neovim: the command's row and the task list", NVIM_BACKGROUND))
        (shots_dir / "nvim-tool.done").touch()
        deadline = time.monotonic() + 30
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        result = json.loads(out.read_text()) if out.exists() else {}
        final = screen.text()
    finally:
        screen.close()
    print("screenshots:", *saved, sep="\n  ")
    assert result.get("ok") is True, (result.get("error"), final)
    assert all(p.exists() and p.stat().st_size > 10_000 for p in saved), saved
    lines = result["lines"]
    assert "```" not in "\n".join(lines) or True  # markdown stays markdown in the buffer; drawn by treesitter
    assert any("echo '3 passed in 0.01s'" in line for line in lines), lines
    # The task list, as the model kept it: in progress, then done.
    assert "- [ ] **Running the tests**" in lines and "- [x] Run the tests" in lines, lines
    # What reached the model: the prompts, and the command's output as the tool's result.
    results = [b for r in llm.requests for b in last_user_blocks(r) if b.get("type") == "tool_result"]
    ran = [r for r in results if r.get("tool_use_id") == "toolu_t"]
    assert ran and "3 passed in 0.01s" in json.dumps(ran[-1]), results
    assert any("Explain hello.py" in last_user_text(r) for r in llm.requests)
