"""The invariant checker catches each rule's breach on the request that breaks it."""

from __future__ import annotations

from typing import Any

from sidecar.core.turns.request_labels import request_headers
from sidecar.fake_llm.invariants import InvariantChecker

CONTEXT = ("<system-reminder>\nThe following context may be used while you answer the user:\n"
           "# claudeMd\nUse tabs.\n</system-reminder>\n")


def headers(epoch: int = 1, cause: str = "start", blocking: int = 100_000,
            call: str = "main", session: str = "s1") -> dict[str, str]:
    return request_headers(session, call, epoch, cause, blocking)  # type: ignore[arg-type]


def req(*messages: dict[str, Any], system: str = "sys", model: str = "m") -> dict[str, Any]:
    return {"model": model, "max_tokens": 100, "system": [{"type": "text", "text": system}],
            "messages": list(messages)}


def user(*texts: str, context: bool = False) -> dict[str, Any]:
    blocks = [{"type": "text", "text": CONTEXT}] if context else []
    return {"role": "user", "content": blocks + [{"type": "text", "text": t} for t in texts]}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def observe(checker: InvariantChecker, body: dict[str, Any], hdrs: dict[str, str] | None = None,
            tokens: int = 10, refusal: str | None = None, provider: str = "anthropic",
            path: str = "/v1/messages") -> list[str]:
    found = checker.observe(checker.checked, provider, path,
                            headers() if hdrs is None else hdrs, body,
                            refusal=refusal, input_tokens=tokens)
    return [f"{v.rule}: {v.detail}" for v in found]


def test_a_conversation_that_extends_itself_is_clean() -> None:
    c = InvariantChecker()
    assert observe(c, req(user("hi", context=True))) == []
    assert observe(c, req(user("hi", context=True), assistant("yo"), user("more"))) == []
    # A new block merged into the last user message still extends it.
    assert observe(c, req(user("hi", context=True), assistant("yo"), user("more", "and"))) == []


def test_a_changed_block_without_a_cause_is_caught() -> None:
    c = InvariantChecker()
    observe(c, req(user("hi", context=True), assistant("yo"), user("more")))
    found = observe(c, req(user("hi", context=True), assistant("YO"), user("more")))
    assert len(found) == 1 and found[0].startswith("prefix: message block 2 changed")
    # The same change with a named cause is fine.
    assert observe(c, req(user("hi", context=True), assistant("yo!"), user("x")),
                   headers(epoch=2, cause="compaction")) == []


def test_system_tools_and_model_are_part_of_the_prefix() -> None:
    c = InvariantChecker()
    observe(c, req(user("hi", context=True)))
    assert observe(c, req(user("hi", context=True), system="other"))[0].startswith(
        "prefix: the system prompt changed")
    c = InvariantChecker()
    observe(c, req(user("hi", context=True)))
    assert observe(c, req(user("hi", context=True), model="n"))[0].startswith(
        "prefix: the model changed")
    assert observe(c, req(user("hi", context=True), model="o"), headers(2, "model")) == []


def test_the_user_context_leads_every_request_and_claude_md_stays() -> None:
    c = InvariantChecker()
    assert observe(c, req(user("hi")))[0].startswith("user_context: the first block")
    c = InvariantChecker()
    observe(c, req(user("hi", context=True)))
    without = {"role": "user", "content": [
        {"type": "text", "text": CONTEXT.replace("# claudeMd\nUse tabs.\n", "")},
        {"type": "text", "text": "x"}]}
    assert "user_context: the CLAUDE.md content is gone" in observe(
        c, req(without), headers(2, "compaction"))


def test_blocking_limit_refusals_and_epochs() -> None:
    c = InvariantChecker()
    assert observe(c, req(user("hi", context=True)), tokens=100_001)[0].startswith("blocking:")
    assert observe(c, req(user("x")), refusal="bad field") == ["refused: bad field"]
    c = InvariantChecker()
    observe(c, req(user("hi", context=True)), headers(epoch=5))
    assert observe(c, req(user("x", context=True)), headers(epoch=4, cause="clear"))[0].startswith(
        "epoch: epoch went back")
    assert observe(c, req(user("y", context=True)), headers(epoch=9, cause="whim"))[0].startswith(
        "epoch: unknown cause")


