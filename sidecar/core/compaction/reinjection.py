"""What follows a compaction's summary: the context the model had that a summary alone
would lose, each source within its own budget.

Every compaction tier calls ``reinjected_context`` once, after its summary: the files read
before the summary (full compaction only: session-memory compaction keeps its tail verbatim),
then each source in ``SOURCES``. Every record a source returns is an attachment marked
``reinjected``, so the next summary request strips it (the summarizer sees the conversation,
not our copies) and the next compaction injects it afresh.
"""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable, Literal

from sidecar.core.conversation.messages import Message
from sidecar.core.permissions.plan import reinjected_plan
from sidecar.core.todos import reinjected_todos
from sidecar.core.turns.deferred_tools import discovered_names
from sidecar.core.workspace.hooks import reinjected_hook_context
from sidecar.core.workspace.skills import reinjected_skill_listing, reinjected_skills

if TYPE_CHECKING:
    from sidecar.core.compaction.host import CompactionHost
    from sidecar.core.ports import McpSessionLink

Tier = Literal["full", "session_memory"]
# One source of re-injected context: what it adds after a compaction of the given tier.
Source = Callable[["CompactionHost", Tier], Awaitable[list[Message]]]


def read_regular_file(path: Path, root: Path, max_bytes: int) -> str | None:
    """A regular file's text, or None: gone, not a regular file, over ``max_bytes``, or now
    resolving outside ``root`` (swapped for a link out since it was read). Blocking: call it
    in a worker thread. A FIFO in place of a file once read must not hang the compaction."""
    try:
        if not path.resolve().is_relative_to(root.resolve()):
            return None
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        with open(path, "rb") as handle:
            return handle.read(max_bytes + 1).decode("utf-8", errors="replace")
    except OSError:
        return None


async def reinjected_files(session: CompactionHost, tier: Tier) -> list[Message]:
    """Recently read files that are not stale, within the post-compact budgets."""
    if tier != "full":
        return []
    cfg = session.settings.postCompact
    counter = session.ledger.counter
    # The budgets are the seed's for a 200K window and shrink with smaller ones, or the
    # re-injected files alone would fill a small window and compaction would loop.
    size = session.thresholds.size
    total_budget = min(cfg.totalTokens, size // 4)
    per_file = min(cfg.perFileTokens, size // 40)
    out: list[Message] = []
    too_large: list[str] = []
    total = 0.0
    for entry in session.file_state.recent(cfg.maxFiles):
        path = Path(entry.path) if not isinstance(entry, (str, Path)) else Path(entry)
        text = session.editor.buffer_text(path)
        if text is None:
            # Four bytes a token at most: anything larger is over the budget anyway.
            text = await asyncio.to_thread(read_regular_file, path, Path(session.transcript.cwd),
                                           per_file * 16)
            if text is None:
                continue
        if session.file_state.is_stale(path, text):
            continue
        tokens = counter.text(text)
        if tokens > per_file or total + tokens > total_budget:
            too_large.append(str(path))
            continue
        total += tokens
        out.append(Message(kind="attachment", attachment={"type": "file", "path": str(path), "reinjected": True},
                           content=[{"type": "text", "text": f"Contents of {path} (read before the summary, unchanged since):\n{text}"}],
                           is_meta=True))
    if too_large:
        names = "\n".join(f"- {p}" for p in too_large)
        out.append(Message(kind="attachment", attachment={"type": "compact_file_reference", "reinjected": True},
                           content=[{"type": "text", "text": "These files were read before the summary but are too large "
                                     f"to include again; use Read if you need them:\n{names}"}],
                           is_meta=True))
    return out


# In the order they follow the summary: files, the plan, the task list, the skill listing,
# the skills the model loaded, the SessionStart hooks' context, then the MCP servers'
# instructions and tools.
async def reinjected_mcp(session: CompactionHost, tier: Tier) -> list[Message]:
    """The MCP servers' instructions and the current MCP tool set, after every compaction of
    any tier (what the session's link to its servers says)."""
    link: McpSessionLink | None = getattr(session, "mcp", None)
    if link is None:
        return []
    text = link.reannounce(session.ledger, session.thresholds.size,
                           discovered_names(session.transcript.model_view()))
    if text is None:
        return []
    return [Message(kind="attachment", attachment={"type": "mcp_context", "reinjected": True},
                    content=[{"type": "text", "text": text}], is_meta=True)]


SOURCES: list[Source] = [reinjected_files, reinjected_plan, reinjected_todos, reinjected_skill_listing,
                         reinjected_skills, reinjected_hook_context, reinjected_mcp]


async def reinjected_context(session: CompactionHost, tier: Tier) -> list[Message]:
    """Every source's records after a compaction of ``tier``, in ``SOURCES`` order."""
    out: list[Message] = []
    for source in SOURCES:
        out.extend(await source(session, tier))
    return out
