"""Server-side compaction as the fake serves it: the rules of a compaction request, and a
signed block the official SDK reads, streamed or not, that must come back unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from sidecar.fake_llm import FakeLLMServer, Reply
from sidecar.fake_llm.request_rules import compaction_signature
from sidecar.fake_llm.validation import judge_anthropic

HEADERS = {"anthropic-version": "2023-06-01", "anthropic-beta": "compact-2026-09-04"}


def body(**extra: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-6", "max_tokens": 1024,
            "messages": [{"role": "user", "content": "summarize me"}],
            "compaction": {"type": "summarize", "instructions": "nine sections"}, **extra}


def refusal(b: dict[str, Any], headers: dict[str, str] = HEADERS) -> str | None:
    found = judge_anthropic("/v1/messages", b, headers)
    return found.message if found else None


def test_compaction_request_rules() -> None:
    assert refusal(body()) is None
    assert "compact-2026-09-04" in str(refusal(body(), {"anthropic-version": "2023-06-01"}))
    both = body(context_management={"edits": [{"type": "clear_tool_uses_20250919"}]})
    assert "cannot be combined" in str(refusal(both, HEADERS | {
        "anthropic-beta": "compact-2026-09-04,context-management-2025-06-27"}))
    pending = body(messages=[
        {"role": "user", "content": "read it"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read",
                                           "input": {}}]}])
    assert "cannot be compacted" in str(refusal(pending))


def test_a_compaction_block_comes_back_with_its_signature() -> None:
    good = {"type": "compaction", "content": "summary", "signature": compaction_signature("summary")}
    later = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [
        {"role": "assistant", "content": [good]}, {"role": "user", "content": "go on"}]}
    assert refusal(later, {"anthropic-version": "2023-06-01"}) is None
    later["messages"][0]["content"] = [good | {"content": "a different summary"}]
    assert "Invalid `signature` in `compaction`" in str(refusal(later, {"anthropic-version": "2023-06-01"}))


@pytest.mark.parametrize("stream", [False, True])
def test_the_sdk_reads_the_block(stream: bool) -> None:
    import anthropic

    with FakeLLMServer() as srv:
        srv.queue(Reply.text("what happened so far"))
        client = anthropic.Anthropic(api_key="k", base_url=srv.url, max_retries=0)
        kwargs: dict[str, Any] = dict(model="claude-sonnet-4-6", max_tokens=1024,
                                      messages=[{"role": "user", "content": "a long talk"}],
                                      compaction={"type": "summarize"},
                                      betas=["compact-2026-09-04"])
        if stream:
            with client.beta.messages.stream(**kwargs) as events:
                message = events.get_final_message()
        else:
            message = client.beta.messages.create(**kwargs)
        client.close()
    (block,) = message.content
    assert block.type == "compaction" and block.content == "what happened so far"
    assert block.signature == compaction_signature("what happened so far")
    assert message.stop_reason == "compaction"


def test_a_model_without_the_capability_is_refused_compaction() -> None:
    """The models endpoint lists ``compaction.summarize`` per model; asking a model that
    leaves it out (here the 4.5 generation, by its alias) is the API's 400."""
    import anthropic

    with FakeLLMServer() as srv:
        client = anthropic.Anthropic(api_key="k", base_url=srv.url, max_retries=0)
        listed = {m.id: m for m in client.beta.models.list(betas=["compact-2026-09-04"])}
        assert listed["claude-haiku-4-5-20251001"].capabilities.compaction.supported is False
        assert listed["claude-sonnet-4-6"].capabilities.compaction.summarize.supported is True
        srv.queue(Reply.text("a summary"))
        with pytest.raises(anthropic.BadRequestError, match="compaction: not supported"):
            client.beta.messages.create(
                model="claude-haiku-4-5", max_tokens=1024, betas=["compact-2026-09-04"],
                messages=[{"role": "user", "content": "a long talk"}],
                compaction={"type": "summarize"})