def test_forked_calls_and_other_clients_are_only_validated() -> None:
    c = InvariantChecker()
    observe(c, req(user("hi", context=True)))
    assert observe(c, req(user("summarize")), headers(call="summary")) == []
    assert observe(c, req(user("anything")), {}) == []
    assert c.checked == 3 and c.violations == []


def test_openai_messages_may_grow_their_last_text() -> None:
    c = InvariantChecker()
    first = {"model": "gpt-5.5", "messages": [
        {"role": "system", "content": "sys"}, {"role": "user", "content": CONTEXT + "hi"}]}
    grown = {"model": "gpt-5.5", "messages": [
        {"role": "system", "content": "sys"}, {"role": "user", "content": CONTEXT + "hi\n\nmore"}]}
    assert observe(c, first, provider="openai") == []
    assert observe(c, grown, provider="openai") == []
    changed = {"model": "gpt-5.5", "messages": [
        {"role": "system", "content": "sys"}, {"role": "user", "content": CONTEXT + "HI"},
        {"role": "assistant", "content": "ok"}]}
    assert observe(c, changed, provider="openai")[0].startswith("prefix: message block 1 changed")


def responses(*items: dict[str, Any], instructions: str = "sys") -> dict[str, Any]:
    return {"model": "gpt-5", "instructions": instructions, "store": False, "input": list(items)}


def said(role: str, *texts: str) -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "role": role,
            "content": [{"type": kind, "text": t} for t in texts]}


def observe_responses(checker: InvariantChecker, body: dict[str, Any],
                      hdrs: dict[str, str] | None = None) -> list[str]:
    return observe(checker, body, hdrs, provider="openai", path="/v1/responses")


def test_responses_bodies_keep_the_same_rules() -> None:
    c = InvariantChecker()
    call = {"type": "function_call", "call_id": "c1", "name": "Read", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "c1", "output": "body"}
    assert observe_responses(c, responses(said("user", CONTEXT, "hi"))) == []
    # A part merged into the last user message, then a tool round, still extend the prefix.
    assert observe_responses(c, responses(said("user", CONTEXT, "hi", "more"))) == []
    assert observe_responses(c, responses(said("user", CONTEXT, "hi", "more"), call, output)) == []
    changed = responses(said("user", CONTEXT, "hi", "MORE"), call, output)
    assert observe_responses(c, changed)[0].startswith("prefix: message block 2 changed")
    # The instructions are the system prompt.
    moved = responses(said("user", CONTEXT, "hi", "MORE"), call, output, instructions="other")
    assert observe_responses(c, moved)[0].startswith("prefix: the system prompt changed")
    shrunk = responses(said("user", CONTEXT, "hi"), instructions="other")
    assert observe_responses(c, shrunk)[0].startswith("prefix: the conversation shrank")
    # The user context leads the first user message, whatever comes before it.
    lost = responses(said("developer", CONTEXT), said("user", "no context"))
    assert observe_responses(c, lost, headers(2, "compaction"))[0].startswith(
        "user_context: the first block is not the user context")



def skill_call(tool_id: str, name: str, result: str | None = None) -> list[dict[str, Any]]:
    """A Skill call and its result: by default what the sidecar's Skill tool answers."""
    text = result if result is not None else f"Base directory for this skill: /s/{name}\n\ninstructions of {name}"
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": "Skill",
                                                "input": {"skill": name}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                          "content": text}]}]


def reinjected(*texts: str) -> dict[str, Any]:
    return user(*(f"<system-reminder>\n{t}\n</system-reminder>" for t in texts))


def test_a_compaction_must_put_back_the_loaded_skills_most_recent_first() -> None:
    c = InvariantChecker()
    history = [user("hi", context=True), *skill_call("t1", "review"), *skill_call("t2", "lint")]
    assert observe(c, req(*history, assistant("ok"), user("go"))) == []
    summary = user("summary", context=True)
    after = headers(epoch=2, cause="compaction")
    # Both back, the most recent first: clean.
    good = reinjected("Invoked skill: lint\nrun ruff", "Invoked skill: review\nthe checklist")
    assert observe(c, req(summary, assistant("ok"), good), after) == []
    assert c.reinjections[-1]["skills"]["names"] == ["lint", "review"]
    # One missing while the budget is nearly empty; or the wrong order: each is caught.
    for bad in (reinjected("Invoked skill: lint\nrun ruff"),
                reinjected("Invoked skill: review\nx", "Invoked skill: lint\ny"),
                user("nothing came back")):
        c2 = InvariantChecker()
        observe(c2, req(*history, assistant("ok"), user("go")))
        found = observe(c2, req(summary, assistant("ok"), bad), after)
        assert found and found[0].startswith("reinjected: skills after the compaction"), found


