"""The fake server's responder during a replay: it plays the recorded model's part.

Main-conversation calls get the current turn's next recorded answer; compaction and
session-memory calls (their last block is one of our summary prompts, which ask for
``<summary>`` tags) get the fake's default summary. It runs on the server's threads.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
from typing import Any, Literal

from sidecar.core.compaction.prompts import compact_prompt, memory_update_prompt
from sidecar.core.conversation.messages import NO_CONTENT
from sidecar.fake_llm import FakeLLMServer, RecordedRequest, Reply, default_reply
from sidecar.replay.padding import ReplayPrefix
from sidecar.replay.script import ReplayScript

RequestKind = Literal["main", "summary"]
# One chunk per block: replay does not need streaming granularity, only the bytes.
WHOLE_BLOCK_CHUNK = 1 << 30
END_OF_SCRIPT = "(The recording has no further answer in this turn.)"
_SUMMARY_HEADS = tuple(p[:48] for p in (compact_prompt(None), memory_update_prompt("")))


def is_summary_request(body: dict[str, Any]) -> bool:
    """Whether a Messages request is one of our forked summary calls."""
    messages = body.get("messages") or []
    if not messages or not isinstance(messages[-1], dict):
        return False
    content = messages[-1].get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list) and content and isinstance(content[-1], dict):
        text = str(content[-1].get("text", "")) if content[-1].get("type") == "text" else ""
    else:
        return False
    return "<summary>" in text and text.startswith(_SUMMARY_HEADS)


class ScriptPlayer:
    def __init__(self, script: ReplayScript, server: FakeLLMServer, prefix: ReplayPrefix) -> None:
        self.script = script
        self.server = server
        self.prefix = prefix
        self.turn = -1
        self.position = 0
        self.kinds: dict[int, tuple[RequestKind, int]] = {}  # id(request) -> kind, turn
        # The requests themselves stay referenced so an id is never reused for another one.
        self._served: list[RecordedRequest] = []
        # id(request) -> message id of the recorded answer it was served.
        self.answered: dict[int, str] = {}
        self.main_served = 0
        self.fallbacks = 0
        self.played = 0
        # The recorded pauses played so far, in seconds: the session's clock and the fake's
        # cache clock both run that far ahead of the wall's, so the session measures the
        # gaps the fake's cache expires by (time-based clearing, the one-hour anchor).
        self.offset = 0.0
        self._last_time: float | None = None  # the recorded time the clocks have reached
        self._lock = threading.Lock()

    def clock(self) -> float:
        return time.time() + self.offset

    def start_turn(self, index: int) -> None:
        """The turn's prompt goes out after the pause the recording shows before its first
        answer."""
        with self._lock:
            self.turn = index
            self.position = 0
            self._elapse_to_next()

    def elapse(self) -> None:
        """The pause before the turn's next recorded answer passes while the last answer's
        tools run (a long build, a permission answered late), before its results go out."""
        with self._lock:
            self._elapse_to_next()

    def _elapse_to_next(self) -> None:
        turn = self.script.turns[self.turn] if self.turn >= 0 else None
        if turn is not None and self.position < len(turn.responses):
            self._advance_clocks(turn.responses[self.position].timestamp)

    def leftover(self) -> int:
        """Recorded answers of the current turn the engine did not ask for."""
        with self._lock:
            if self.turn < 0:
                return 0
            return max(len(self.script.turns[self.turn].responses) - self.position, 0)

    def __call__(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self._served.append(request)
            if is_summary_request(request.body):
                reply = default_reply(request)
                self.kinds[id(request)] = ("summary", self.turn)
                request.body = {}  # hundreds of these would hold the whole session many times
                return dataclasses.replace(reply, chunk_size=WHOLE_BLOCK_CHUNK)
            self.kinds[id(request)] = ("main", self.turn)
            request.body = {}
            self.main_served += 1
            turn = self.script.turns[self.turn] if self.turn >= 0 else None
            if turn is None or self.position >= len(turn.responses):
                self.fallbacks += 1
                return Reply.text(END_OF_SCRIPT, chunk_size=WHOLE_BLOCK_CHUNK)
            index = self.position
            response = turn.responses[index]
            self.answered[id(request)] = response.message_id
            self.position += 1
            self.played += 1
            self._advance_clocks(response.timestamp)  # when no tool run has already
            stop = turn.stop_reason(index)
            if stop == "tool_use" and response.after_meta:
                self.prefix.release(response.after_meta)
            content = copy.deepcopy(response.content) or [{"type": "text", "text": NO_CONTENT}]
            return Reply(content=content, stop_reason=stop, chunk_size=WHOLE_BLOCK_CHUNK)

    def _advance_clocks(self, recorded: float | None) -> None:
        """Move both clocks to a recorded answer's time (they never go back)."""
        if recorded is None:
            return
        if self._last_time is not None and recorded > self._last_time:
            gap = recorded - self._last_time
            self.offset += gap
            self.server.advance_clock(gap)
        if self._last_time is None or recorded > self._last_time:
            self._last_time = recorded
