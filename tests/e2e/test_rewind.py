"""Checkpoints, rewind and fork through the real process and the strict fake: after prompts
that edit, create and delete files, each kind of rewind leaves exactly the expected files and
the expected next request; a fork reads its parent's prefix from the cache and the two then
diverge; a session loaded in a new process lists the same checkpoints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from sidecar.storage.paths import transcript_path
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    sent_conversation,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def tool(name: str, tid: str, **args: Any) -> Reply:
    return Reply(content=[{"type": "tool_use", "id": tid, "name": name, "input": args}])


def edit(path: str, old: str, new: str, tid: str) -> Reply:
    return tool("Edit", tid, file_path=path, old_string=old, new_string=new)


async def two_prompts(client: Any, llm: Any, sid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Prompt 1 edits a.py and creates new.py; prompt 2 edits a.py and b.py and deletes
    gone.txt with the shell."""
    llm.queue(tool("Read", "r1", file_path="a.py"))
    llm.queue(edit("a.py", "A0", "A1", "e1"))
    llm.queue(tool("Write", "w1", file_path="new.py", content="N1\n"))
    llm.queue(Reply.text("First change made."))
    first = await prompt(client, sid, "make the first change")
    llm.queue(edit("a.py", "A1", "A2", "e2"))
    llm.queue(tool("Read", "r2", file_path="b.py"))
    llm.queue(edit("b.py", "B0", "B1", "e3"))
    llm.queue(tool("Bash", "s1", command="rm gone.txt"))
    llm.queue(Reply.text("Second change made."))
    second = await prompt(client, sid, "make the second change")
    return first, second