def test_re_injected_context_past_its_budget_is_caught_on_any_request() -> None:
    c = InvariantChecker()
    big = "Invoked skill: handbook\n" + "word " * 400  # ~400 tokens; the budget at 8,000 is 200
    found = observe(c, req(user("hi", context=True), assistant("ok"), reinjected(big)),
                    headers(blocking=8_000))
    assert any("skills: 'handbook' holds" in f for f in found), found
    hook = "Hook output: SessionStart:startup hook `cat notes` said:\n" + "note " * 600
    found = observe(InvariantChecker(), req(user("hi", context=True), assistant("ok"),
                                            reinjected(hook)), headers(blocking=8_000))
    assert any(f.startswith("reinjected: hooks:") for f in found), found


def test_a_hook_context_the_model_had_must_come_back() -> None:
    c = InvariantChecker()
    hook = "Hook output: SessionStart:startup hook `cat notes` said:\nfrozen"
    observe(c, req(user("hi", context=True), assistant("ok"), reinjected(hook)))
    found = observe(c, req(user("summary", context=True), assistant("ok"), user("go")),
                    headers(epoch=2, cause="compaction"))
    assert found == ["reinjected: hooks after the compaction: [] where ['cat notes'] were expected"]
    # After /clear nothing is owed.
    c3 = InvariantChecker()
    observe(c3, req(user("hi", context=True), assistant("ok"), reinjected(hook)))
    assert observe(c3, req(user("again", context=True)), headers(epoch=2, cause="clear")) == []
    assert observe(c3, req(user("s", context=True), assistant("ok"), user("go")),
                   headers(epoch=3, cause="compaction")) == []


def test_an_item_put_back_twice_is_caught() -> None:
    twice = reinjected("Invoked skill: lint\nrun ruff", "Invoked skill: lint\nrun ruff")
    found = observe(InvariantChecker(), req(user("hi", context=True), assistant("ok"), twice))
    assert found == ["reinjected: skills: ['lint'] put back twice"]


PLAN = "/work/s/plan.md"
PLAN_MODE = (f"Plan mode is active. ... Your plan file is {PLAN}; it does not exist yet: create "
             "it with Write. It is the only file you may change.")


WRITE_PLAN = ("Write", {"content": "# Plan"})
MULTI_EDIT_PLAN = ("MultiEdit", {"edits": [{"old_string": "", "new_string": "# Plan"}]})


def plan_written(tool_id: str = "w1", path: str = PLAN, error: bool = False,
                 how: tuple[str, dict[str, Any]] = WRITE_PLAN) -> list[dict[str, Any]]:
    name, given = how
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": name,
                                                "input": {"file_path": path, **given}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                          "content": "written", "is_error": error}]}]


def test_a_compaction_must_put_back_the_plan_the_model_wrote() -> None:
    history = [user("hi", context=True), reinjected(PLAN_MODE), assistant("planning"),
               *plan_written()]
    summary = user("summary", context=True)
    after = headers(epoch=2, cause="compaction")
    c = InvariantChecker()
    assert observe(c, req(*history, assistant("ok"), user("go"))) == []
    good = reinjected(f"The plan written in plan mode, {PLAN}:\n# Plan\n1. Do it.")
    assert observe(c, req(summary, assistant("ok"), good), after) == []
    assert c.reinjections[-1]["plan"]["names"] == [PLAN]
    # Missing after the compaction: caught.
    c2 = InvariantChecker()
    observe(c2, req(*history, assistant("ok"), user("go")))
    found = observe(c2, req(summary, assistant("ok"), user("go on")), after)
    assert found == [f"reinjected: plan after the compaction: [] where ['{PLAN}'] were expected"]
    # A MultiEdit that creates the plan owes it as well.
    c4 = InvariantChecker()
    observe(c4, req(user("hi", context=True), reinjected(PLAN_MODE), assistant("planning"),
                    *plan_written(how=MULTI_EDIT_PLAN), assistant("ok"), user("go")))
    found = observe(c4, req(summary, assistant("ok"), user("go on")), after)
    assert found == [f"reinjected: plan after the compaction: [] where ['{PLAN}'] were expected"]
    # A write that failed, or of another file, leaves no plan owed.
    for other in (plan_written(error=True), plan_written(path="/work/s/notes.md")):
        c3 = InvariantChecker()
        observe(c3, req(user("hi", context=True), reinjected(PLAN_MODE), assistant("p"), *other,
                        assistant("ok"), user("go")))
        assert observe(c3, req(summary, assistant("ok"), user("go on")), after) == []


