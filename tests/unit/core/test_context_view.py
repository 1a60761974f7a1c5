"""`/context` as chat text: markdown with a heading, a summary line, a table of the breakdown
in words, plural-correct counts and a section for each thing the view holds."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from sidecar.core.accounting.context_view import render_context

VIEW: dict[str, Any] = {
    "gauge": {
        "model": "claude-sonnet-5-5", "used": 42_000, "size": 200_000, "percentUsed": 21.0,
        "level": "normal", "source": "provider", "autoCompactAt": 167_000,
        "windowSource": "anthropic /v1/models",
        "breakdown": {"system": 3_000, "tools": 12_000, "memoryFiles": 1_200, "messages": 20_000,
                      "toolResults": 5_800, "summary": 0, "free": 138_000, "reservedOutput": 20_000},
    },
    "exact": {"tokens": 42_100, "source": "count_tokens"},
    "prefix": {"parts": {}, "memoryFiles": [{"path": "/w/CLAUDE.md", "kind": "project",
                                             "tokens": 1_200, "chars": 4_800}]},
    "fileReadState": [{"path": "/w/src/calc.py", "tokens": 1, "stale": True},
                      {"path": "/w/src/app.py", "tokens": 900, "stale": False}],
    "messages": [{"role": "user", "content": "hi"}],
    "storage": {"skippedTranscriptLines": 2, "skippedTranscriptValues": 1,
                "skippedHistoryLines": 0, "skippedHistoryValues": 0,
                "pendingWrites": 1, "lastWriteError": None},
    "lastCompaction": {"tier": "full", "backend": "server", "trigger": "auto", "tokensBefore": 150_000},
    "modelStatus": {"message": "claude-sonnet-5 is deprecated", "source": "model catalog"},
    "skills": [{"name": "review", "description": "Reviews a diff\nline by line", "source": "workspace",
                "invoked": True},
               {"name": "notes", "description": "", "source": "user", "invoked": False}],
    "mcpServers": [{"name": "github", "status": "connected", "transport": "http",
                    "tools": ["mcp__github__search"]},
                   {"name": "db", "status": "failed", "transport": "stdio", "tools": [],
                    "error": "exited with 1"}],
    "skippedHookFiles": [],
    "workspaceTrust": {"trusted": False, "source": "none", "withheld": ["hooks in .claude/settings.json"]},
}


def test_a_heading_a_summary_line_and_the_facts_each_on_its_own_line() -> None:
    text = render_context(VIEW)
    lines = text.splitlines()
    assert lines[0] == "## **Context**: claude-sonnet-5-5"
    assert lines[1] == ""
    assert lines[2] == "**42,000 / 200,000 tokens (21%)**, level normal · 1 message in the model's view."
    for fact in ("- Auto-compact at 167,000 tokens",
                 "- Counted by the provider (source: provider)",
                 "- Window 200,000 tokens, from anthropic /v1/models",
                 "- The next request counted exactly: 42,100 tokens (count_tokens)",
                 "- Last compaction: full (auto), summarized by the provider"):
        assert fact in lines
    assert "**Model** claude-sonnet-5 is deprecated (per model catalog)" in lines
    # No two prose lines run together into one paragraph.
    for before, after in itertools.pairwise(lines):
        if before and after and not before.startswith(("- ", "|")):
            raise AssertionError(f"{before!r} runs on into {after!r}")


def test_the_breakdown_is_a_table_in_words() -> None:
    text = render_context(VIEW)
    table = text[text.index("| Part | Tokens |"):].split("\n\n")[0].splitlines()
    assert table == [
        "| Part | Tokens |", "|---|---:|",
        "| System prompt | 3,000 |", "| Tools | 12,000 |", "| Memory files | 1,200 |",
        "| Messages | 20,000 |", "| Tool results | 5,800 |", "| Summary | 0 |",
        "| Reserved for output | 20,000 |", "| Free | 138,000 |"]
    assert "memoryFiles" not in text and "reservedOutput" not in text and "toolResults" not in text


def test_an_unknown_part_still_reads_as_words() -> None:
    view = copy.deepcopy(VIEW)
    view["gauge"]["breakdown"]["cacheWrites"] = 7
    assert "| Cache writes | 7 |" in render_context(view)


def test_counts_are_plural_correct() -> None:
    view = copy.deepcopy(VIEW)
    assert "1 message in the model's view." in render_context(view)
    view["messages"] = [{}, {}]
    view["storage"] = {"skippedTranscriptLines": 1, "skippedTranscriptValues": 2,
                       "skippedHistoryLines": 3, "skippedHistoryValues": 1, "pendingWrites": 2}
    text = render_context(view)
    assert "2 messages in the model's view." in text
    assert "- transcript: 1 line and 2 values skipped when it was loaded" in text
    assert "- prompt history: 3 lines and 1 value skipped when last read" in text
    assert "- 2 records held in memory, not yet written" in text
    view["messages"] = []
    assert "0 messages in the model's view." in render_context(view)


def test_a_section_for_each_thing_the_view_holds() -> None:
    text = render_context(VIEW)
    sections = text.split("\n\n### ")[1:]
    by_title = {s.split("\n", 1)[0]: s.split("\n", 1)[1].strip() for s in sections}
    assert list(by_title) == ["Memory files", "Files read", "Skills", "MCP servers", "Storage",
                              "Not applied"]
    assert by_title["Memory files"] == "- `/w/CLAUDE.md` (1,200 tokens)"
    assert by_title["Files read"] == "- `/w/src/calc.py` (1 token, stale)\n- `/w/src/app.py` (900 tokens)"
    assert by_title["Skills"] == ("- **review** (workspace, loaded): Reviews a diff line by line\n"
                                  "- **notes** (user)")
    assert by_title["MCP servers"] == ("- **github**: connected (http), 1 tool\n"
                                       "- **db**: failed (stdio): exited with 1")
    assert by_title["Storage"] == ("- transcript: 2 lines and 1 value skipped when it was loaded\n"
                                   "- 1 record held in memory, not yet written")
    assert by_title["Not applied"] == ("This folder is not trusted (type /trust to trust it).\n\n"
                                       "- hooks in .claude/settings.json")


def test_empty_parts_leave_no_sections() -> None:
    view = copy.deepcopy(VIEW)
    view.update(prefix={"parts": {}, "memoryFiles": []}, fileReadState=[], skills=[], mcpServers=[],
                storage=None, lastCompaction=None, exact=None, modelStatus={},
                workspaceTrust={"trusted": True, "source": "sidecar", "withheld": []})
    view["gauge"].update(autoCompactAt=None, windowSource=None, source="estimate")
    text = render_context(view)
    assert "###" not in text and "**Model**" not in text and "Last compaction" not in text
    assert "- Auto-compact off" in text
    assert "- Estimated: no provider count yet, or just compacted (source: estimate)" in text


def test_a_path_with_backticks_stays_code() -> None:
    view = copy.deepcopy(VIEW)
    view["fileReadState"] = [{"path": "/w/odd`name.py", "tokens": 3, "stale": False}]
    assert "- `` /w/odd`name.py `` (3 tokens)" in render_context(view)


def test_it_renders_as_markdown_blocks() -> None:
    markdown_it = pytest.importorskip("markdown_it")
    tokens = markdown_it.MarkdownIt("commonmark").enable("table").parse(render_context(VIEW))
    opened = [t.tag for t in tokens if t.nesting == 1 and t.level == 0]
    assert opened[0] == "h2"
    assert opened.count("table") == 1
    assert opened.count("h3") == 6
    assert opened.count("ul") >= 7  # the facts, then one list per section
