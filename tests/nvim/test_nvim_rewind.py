"""Rewind and fork from the Neovim client, through the real sidecar and the fake model: the
files on disk after each rewind, and what the model is sent next."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.nvim.test_nvim_client import (  # noqa: F401  (fake_llm, llm: fixtures)
    fake_llm, last_user_blocks, last_user_text, llm, report, run_scenario, text_reply)


def tool(name: str, tid: str, **args: Any) -> Any:
    from sidecar.fake_llm import Reply

    return Reply(content=[{"type": "tool_use", "id": tid, "name": name, "input": args}])


def two_prompts_responder(workspace: Path) -> Any:
    """Prompt 1 reads and edits a.py and creates new.py; prompt 2 edits a.py and b.py and
    deletes gone.txt with the shell. Anything else is answered with its own words."""
    a, b = str(workspace / "a.py"), str(workspace / "b.py")
    first = [tool("Read", "r1", file_path=a), tool("Edit", "e1", file_path=a, old_string="A0", new_string="A1"),
             tool("Write", "w1", file_path=str(workspace / "new.py"), content="N1\n"),
             text_reply("First change made.")]
    second = [tool("Edit", "e2", file_path=a, old_string="A1", new_string="A2"), tool("Read", "r2", file_path=b),
              tool("Edit", "e3", file_path=b, old_string="B0", new_string="B1"),
              tool("Bash", "s1", command="rm gone.txt"), text_reply("Second change made.")]
    ids = {"r1": first[1], "e1": first[2], "w1": first[3], "e2": second[1], "r2": second[2], "e3": second[3],
           "s1": second[4]}

    def responder(request: Any) -> Any:
        if (header(request, "x-context-sidecar-call") or "main") != "main":
            return text_reply("A summary.")
        answered = [b.get("tool_use_id") for b in last_user_blocks(request) if b.get("type") == "tool_result"]
        if answered:
            return ids.get(answered[-1], text_reply("Done."))
        text = last_user_text(request).strip()
        if text.endswith("make the first change"):
            return first[0]
        if text.endswith("make the second change"):
            return second[0]
        return text_reply("Answer to: " + text.splitlines()[-1])

    return responder


def header(request: Any, name: str) -> str | None:
    return next((v for k, v in request.headers.items() if k.lower() == name), None)


def conversation(request: Any) -> str:
    return json.dumps(request.body.get("messages"))


def asked(server: Any, text: str) -> Any:
    """The last main request whose last user message says ``text``."""
    found = [r for r in server.requests if text in last_user_text(r)]
    assert found, f"no request asked {text!r}"
    return found[-1]


def test_rewind_and_fork_from_the_pickers_and_the_chat(tmp_path: Path, llm: Any) -> None:  # noqa: F811
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "a.py").write_text("A0\n")
    (workspace / "b.py").write_text("B0\n")
    (workspace / "gone.txt").write_text("G0\n")
    llm.responder = two_prompts_responder(workspace)
    result = run_scenario("rewind_real", tmp_path, fake_url=llm.url, timeout=240)

    assert result["after_turns"] == {"a": "A2\n", "b": "B1\n", "new": "N1\n"}

    # 1. Code only: the pickers, the preview (files, the shell command, the diffs), the answer.
    picks = result["code_picks"]
    assert [p["kind"] for p in picks] == ["context_sidecar_checkpoint", "context_sidecar_rewind_action",
                                          "context_sidecar_rewind_confirm"], picks
    checkpoints = picks[0]["items"]
    assert checkpoints[0].startswith("#2 · make the second change · ") and checkpoints[1].startswith(
        "#1 · make the first change · "), checkpoints  # newest first
    assert checkpoints[0].endswith(" · a.py, b.py · 1 shell command"), checkpoints
    assert checkpoints[1].endswith(" · a.py, new.py"), checkpoints
    assert picks[1]["items"] == ["Restore code and conversation", "Restore conversation only",
                                 "Restore code only", "Fork from here (a new session)",
                                 "Summarize from here (what came before stays word for word)"]
    assert picks[2]["items"] == ["Rewind", "Cancel"]
    preview = picks[2]["preview"]
    assert preview[0] == "Rewind to #2 “make the second change”: code", preview
    assert "  restore   a.py" in preview and "  restore   b.py" in preview, preview
    assert "  $ rm gone.txt" in preview, preview
    a_diff = preview.index("diff a.py")
    assert preview[a_diff + 1:a_diff + 3] == ["--- a/a.py", "+++ b/a.py"], preview
    assert "-A2" in preview[a_diff:] and "+A1" in preview[a_diff:], preview
    assert result["after_code"] == {"a": "A1\n", "b": "B0\n", "new": "N1\n"}
    assert result["code_rewind"]["conversation"] is False
    assert result["code_rewind"]["commands"] == ["rm gone.txt"]
    # The conversation was left as it was: the next request still carries the second turn.
    # (Checked below through the request after the conversation rewind, which must not.)

    # 2. The conversation only, from /rewind typed in the chat: the chat and the draft.
    kinds = [p["kind"] for p in result["conversation_picks"]]
    assert kinds == ["context_sidecar_checkpoint", "context_sidecar_rewind_action"], kinds
    assert result["after_conversation"] == result["after_code"]
    assert result["conversation_draft"] == "make the second change"
    lines = result["conversation_lines"]
    assert "make the first change" in lines and "First change made." in lines, lines
    assert lines[-3:] == ["## You", "", "make the second change"], lines
    assert "Second change made." not in lines
    again = asked(llm, "try it another way")
    sent = conversation(again)
    assert "make the first change" in sent and "First change made." in sent
    assert "make the second change" not in sent and "Second change made." not in sent
    # No /rewind reached the model: the chat answered it.
    assert not any("/rewind" in conversation(r) or "/fork" in conversation(r) for r in llm.requests)

    # 3. /fork before the latest prompt: a new session in the chat, the prompt in its draft.
    fork_picks = result["fork_picks"]
    assert [p["kind"] for p in fork_picks] == ["context_sidecar_checkpoint"]
    assert fork_picks[0]["items"][0] == "All of the conversation (a copy of it as it is now)"
    assert fork_picks[0]["items"][1].startswith("#2 · try it another way · ")
    assert "make the first change" in result["fork_lines"] and "try it another way" not in result["fork_lines"][:-1]
    assert result["fork_draft"] == "try it another way"
    in_fork = conversation(asked(llm, "a question in the fork"))
    assert "First change made." in in_fork and "try it another way" not in in_fork
    forked_session = header(asked(llm, "a question in the fork"), "x-context-sidecar-session")
    assert forked_session and forked_session != header(again, "x-context-sidecar-session")

    # 4. Everything, in the fork, with a.py changed by the user meanwhile: a conflict, overwritten.
    both_picks = result["both_picks"]
    assert [p["kind"] for p in both_picks] == ["context_sidecar_rewind_confirm"]  # `1`: no pickers
    assert both_picks[0]["items"] == ["Rewind, leaving the 1 file changed since alone",
                                      "Rewind and overwrite the files changed since too", "Cancel"]
    preview = both_picks[0]["preview"]
    assert preview[0] == "Rewind to #1 “make the first change”: code and conversation", preview
    assert any(line.startswith("  conflict  a.py  (changed by someone else since") for line in preview), preview
    assert any(line.startswith("  delete    new.py  (created after this point)") for line in preview), preview
    assert result["after_both"] == {"a": "A0\n", "b": "B0\n"}
    assert sorted((Path(f["path"]).name, f["action"]) for f in result["both_rewind"]["files"]) == [
        ("a.py", "restore"), ("new.py", "delete")]
    assert result["both_draft"] == "make the first change"
    fresh = conversation(asked(llm, "start over"))
    assert "make the first change" not in fresh and "a question in the fork" not in fresh
    assert (workspace / "a.py").read_text() == "A0\n" and not (workspace / "new.py").exists()
    assert (workspace / "b.py").read_text() == "B0\n" and not (workspace / "gone.txt").exists()
    report("rewind_real", result)
