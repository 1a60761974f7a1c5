"""Skills in Claude Code's layout: ``.claude/skills/<name>/SKILL.md`` in the workspace and in
the user's home, each a YAML front matter (``name``, ``description``) and a markdown body,
with any files it refers to beside it.

The model learns of them from a listing attachment (names and descriptions within a
budget), loads one with the ``Skill`` tool, and keeps every skill it loaded across
compactions: ``reinjected_skills`` puts their bodies back after each summary, most recently
invoked first, within a per-skill and a total budget. Changes on disk reach a session as
delta attachments through the workspace's prefix store (never a prefix rebuild).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Literal, Protocol

from sidecar.core.conversation.messages import Message, since_clear

if TYPE_CHECKING:
    from sidecar.core.accounting.tokens import TextCounter, TokenLedger

SkillSource = Literal["workspace", "user"]
SKILL_FILE = "SKILL.md"
SKILL_TOOL = "Skill"
# A SKILL.md larger than this is not a skill anyone means to load whole.
MAX_SKILL_BYTES = 512 * 1024
# Claude Code's caps: after a compaction each invoked skill keeps at most 5,000 tokens and
# all of them together 25,000. Small windows scale them down (see ``skill_budgets``).
POST_COMPACT_TOKENS_PER_SKILL = 5_000
POST_COMPACT_SKILLS_TOKENS = 25_000
# The listing: one line a skill, descriptions cut at this length, the whole within 1% of
# the window (in characters, four a token) and never under LISTING_MIN_CHARS.
LISTING_DESCRIPTION_CHARS = 250
LISTING_MIN_CHARS = 2_000
LISTING_HEADER = "The following skills are available for use with the Skill tool:"
# Each re-injected skill's text block starts with this (the invariant checker finds them by it).
INVOKED_SKILL_MARK = "Invoked skill: "
# How the Skill tool's result (a loaded skill) begins.
LOADED_SKILL_MARK = "Base directory for this skill: "
INVOKED_SKILLS_INTRO = (
    "These skills were invoked earlier in this conversation (most recent first); keep "
    "following their instructions."
)


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    path: Path  # the SKILL.md
    source: SkillSource
    body: str  # the markdown after the front matter
    digest: str  # of the whole file, to tell a changed skill

    @property
    def base_dir(self) -> Path:
        return self.path.parent

    def loaded_text(self) -> str:
        """What the Skill tool returns: where the skill lives, then its instructions."""
        return f"{LOADED_SKILL_MARK}{self.base_dir}\n\n{self.body}"


# ----- front matter -----------------------------------------------------------------------

_FRONT = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?", re.DOTALL | re.MULTILINE)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        return inner.replace("\\\"", "\"") if value[0] == "\"" else inner.replace("''", "'")
    return value


def parse_front_matter(text: str) -> tuple[dict[str, str], str]:
    """The front matter's top-level scalar keys (plain, quoted, ``|`` and ``>`` blocks) and
    the body after it. Enough YAML for SKILL.md; nested values are skipped."""
    match = _FRONT.match(text)
    if match is None:
        return {}, text
    fields: dict[str, str] = {}
    lines = match.group(1).splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        key_match = re.match(r"^([A-Za-z0-9_-]+):(.*)$", line)
        if key_match is None:
            continue
        key, value = key_match.group(1), key_match.group(2).strip()
        if value[:1] in ("|", ">"):
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1] in " \t"):
                block.append(lines[i].strip())
                i += 1
            joiner = "\n" if value[0] == "|" else " "
            fields[key] = joiner.join(block).strip()
            continue
        # Plain scalars may continue on indented lines.
        while i < len(lines) and lines[i][:1] in " \t" and lines[i].strip() and not value[:1] in "\"'":
            value += " " + lines[i].strip()
            i += 1
        fields[key] = _unquote(value)
    return fields, text[match.end():]


# ----- discovery --------------------------------------------------------------------------


def skill_roots(cwd: Path, home: Path) -> list[tuple[Path, SkillSource]]:
    """Where skills live, the workspace's first: its skill wins over the user's of one name."""
    return [(cwd / ".claude" / "skills", "workspace"), (home / ".claude" / "skills", "user")]


def read_skill(path: Path, source: SkillSource, within: Path | None = None) -> Skill | None:
    """One SKILL.md, or None when it is unreadable, too large, not a regular file, or
    resolves (symlinks followed) outside ``within``."""
    from sidecar.core.workspace.own_files import read_own_bytes

    try:
        raw = read_own_bytes(path, None if within is None else [within], limit=MAX_SKILL_BYTES)
    except OSError:
        return None
    text = raw.decode("utf-8", errors="replace")
    fields, body = parse_front_matter(text)
    name = fields.get("name") or path.parent.name
    description = fields.get("description") or _first_line(body)
    return Skill(name=name, description=description, path=path, source=source,
                 body=body.strip(), digest=hashlib.sha256(raw).hexdigest())


def _first_line(body: str) -> str:
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line
    return ""


def discover_skills(cwd: Path, home: Path) -> list[Skill]:
    """Every skill of the workspace and the user, by name (a workspace skill shadows a
    user's skill of the same name). Blocking: call it off the event loop."""
    found: dict[str, Skill] = {}
    for root, source in skill_roots(cwd, home):
        try:
            entries = sorted(root.iterdir()) if root.is_dir() else []
        except OSError:
            continue
        for entry in entries:
            # A workspace's skill must lie in the workspace: a symlinked SKILL.md or skill
            # folder must not bring a file from elsewhere to the model.
            skill = read_skill(entry / SKILL_FILE, source, cwd if source == "workspace" else None)
            if skill is not None and skill.name not in found:
                found[skill.name] = skill
    return sorted(found.values(), key=lambda s: s.name)


# ----- what the model reads ---------------------------------------------------------------


def listing_budget_chars(window_size: int) -> int:
    """1% of the window in characters (four a token), as Claude Code allows its listing."""
    return max(LISTING_MIN_CHARS, window_size * 4 // 100)


def listing_text(skills: Iterable[Skill], budget_chars: int) -> str | None:
    """Names and descriptions, one line a skill, within ``budget_chars``; skills past the
    budget are listed by name only, then counted. None when there are no skills."""
    skills = list(skills)
    if not skills:
        return None
    lines: list[str] = []
    used = len(LISTING_HEADER) + 2
    left_out = 0
    for skill in skills:
        description = " ".join(skill.description.split())
        if len(description) > LISTING_DESCRIPTION_CHARS:
            description = description[:LISTING_DESCRIPTION_CHARS - 1] + "…"
        line = f"- {skill.name}: {description}" if description else f"- {skill.name}"
        if used + len(line) + 1 > budget_chars:
            line = f"- {skill.name}"
            if used + len(line) + 1 > budget_chars:
                left_out += 1
                continue
        lines.append(line)
        used += len(line) + 1
    if left_out:
        lines.append(f"({left_out} more skills are not listed; the Skill tool loads any by name)")
    return LISTING_HEADER + "\n\n" + "\n".join(lines)


def listing_attachment(skills: list[Skill], window_size: int) -> Message | None:
    text = listing_text(skills, listing_budget_chars(window_size))
    if text is None:
        return None
    # Marked re-injected: the summarizer need not read it, and every compaction lists anew.
    return Message(kind="attachment",
                   attachment={"type": "skill_listing", "reinjected": True,
                               "skills": [s.name for s in skills]},
                   content=[{"type": "text", "text": text}], is_meta=True)


def change_text(kind: str, skill: Skill | None, name: str) -> str:
    if kind == "removed":
        return (f"The skill \"{name}\" was removed; it can no longer be loaded, and "
                "instructions it gave no longer apply.")
    assert skill is not None
    about = f" ({skill.description})" if skill.description else ""
    if kind == "added":
        return f"A new skill is available for use with the Skill tool: \"{name}\"{about}."
    return (f"The skill \"{name}\" changed on disk{about}. If you are following it, load it "
            "again with the Skill tool to get its current instructions.")


# ----- what was invoked -------------------------------------------------------------------


def invoked_skill_names(records: list[Message]) -> list[str]:
    """Skills the model loaded with the Skill tool and got since the last /clear, most
    recent first."""
    calls: dict[str, str] = {}
    order: list[str] = []
    for m in since_clear(records):
        if m.kind == "assistant":
            for block in m.tool_uses():
                if block.get("name") == SKILL_TOOL:
                    args = block.get("input")
                    name = args.get("skill") if isinstance(args, dict) else None
                    if isinstance(name, str) and name.strip():
                        calls[str(block.get("id"))] = name.strip().lstrip("/")
        elif m.kind == "user":
            for block in m.tool_results():
                name = calls.pop(str(block.get("tool_use_id")), None)
                if name is not None and not block.get("is_error"):
                    if name in order:
                        order.remove(name)
                    order.append(name)
    return list(reversed(order))


def skill_tool_use_ids(records: list[Message]) -> set[str]:
    return {str(b.get("id")) for m in records if m.kind == "assistant"
            for b in m.tool_uses() if b.get("name") == SKILL_TOOL}


class _Records(Protocol):
    @property
    def cwd(self) -> str: ...

    @property
    def records(self) -> list[Message]: ...


class _Window(Protocol):
    @property
    def size(self) -> int: ...

    @property
    def blocking_at(self) -> int: ...


class ReinjectionHost(Protocol):
    """What re-injecting skills reads of a session (a ``CompactionHost`` has it all; the
    prefix store imports this module, so the session's own types stay out of it)."""

    @property
    def transcript(self) -> _Records: ...

    @property
    def thresholds(self) -> _Window: ...

    @property
    def ledger(self) -> TokenLedger: ...


def skill_budgets(blocking_at: int) -> tuple[int, int]:
    """(total, per skill) tokens for the skills re-injected after a compaction: Claude
    Code's 25,000 and 5,000, scaled down in windows too small for them (a window whose
    blocking limit is under 200,000 tokens keeps an eighth of it, a fortieth a skill)."""
    return (min(POST_COMPACT_SKILLS_TOKENS, blocking_at // 8),
            min(POST_COMPACT_TOKENS_PER_SKILL, blocking_at // 40))


def cut_to_tokens(text: str, tokens: int, counter: TextCounter) -> str:
    """The head of ``text`` within ``tokens``, cut at a line where one is near."""
    if counter.text(text) <= tokens:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.text(text[:mid]) <= tokens:
            lo = mid
        else:
            hi = mid - 1
    head = text[:lo]
    newline = head.rfind("\n")
    return head[:newline] if newline > lo // 2 else head


def invoked_skill_block(skill: Skill, per_skill: int, counter: TextCounter) -> str:
    head = f"{INVOKED_SKILL_MARK}{skill.name}\n{skill.loaded_text()}"
    if counter.text(head) <= per_skill:
        return head
    note = (f"\n\n[The skill \"{skill.name}\" is cut here to fit the context after the summary; "
            f"call the Skill tool with skill \"{skill.name}\" to load all of it.]")
    room = per_skill - counter.text(note) - 1
    return cut_to_tokens(head, max(0, int(room)), counter) + note


def build_invoked_skills(skills: list[Skill], total: int, per_skill: int,
                         counter: TextCounter) -> tuple[list[dict[str, Any]], list[str]]:
    """The text blocks of the re-injected skills (in the order given) within the budgets,
    and the names of the skills that fit."""
    blocks: list[dict[str, Any]] = []
    names: list[str] = []
    used = counter.text(INVOKED_SKILLS_INTRO)
    for skill in skills:
        text = invoked_skill_block(skill, per_skill, counter)
        tokens = counter.text(text)
        if used + tokens > total:
            continue
        used += tokens
        blocks.append({"type": "text", "text": text})
        names.append(skill.name)
    return blocks, names


async def reinjected_skills(session: ReinjectionHost, tier: str) -> list[Message]:
    """The skills invoked in this conversation, back after the summary (both tiers)."""
    import asyncio

    names = invoked_skill_names(session.transcript.records)
    if not names:
        return []
    cwd = Path(session.transcript.cwd)
    home = Path.home()
    catalog = {s.name: s for s in await asyncio.to_thread(discover_skills, cwd, home)}
    skills = [catalog[n] for n in names if n in catalog]
    total, per_skill = skill_budgets(session.thresholds.blocking_at)
    blocks, kept = build_invoked_skills(skills, total, per_skill, session.ledger.counter)
    if not blocks:
        return []
    return [Message(kind="attachment",
                    attachment={"type": "invoked_skills", "reinjected": True, "skills": kept},
                    content=[{"type": "text", "text": INVOKED_SKILLS_INTRO}, *blocks],
                    is_meta=True)]


async def reinjected_skill_listing(session: ReinjectionHost, tier: str) -> list[Message]:
    """The listing again after a summary: the model must still know what it can load."""
    import asyncio

    skills = await asyncio.to_thread(discover_skills, Path(session.transcript.cwd), Path.home())
    message = listing_attachment(skills, session.thresholds.size)
    return [message] if message is not None else []


def render_skills(skills: list[Any]) -> str:
    """The ``/skills`` text: one line a skill, its source, and whether it was loaded."""
    if not skills:
        return ("No skills found. Add one as .claude/skills/<name>/SKILL.md in the workspace "
                "or in ~/.claude/skills/<name>/SKILL.md.")
    lines = [f"Skills ({len(skills)}):"]
    for s in skills:
        mark = " (loaded)" if s["invoked"] else ""
        about = f": {s['description']}" if s["description"] else ""
        lines.append(f"- {s['name']} [{s['source']}]{mark}{about}")
    return "\n".join(lines)