def plain(request: Any) -> list[dict[str, Any]]:
    """A request's conversation without its cache breakpoints (they move with its end)."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "cache_control"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(sent_conversation(request))  # type: ignore[no-any-return]


def files(workspace: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(workspace.iterdir()) if p.is_file()}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("A0\n")
    (ws / "b.py").write_text("B0\n")
    (ws / "gone.txt").write_text("G0\n")
    return ws


async def test_rewinding_code_conversation_and_both(sidecars: Any, llm: Any,
                                                    workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    first, second = await two_prompts(client, llm, sid)
    after_first_turn = plain(llm.requests[3])  # the first turn's last request
    assert files(workspace) == {"a.py": "A2\n", "b.py": "B1\n", "new.py": "N1\n"}

    listed = (await call(client, "sidecar/checkpoints", {"sessionId": sid}))["checkpoints"]
    assert [c["checkpointId"] for c in listed] == [first["checkpointId"],
                                                   second["checkpointId"]]
    assert [c["prompt"] for c in listed] == ["make the first change", "make the second change"]
    assert listed[0]["files"] == [{"path": str(workspace / "a.py"), "created": False},
                                  {"path": str(workspace / "new.py"), "created": True}]
    assert listed[1]["files"] == [{"path": str(workspace / "a.py"), "created": False},
                                  {"path": str(workspace / "b.py"), "created": False}]
    assert (listed[0]["commands"], listed[1]["commands"]) == ([], ["rm gone.txt"])

    # A preview says what would change and changes nothing.
    preview = await call(client, "sidecar/rewind", {
        "sessionId": sid, "checkpointId": second["checkpointId"], "restore": "code",
        "preview": True})
    assert {(f["path"].rsplit("/", 1)[1], f["action"], f["oldText"], f["newText"])
            for f in preview["files"]} == {("a.py", "restore", "A2\n", "A1\n"),
                                           ("b.py", "restore", "B1\n", "B0\n")}
    assert files(workspace)["a.py"] == "A2\n" and preview["conversation"] is False

    # Code only: the second prompt's files go back; the shell's deletion is listed.
    code = await call(client, "sidecar/rewind", {
        "sessionId": sid, "checkpointId": second["checkpointId"], "restore": "code"})
    assert code["commands"] == ["rm gone.txt"] and code["conversation"] is False
    assert files(workspace) == {"a.py": "A1\n", "b.py": "B0\n", "new.py": "N1\n"}
    llm.queue(Reply.text("Still here."))
    await prompt(client, sid, "what did you do?")
    kept = json.dumps(sent_conversation(llm.requests[-1]))
    assert "make the second change" in kept and "Second change made." in kept

    # Conversation only, back before the second prompt: the files stay; the next request
    # is the first turn's, then the new prompt; the gauge is the checkpoint's.
    used = next(c["used"] for c in (await call(client, "sidecar/checkpoints", {
        "sessionId": sid}))["checkpoints"] if c["checkpointId"] == second["checkpointId"])
    talk = await call(client, "sidecar/rewind", {
        "sessionId": sid, "checkpointId": second["checkpointId"], "restore": "conversation"})
    assert talk["conversation"] is True and talk["files"] == []
    assert talk["prompt"] == "make the second change"
    assert abs(talk["gauge"]["used"] - used) <= used / 100
    assert files(workspace) == {"a.py": "A1\n", "b.py": "B0\n", "new.py": "N1\n"}
    llm.queue(Reply.text("Starting again from the first change."))
    await prompt(client, sid, "try it another way")
    sent = plain(llm.requests[-1])
    assert sent[:len(after_first_turn)] == after_first_turn
    assert "make the second change" not in json.dumps(sent)
    assert [c["prompt"] for c in (await call(client, "sidecar/checkpoints", {
        "sessionId": sid}))["checkpoints"]] == ["make the first change", "try it another way"]

    # Both, back before the first prompt: every file as it was, an empty conversation.
    both = await call(client, "sidecar/rewind", {
        "sessionId": sid, "checkpointId": first["checkpointId"], "restore": "both"})
    assert {(Path(f["path"]).name, f["action"]) for f in both["files"]} == {
        ("a.py", "restore"), ("new.py", "delete")}
    assert files(workspace) == {"a.py": "A0\n", "b.py": "B0\n"}
    llm.queue(Reply.text("A fresh start."))
    await prompt(client, sid, "start over")
    fresh = json.dumps(sent_conversation(llm.requests[-1]))
    assert "make the first change" not in fresh and "start over" in fresh
    await call(client, "session/close", {"sessionId": sid})

    # A new process lists the same checkpoints and replays each prompt with its checkpoint.
    store = client.store
    client = await start_client()
    try:
        rec = await initialize(client, settings_for("anthropic", llm.url, store))
        await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
        listed = (await call(client, "sidecar/checkpoints", {"sessionId": sid}))["checkpoints"]
        assert [c["prompt"] for c in listed] == ["start over"]
        prompts = [u for u in rec.of("user_message_chunk")]
        assert [u["content"]["text"] for u in prompts] == ["start over"]
        assert prompts[0]["_meta"]["sidecar"]["checkpointId"] == listed[0]["checkpointId"]
    finally:
        await stop_client(client)


async def test_a_file_changed_by_someone_else_is_left_alone_unless_forced(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    first, _ = await two_prompts(client, llm, sid)
    (workspace / "b.py").write_text("B1 and the user's own line\n")
    done = await call(client, "sidecar/rewind", {
        "sessionId": sid, "checkpointId": first["checkpointId"], "restore": "code"})
    actions = {Path(f["path"]).name: f["action"] for f in done["files"]}
    assert actions == {"a.py": "restore", "new.py": "delete", "b.py": "conflict"}
    assert (workspace / "b.py").read_text() == "B1 and the user's own line\n"
    forced = await call(client, "sidecar/rewind", {
        "sessionId": sid, "checkpointId": first["checkpointId"], "restore": "code",
        "force": True})
    assert {Path(f["path"]).name: f["action"] for f in forced["files"]}["b.py"] == "restore"
    assert files(workspace) == {"a.py": "A0\n", "b.py": "B0\n"}
    # An unknown checkpoint is the params' error.
    with pytest.raises(Exception, match="checkpoint"):
        await call(client, "sidecar/rewind", {"sessionId": sid, "checkpointId": "nope",
                                              "restore": "both"})


async def test_a_fork_reads_its_parents_prefix_from_the_cache_and_then_diverges(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    store = client.store
    first, second = await two_prompts(client, llm, sid)
    parent_last = llm.requests[-1]
    forked = await call(client, "sidecar/fork", {"sessionId": sid})
    fork = forked["sessionId"]
    sidecars.opens(client, fork)
    assert fork != sid and forked["gauge"]["used"] > 0
    listed = (await call(client, "sidecar/checkpoints", {"sessionId": fork}))["checkpoints"]
    assert [c["checkpointId"] for c in listed] == [first["checkpointId"],
                                                   second["checkpointId"]]

    llm.queue(Reply.text("On the fork."))
    await prompt(client, fork, "continue on the fork")
    fork_first = llm.requests[-1]
    # Its first request repeats the parent's whole last request, read from the cache.
    assert plain(fork_first)[:len(plain(parent_last))] == plain(parent_last)
    usage = fork_first.usage
    assert usage["cache_read_input_tokens"] >= parent_last.usage["input_tokens"] + \
        parent_last.usage["cache_read_input_tokens"] + \
        parent_last.usage["cache_creation_input_tokens"] - 50

    llm.queue(Reply.text("On the parent."))
    await prompt(client, sid, "continue on the parent")
    parent_text = transcript_path(store, str(workspace), sid).read_text()
    fork_text = transcript_path(store, str(workspace), fork).read_text()
    assert "continue on the parent" in parent_text and "continue on the fork" not in parent_text
    assert "continue on the fork" in fork_text and "continue on the parent" not in fork_text
    assert "make the second change" in fork_text  # the copy of the conversation

    # A fork at the second checkpoint continues from before the second prompt.
    early = (await call(client, "sidecar/fork", {
        "sessionId": sid, "checkpointId": second["checkpointId"]}))["sessionId"]
    sidecars.opens(client, early)
    llm.queue(Reply.text("From the first change."))
    await prompt(client, early, "another way")
    sent = json.dumps(sent_conversation(llm.requests[-1]))
    assert "make the first change" in sent and "make the second change" not in sent


async def test_rewind_and_fork_typed_as_commands(sidecars: Any, llm: Any, workspace: Path) -> None:
    """For clients without a picker (ACP's, a plain chat), /rewind lists the checkpoints and
    rewinds to one by number; /fork N forks there."""
    client = await sidecars.session(workspace)
    sid = client.sid
    rec = client.rec
    await two_prompts(client, llm, sid)
    served = len(llm.requests)

    def said() -> str:
        return rec.of("agent_message_chunk")[-1]["content"]["text"]

    listed = await prompt(client, sid, "/rewind")
    assert "checkpointId" not in listed  # a command takes no checkpoint
    head, first, second = said().splitlines()
    assert head.startswith("Checkpoints (/rewind N")
    assert re.fullmatch(r'1\. \d\d:\d\d "make the first change" — a\.py, new\.py \(created\)', first)
    assert re.fullmatch(r'2\. \d\d:\d\d "make the second change" — a\.py, b\.py; '
                        r'shell, not restorable: rm gone\.txt', second)
    await prompt(client, sid, "/rewind 2 code")
    assert said().splitlines() == ["- a.py: restored", "- b.py: restored",
                                   "Not undone (shell commands): rm gone.txt"]
    assert (workspace / "a.py").read_text() == "A1\n"
    await prompt(client, sid, "/fork 2")
    fork = said().rsplit(": ", 1)[1]
    sidecars.opens(client, fork)
    assert said().startswith("Forked into a new session before that prompt")
    with pytest.raises(Exception, match="No checkpoint 7"):
        await prompt(client, sid, "/rewind 7")
    assert len(llm.requests) == served  # none of it asked the model anything
    forked = (await call(client, "sidecar/checkpoints", {"sessionId": fork}))["checkpoints"]
    assert [c["prompt"] for c in forked] == ["make the first change"]


async def test_summarize_from_here_keeps_the_turns_before_verbatim(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    llm.queue(Reply.text("The kept answer."))
    await prompt(client, sid, "the kept question")
    llm.queue(tool("Read", "r1", file_path="a.py"))
    llm.queue(Reply.text("A long answer about a.py. " * 200))
    second = await prompt(client, sid, "the second question")
    llm.queue(Reply.text("Another long answer. " * 200))
    await prompt(client, sid, "the third question")

    llm.queue(Reply.text("<summary>They asked about a.py twice.</summary>"))
    done = await call(client, "sidecar/compact", {
        "sessionId": sid, "fromCheckpointId": second["checkpointId"]})
    assert done["tokensAfter"] < done["tokensBefore"]
    summarized = json.dumps(sent_conversation(llm.requests[-1]))
    assert "the second question" in summarized and "the third question" in summarized
    assert "the kept question" not in summarized  # only what follows the point

    llm.queue(Reply.text("Go on."))
    await prompt(client, sid, "and now?")
    sent = plain(llm.requests[-1])
    assert sent[0]["content"][-1]["text"] == "the kept question"
    assert sent[1] == {"role": "assistant", "content": [{"type": "text",
                                                          "text": "The kept answer."}]}
    rest = json.dumps(sent[2:])
    assert "They asked about a.py twice." in rest and "and now?" in rest
    assert "the second question" not in rest and "Another long answer" not in rest
    # The checkpoints are all still there to rewind to.
    listed = (await call(client, "sidecar/checkpoints", {"sessionId": sid}))["checkpoints"]
    assert [c["prompt"] for c in listed] == ["the kept question", "the second question",
                                             "the third question", "and now?"]

    # Back to before the third question, across the compaction: the conversation as it
    # was then, uncompacted, and the gauge with it.
    third = listed[2]
    back = await call(client, "sidecar/rewind", {"sessionId": sid, "restore": "conversation",
                                                 "checkpointId": third["checkpointId"]})
    assert abs(back["gauge"]["used"] - third["used"]) <= third["used"] / 100
    assert back["gauge"]["compactions"] == {}
    llm.queue(Reply.text("Back before the summary."))
    await prompt(client, sid, "once more")
    again = json.dumps(sent_conversation(llm.requests[-1]))
    assert "the second question" in again and "A long answer about a.py." in again
    assert "They asked about a.py twice." not in again and "the third question" not in again
