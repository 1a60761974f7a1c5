"""A model stream is bounded, and a session can always be brought back: through the real
process (LSP, and ACP for the endless stream) and the fake LLM server.

- One streamed answer is bounded (``maxAnswerBytes``, 16 bytes per output token): an endless
  stream, one huge delta, a cancelled stream keep at most the bound, the stream is stopped,
  and the turn ends with ``max_tokens``; the next turn works.
- ``/compact`` and ``/clear`` bring back a session that holds a message larger than any
  request can carry (a 5 MB assistant answer in its transcript).
- A retried call is announced as through only when it completed, never before a failure.

Each test prints what it measured: bytes kept, seconds until the stream stopped, the
sidecar's peak RSS.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from acp import text_block
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply
from tests.e2e.acp_client import acp_agent
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    sent_conversation,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

CAP = 50_000  # maxAnswerBytes in these tests: the same code path as the 1 MiB default
ENDLESS_PIECE = "All work and no play makes Jack a dull boy. " * 4
NOTE = "[Answer cut"


def sidecar_peak_rss_mb() -> str:
    """The peak RSS of this test's sidecar processes (children of this process), if /proc says."""
    peaks = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        ppid = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")), 0)
        if ppid != os.getpid() or b"sidecar" not in cmdline:
            continue
        hwm = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
        peaks.append(hwm / 1024)
    return f"{max(peaks):.0f} MB" if peaks else "n/a"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecars(fake_llm: Any, tmp_path_factory: Any) -> Any:
    """One sidecar process per provider for the module, started when first asked for, all
    on one store: ``await sidecars("openai")``; ``sidecars.store`` is the store."""
    store = tmp_path_factory.mktemp("store")
    started: dict[str, Any] = {}

    async def get(provider: str = "anthropic") -> Any:
        if provider not in started:
            client = await start_client()
            client.rec = await initialize(client, settings_for(
                provider, fake_llm.url, store, maxAnswerBytes=CAP, contextWindow=200_000,
                sessionMemory={"enabled": False}))
            started[provider] = client
        client = started[provider]
        client.rec.reset()
        return client

    get.store = store  # type: ignore[attr-defined]
    yield get
    for client in started.values():
        await stop_client(client)


async def new_session(client: Any, workspace: Path) -> str:
    res = await call(client, "session/new", {"cwd": str(workspace)})
    return str(res["sessionId"])


def answers_sent(llm: Any) -> list[str]:
    """The assistant texts the last model call carried back, on any wire."""
    out = []
    for m in sent_conversation(llm.requests[-1]):
        if m.get("role") != "assistant":
            continue
        content = m.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out.append("".join(str(p.get("text", "")) for p in content if isinstance(p, dict)))
    return out


async def stream_ended(llm: Any, timeout: float = 5.0) -> Any:
    """The endless stream's request, once the fake saw its connection closed (or the time ran out)."""
    endless = next(r for r in llm.requests if r.fault == "endless")
    deadline = time.monotonic() + timeout
    while endless.stream_ended is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return endless


# ----- 1. one streamed answer is bounded ----------------------------------------------------

@pytest.mark.parametrize("provider", ["anthropic", "openai", "openai-compatible"])
async def test_endless_stream_is_stopped_at_the_bound(sidecars: Any, llm: Any, workspace: Path,
                                                      provider: str) -> None:
    client = await sidecars(provider)
    sid = await new_session(client, workspace)
    llm.queue(Reply(fault={"fault": "endless", "text": ENDLESS_PIECE, "seconds": 30}))
    task = asyncio.ensure_future(prompt(client, sid, "talk forever"))
    await client.rec.wait_for(lambda: bool(client.rec.of("agent_message_chunk")), timeout=20)
    started = time.monotonic()  # the stream is flowing
    res = await asyncio.wait_for(task, 20)
    took = time.monotonic() - started
    endless = await stream_ended(llm)
    text = client.rec.text()
    kept = len(text.split(NOTE)[0].rstrip("\n").encode())
    print(f"\n[{provider}] endless stream: stopReason={res['stopReason']}, kept {kept:,} "
          f"bytes (bound {CAP:,}), stopped {took:.2f}s after its first chunk, fake wrote "
          f"{endless.streamed_bytes:,} bytes, stream ended: {endless.stream_ended is not None}, "
          f"sidecar peak RSS {sidecar_peak_rss_mb()}")
    assert res["stopReason"] == "max_tokens"
    assert CAP - len(ENDLESS_PIECE) <= kept <= CAP and NOTE in text
    assert endless.stream_ended is not None  # the connection was closed, not left running
    # The next turn carries the cut answer, note included, and works.
    llm.queue(Reply.text("back to normal"))
    res = await asyncio.wait_for(prompt(client, sid, "and now?"), 20)
    assert res["stopReason"] == "end_turn"
    [cut] = [a for a in answers_sent(llm) if NOTE in a]
    assert len(cut.encode()) <= CAP + 300


