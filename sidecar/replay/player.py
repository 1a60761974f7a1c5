"""The fake server's responder during a replay: it plays the recorded model's part.

Main-conversation calls get the current turn's next recorded answer; a subagent's calls
(their first message carries the prompt of a recorded Task call) get that subagent's next
recorded answer; compaction and session-memory calls (their last block is one of our
summary prompts, which ask for ``<summary>`` tags) get the fake's default summary. It runs
on the server's threads.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from sidecar.core.compaction.prompts import compact_prompt, memory_update_prompt
from sidecar.core.conversation.messages import NO_CONTENT
from sidecar.fake_llm import FakeLLMServer, RecordedRequest, Reply, default_reply
from sidecar.replay.padding import ReplayPrefix
from sidecar.replay.script import ReplayScript, Turn
from sidecar.replay.subagents import RecordedSubagent

RequestKind = Literal["main", "summary", "subagent"]
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


def _block_texts(message: Any) -> list[str]:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [content.strip()]
    if not isinstance(content, list):
        return []
    return [str(b.get("text", "")).strip() for b in content
            if isinstance(b, dict) and b.get("type") == "text"]


@dataclass
class SubagentPlay:
    """One recorded subagent being played: its answers, and how many were served."""

    agent: RecordedSubagent
    position: int = 0
    first_request: int | None = None  # id() of the first request it answered

    @property
    def turn(self) -> Turn:
        return Turn("prompt", responses=self.agent.responses)

    @property
    def done(self) -> bool:
        return self.position >= len(self.agent.responses)


class ScriptPlayer:
    def __init__(self, script: ReplayScript, server: FakeLLMServer, prefix: ReplayPrefix,
                 subagents: Iterable[RecordedSubagent] = ()) -> None:
        self.script = script
        self.plays = [SubagentPlay(agent) for agent in subagents]
        # A subagent's own tool calls, to the play they belong to.
        self._play_of_call = {call: play for play in self.plays for call in play.agent.tool_use_ids}
        # id(request) -> the subagent play a subagent request was served from.
        self.play_of: dict[int, SubagentPlay] = {}
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
        # The subagents the last main answer started (its Task calls), which run at once:
        # the clocks move to one's answer no further than the others' next answers, so how
        # the threads happen to interleave never ages another's cache (the cache a
        # subagent's first call would read from a sibling expired or not, run to run).
        self._running: list[SubagentPlay] = []
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

    def elapse(self, tool_call_id: str = "") -> None:
        """The pause before the next recorded request passes while the last answer's tools
        run (a long build, a permission answered late), before its results go out: the
        subagent's next request for a subagent's tool call, else the main turn's."""
        with self._lock:
            play = self._play_of_call.get(tool_call_id)
            if play is None:
                self._elapse_to_next()
            elif not play.done:
                self._advance_clocks(play.agent.responses[play.position].sent, play)

    def _elapse_to_next(self) -> None:
        turn = self.script.turns[self.turn] if self.turn >= 0 else None
        if turn is not None and self.position < len(turn.responses):
            self._advance_clocks(turn.responses[self.position].sent)

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
            play = self._subagent_play(request.body)
            if play is not None:
                self.kinds[id(request)] = ("subagent", self.turn)
                request.body = {}
                return self._play_subagent(request, play)
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
            tasks = {str(b.get("id")) for b in response.tool_uses}
            self._running = [p for p in self.plays if p.agent.tool_use_id in tasks]
            self._advance_clocks(response.sent)  # when no tool run has already
            stop = turn.stop_reason(index)
            if stop == "tool_use" and response.after_meta:
                self.prefix.release(response.after_meta)
            content = copy.deepcopy(response.content) or [{"type": "text", "text": NO_CONTENT}]
            return Reply(content=content, stop_reason=stop, chunk_size=WHOLE_BLOCK_CHUNK)

    def _subagent_play(self, body: dict[str, Any]) -> SubagentPlay | None:
        """The play a request belongs to: its first message has the Task call's prompt as a
        block of its own; of several such plays, the one as far along as the request."""
        if not self.plays:
            return None
        messages = body.get("messages") or []
        texts = set(_block_texts(messages[0])) if messages else set()
        matching = [p for p in self.plays if p.agent.prompt and p.agent.prompt in texts]
        if not matching:
            return None
        answers = sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")
        return next((p for p in matching if p.position == answers),
                    next((p for p in matching if not p.done), matching[0]))

    def _play_subagent(self, request: RecordedRequest, play: SubagentPlay) -> Reply:
        self.play_of[id(request)] = play
        if play.first_request is None:
            play.first_request = id(request)
        if play.done:
            self.fallbacks += 1
            return Reply.text(END_OF_SCRIPT, chunk_size=WHOLE_BLOCK_CHUNK)
        index = play.position
        response = play.agent.responses[index]
        self.answered[id(request)] = response.message_id
        play.position += 1
        self.played += 1
        self._advance_clocks(response.sent, play)
        content = copy.deepcopy(response.content) or [{"type": "text", "text": NO_CONTENT}]
        return Reply(content=content, stop_reason=play.turn.stop_reason(index),
                     chunk_size=WHOLE_BLOCK_CHUNK)

    def _advance_clocks(self, recorded: float | None, play: SubagentPlay | None = None) -> None:
        """Move both clocks to the time a recorded request went out (they never go back): the
        fake bills its cache at that moment, as the API did, not when the answer had streamed
        (a request sent 4:50 after the previous one read its cache; its answer was written at
        5:16). A subagent's no further than another subagent's next request beside it."""
        if recorded is None:
            return
        if play is not None:
            waiting = [p.agent.responses[p.position].sent for p in self._running
                       if p is not play and not p.done]
            recorded = min([recorded, *(t for t in waiting if t is not None)])
        if self._last_time is not None and recorded > self._last_time:
            gap = recorded - self._last_time
            self.offset += gap
            self.server.advance_clock(gap)
        if self._last_time is None or recorded > self._last_time:
            self._last_time = recorded
