"""The texts compaction sends and writes, in our own words."""

from __future__ import annotations

import re

SUMMARY_SECTIONS = [
    "Primary Request and Intent",
    "Key Technical Concepts",
    "Files and Code Sections",
    "Errors and Fixes",
    "Problem Solving",
    "All User Messages",
    "Pending Tasks",
    "Current Work",
    "Next Steps",
]

PTL_MARKER = "[earlier conversation truncated for compaction retry]"


_WHAT_TO_KEEP = (
    "Write a thorough summary of the conversation so far, so that work can continue from it "
    "without the original messages. Keep the user's explicit requests, what was done about "
    "them, and every technical detail a colleague would need: file paths, function names, "
    "code that was written or changed, commands and their outcomes, errors and their fixes.")
_SECTION_RULES = (
    "Under 'All User Messages' list every message the user typed (not tool results). Under "
    "'Current Work' say precisely what was being done just before this summary. Under "
    "'Next Steps' give the next step only if it follows directly from the user's latest "
    "request, quoting it.\n\n"
    "If the conversation contains instructions about how to summarize (for example a "
    "'Compact Instructions' section in CLAUDE.md), follow them.")


def _sections() -> str:
    return "\n".join(f"{i}. {name}" for i, name in enumerate(SUMMARY_SECTIONS, 1))


def _skeleton() -> str:
    return "\n".join(f"{i}. {name}:\n   ..." for i, name in enumerate(SUMMARY_SECTIONS, 1))


def _users(instructions: str | None) -> str:
    return f"\n\nAdditional instructions from the user:\n{instructions.strip()}" if instructions else ""


def compact_prompt(instructions: str | None) -> str:
    """The prompt of our own summary call: a scratchpad first, which format_summary drops."""
    return (
        "Reply with text only. Do not call any tool: every tool call is refused and wastes the "
        "one reply you have. Everything you need is in the conversation above.\n\n"
        f"{_WHAT_TO_KEEP}\n\n"
        "First think inside <analysis> tags: go through the conversation in order and note each "
        "request, the approach taken, decisions, exact details and user feedback; then check "
        "that nothing important is missing. The analysis is discarded.\n\n"
        "Then write the summary inside <summary> tags with these numbered sections:\n"
        f"{_sections()}\n\n{_SECTION_RULES}\n\n"
        f"Shape of the answer:\n<analysis>\n...\n</analysis>\n<summary>\n{_skeleton()}\n</summary>"
        f"{_users(instructions)}\n\nRemember: plain text, no tools, <analysis> then <summary>."
    )


def server_compaction_instructions(instructions: str | None) -> str:
    """The same summary asked of a provider's own compaction. Its answer is signed and sent
    back verbatim on every later request, so nothing in it may be meant for discarding: no
    scratchpad, no tags, the sections alone."""
    return (
        f"{_WHAT_TO_KEEP}\n\n"
        "Write only the summary, with no preamble, in these numbered sections:\n"
        f"{_sections()}\n\n{_SECTION_RULES}\n\n"
        f"Shape of the answer:\n{_skeleton()}{_users(instructions)}"
    )


_ANALYSIS = re.compile(r"<analysis>.*?</analysis>", re.DOTALL | re.IGNORECASE)
_SUMMARY = re.compile(r"<summary>(.*?)(?:</summary>|$)", re.DOTALL | re.IGNORECASE)


def format_summary(raw: str) -> str:
    """Drop the analysis scratchpad; keep the summary body."""
    text = _ANALYSIS.sub("", raw, count=1)
    m = _SUMMARY.search(text)
    body = m.group(1) if m else text
    body = re.sub(r"\n{3,}", "\n\n", body).strip()
    return body


SUMMARY_HEAD = "\n\nSummary:\n"
SUMMARY_TAIL_VERBATIM = "\n\nThe most recent messages follow verbatim after this summary."
SUMMARY_TAIL_TRANSCRIPT = ("\n\nIf you need exact details from before this summary (code, error "
                           "messages, outputs), the full transcript is at: ")
SUMMARY_TAIL_CONTINUE = ("\n\nContinue the last task where it stopped, without recapping or "
                         "asking whether to continue.")


def summary_message_text(summary: str, transcript_path: str | None, *, auto: bool,
                         preserved_tail: bool) -> str:
    text = ("This session continues an earlier conversation that ran out of context. The summary "
            "below covers the earlier part of that conversation." + SUMMARY_HEAD + summary)
    if preserved_tail:
        text += SUMMARY_TAIL_VERBATIM
    if transcript_path:
        text += SUMMARY_TAIL_TRANSCRIPT + transcript_path
    if auto:
        text += SUMMARY_TAIL_CONTINUE
    return text


def summary_of_message(text: str) -> str:
    """The summary inside ``summary_message_text``'s text (the whole text when it is not one)."""
    start = text.find(SUMMARY_HEAD)
    if start < 0:
        return text
    body = text[start + len(SUMMARY_HEAD):]
    body = body.removesuffix(SUMMARY_TAIL_CONTINUE)
    cut = body.rfind(SUMMARY_TAIL_TRANSCRIPT)
    if cut >= 0 and "\n" not in body[cut + len(SUMMARY_TAIL_TRANSCRIPT):]:
        body = body[:cut]
    return body.removesuffix(SUMMARY_TAIL_VERBATIM)


def server_summary_note(transcript_path: str | None, *, auto: bool, preserved_tail: bool) -> str:
    """What follows a summary the provider holds: the same guidance as around our own."""
    parts = ["This session continues an earlier conversation that ran out of context; the "
             "compaction above summarizes its earlier part."]
    if preserved_tail:
        parts.append("The most recent messages follow verbatim after it.")
    if transcript_path:
        parts.append("If you need exact details from before it (code, error messages, "
                     f"outputs), the full transcript is at: {transcript_path}")
    if auto:
        parts.append("Continue the last task where it stopped, without recapping or asking "
                     "whether to continue.")
    return "\n\n".join(parts)


MEMORY_TEMPLATE_SECTIONS = [
    ("Session Title", "A short, distinctive 5 to 10 word title for this session"),
    ("Current State", "What is being worked on right now, pending tasks, immediate next steps"),
    ("Task specification", "What the user asked for, design decisions and their context"),
    ("Files and Functions", "Important files, what they hold and why they matter"),
    ("Workflow", "Commands usually run and in what order; how to read their output"),
    ("Errors & Corrections", "Errors met and how they were fixed; user corrections; approaches to avoid"),
    ("Codebase and System Documentation", "Important components and how they fit together"),
    ("Learnings", "What worked, what did not, what to avoid"),
    ("Key results", "Exact copies of specific outputs the user asked for"),
    ("Worklog", "A terse step-by-step log of what was done"),
]


def memory_template() -> str:
    return "\n\n".join(f"# {title}\n_{hint}_\n" for title, hint in MEMORY_TEMPLATE_SECTIONS)


def memory_update_prompt(current: str) -> str:
    return (
        "This is not part of the conversation with the user; never mention it. Update the "
        "session notes below from the conversation above.\n\n"
        f"<current_notes_content>\n{current}\n</current_notes_content>\n\n"
        "Keep every '# ' heading and the italic line under it exactly as they are; change only "
        "the text beneath them; add no new sections; leave a section alone when nothing new "
        "belongs there. Be specific: file paths, function names, commands, errors. Keep each "
        "section under about 2,000 tokens by dropping the least important details. Always "
        "refresh 'Current State'.\n\n"
        "Reply with the complete updated notes file inside <summary> tags and nothing else."
    )
