"""One agent turn, in process: the requests a turn makes, what it streams and what it keeps,
when the model answers, calls tools, is cancelled midway or keeps failing; and /clear."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from sidecar.contract.errors import ProviderFailed
from sidecar.core.conversation.messages import INTERRUPTED_MARK
from sidecar.core.conversation.normalize import MEDIA_REMOVED
from sidecar.core.ports import ProviderError
from sidecar.core.turns.request_labels import EPOCH_HEADER
from tests.unit.core.engine_builders import (
    Reply,
    build_engine,
    epoch_of,
    read,
    request_tokens,
    shell,
    texts,
)


@pytest.mark.parametrize("with_prefix", [True, False])
async def test_a_plain_turn_sends_one_request_and_keeps_the_answer(
        tmp_path: Path, with_prefix: bool) -> None:
    engine = build_engine(tmp_path, prefix=with_prefix)
    engine.provider.main.append(Reply("Hello there, how can I help with the code today?"))

    answer = await engine.prompt("hi")

    assert answer["stopReason"] == "end_turn"
    [request] = engine.provider.requests
    assert [m.role for m in request.messages] == ["user"]
    blocks = request.messages[0].content
    if with_prefix:
        assert request.system == [{"type": "text", "text": "You are a coding assistant in tests."}]
        assert blocks[0]["text"] == engine.user_context and blocks[1:] == [{"type": "text", "text": "hi"}]
    else:
        assert request.system == [] and blocks == [{"type": "text", "text": "hi"}]
    assert [t.name for t in request.tools] == ["Read", "Bash"]
    assert request.context_management is not None  # tier 2 asked of the server
    assert request.headers[EPOCH_HEADER].endswith(":start")
    # The answer streams to the editor whole, and is kept with its usage as the anchor.
    assert engine.editor.streamed_text() == "Hello there, how can I help with the code today?"
    checkpoint, user, assistant = engine.session.transcript.records
    assert checkpoint.subtype == "checkpoint"  # taken before the turn, for a rewind
    assert user.text() == "hi" and assistant.text().startswith("Hello there")
    assert assistant.usage is not None and assistant.usage.input_tokens == request_tokens(request)
    assert engine.session.ledger.used() == assistant.usage.context_tokens
    assert answer["gauge"]["used"] == assistant.usage.context_tokens
    assert engine.fired() == [] and engine.boundaries() == []
    assert engine.session.info.title == "hi"
    engine.assert_clean()


async def test_a_tool_round_appends_whole_results_and_asks_again(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    source = engine.write("main.py", 300)
    engine.provider.main.extend([Reply("Let me look.", tools=[read(source), shell("ls", 50)]),
                                 Reply("It prints a greeting.")])

    answer = await engine.prompt("what does main.py do?")

    assert answer["stopReason"] == "end_turn"
    first, second = engine.provider.requests
    assert [m.role for m in second.messages] == ["user", "assistant", "user"]
    uses = [b for b in second.messages[1].content if b["type"] == "tool_use"]
    results = second.messages[2].content
    assert [b["type"] for b in results] == ["tool_result", "tool_result"]
    assert [b["tool_use_id"] for b in results] == [u["id"] for u in uses]
    assert results[0]["content"] == source.read_text()
    assert results[1]["content"].startswith("ls lorem") and not results[1].get("is_error")
    # The second request repeats the first byte for byte and only adds to it.
    assert second.messages[0] == first.messages[0] and second.headers == first.headers
    # The results are one record, tied to the response that asked for them.
    records = [m for m in engine.session.transcript.records if m.subtype != "checkpoint"]
    assert [m.kind for m in records] == ["user", "assistant", "user", "assistant"]
    assert records[2].extra["sourceToolMessageId"] == records[1].message_id
    # The editor saw each call go from pending to completed.
    for use in uses:
        states = [u.get("status") for u in engine.editor.updates
                  if u.get("toolCallId") == use["id"]]
        assert states == ["pending", "in_progress", "completed"]
    assert engine.session.file_state.get(source) is not None  # the Read is remembered
    engine.assert_clean()


async def test_an_unknown_tool_is_an_error_result_and_the_turn_goes_on(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    engine.provider.main.extend([Reply("Trying.", tools=[("Teleport", {"to": "mars"})]),
                                 Reply("That tool does not exist.")])

    await engine.prompt("go")

    result = engine.provider.requests[1].messages[2].content[0]
    assert result["is_error"] is True and "Unknown tool 'Teleport'" in result["content"]
    engine.assert_clean()


async def test_cancel_midway_keeps_the_partial_answer_marked(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    engine.provider.main.append(Reply("The first part of the answer, then more and more text.",
                                      hang_after=2))

    turn = asyncio.ensure_future(engine.prompt("explain"))
    await asyncio.wait_for(engine.provider.hung.wait(), 5)
    await engine.cancel()
    answer = await asyncio.wait_for(turn, 5)

    assert answer["stopReason"] == "cancelled"
    partial = "The first part of the answer, th"  # two 16-character chunks
    last = engine.session.transcript.records[-1]
    assert last.kind == "assistant" and last.stop_reason == "interrupted"
    assert last.extra == {"interrupted": True}
    assert last.text() == f"{partial}\n\n{INTERRUPTED_MARK}"
    assert engine.editor.streamed_text() == partial  # what the user saw is what is kept
    assert last.usage is None  # no usage for an answer that never completed

    # The next turn shows the model its own interrupted answer.
    engine.provider.main.append(Reply("Picking up again."))
    await engine.prompt("go on")
    request = engine.provider.requests[-1]
    assert [m.role for m in request.messages] == ["user", "assistant", "user"]
    assert request.messages[1].content[0]["text"] == f"{partial}\n\n{INTERRUPTED_MARK}"
    engine.assert_clean()


async def test_a_provider_failure_after_retries_is_recorded_and_never_sent(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    overloaded = ProviderError("Overloaded", status=529, type="overloaded_error", retryable=True)
    engine.provider.main.extend([Reply(error=overloaded) for _ in range(3)])

    with pytest.raises(ProviderFailed) as failed:
        await engine.prompt("hello?")

    assert failed.value.data == {"status": 529, "type": "overloaded_error", "retryAfter": None,
                                 "fix": "The provider is busy: send the prompt again in a moment.",
                                 "retryable": True}
    assert len(engine.provider.requests) == 3  # the first try and maxRetries=2 more
    retries = [s for s in engine.editor.statuses if s[0] == "warning" and "retry" in s[2]]
    assert len(retries) == 2
    error = engine.session.transcript.records[-1]
    assert error.is_api_error and error.text() == "API Error: Overloaded"
    assert error.stop_reason == "error"

    engine.provider.main.append(Reply("Back."))
    await engine.prompt("hello again")
    request = engine.provider.requests[-1]
    assert "API Error" not in texts(request)
    # The failed prompt and the new one read as one user message, the earlier text first.
    assert [m.role for m in request.messages] == ["user"]
    assert [b.get("text") for b in request.messages[0].content[1:]] == ["hello?", "hello again"]
    engine.assert_clean()


async def test_after_a_failed_call_the_gauge_is_the_next_requests_size(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await engine.prompt("hello")
    refused = ProviderError("invalid request: " + "details " * 50, status=400,
                            type="invalid_request_error")
    engine.provider.main.append(Reply(error=refused))
    with pytest.raises(ProviderFailed):
        await engine.prompt("this one fails")

    assert engine.session.ledger.used() == request_tokens(engine.session.requests.build())


async def test_a_stream_cut_midway_is_retried_and_the_partial_text_discarded(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    cut = ProviderError("stream cut", type="stream_interrupted", retryable=True)
    engine.provider.main.extend([Reply("Half an answer that breaks off", error=cut, error_after=1),
                                 Reply("A whole answer.")])

    await engine.prompt("talk")

    assert engine.session.transcript.records[-1].text() == "A whole answer."
    assert "[retrying after a provider error]" in engine.editor.streamed_text()
    engine.assert_clean()


async def test_a_refused_image_is_not_sent_again(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    image = base64.b64encode(b"\x89PNG fake image bytes").decode()
    refused = ProviderError("messages.0.content.2.image.source.base64: image exceeds 5 MB maximum",
                            status=400, type="invalid_request_error")
    engine.provider.main.append(Reply(error=refused))

    with pytest.raises(ProviderFailed):
        await engine.prompt([{"type": "text", "text": "what is in this picture?"},
                             {"type": "image", "mimeType": "image/png", "data": image}])

    assert len(engine.provider.requests) == 1  # a 400 is not retried
    sent = engine.provider.requests[0].messages[0].content
    assert any(b["type"] == "image" for b in sent)

    engine.provider.main.append(Reply("I cannot see images; describe it?"))
    await engine.prompt("then without it")
    again = engine.provider.requests[-1].messages[0].content
    assert not any(b["type"] == "image" for b in again)
    assert {"type": "text", "text": MEDIA_REMOVED} in again
    assert again[-1] == {"type": "text", "text": "then without it"}
    # The transcript keeps the image; only what is sent leaves it out.
    assert any(b.get("type") == "image" for b in engine.session.transcript.records[1].content)
    engine.assert_clean()


async def test_clear_starts_over_with_the_user_context_still_first(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    engine.provider.main.extend([Reply("Reading.", tools=[shell("cat log", 400)]),
                                 Reply("The log is long."), Reply("Fresh start.")])
    await engine.prompt("read the log")
    before = engine.session.ledger.used()
    epoch_before = epoch_of(engine.provider.requests[-1])
    records_before = len(engine.session.transcript.records)

    cleared = await engine.prompt("/clear")

    assert cleared["stopReason"] == "end_turn"
    assert len(engine.provider.requests) == 2  # /clear asks nothing of the model
    assert engine.boundary_tiers() == ["clear"]
    # Only the prefix is left (system, tools, user context).
    assert engine.session.ledger.used() == sum(engine.session.prefix_parts().values()) < before
    assert cleared["gauge"]["compactions"] == {}  # a /clear is no compaction

    await engine.prompt("new topic")
    request = engine.provider.requests[-1]
    assert [m.role for m in request.messages] == ["user"]
    assert request.messages[0].content == [{"type": "text", "text": engine.user_context},
                                           {"type": "text", "text": "new topic"}]
    number, cause = epoch_of(request)
    assert cause == "clear" and number > epoch_before[0]
    # Nothing is lost: the transcript still holds everything before the boundary (then the
    # boundary, the new prompt's checkpoint, the prompt and the answer).
    assert len(engine.session.transcript.records) == records_before + 4
    engine.assert_clean()


async def test_a_turn_stops_at_max_turn_requests(tmp_path: Path) -> None:
    engine = build_engine(tmp_path, maxTurnRequests=3)
    engine.provider.main.extend([Reply("again", tools=[shell(f"step {i}", 5)]) for i in range(5)])

    answer = await engine.prompt("loop")

    assert answer["stopReason"] == "max_turn_requests"
    assert len(engine.provider.requests) == 3
    # The last round's results are in the transcript, so the next request is whole.
    assert engine.session.transcript.records[-1].tool_results()
    await engine.prompt("stop now")
    engine.assert_clean()
