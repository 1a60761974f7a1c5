"""A one-shot model call over the conversation (summaries, session memory updates)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from sidecar.core.compaction.microcompact import anthropic_context_management
from sidecar.core.conversation.messages import Message, user_text
from sidecar.core.models.catalog import api_model_id
from sidecar.core.ports import Completed, TextDelta
from sidecar.core.turns.answer_cap import AnswerCut
from sidecar.core.turns.request_labels import CallKind
from sidecar.core.turns.retry import Restarted, stream_with_retry

if TYPE_CHECKING:
    from sidecar.core.accounting.window import Thresholds
    from sidecar.core.compaction.host import CompactionHost

SUMMARY_MAX_TOKENS = 20_000


def summary_answer_tokens(thresholds: Thresholds) -> int:
    """What a summary's answer may take: the model's output limit, at most 20,000."""
    return min(thresholds.max_output_tokens, SUMMARY_MAX_TOKENS)


async def forked_text_call(session: CompactionHost, records: list[Message], prompt: str,
                           model: str | None = None, *, call: CallKind = "summary") -> str:
    """Send the records plus ``prompt`` and return the answer's text.

    The same system prefix and tools are sent so the provider's prompt cache is shared
    with the main conversation (unless another model summarizes).
    """
    request = session.requests.build([*records, user_text(prompt)], call=call)
    request = dataclasses.replace(
        request,
        model=api_model_id(model)[0] if model else request.model,
        max_tokens=min(request.max_tokens, SUMMARY_MAX_TOKENS),
        # A breakpoint on the prompt lets the cache lookup reach back to the prefix the
        # main conversation's last call cached, so the fork reads it instead of paying again.
        cache_latest_message=True,
        context_management=None,
    )
    provider = session.provider_for(model)
    if provider.server_context_management:
        # The same context management as the main conversation's requests, so the fork is
        # no larger than they are.
        request = dataclasses.replace(
            request, context_management=anthropic_context_management(session.settings))
    retry = session.settings.retry
    text = ""
    streamed: list[str] = []
    async for event in stream_with_retry(provider, request, max_retries=retry.maxRetries,
                                         base_delay=retry.baseDelayMs / 1000,
                                         max_delay=retry.maxDelayMs / 1000,
                                         max_answer_bytes=session.settings.maxAnswerBytes):
        if isinstance(event, TextDelta):
            streamed.append(event.text)
        elif isinstance(event, Restarted):
            streamed.clear()
        elif isinstance(event, AnswerCut):
            # A runaway answer: what arrived within the bound is the answer.
            text = "".join(streamed)
        elif isinstance(event, Completed):
            text = "".join(b.get("text", "") for b in event.content if b.get("type") == "text")
    return text
