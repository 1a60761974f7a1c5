"""Permission modes through the real sidecar process and the strict fake: edits reviewed as
diffs in ``default``, let through in ``acceptEdits`` and ``bypassPermissions``, refused in
``plan`` (but for the plan file), ExitPlanMode's question, and the plan after a compaction."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pytest_lsp import LanguageClient

from sidecar.fake_llm import Reply
from sidecar.storage.paths import project_dir
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
EDIT_OPTIONS = ["allow_once", "allow_turn", "reject_once"]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar(fake_llm: Any, tmp_path_factory: Any) -> Any:
    client = await start_client()
    store = tmp_path_factory.mktemp("store")
    client.store = store  # type: ignore[attr-defined]
    client.rec = await initialize(client, settings_for("anthropic", fake_llm.url, store))  # type: ignore[attr-defined]
    yield client
    await stop_client(client)


@pytest_asyncio.fixture(loop_scope="module")
async def client(sidecar: Any, llm: Any, workspace: Path) -> Any:
    sidecar.rec.reset()
    res = await call(sidecar, "session/new", {"cwd": str(workspace)})
    sidecar.sid = res["sessionId"]
    sidecar.opened = res
    sidecar.ws = workspace
    return sidecar


def answer(option: str, reason: str | None = None) -> Any:
    meta = {"_meta": {"sidecar": {"reason": reason}}} if reason is not None else {}
    return lambda params: {"outcome": {"outcome": "selected", "optionId": option, **meta}}


def read_then_edit(path: str, old: str, new: str, *, first: str = "r1", second: str = "e1") -> list[Reply]:
    return [Reply.tool_use("Read", {"file_path": path}, id=first),
            Reply.tool_use("Edit", {"file_path": path, "old_string": old, "new_string": new}, id=second)]


def tool_results(llm: Any) -> list[dict[str, Any]]:
    """The tool_result blocks of the last request, in order."""
    return [b for m in sent_conversation(llm.requests[-1]) if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    content = block["content"]
    return content if isinstance(content, str) else "".join(c.get("text", "") for c in content)


def final_status(rec: Any, tool_call_id: str) -> str:
    return [u["status"] for u in rec.of("tool_call_update") if u["toolCallId"] == tool_call_id][-1]


def plan_path(client: Any) -> Path:
    return project_dir(client.store, str(client.ws)) / client.sid / "plan.md"


async def test_session_results_carry_the_modes(client: LanguageClient) -> None:
    modes = client.opened["modes"]  # type: ignore[attr-defined]
    assert modes["currentModeId"] == "default"
    assert [m["id"] for m in modes["availableModes"]] == ["default", "acceptEdits", "plan", "bypassPermissions"]
    assert all(m["name"] and m["description"] for m in modes["availableModes"])


async def test_an_edit_asks_with_a_diff_and_lands_on_disk(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    rec.saves_edits = False  # the editor keeps the applied edit in an unsaved buffer
    for reply in read_then_edit("hello.py", "'hi'", "'hello'"):
        llm.queue(reply)
    llm.queue(Reply.text("Done."))
    await prompt(client, client.sid, "change hi to hello")  # type: ignore[attr-defined]
    [asked] = rec.permission_requests
    call_ = asked["toolCall"]
    path = str(workspace / "hello.py")
    assert call_["kind"] == "edit" and call_["toolCallId"] == "e1"
    assert call_["locations"] == [{"path": path}]
    assert call_["content"] == [{"type": "diff", "path": path, "oldText": "def hello():\n    return 'hi'\n",
                                 "newText": "def hello():\n    return 'hello'\n"}]
    assert [o["optionId"] for o in asked["options"]] == EDIT_OPTIONS
    assert [o["kind"] for o in asked["options"]] == ["allow_once", "allow_always", "reject_once"]
    assert len(rec.edits) == 1
    # The client left it unsaved; the sidecar wrote it, so a shell command sees the change.
    assert (workspace / "hello.py").read_text() == "def hello():\n    return 'hello'\n"
    assert final_status(rec, "e1") == "completed"


CALC = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def multi_edit(path: str, *edits: tuple[str, str], id: str = "m1") -> Reply:
    return Reply.tool_use("MultiEdit", {"file_path": path, "edits": [
        {"old_string": old, "new_string": new} for old, new in edits]}, id=id)


async def test_a_multi_edit_is_reviewed_as_one_diff_and_lands_whole(client: LanguageClient, llm: Any,
                                                                    workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    (workspace / "calc.py").write_text(CALC)
    llm.queue(Reply.tool_use("Read", {"file_path": "calc.py"}, id="r1"))
    # The second edit applies to what the first left.
    llm.queue(multi_edit("calc.py", ("def add", "def plus"), ("def plus(a, b):\n    return a + b",
                                                              "def plus(a, b):\n    return b + a"),
                         ("return a - b", "return -(b - a)")))
    llm.queue(Reply.text("Done."))
    await prompt(client, client.sid, "tidy calc.py")  # type: ignore[attr-defined]
    after = "def plus(a, b):\n    return b + a\n\n\ndef sub(a, b):\n    return -(b - a)\n"
    path = str(workspace / "calc.py")
    [asked] = rec.permission_requests
    call_ = asked["toolCall"]
    assert call_["kind"] == "edit" and call_["toolCallId"] == "m1" and call_["title"] == "Edit calc.py"
    assert call_["locations"] == [{"path": path}]
    assert call_["content"] == [{"type": "diff", "path": path, "oldText": CALC, "newText": after}]
    assert [o["optionId"] for o in asked["options"]] == EDIT_OPTIONS
    assert len(rec.edits) == 1 and (workspace / "calc.py").read_text() == after
    assert final_status(rec, "m1") == "completed"
    # The model was offered the tool, and read what the three edits did.
    assert "MultiEdit" in [t["name"] for t in llm.requests[0].body["tools"]]
    result = tool_results(llm)[-1]
    assert result["tool_use_id"] == "m1" and result.get("is_error") is not True
    assert result_text(result) == (
        f"Applied 3 edits to {path}:\n"
        '1. Replaced "def add" with "def plus"\n'
        '2. Replaced "def plus(a, b):\\n    return a + b" with "def plus(a, b):\\n    return b + a"\n'
        '3. Replaced "return a - b" with "return -(b - a)"')


async def test_a_multi_edit_with_a_failing_edit_changes_nothing(client: LanguageClient, llm: Any,
                                                                workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    (workspace / "calc.py").write_text(CALC)
    llm.queue(Reply.tool_use("Read", {"file_path": "calc.py"}, id="r1"))
    llm.queue(multi_edit("calc.py", ("def add", "def plus"), ("def mul", "def times")))
    llm.queue(Reply.text("It has no mul."))
    await prompt(client, client.sid, "rename add and mul")  # type: ignore[attr-defined]
    assert rec.permission_requests == [] and rec.edits == []
    assert (workspace / "calc.py").read_text() == CALC
    assert final_status(rec, "m1") == "failed"
    result = tool_results(llm)[-1]
    assert result["tool_use_id"] == "m1" and result["is_error"] is True
    assert result_text(result) == ("Edit 2 of 2 failed; none of the edits were applied. String to "
                                   "replace not found in file.\nString: def mul")


async def test_a_multi_edit_follows_the_modes_as_an_edit_does(client: LanguageClient, llm: Any,
                                                              workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    (workspace / "calc.py").write_text(CALC)
    await call(client, "session/set_mode", {"sessionId": client.sid, "modeId": "acceptEdits"})  # type: ignore[attr-defined]
    llm.queue(Reply.tool_use("Read", {"file_path": "calc.py"}, id="r1"))
    llm.queue(multi_edit("calc.py", ("def add", "def plus"), ("def sub", "def minus")))
    llm.queue(Reply.text("Renamed."))
    await prompt(client, client.sid, "rename both")  # type: ignore[attr-defined]
    assert rec.permission_requests == []
    renamed = CALC.replace("def add", "def plus").replace("def sub", "def minus")
    assert (workspace / "calc.py").read_text() == renamed
    # Plan mode: refused for a workspace file, allowed for the plan file.
    await call(client, "session/set_mode", {"sessionId": client.sid, "modeId": "plan"})  # type: ignore[attr-defined]
    plan = plan_path(client)
    llm.queue(multi_edit("calc.py", ("def plus", "def add"), id="m2"))
    llm.queue(Reply.tool_use("Write", {"file_path": str(plan), "content": "# Plan\n1. Rename.\n"}, id="w1"))
    llm.queue(multi_edit(str(plan), ("# Plan", "# Plan: names"), ("1. Rename.", "1. Rename back."), id="m3"))
    llm.queue(Reply.text("Planned."))
    await prompt(client, client.sid, "plan renaming back")  # type: ignore[attr-defined]
    results = {b["tool_use_id"]: b for b in tool_results(llm)}
    assert results["m2"]["is_error"] and "Plan mode is read-only: MultiEdit is not allowed" in result_text(results["m2"])
    assert results["m3"].get("is_error") is not True
    assert (workspace / "calc.py").read_text() == renamed
    assert plan.read_text() == "# Plan: names\n1. Rename back.\n"
    assert rec.permission_requests == []


async def test_a_rejected_edit_leaves_the_file_and_tells_the_model(client: LanguageClient, llm: Any,
                                                                   workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    rec.permission_answer = answer("reject_once")
    for reply in read_then_edit("hello.py", "'hi'", "'bye'"):
        llm.queue(reply)
    llm.queue(Reply.text("Understood."))
    await prompt(client, client.sid, "change hi to bye")  # type: ignore[attr-defined]
    assert len(rec.permission_requests) == 1 and rec.edits == []
    assert (workspace / "hello.py").read_text() == "def hello():\n    return 'hi'\n"
    assert final_status(rec, "e1") == "failed"
    result = tool_results(llm)[-1]
    assert result["tool_use_id"] == "e1" and result.get("is_error") is True
    assert result_text(result) == "The user rejected this edit."


async def test_a_reason_given_with_a_rejection_reaches_the_model(client: LanguageClient, llm: Any,
                                                              workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    rec.permission_answer = answer("reject_once", "  Keep 'hi'; add a docstring instead.  ")
    for reply in read_then_edit("hello.py", "'hi'", "'bye'"):
        llm.queue(reply)
    llm.queue(Reply.tool_use("Bash", {"command": "echo ran > ran.txt"}, id="b1"))
    llm.queue(Reply.text("Understood."))
    await prompt(client, client.sid, "change hi to bye, then run it")  # type: ignore[attr-defined]
    assert (workspace / "hello.py").read_text() == "def hello():\n    return 'hi'\n"
    assert not (workspace / "ran.txt").exists()
    results = {b["tool_use_id"]: b for b in tool_results(llm)}
    # What the model reads: the refusal, then the user's own words (trimmed).
    assert result_text(results["e1"]) == "The user rejected this edit. The user said: Keep 'hi'; add a docstring instead."
    assert result_text(results["b1"]) == "Permission denied by the user. The user said: Keep 'hi'; add a docstring instead."
    # The editor's rows carry the reason too, so a resumed session shows why.
    finals = [u for u in rec.of("tool_call_update") if u.get("permission")]
    assert {u["toolCallId"]: u["permission"].get("reason") for u in finals} == {
        "e1": "Keep 'hi'; add a docstring instead.", "b1": "Keep 'hi'; add a docstring instead."}


async def test_a_reason_is_kept_to_a_sentence_and_an_unoffered_option_is_a_rejection(
        client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    rec.permission_answer = answer("reject_once", "x" * 5_000)
    llm.queue(Reply.tool_use("Bash", {"command": "echo ran > ran.txt"}, id="b1"))
    llm.queue(Reply.text("ok"))
    await prompt(client, client.sid, "run it")  # type: ignore[attr-defined]
    said = result_text({b["tool_use_id"]: b for b in tool_results(llm)}["b1"])
    assert said == "Permission denied by the user. The user said: " + "x" * 2_000
    rec.permission_answer = answer("allow_everything_forever")
    llm.queue(Reply.tool_use("Bash", {"command": "echo ran > ran.txt"}, id="b2"))
    llm.queue(Reply.text("ok"))
    await prompt(client, client.sid, "run it again")  # type: ignore[attr-defined]
    assert not (workspace / "ran.txt").exists()
    assert result_text({b["tool_use_id"]: b for b in tool_results(llm)}["b2"]) == "Permission denied by the user"


async def test_allow_turn_accepts_the_rest_of_the_turn(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    rec.permission_answer = answer("allow_turn")
    (workspace / "two.py").write_text("x = 1\n")
    llm.queue(Reply(content=[
        {"type": "tool_use", "id": "r1", "name": "Read", "input": {"file_path": "hello.py"}},
        {"type": "tool_use", "id": "r2", "name": "Read", "input": {"file_path": "two.py"}}]))
    llm.queue(Reply.tool_use("Edit", {"file_path": "hello.py", "old_string": "'hi'", "new_string": "'a'"}, id="e1"))
    llm.queue(Reply.tool_use("Edit", {"file_path": "two.py", "old_string": "1", "new_string": "2"}, id="e2"))
    llm.queue(Reply.text("Both changed."))
    await prompt(client, client.sid, "change both")  # type: ignore[attr-defined]
    assert [r["toolCall"]["toolCallId"] for r in rec.permission_requests] == ["e1"]
    assert "'a'" in (workspace / "hello.py").read_text() and (workspace / "two.py").read_text() == "x = 2\n"
    # The next turn asks again.
    rec.permission_answer = answer("allow_once")
    llm.queue(Reply.tool_use("Edit", {"file_path": "two.py", "old_string": "2", "new_string": "3"}, id="e3"))
    llm.queue(Reply.text("Changed."))
    await prompt(client, client.sid, "once more")  # type: ignore[attr-defined]
    assert [r["toolCall"]["toolCallId"] for r in rec.permission_requests] == ["e1", "e3"]
    assert (workspace / "two.py").read_text() == "x = 3\n"


async def test_accept_edits_lets_edits_through_and_still_asks_for_shell(client: LanguageClient, llm: Any,
                                                                        workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    assert await call(client, "session/set_mode", {"sessionId": client.sid, "modeId": "acceptEdits"}) == {}  # type: ignore[attr-defined]
    assert [u["currentModeId"] for u in rec.of("current_mode_update")] == ["acceptEdits"]
    for reply in read_then_edit("hello.py", "'hi'", "'hello'"):
        llm.queue(reply)
    llm.queue(Reply.tool_use("Bash", {"command": "cat hello.py"}, id="b1"))
    llm.queue(Reply.text("Done."))
    await prompt(client, client.sid, "edit, then show it")  # type: ignore[attr-defined]
    assert [r["toolCall"]["kind"] for r in rec.permission_requests] == ["execute"]
    assert "'hello'" in (workspace / "hello.py").read_text()
    assert "return 'hello'" in result_text(tool_results(llm)[-1])


async def test_bypass_asks_nothing(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    await prompt(client, client.sid, "/mode bypassPermissions")  # type: ignore[attr-defined]
    assert [u["currentModeId"] for u in rec.of("current_mode_update")] == ["bypassPermissions"]
    for reply in read_then_edit("hello.py", "'hi'", "'hello'"):
        llm.queue(reply)
    llm.queue(Reply.tool_use("Bash", {"command": "echo ran > ran.txt"}, id="b1"))
    llm.queue(Reply.text("Done."))
    await prompt(client, client.sid, "edit and run")  # type: ignore[attr-defined]
    assert rec.permission_requests == []
    assert "'hello'" in (workspace / "hello.py").read_text()
    assert (workspace / "ran.txt").read_text() == "ran\n"


async def test_an_unknown_mode_is_refused(client: LanguageClient) -> None:
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException) as err:
        await call(client, "session/set_mode", {"sessionId": client.sid, "modeId": "yolo"})  # type: ignore[attr-defined]
    assert err.value.code == -32602 and "yolo" in err.value.message
    await prompt(client, client.sid, "/mode")  # type: ignore[attr-defined]
    listed = client.rec.text()  # type: ignore[attr-defined]
    assert "- default (current):" in listed and "- bypassPermissions:" in listed
    assert client.rec.of("current_mode_update") == []  # type: ignore[attr-defined]


async def test_plan_mode_refuses_changes_but_reads_and_writes_the_plan(client: LanguageClient, llm: Any,
                                                                       workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    await prompt(client, client.sid, "/plan")  # type: ignore[attr-defined]
    assert [u["currentModeId"] for u in rec.of("current_mode_update")] == ["plan"]
    plan = plan_path(client)
    assert str(plan) in rec.text()
    llm.queue(Reply.tool_use("Read", {"file_path": "hello.py"}, id="r1"))
    llm.queue(Reply.tool_use("Edit", {"file_path": "hello.py", "old_string": "'hi'", "new_string": "'x'"}, id="e1"))
    llm.queue(Reply.tool_use("Bash", {"command": "echo x > made.txt"}, id="b1"))
    llm.queue(Reply.tool_use("Bash", {"command": "rm hello.py"}, id="b2"))
    llm.queue(Reply.tool_use("Bash", {"command": "ls && git status | head -5"}, id="b3"))
    llm.queue(Reply.tool_use("Write", {"file_path": str(plan), "content": "# Plan\n1. Say hello.\n"}, id="w1"))
    llm.queue(Reply.text("The plan is written."))
    await prompt(client, client.sid, "plan the change")  # type: ignore[attr-defined]
    # The model was told it is planning, and where the plan goes.
    first = json.dumps(sent_conversation(llm.requests[0]))
    assert "Plan mode is active" in first and str(plan) in first
    assert rec.permission_requests == []
    results = {b["tool_use_id"]: b for b in tool_results(llm)}
    assert results["r1"].get("is_error") is not True
    assert results["e1"]["is_error"] and "Plan mode is read-only" in result_text(results["e1"])
    assert results["b1"]["is_error"] and "'>'" in result_text(results["b1"])
    assert results["b2"]["is_error"] and "`rm` is not one of the read-only commands" in result_text(results["b2"])
    assert results["b3"].get("is_error") is not True and "hello.py" in result_text(results["b3"])
    assert results["w1"].get("is_error") is not True
    assert [final_status(rec, t) for t in ("e1", "b1", "b2", "w1")] == ["failed", "failed", "failed", "completed"]
    assert (workspace / "hello.py").read_text() == "def hello():\n    return 'hi'\n"
    assert not (workspace / "made.txt").exists()
    assert plan.read_text() == "# Plan\n1. Say hello.\n"
    # No edit of the plan went through the editor.
    assert rec.edits == []


async def test_exit_plan_mode_approved_switches_the_mode(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    await call(client, "session/set_mode", {"sessionId": client.sid, "modeId": "plan"})  # type: ignore[attr-defined]
    plan = plan_path(client)
    llm.queue(Reply.tool_use("Write", {"file_path": str(plan), "content": "# Plan\nChange hi.\n"}, id="w1"))
    llm.queue(Reply.tool_use("ExitPlanMode", {}, id="x1"))
    for reply in read_then_edit("hello.py", "'hi'", "'hello'", first="r2", second="e2"):
        llm.queue(reply)
    llm.queue(Reply.text("Done."))
    rec.permission_answer = answer("accept_edits")
    await prompt(client, client.sid, "plan, then do it")  # type: ignore[attr-defined]
    [asked] = rec.permission_requests
    assert asked["toolCall"]["kind"] == "switch_mode" and asked["toolCall"]["title"] == "Leave plan mode?"
    assert asked["toolCall"]["content"] == [{"type": "content", "content": {"type": "text", "text": "# Plan\nChange hi.\n"}}]
    assert [o["optionId"] for o in asked["options"]] == ["accept_edits", "default", "reject_once"]
    assert [u["currentModeId"] for u in rec.of("current_mode_update")] == ["plan", "acceptEdits"]
    results = {b["tool_use_id"]: b for b in tool_results(llm)}
    assert "approved" in result_text(results["x1"]) and results["x1"].get("is_error") is not True
    assert results["e2"].get("is_error") is not True
    assert "'hello'" in (workspace / "hello.py").read_text()


async def test_exit_plan_mode_declined_keeps_planning(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    await call(client, "session/set_mode", {"sessionId": client.sid, "modeId": "plan"})  # type: ignore[attr-defined]
    plan = plan_path(client)
    llm.queue(Reply.tool_use("Write", {"file_path": str(plan), "content": "# Plan\n"}, id="w1"))
    llm.queue(Reply.tool_use("ExitPlanMode", {}, id="x1"))
    llm.queue(Reply.text("What should change?"))
    rec.permission_answer = answer("reject_once", "Split step 2 into a test first.")
    await prompt(client, client.sid, "plan it")  # type: ignore[attr-defined]
    assert [u["currentModeId"] for u in rec.of("current_mode_update")] == ["plan"]
    result = {b["tool_use_id"]: b for b in tool_results(llm)}["x1"]
    assert result["is_error"] and "keep planning" in result_text(result)
    # The user's feedback on the plan is what the model reads next.
    assert result_text(result).endswith("The user said: Split step 2 into a test first.")
    gauge_mode = await call(client, "session/load", {"sessionId": client.sid})  # type: ignore[attr-defined]
    assert gauge_mode["modes"]["currentModeId"] == "plan"


async def test_the_mode_persists_with_the_session(client: LanguageClient, llm: Any) -> None:
    await prompt(client, client.sid, "/plan")  # type: ignore[attr-defined]
    await call(client, "session/close", {"sessionId": client.sid})  # type: ignore[attr-defined]
    loaded = await call(client, "session/load", {"sessionId": client.sid})  # type: ignore[attr-defined]
    assert loaded["modes"]["currentModeId"] == "plan"
    await prompt(client, client.sid, "/plan off")  # type: ignore[attr-defined]
    await call(client, "session/close", {"sessionId": client.sid})  # type: ignore[attr-defined]
    loaded = await call(client, "session/load", {"sessionId": client.sid})  # type: ignore[attr-defined]
    assert loaded["modes"]["currentModeId"] == "default"


async def read_a_large_file(client: Any, llm: Any, n: int) -> None:
    """Something for a compaction to summarize away."""
    name = f"big{n}.py"
    (client.ws / name).write_text("".join(f"def function_{i}(value):\n    return value * {i}\n" for i in range(1500)))
    llm.queue(Reply.tool_use("Read", {"file_path": name}, id=f"big{n}"))
    llm.queue(Reply.text("Read it."))
    await prompt(client, client.sid, f"read {name}")


async def test_the_plan_follows_every_compaction(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    await prompt(client, client.sid, "/plan")  # type: ignore[attr-defined]
    plan = plan_path(client)
    body = "# Plan\n" + "".join(f"{i}. Step {i}: change module_{i}.py and test it.\n" for i in range(40))
    llm.queue(Reply.tool_use("Write", {"file_path": str(plan), "content": body}, id="w1"))
    llm.queue(Reply.text("Planned."))
    await prompt(client, client.sid, "plan it")  # type: ignore[attr-defined]
    for round_ in range(2):
        await read_a_large_file(client, llm, round_)
        llm.queue(Reply.text(f"<summary>The user is planning a change (round {round_}).</summary>"))
        await call(client, "sidecar/compact", {"sessionId": client.sid})  # type: ignore[attr-defined]
        llm.queue(Reply.text("Still planning."))
        await prompt(client, client.sid, f"go on {round_}")  # type: ignore[attr-defined]
        sent = json.dumps(sent_conversation(llm.requests[-1]))
        assert "Step 39: change module_39.py" in sent, round_
        assert sent.count("Plan mode is active") == 1, round_
    assert rec.of("compaction_update")


async def test_a_long_plan_is_cut_to_its_budget_after_a_compaction(client: LanguageClient, llm: Any) -> None:
    await prompt(client, client.sid, "/plan")  # type: ignore[attr-defined]
    plan = plan_path(client)
    body = "# Plan\n" + "".join(f"{i}. Step {i}: change module_{i}.py and test it well.\n" for i in range(2000))
    llm.queue(Reply.tool_use("Write", {"file_path": str(plan), "content": body}, id="w1"))
    llm.queue(Reply.text("Planned."))
    await prompt(client, client.sid, "plan it")  # type: ignore[attr-defined]
    await read_a_large_file(client, llm, 0)
    llm.queue(Reply.text("<summary>A long plan was written.</summary>"))
    await call(client, "sidecar/compact", {"sessionId": client.sid})  # type: ignore[attr-defined]
    llm.queue(Reply.text("ok"))
    await prompt(client, client.sid, "go on")  # type: ignore[attr-defined]
    sent = json.dumps(sent_conversation(llm.requests[-1]))
    assert "1. Step 1: change" in sent and "Step 1999:" not in sent
    assert f"[The plan continues: Read {plan} for the rest.]" in sent
    carried = re.search(r"The plan written in plan mode.*?\[The plan continues", sent, re.S)
    assert carried is not None
    # 5,000 tokens (postCompact.perFileTokens) at about four characters a token.
    assert len(carried.group(0)) < 5_000 * 4 * 1.1


async def test_a_client_without_permission_requests_keeps_edits_unasked(fake_llm: Any, llm: Any, tmp_path: Path,
                                                                        workspace: Path) -> None:
    client = await start_client()
    try:
        rec = await initialize(client, settings_for("anthropic", fake_llm.url, tmp_path / "store"), permission=False)
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        for reply in read_then_edit("hello.py", "'hi'", "'hello'"):
            llm.queue(reply)
        llm.queue(Reply.tool_use("Bash", {"command": "echo ran > ran.txt"}, id="b1"))
        llm.queue(Reply.text("Done."))
        await prompt(client, sid, "edit and run")
        assert rec.permission_requests == []
        assert "'hello'" in (workspace / "hello.py").read_text()
        # A shell command cannot be asked about, so it does not run.
        assert not (workspace / "ran.txt").exists()
    finally:
        await stop_client(client)
