"""Tier 4, full compaction, with tier 5, the prompt-too-long retry, inside it.

The history (images, re-injected attachments and loaded skills stripped, pre-compact hook
output added, see ``sidecar.core.workspace.hooks``)
goes to a forked call with the compact prompt. The request is made to fit the window
before it is sent: a block that alone would take more than a quarter of the room is cut
(its start and end kept, a note between them), then the oldest API-round groups are
dropped, and if one round still holds too much its blocks are cut further. If the
provider still says it is too long, the oldest groups are dropped (or, with one group
left, its largest blocks halved) and the call is retried. So a conversation that holds a
message larger than any request (a runaway answer, a huge result) can always be
summarized. Afterwards the recently read files that are not stale are re-injected within
their budgets.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Awaitable, Callable, TypeVar

from sidecar.core.accounting.tokens import TextCounter, block_tokens, message_tokens
from sidecar.core.compaction.forked_call import forked_text_call, summary_answer_tokens
from sidecar.core.compaction.prompts import (
    PTL_MARKER,
    compact_prompt,
    format_summary,
    server_compaction_instructions,
)
from sidecar.core.compaction.reinjection import reinjected_context
from sidecar.core.conversation.messages import Block, Message, user_text
from sidecar.core.ports import ProviderError, ServerCompaction
from sidecar.core.turns.retry import call_with_retry
from sidecar.core.workspace.skills import skill_tool_use_ids

if TYPE_CHECKING:
    from sidecar.core.compaction.host import CompactionHost

log = logging.getLogger(__name__)
MAX_PTL_RETRIES = 3
# What the user sees of a summary the provider keeps encrypted.
# The capability an Anthropic models endpoint lists for on-demand compaction.
SERVER_COMPACTION_CAPABILITY = "compaction.summarize"
SUMMARY_HELD_BY_PROVIDER = "(the provider holds this summary; it is not readable here)"
# What the summarizer reads in place of a skill the Skill tool loaded.
SKILL_RESULT_STUB = "[skill loaded; its instructions are restored after the summary]"
# No block of the summary request takes more than this share of its room...
BLOCK_SHARE = 4
# ...and none is cut below this many tokens.
MIN_BLOCK_TOKENS = 256


@dataclass
class FullResult:
    summary: str
    attachments: list[Message] = field(default_factory=list)
    ptl_retries: int = 0
    # What the provider returned when it summarized (its blocks then lead the new context);
    # None for our own forked summary call.
    server: ServerCompaction | None = None
    # Why the server's compaction was not used, when it was tried.
    fallback_reason: str | None = None


def api_round_groups(records: list[Message]) -> list[list[Message]]:
    """Split at each new assistant response; a group is a response plus what follows it."""
    groups: list[list[Message]] = []
    current: list[Message] = []
    last_id: str | None = None
    for m in records:
        if m.kind == "assistant" and (m.message_id is None or m.message_id != last_id) and current \
                and any(x.kind == "assistant" for x in current):
            groups.append(current)
            current = []
        if m.kind == "assistant":
            last_id = m.message_id
        current.append(m)
    if current:
        groups.append(current)
    return groups


def drop_oldest_groups(records: list[Message], token_gap: int | None, session: CompactionHost) -> tuple[list[Message], int]:
    groups = api_round_groups([m for m in records if m.extra.get("ptlMarker") is None])
    if len(groups) <= 1:
        return records, 0
    counter = session.ledger.counter
    if token_gap:
        drop, freed = 0, 0.0
        while drop < len(groups) - 1 and freed < token_gap:
            freed += sum(message_tokens(m, counter) for m in groups[drop])
            drop += 1
    else:
        drop = max(1, len(groups) // 5)
    drop = min(drop, len(groups) - 1)
    kept = [m for g in groups[drop:] for m in g]
    # A kept head must not begin with tool results whose calls were dropped.
    while kept and kept[0].kind == "user" and any(b.get("type") == "tool_result" for b in kept[0].content):
        kept = kept[1:]
    marker = user_text(PTL_MARKER, is_meta=True, extra={"ptlMarker": True})
    return [marker, *kept], drop


def strip_for_summary(records: list[Message]) -> list[Message]:
    """What the summarizer reads: no re-injected copies, no media, and no loaded skill's
    instructions (a skill comes back whole after the summary, it need not be summarized)."""
    skill_ids = skill_tool_use_ids(records)
    out: list[Message] = []
    for m in records:
        if m.kind == "attachment" and (m.attachment or {}).get("reinjected"):
            continue
        if skill_ids and m.kind == "user" and any(
                b.get("type") == "tool_result" and b.get("tool_use_id") in skill_ids for b in m.content):
            m = m.with_content([
                {**b, "content": SKILL_RESULT_STUB} if b.get("type") == "tool_result"
                and b.get("tool_use_id") in skill_ids and not b.get("is_error") else b
                for b in m.content])
        if any(b.get("type") in ("image", "document") for b in m.content):
            content: list[Block] = [
                {"type": "text", "text": f"[{b['type']} omitted]"} if b.get("type") in ("image", "document") else b
                for b in m.content
            ]
            m = m.with_content(content)
        out.append(m)
    return out


def _cut_text(text: str, keep: int) -> str:
    """``text`` cut to about ``keep`` characters: its start and its end, a note between."""
    if len(text) <= keep:
        return text
    head = max(keep * 3 // 4, 0)
    tail = max(keep - head, 0)
    note = (f"\n\n[... {len(text) - head - tail:,} of {len(text):,} characters truncated here "
            "so the conversation fits the summary request ...]\n\n")
    return text[:head] + note + (text[len(text) - tail:] if tail else "")


def cut_block(block: Block, max_tokens: float, counter: TextCounter) -> Block:
    """``block`` as it goes into a summary request: cut to about ``max_tokens`` when larger."""
    tokens = block_tokens(block, counter)
    if tokens <= max_tokens:
        return block
    share = max_tokens / tokens
    kind = block.get("type")
    if kind == "text":
        text = str(block.get("text", ""))
        return {**block, "text": _cut_text(text, int(len(text) * share))}
    if kind == "thinking":
        # Cut thinking no longer matches its signature: it goes as the summarizer's reading
        # of it, unsigned (a provider that verifies signatures leaves it out).
        text = str(block.get("thinking", ""))
        return {"type": "thinking", "thinking": _cut_text(text, int(len(text) * share)),
                "signature": ""}
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, str):
            return {**block, "content": _cut_text(content, int(len(content) * share))}
        if isinstance(content, list):
            return {**block, "content": [
                {**part, "text": _cut_text(str(part.get("text", "")),
                                           int(len(str(part.get("text", ""))) * share))}
                if isinstance(part, dict) and part.get("type") == "text" else part
                for part in content]}
        return block
    if kind == "tool_use":
        size = len(str(block.get("input")))
        return {**block, "input": {"truncated": f"[an input of {size:,} characters, left out so "
                                   "the conversation fits the summary request]"}}
    return block


def cut_oversized(records: list[Message], max_tokens: float,
                  counter: TextCounter) -> tuple[list[Message], int]:
    """The records with every block over ``max_tokens`` cut; and how many were cut."""
    out: list[Message] = []
    cut = 0
    for m in records:
        content = [cut_block(b, max_tokens, counter) for b in m.content]
        changed = sum(1 for old, new in zip(m.content, content) if old is not new)
        if changed:
            cut += changed
            m = m.with_content(content)
        out.append(m)
    return out, cut


def halve_largest_block(records: list[Message], counter: TextCounter) -> tuple[list[Message], int]:
    """The records with their largest block cut to half (the last resort when no group can be
    dropped); 0 when none is large enough to cut."""
    largest = max((block_tokens(b, counter) for m in records for b in m.content), default=0.0)
    if largest <= MIN_BLOCK_TOKENS:
        return records, 0
    return cut_oversized(records, max(largest / 2, MIN_BLOCK_TOKENS), counter)


def fit_to_window(records: list[Message], session: CompactionHost) -> tuple[list[Message], int]:
    """Make the summary request fit the window with room to answer: oversized blocks cut,
    then the oldest groups dropped, then, while one round still holds too much, its blocks
    cut further. Returns the records and how many groups were dropped. A request that fits
    is sent as it is: it repeats the conversation the main requests cached, and a cut
    block would make the provider write all that follows it again."""
    limit = session.thresholds.size - summary_answer_tokens(session.thresholds)
    prefix = sum(session.prefix_parts().values())
    counter = session.ledger.counter

    def estimate(recs: list[Message]) -> float:
        return prefix + sum(message_tokens(m, counter) for m in recs) + 2_000

    if estimate(records) <= limit:
        return records, 0
    room = max(limit - prefix - 2_000, MIN_BLOCK_TOKENS * BLOCK_SHARE)
    records, _ = cut_oversized(records, room / BLOCK_SHARE, counter)
    dropped = 0
    for _ in range(50):
        over = estimate(records) - limit
        if over <= 0:
            break
        records, n = drop_oldest_groups(records, round(over), session)
        if n == 0:
            break
        dropped += n
    for _ in range(50):
        if estimate(records) <= limit:
            break
        records, n = halve_largest_block(records, counter)
        if n == 0:
            break
    return records, dropped


async def full_compact(session: CompactionHost, instructions: str | None, *,
                       server_ok: bool = True, fallback: str | None = None,
                       view: list[Message] | None = None) -> FullResult:
    """Summarize the conversation: by the provider where it may (``server_ok`` and the
    settings), else, or when it refuses, by our own summary call (``fallback`` then says why
    the provider's was not used). ``view``: the records to summarize, if not all the model sees."""
    records = strip_for_summary(session.transcript.model_view() if view is None else view)
    records = [m for m in records if not (m.kind == "system")]
    records, _ = fit_to_window(records, session)
    model = session.settings.compactModel
    if server_ok and uses_server_compaction(session):
        try:
            server, retries = await _with_ptl_retry(
                session, records, lambda recs: server_compaction(session, recs, instructions))
            summary = format_summary(server.summary) if server.summary else SUMMARY_HELD_BY_PROVIDER
            return FullResult(summary=summary, attachments=await reinjected_context(session, "full"),
                              ptl_retries=retries, server=server)
        except ProviderError as err:
            if not refused_compaction(err):
                raise  # the provider is failing (5xx, 429, a timeout): so would our summary
            # The provider refused (or produced nothing): our own summarizer still can.
            fallback = err.message
            log.info("server-side compaction refused (%s); summarizing locally", err.message)

    async def local(recs: list[Message]) -> str:
        raw = await forked_text_call(session, recs, compact_prompt(instructions), model=model)
        return format_summary(raw)

    summary, retries = await _with_ptl_retry(session, records, local)
    if not summary.strip():
        raise ValueError("the summarizer returned an empty summary")
    return FullResult(summary=summary, attachments=await reinjected_context(session, "full"),
                      ptl_retries=retries, fallback_reason=fallback)


def refused_compaction(err: ProviderError) -> bool:
    """Whether the provider turned the compaction itself down (a 4xx other than a rate limit,
    or an answer without a summary), rather than failing as it would any call."""
    if err.prompt_too_long or err.retryable:
        return False
    if err.status is None:
        return err.type == "api_error"  # answered, but with no compaction in it
    return 400 <= err.status < 500 and err.status != 429


def uses_server_compaction(session: CompactionHost) -> bool:
    """Whether full compaction goes to the provider: the setting allows it and the
    summarizing model's provider offers it."""
    backend = session.settings.compactionBackend
    if backend == "local":
        return False
    model = session.settings.compactModel
    # A models endpoint that lists capabilities and leaves this one out has said no: asking
    # anyway costs a refused call before our own summarizer runs. Without a list (OpenAI's
    # endpoint has none, an endpoint not reached yet) the provider's word stands.
    described = session.described(model)
    if described is not None and described.capabilities and (
            SERVER_COMPACTION_CAPABILITY not in described.capabilities):
        return False
    return session.provider_for(model).server_compaction


async def server_compaction(session: CompactionHost, records: list[Message],
                            instructions: str | None) -> ServerCompaction:
    """The provider summarizes the conversation itself, with our nine sections as its
    instructions; what it returns leads every later request.

    A provider that keeps the user's messages (OpenAI's) keeps the project's rules and date
    that led the first of them too: those lead every request anew, so that copy goes."""
    request = session.requests.build(records, call="summary")
    provider = session.provider_for(session.settings.compactModel)
    retry = session.settings.retry
    done = await call_with_retry(
        lambda: provider.compact(request, server_compaction_instructions(instructions)),
        max_retries=retry.maxRetries, base_delay=retry.baseDelayMs / 1000,
        max_delay=retry.maxDelayMs / 1000)
    if done.role == "user":
        leading = {b.get("text") for b in session.requests.leading_context() if b.get("type") == "text"}
        done = dataclasses.replace(done, blocks=[
            b for b in done.blocks if not (b.get("type") == "text" and b.get("text") in leading)])
    return done


S = TypeVar("S")


async def _with_ptl_retry(session: CompactionHost, records: list[Message],
                          summarize: Callable[[list[Message]], Awaitable[S]]) -> tuple[S, int]:
    """Tier 5: when the summary request itself is too long, drop the oldest API-round groups
    (by the stated gap, else a fifth) and try again, up to three times."""
    retries = 0
    while True:
        try:
            return await summarize(records), retries
        except ProviderError as err:
            if not err.prompt_too_long or retries >= MAX_PTL_RETRIES:
                raise
            records, n = drop_oldest_groups(records, err.token_gap, session)
            if n == 0:
                # One round is all there is: make its largest block smaller instead.
                records, n = halve_largest_block(records, session.ledger.counter)
            if n == 0:
                raise
            retries += 1
