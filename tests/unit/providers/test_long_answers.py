"""A long answer in small deltas is assembled in linear time by every adapter: its text
grows by pieces joined once, not by copying the whole text at every delta."""

from __future__ import annotations

import time
from typing import Any

from sidecar.providers.anthropic_messages import AnthropicProvider, _Assembly
from sidecar.providers.openai_chat import _Assembly as ChatAssembly
from sidecar.providers.openai_responses_stream import ResponsesAssembly

PIECE = "abcdefghijk "  # 12 bytes, as small as the fake's default chunks
DELTAS = 174_000  # about two megabytes, twice the default bound of one answer
TEXT = PIECE * DELTAS
# Assembling by ``block["text"] += piece`` took 7 to 90 seconds here.
BUDGET_SECONDS = 2.5


def timed(run: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = run()
    return result, time.perf_counter() - started


def test_anthropic() -> None:
    provider = AnthropicProvider.__new__(AnthropicProvider)
    state = _Assembly()

    def run() -> Any:
        provider._on_event({"type": "content_block_start", "index": 0,
                            "content_block": {"type": "text", "text": ""}}, state)
        delta = {"type": "content_block_delta", "index": 0,
                 "delta": {"type": "text_delta", "text": PIECE}}
        for _ in range(DELTAS):
            provider._on_event(delta, state)
        provider._on_event({"type": "message_stop"}, state)
        return state.completed()

    done, took = timed(run)
    print(f"\nanthropic: {len(TEXT):,} bytes in {DELTAS:,} deltas assembled in {took:.2f}s")
    assert done.content == [{"type": "text", "text": TEXT}] and took < BUDGET_SECONDS


def test_responses() -> None:
    state = ResponsesAssembly()

    def run() -> Any:
        delta = {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
                 "delta": PIECE}
        for _ in range(DELTAS):
            state.on_event(delta)
        state.on_event({"type": "response.output_item.done", "output_index": 0, "item": {
            "type": "message", "content": [{"type": "output_text", "text": TEXT}]}})
        state.on_event({"type": "response.completed", "response": {"id": "r", "model": "m"}})
        return state.completed()

    done, took = timed(run)
    print(f"\nresponses: assembled in {took:.2f}s")
    assert done.content == [{"type": "text", "text": TEXT}] and took < BUDGET_SECONDS


def test_chat_completions() -> None:
    state = ChatAssembly()

    def run() -> Any:
        for _ in range(DELTAS):
            state.text(PIECE)
        state.thinking("why")
        state.thinking(" not")
        return state.completed()

    done, took = timed(run)
    print(f"\nchat completions: assembled in {took:.2f}s")
    assert done.content[0] == {"type": "text", "text": TEXT} and took < BUDGET_SECONDS
    assert done.content[1]["thinking"] == "why not"