async def test_one_huge_delta_is_cut_to_the_bound(sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars()
    sid = await new_session(client, workspace)
    huge = "0123456789abcdef " * (1_000_000 // 17)
    llm.queue(Reply.text(huge, chunk_size=len(huge)))
    started = time.monotonic()
    res = await asyncio.wait_for(prompt(client, sid, "one enormous delta"), 30)
    took = time.monotonic() - started
    text = client.rec.text()
    kept = len(text.split(NOTE)[0].rstrip("\n").encode())
    print(f"\none {len(huge):,}-byte delta: stopReason={res['stopReason']}, kept {kept:,} bytes "
          f"in {took:.2f}s, sidecar peak RSS {sidecar_peak_rss_mb()}")
    assert res["stopReason"] == "max_tokens" and kept == CAP and NOTE in text
    view = await call(client, "sidecar/context", {"sessionId": sid})
    assert len(json.dumps(view["messages"]).encode()) < CAP + 20_000
    llm.queue(Reply.text("fine"))
    assert (await prompt(client, sid, "next"))["stopReason"] == "end_turn"


async def test_cancelled_endless_stream_keeps_at_most_the_bound(sidecars: Any, llm: Any,
                                                                workspace: Path) -> None:
    client = await sidecars()
    sid = await new_session(client, workspace)
    llm.queue(Reply(fault={"fault": "endless", "text": ENDLESS_PIECE, "seconds": 30}))
    task = asyncio.ensure_future(prompt(client, sid, "talk forever"))
    await client.rec.wait_for(lambda: bool(client.rec.of("agent_message_chunk")), timeout=20)
    await asyncio.sleep(0.3)
    client.protocol.notify("session/cancel", {"sessionId": sid})
    res = await asyncio.wait_for(task, 20)
    llm.queue(Reply.text("next"))
    assert (await prompt(client, sid, "again"))["stopReason"] == "end_turn"
    [kept] = [a for a in answers_sent(llm) if "All work" in a]
    print(f"\ncancelled endless stream: stopReason={res['stopReason']}, kept "
          f"{len(kept.encode()):,} bytes (bound {CAP:,}), sidecar peak RSS {sidecar_peak_rss_mb()}")
    assert res["stopReason"] in ("cancelled", "max_tokens")
    assert len(kept.encode()) <= CAP + 300


async def test_endless_stream_over_acp(llm: Any, tmp_path: Path, workspace: Path) -> None:
    store = tmp_path / "store"
    async with acp_agent(store, llm.url, tmp_path / "sidecar.log",
                         settings={"maxAnswerBytes": CAP}) as (conn, client, _init):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id
        llm.queue(Reply(fault={"fault": "endless", "text": ENDLESS_PIECE, "seconds": 30}))
        turn = asyncio.ensure_future(conn.prompt(session_id=sid, prompt=[text_block("go on")]))
        await client.wait_for(lambda: client.updates(sid, "agent_message_chunk"), 20)
        started = time.monotonic()  # the stream is flowing
        res = await asyncio.wait_for(turn, 20)
        took = time.monotonic() - started
        text = "".join(u["content"]["text"] for u in client.updates(sid, "agent_message_chunk"))
        kept = len(text.split(NOTE)[0].rstrip("\n").encode())
        endless = await stream_ended(llm)
        print(f"\n[acp] endless stream: stop_reason={res.stop_reason}, kept {kept:,} bytes, stopped "
              f"{took:.2f}s after its first chunk, fake wrote {endless.streamed_bytes:,} bytes, "
              f"sidecar peak RSS {sidecar_peak_rss_mb()}")
        assert res.stop_reason == "max_tokens" and endless.stream_ended is not None
        assert CAP - len(ENDLESS_PIECE) <= kept <= CAP and NOTE in text
        llm.queue(Reply.text("after the cut"))
        res = await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("next")]), 20)
        assert res.stop_reason == "end_turn"


# ----- 2. /compact and /clear always bring the context back -----------------------------------

HUGE_BYTES = 5_000_000
SID = "5b5e7f4e-2222-4333-8444-95556666777{}"  # one session per test, on the shared store


