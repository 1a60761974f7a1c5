"""Script extraction: recorded records -> turns, scripted answers and recorded tool outputs."""

from __future__ import annotations

from sidecar.core.conversation.messages import Message, Usage
from sidecar.replay.script import CONTINUE_TEXT, build_script, command_of, reply_blocks

USAGE = Usage(
    input_tokens=3,
    cache_creation_input_tokens=100,
    cache_read_input_tokens=20_000,
    output_tokens=50,
)


def prompt(text: str, *, meta: bool = False, at: str = "2026-01-01T00:00:00Z") -> Message:
    return Message(
        kind="user", content=[{"type": "text", "text": text}], is_meta=meta, timestamp=at
    )


def answer(
    mid: str,
    *blocks: dict,
    usage: Usage = USAGE,
    stop: str | None = None,
    at: str = "2026-01-01T00:00:10Z",
) -> Message:
    return Message(
        kind="assistant",
        content=list(blocks),
        message_id=mid,
        usage=usage,
        model="claude-opus-4-6",
        stop_reason=stop,
        timestamp=at,
    )


def use(tid: str, name: str = "Read", **inp: object) -> dict:
    return {"type": "tool_use", "id": tid, "name": name, "input": dict(inp)}


def result(tid: str, content: object = "output", error: bool = False) -> Message:
    block = {"type": "tool_result", "tool_use_id": tid, "content": content}
    if error:
        block["is_error"] = True
    return Message(kind="user", content=[block])


def text(t: str) -> dict:
    return {"type": "text", "text": t}


def test_prompts_start_turns_and_split_entries_are_one_answer() -> None:
    records = [
        prompt("fix the bug"),
        answer("m1", {"type": "thinking", "thinking": "look first", "signature": "REDACTED"}),
        answer("m1", text("Reading.")),
        answer("m1", use("t1", path="a.py")),
        answer("m1", use("t2", "Bash", command="ls")),
        result("t2", "a.py"),
        result("t1", [{"type": "text", "text": "print(1)"}]),
        answer("m2", text("Done."), stop="end_turn"),
        prompt("thanks, now tests"),
        answer("m3", text("Sure.")),
    ]
    script = build_script(records)
    assert [t.action for t in script.turns] == ["prompt", "prompt"]
    first, second = script.turns
    assert first.blocks == [text("fix the bug")]
    assert [r.message_id for r in first.responses] == ["m1", "m2"]
    m1 = first.responses[0]
    # Thinking keeps its text and loses the (redacted) signature; block order is kept.
    assert m1.content == [
        {"type": "thinking", "thinking": "look first"},
        text("Reading."),
        use("t1", path="a.py"),
        use("t2", "Bash", command="ls"),
    ]
    assert first.stop_reason(0) == "tool_use"
    assert first.stop_reason(1) == "end_turn"
    assert second.blocks == [text("thanks, now tests")]
    assert script.tool_names == ["Read", "Bash"]
    assert script.tool_results["t1"].content == [{"type": "text", "text": "print(1)"}]
    assert script.tool_results["t2"].content == "a.py"
    assert script.responses == 3
    # Recorded calls are deduplicated by message id.
    assert [c.message_id for c in script.calls] == ["m1", "m2", "m3"]
    assert script.first_call_messages == records[:1]


def test_interrupted_turn_ends_on_its_last_answer_and_the_interruption_rides_along() -> None:
    records = [
        prompt("run it"),
        answer("m1", use("t1", "Bash", command="make")),
        result("t1", "[Request interrupted by user for tool use]", error=True),
        prompt("[Request interrupted by user for tool use]"),
        prompt("use the other target"),
        answer("m2", text("OK.")),
    ]
    script = build_script(records)
    first, second = script.turns
    # The recorded user stopped the turn after m1: replay must not ask for another answer.
    assert first.stop_reason(0) == "end_turn"
    assert script.tool_results["t1"].is_error
    assert second.blocks == [
        text("[Request interrupted by user for tool use]"),
        text("use the other target"),
    ]


