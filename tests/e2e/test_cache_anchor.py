"""Through the real sidecar process: after a pause longer than the five-minute TTL, the next
request reads the conversation up to the one-hour anchor instead of writing it all again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import prompt, stop_client
from tests.e2e.test_compaction import big_file, read_reply, start

pytestmark = pytest.mark.asyncio(loop_scope="module")


def hour_markers(request: Any) -> int:
    body = request.body
    blocks = [*body.get("tools", []), *body.get("system", []),
              *(b for m in body["messages"] for b in m["content"] if isinstance(b, dict))]
    return sum(1 for b in blocks if (b.get("cache_control") or {}).get("ttl") == "1h")


@pytest.mark.parametrize("anchors", [True, False])
async def test_a_pause_past_five_minutes_rewrites_only_what_follows_the_anchor(
        llm: Any, tmp_path: Path, workspace: Path, anchors: bool) -> None:
    client = await start(llm, tmp_path, workspace, promptCache={"hourAnchors": anchors})
    try:
        name = big_file(workspace, "mod0.py", 40)
        llm.queue(read_reply(name, "toolu_a0"))
        llm.queue(Reply.text("mod0 defines many functions."))
        await prompt(client, client.sid, "read mod0.py")
        llm.queue(Reply.text("They multiply."))
        await prompt(client, client.sid, "what do they do?")
        before_pause = llm.requests[-1]
        llm.advance_clock(600)  # ten minutes: every five-minute entry is gone
        llm.queue(Reply.text("Nothing else."))
        await prompt(client, client.sid, "anything else?")
        after_pause = llm.requests[-1]
        usage = after_pause.usage
        if anchors:
            # The short question on a large context moved the anchor to its message.
            assert hour_markers(before_pause) == 3  # tools, system and the anchor
            read_before = before_pause.usage["cache_read_input_tokens"]
            written_before = before_pause.usage["cache_creation_input_tokens"]
            assert usage["cache_read_input_tokens"] == read_before + written_before
            assert usage["cache_creation_input_tokens"] < 200
        else:
            assert hour_markers(before_pause) == 0
            assert usage["cache_read_input_tokens"] == 0
            assert usage["cache_creation_input_tokens"] > 10_000
    finally:
        await stop_client(client)