def write_huge_transcript(store: Path, workspace: Path, sid: str) -> None:
    """A session whose one answer is 5 MB: more than any request (or the window) can carry."""
    from sidecar.core.conversation.messages import Message, Usage, user_text
    from sidecar.storage.transcript import TranscriptWriter

    writer = TranscriptWriter(store)
    huge = ("All work and no play makes Jack a dull boy. " * (HUGE_BYTES // 44 + 1))[:HUGE_BYTES]
    # The answer is the latest round: no older round to drop makes room for it.
    msgs = [user_text("write the novel"),
            Message(kind="assistant", content=[{"type": "text", "text": huge}],
                    message_id="msg_huge", model="claude-sonnet-5-5",
                    usage=Usage(input_tokens=50, output_tokens=1_100_000))]
    for m in msgs:
        writer.append(m, sid, str(workspace))
    writer.close()


def biggest_request_tokens(llm: Any, since: int) -> int:
    return max((r.input_tokens for r in llm.requests[since:]), default=0)


async def test_compact_brings_back_a_session_holding_a_5mb_answer(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    sid = SID.format(1)
    write_huge_transcript(sidecars.store, workspace, sid)
    client = await sidecars()
    await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
    before = len(llm.requests)
    started = time.monotonic()
    try:
        result = await asyncio.wait_for(call(client, "sidecar/compact", {"sessionId": sid}), 60)
    except JsonRpcException as err:
        pytest.fail(f"/compact failed: {err}")
    took = time.monotonic() - started
    print(f"\n/compact of a 5 MB answer: {result['tokensBefore']:,} → {result['tokensAfter']:,} "
          f"tokens in {took:.2f}s, largest request {biggest_request_tokens(llm, before):,} "
          f"tokens (fake window {llm.context_window:,}), refused requests "
          f"{sum(1 for r in llm.requests[before:] if r.status != 200)}, "
          f"sidecar peak RSS {sidecar_peak_rss_mb()}")
    assert result["status"] == "completed" and result["tokensAfter"] < 50_000
    summary_call = next(r for r in llm.requests[before:] if r.status == 200)
    body = json.dumps(summary_call.body)
    # The huge answer went in cut, with a note.
    assert len(body) < 1_000_000 and "truncated here so the conversation fits" in body
    llm.queue(Reply.text("where were we?"))
    res = await asyncio.wait_for(prompt(client, sid, "go on"), 30)
    assert res["stopReason"] == "end_turn"
    assert llm.requests[-1].input_tokens < 50_000


async def test_a_turn_after_loading_a_5mb_answer_compacts_and_works(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    sid = SID.format(2)
    write_huge_transcript(sidecars.store, workspace, sid)
    client = await sidecars()
    await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
    llm.queue(Reply.text("ready"))  # taken by the summary or the answer; the rest default
    try:
        res = await asyncio.wait_for(prompt(client, sid, "continue please"), 60)
    except JsonRpcException as err:
        pytest.fail(f"the turn failed: {err}")
    compactions = [u for u in client.rec.of("compaction_update") if u["status"] == "completed"]
    print(f"\nturn after a 5 MB answer: stopReason={res['stopReason']}, compactions "
          f"{[(u['tokensBefore'], u['tokensAfter']) for u in compactions]}")
    assert res["stopReason"] == "end_turn" and compactions


async def test_clear_brings_back_a_session_holding_a_5mb_answer(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    sid = SID.format(3)
    write_huge_transcript(sidecars.store, workspace, sid)
    client = await sidecars()
    await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
    await prompt(client, sid, "/clear")
    gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
    llm.queue(Reply.text("fresh start"))
    res = await asyncio.wait_for(prompt(client, sid, "hello again"), 30)
    print(f"\n/clear of a 5 MB answer: gauge {gauge['used']:,} tokens, next request "
          f"{llm.requests[-1].input_tokens:,} tokens")
    assert res["stopReason"] == "end_turn" and gauge["used"] < 50_000
    assert "All work and no play" not in json.dumps(llm.requests[-1].body)


# ----- 3. a retry notice is truthful ---------------------------------------------------------

async def test_no_went_through_notice_before_the_call_fails(sidecars: Any, llm: Any,
                                                           workspace: Path) -> None:
    client = await sidecars()
    sid = await new_session(client, workspace)
    cut = {"fault": "cut_stream", "after_events": 5,
           "content": [{"type": "text", "text": "a partial answer that is cut off " * 4}],
           "chunk_size": 8}
    llm.queue(Reply(fault={"fault": "overloaded"}))
    llm.queue(Reply(fault=cut))
    llm.queue(Reply(fault=cut))
    with pytest.raises(JsonRpcException) as err:
        await asyncio.wait_for(prompt(client, sid, "try"), 30)
    retries = client.rec.of("retry_update")
    print(f"\nretry updates of a call that failed: "
          f"{[(u['attempt'], u['reason'], u.get('done', False)) for u in retries]}")
    assert err.value.code == -33004
    assert [u.get("done", False) for u in retries] == [False, False]
    # A retried call that completes is announced, once, after its answer.
    client.rec.reset()
    llm.queue(Reply(fault={"fault": "overloaded"}))
    llm.queue(Reply.text("through at last"))
    res = await asyncio.wait_for(prompt(client, sid, "again"), 30)
    kinds = [u["sessionUpdate"] for u in client.rec.updates]
    done = [i for i, u in enumerate(client.rec.updates)
            if u["sessionUpdate"] == "retry_update" and u.get("done")]
    assert res["stopReason"] == "end_turn" and len(done) == 1
    last_chunk = max(i for i, k in enumerate(kinds) if k == "agent_message_chunk")
    assert done[0] > last_chunk