def test_meta_text_joins_the_prompt_or_follows_the_tool_round() -> None:
    records = [
        prompt("<system-reminder>todo list is empty</system-reminder>", meta=True),
        prompt("start"),
        answer("m1", use("t1")),
        result("t1"),
        prompt("<system-reminder>file changed</system-reminder>", meta=True),
        answer("m2", text("done")),
    ]
    script = build_script(records)
    assert len(script.turns) == 1
    turn = script.turns[0]
    assert turn.blocks == [
        text("<system-reminder>todo list is empty</system-reminder>"),
        text("start"),
    ]
    assert turn.responses[0].after_meta == ["<system-reminder>file changed</system-reminder>"]


def test_answer_after_a_finished_answer_is_a_continuation_turn() -> None:
    records = [prompt("go"), answer("m1", text("first")), answer("m2", text("second"))]
    script = build_script(records)
    assert [t.blocks for t in script.turns] == [[text("go")], [text(CONTINUE_TEXT)]]


def test_manual_compaction_and_clear_become_actions_once() -> None:
    boundary = Message(
        kind="system",
        subtype="compact_boundary",
        content=[text("Conversation compacted")],
        extra={"compactMetadata": {"trigger": "manual", "preTokens": 140_000}},
    )
    auto = Message(
        kind="system",
        subtype="compact_boundary",
        content=[text("Conversation compacted")],
        extra={"compactMetadata": {"trigger": "auto", "preTokens": 167_000}},
    )
    summary = Message(
        kind="user", content=[text("This session is being continued...")], is_compact_summary=True
    )
    records = [
        prompt("one"),
        answer("m1", text("a")),
        boundary,
        summary,
        prompt(
            "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n"
            "<command-args></command-args>"
        ),
        prompt("<local-command-stdout>Compacted</local-command-stdout>"),
        prompt("two"),
        answer("m2", use("t1")),
        result("t1"),
        auto,
        summary,  # automatic compactions are left to the engine
        answer("m3", text("b")),
        prompt("<command-name>/clear</command-name><command-args></command-args>"),
        prompt(
            "<command-name>/compact</command-name><command-args>keep the API notes</command-args>"
        ),
        prompt("three"),
        answer("m4", text("c")),
    ]
    script = build_script(records)
    assert [t.action for t in script.turns] == [
        "prompt",
        "compact",
        "prompt",
        "clear",
        "compact",
        "prompt",
    ]
    assert script.turns[1].instructions is None
    assert script.turns[2].blocks == [
        text("<local-command-stdout>Compacted</local-command-stdout>"),
        text("two"),
    ]
    assert [r.message_id for r in script.turns[2].responses] == ["m2", "m3"]
    assert script.turns[4].instructions == "keep the API notes"


def test_api_errors_are_not_answers_and_trailing_prompts_are_counted() -> None:
    error = Message(
        kind="assistant",
        content=[text("API Error: overloaded")],
        model="<synthetic>",
        is_api_error=True,
    )
    records = [prompt("hi"), error, prompt("hi again"), answer("m1", text("hello")), prompt("bye")]
    script = build_script(records)
    assert len(script.turns) == 1
    assert script.turns[0].blocks == [text("hi"), text("hi again")]
    assert script.unanswered_prompts == 1
    assert script.first_call_messages == records[:3]


def test_reply_blocks_keep_only_what_a_model_streams() -> None:
    blocks = [
        text(""),
        text("x"),
        {"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}},
        {"type": "tool_use", "id": "t", "name": "Read", "input": "not a dict"},
        {"type": "redacted_thinking", "data": "abc"},
    ]
    assert reply_blocks(blocks) == [
        text("x"),
        {"type": "tool_use", "id": "t", "name": "Read", "input": {}},
        {"type": "redacted_thinking", "data": "abc"},
    ]


def test_command_of() -> None:
    assert command_of(
        "<command-name>/compact</command-name><command-args> focus </command-args>"
    ) == ("compact", "focus")
    assert command_of(
        "<command-message>init is analyzing</command-message>\n<command-name>/init</command-name>"
    ) == ("init", "")
    assert command_of("plain text") is None