def todo_written(tool_id: str = "t1", todos: list[dict[str, str]] | None = None,
                 error: bool = False) -> list[dict[str, Any]]:
    given = [{"content": "Fix it", "status": "in_progress", "activeForm": "Fixing it"}] if todos is None else todos
    return [{"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": "TodoWrite",
                                                "input": {"todos": given}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id,
                                          "content": "Todos have been modified successfully.", "is_error": error}]}]


def test_a_compaction_must_put_back_the_task_list() -> None:
    from sidecar.core.todos import REINJECTED_INTRO

    history = [user("hi", context=True), assistant("on it"), *todo_written()]
    summary = user("summary", context=True)
    after = headers(epoch=2, cause="compaction")
    c = InvariantChecker()
    assert observe(c, req(*history, assistant("ok"), user("go"))) == []
    good = reinjected(f"{REINJECTED_INTRO}\n1. [~] Fix it")
    assert observe(c, req(summary, assistant("ok"), good), after) == []
    assert c.reinjections[-1]["todos"]["names"] == ["task list"]
    # Missing after the compaction: caught.
    c2 = InvariantChecker()
    observe(c2, req(*history, assistant("ok"), user("go")))
    found = observe(c2, req(summary, assistant("ok"), user("go on")), after)
    assert found == ["reinjected: todos after the compaction: [] where ['task list'] were expected"]
    # A call that failed, or a list emptied since, owes nothing.
    for other in (todo_written(error=True), [*todo_written("t1"), *todo_written("t2", todos=[])]):
        c3 = InvariantChecker()
        observe(c3, req(user("hi", context=True), assistant("p"), *other, assistant("ok"), user("go")))
        assert observe(c3, req(summary, assistant("ok"), user("go on")), after) == []


def test_a_plan_past_its_budget_is_caught() -> None:
    big = f"The plan written in plan mode, {PLAN}:\n" + "step " * 800  # ~800 tokens
    found = observe(InvariantChecker(), req(user("hi", context=True), assistant("ok"),
                                            reinjected(big)), headers(blocking=8_000))
    assert any(f.startswith(f"reinjected: plan: '{PLAN}' holds") for f in found), found


def test_mcp_tools_the_sidecar_announced_must_be_re_announced_after_a_compaction() -> None:
    from sidecar.mcp.announce import DELTA_MARK, REANNOUNCE_MARK

    tools = [{"name": "mcp__docs__fetch", "description": "d", "input_schema": {"type": "object"}}]
    announced = user(f"{DELTA_MARK}\nNow available:\n- mcp__docs__fetch: d", context=True)
    c = InvariantChecker()
    assert observe(c, {**req(announced), "tools": tools}) == []
    after = {**req(user("Summary.", context=True)), "tools": tools}
    found = observe(c, after, headers(2, "compaction"))
    assert len(found) == 1 and found[0].startswith("mcp_reannounced:")
    c = InvariantChecker()
    observe(c, {**req(announced), "tools": tools})
    again = user("Summary.", f"{REANNOUNCE_MARK}\n- mcp__docs__fetch", context=True)
    assert observe(c, {**req(again), "tools": tools}, headers(2, "compaction")) == []
    # Tools another client's recording offers, never announced by the sidecar, owe nothing.
    c = InvariantChecker()
    observe(c, {**req(user("hi", context=True)), "tools": tools})
    assert observe(c, after, headers(2, "compaction")) == []


def test_skills_another_client_loaded_owe_nothing_after_a_compaction() -> None:
    """A replayed recording's Skill calls were answered by the recorded client (Claude Code
    answers "Launching skill: ..."): the sidecar never loaded them, so nothing comes back."""
    c = InvariantChecker()
    history = [user("hi", context=True), *skill_call("t1", "hex-docs", "Launching skill: hex-docs")]
    assert observe(c, req(*history, assistant("ok"), user("go"))) == []
    assert observe(c, req(user("summary", context=True), assistant("ok"), user("next")),
                   headers(epoch=2, cause="compaction")) == []
