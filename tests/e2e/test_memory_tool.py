"""The memory tool through the real process and the strict fake: Anthropic gets its own
``memory_20250818`` tool, the other providers a plain tool of the same commands; the model
creates, views, edits, renames and deletes files in the workspace's memory folder, every
path outside it is refused, and a fact written before /compact is read back after it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from sidecar.tools.memory import memory_folder
from tests.e2e.session_client import call, prompt, sent_conversation

pytestmark = pytest.mark.asyncio(loop_scope="module")


def memory(tid: str, **args: Any) -> Reply:
    return Reply(content=[{"type": "tool_use", "id": tid, "name": "memory", "input": args}])


def results(request: Any) -> dict[str, Any]:
    """The tool results the request carries, by tool call id: ``(content, is_error)``, from
    Messages' tool_result blocks or the Responses API's function_call_output items (whose
    error text starts "Error: ")."""
    out: dict[str, Any] = {}
    for item in sent_conversation(request):
        if item.get("type") == "function_call_output":
            text = text_of(item.get("output"))
            out[item["call_id"]] = (text, text.startswith("Error"))
        content = item.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_result":
                out[block["tool_use_id"]] = (block.get("content"), bool(block.get("is_error")))
    return out


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
async def test_the_memory_tool_keeps_files_in_its_folder_and_nowhere_else(
        provider: str, sidecars: Any, llm: Any, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("not the model's\n")
    client = await sidecars.session(workspace, provider)
    sid = client.sid
    folder = memory_folder(client.store, str(workspace))
    steps = [
        memory("m1", command="view", path="/memories"),
        memory("m2", command="create", path="/memories/notes/plan.md",
               file_text="# Plan\n- fix the parser\n"),
        memory("m3", command="str_replace", path="/memories/notes/plan.md",
               old_str="fix the parser", new_str="fix the parser (done)"),
        memory("m4", command="insert", path="/memories/notes/plan.md", insert_line=1,
               insert_text="- then the lexer"),
        memory("m5", command="view", path="/memories/notes/plan.md"),
        memory("m6", command="rename", old_path="/memories/notes/plan.md",
               new_path="/memories/plan.md"),
        memory("m7", command="create", path="/memories/scratch.txt", file_text="x"),
        memory("m8", command="delete", path="/memories/scratch.txt"),
        memory("m9", command="view", path="/memories"),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "link").symlink_to(tmp_path)
    attacks = {
        "a1": {"command": "view", "path": "/memories/../secret.txt"},
        "a2": {"command": "create", "path": "/etc/passwd", "file_text": "x"},
        "a3": {"command": "view", "path": "/memories/link/secret.txt"},
        "a4": {"command": "create", "path": "/memories/link/planted.txt", "file_text": "x"},
        "a5": {"command": "rename", "old_path": "/memories/plan.md",
               "new_path": "/memories/../../stolen.md"},
        "a6": {"command": "delete", "path": "/memories"},
        "a7": {"command": "view", "path": "memories/plan.md"},
        "a8": {"command": "create", "path": "/memoriesX/plan.md", "file_text": "x"},
    }
    steps += [memory(tid, **args) for tid, args in attacks.items()]
    for step in steps:
        llm.queue(step)
    llm.queue(Reply.text("Noted."))
    await prompt(client, sid, "keep a plan in your memory")

    first = llm.requests[0].body
    tool = next(t for t in first["tools"] if t.get("name") == "memory"
                or (t.get("function") or {}).get("name") == "memory")
    if provider == "anthropic":
        assert tool == {"type": "memory_20250818", "name": "memory"} or \
            {k: v for k, v in tool.items() if k != "cache_control"} == {
                "type": "memory_20250818", "name": "memory"}
    else:
        assert "command" in json.dumps(tool)
    got = results(llm.requests[-1])
    assert text_of(got["m1"][0]) == "/memories is empty."
    assert not any(got[f"m{n}"][1] for n in range(1, 10))
    shown = text_of(got["m5"][0])
    assert "- fix the parser (done)" in shown and "- then the lexer" in shown
    assert (folder / "plan.md").read_text() == "# Plan\n- then the lexer\n- fix the parser (done)\n"
    assert not (folder / "scratch.txt").exists() and not (folder / "notes" / "plan.md").exists()
    assert "/memories/plan.md" in text_of(got["m9"][0])
    for tid in attacks:
        assert got[tid][1], (tid, got[tid])  # every one an error the model reads
    assert outside.read_text() == "not the model's\n"
    assert not (tmp_path / "planted.txt").exists() and not (tmp_path / "stolen.md").exists()
    assert (folder / "plan.md").exists()


async def test_a_fact_written_before_compact_is_read_back_after_it(sidecars: Any, llm: Any,
                                                                   tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    client = await sidecars.session(workspace)
    sid = client.sid
    llm.queue(memory("m1", command="create", path="/memories/facts.md",
                     file_text="The staging port is 8443.\n"))
    llm.queue(Reply.text("Remembered."))
    await prompt(client, sid, "remember that staging listens on 8443")
    # Enough conversation that a summary makes it smaller.
    llm.queue(Reply.text("A long review of the deployment notes. " * 400))
    await prompt(client, sid, "review the deployment notes")
    llm.queue(Reply.text("Summary: the user talked about staging."))
    await call(client, "sidecar/compact", {"sessionId": sid})
    llm.queue(memory("m2", command="view", path="/memories/facts.md"))
    llm.queue(Reply.text("Staging is on 8443."))
    await prompt(client, sid, "which port does staging use?")
    after = llm.requests[-1]
    assert "The staging port is 8443." in text_of(results(after)["m2"][0])
    # The conversation itself no longer holds it: the memory did.
    talk = json.dumps([m for m in sent_conversation(after)
                       if not any(isinstance(b, dict) and b.get("tool_use_id") == "m2"
                                  for b in (m.get("content") or []))])
    assert "8443" not in talk
    view = await call(client, "sidecar/context", {"sessionId": sid})
    assert view["memory"]["files"] == [{"path": "/memories/facts.md", "bytes": 26}]
