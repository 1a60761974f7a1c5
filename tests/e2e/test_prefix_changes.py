"""CLAUDE.md edits and git commits reach the next request without breaking the cache."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import call, prompt

pytestmark = pytest.mark.asyncio(loop_scope="module")


def git(ws: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True)


@pytest.fixture()
def repo(workspace: Path) -> Path:
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "config", "user.email", "dev@example.com")
    git(workspace, "config", "user.name", "Dev")
    (workspace / "CLAUDE.md").write_text("# Project rules\nUse tabs.\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "first")
    return workspace


async def wait_for_change(client: Any, llm: Any, sid: str, needle: str, timeout: float = 10) -> float:
    """Prompt until the request carries ``needle``; returns seconds from now."""
    start = time.monotonic()
    while True:
        llm.queue(Reply.text("ok"))
        await prompt(client, sid, "next")
        if needle in json.dumps(llm.requests[-1].body["messages"]):
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{needle!r} never reached a request")


async def test_claude_md_edit_and_git_commit_reach_next_request(sidecars: Any, llm: Any, repo: Path) -> None:
    client = await sidecars.session(repo)
    sid = client.sid
    llm.queue(Reply.text("hello"))
    await prompt(client, sid, "hi")
    first = llm.requests[-1]
    assert "Use tabs." in json.dumps(first.body["messages"])
    assert "first" in json.dumps(first.body["system"])  # the git snapshot
    llm.queue(Reply.text("again"))
    await prompt(client, sid, "again")
    warm = llm.requests[-1].usage

    (repo / "CLAUDE.md").write_text("# Project rules\nUse four spaces.\n")
    await wait_for_change(client, llm, sid, "Use four spaces.")
    after_edit = llm.requests[-1]
    # The system prefix was not rewritten: the cached prefix still serves the request.
    # (Its breakpoint may carry the hour's TTL by now: that is no part of the prefix.)
    def text(request: Any) -> list[str]:
        return [block["text"] for block in request.body["system"]]

    assert text(after_edit) == text(first)
    assert after_edit.usage["cache_read_input_tokens"] >= warm["cache_read_input_tokens"]

    (repo / "new.txt").write_text("x")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "add new file")
    await wait_for_change(client, llm, sid, "add new file")
    view = await call(client, "sidecar/context", {"sessionId": sid})
    assert view["watcher"] == "watchfiles"


async def test_one_sessions_compaction_leaves_anothers_prefix_alone(
        sidecars: Any, llm: Any, repo: Path) -> None:
    """Two sessions share the workspace's prefix memo. When one compacts after a CLAUDE.md
    edit, the other keeps sending what it sent before (its cache stays whole) and still
    learns of the edit, as an attachment."""
    client = await sidecars.session(repo)
    a = client.sid
    b = (await call(client, "session/new", {"cwd": str(repo)}))["sessionId"]
    sidecars.opens(client, b)
    await prompt(client, a, "notes: " + "the parser keeps its state. " * 600)
    await prompt(client, b, "hello from b")
    before_b = llm.requests[-1]
    (repo / "CLAUDE.md").write_text("# Project rules\nUse four spaces.\n")
    await wait_for_change(client, llm, a, "Use four spaces.")
    await call(client, "sidecar/compact", {"sessionId": a})
    await prompt(client, b, "more from b")
    after_b = llm.requests[-1]
    assert after_b.headers["x-context-sidecar-session"] == b
    assert after_b.body["system"] == before_b.body["system"]
    assert after_b.body["messages"][0] == before_b.body["messages"][0] | {
        "content": after_b.body["messages"][0]["content"]}
    assert "Use tabs." in json.dumps(after_b.body["messages"][0])
    assert "Use four spaces." in json.dumps(after_b.body["messages"][1:])
