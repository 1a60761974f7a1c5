"""The providers' own web search and web fetch through the real process and the strict fake:
Anthropic gets ``web_search_20260318`` and ``web_fetch_20260318``, the Responses API its
``web_search``, a compatible (Chat Completions) server neither, and ``/context`` says why.
The server tool blocks go back verbatim on the next request (the fake refuses them
otherwise), every client is shown each search and fetch as a tool call with its sources,
the settings turn each off, and clearing an old result sends what the API accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.conversation.messages import Usage
from sidecar.core.models.catalog import cost_usd
from sidecar.fake_llm import Reply
from sidecar.fake_llm.anthropic_wire import final_block
from sidecar.fake_llm.script import cited, web_fetch, web_search
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

PAGES = [("Python 3.14 release notes", "https://docs.python.org/3.14/whatsnew/3.14.html"),
         ("PEP 779", "https://peps.python.org/pep-0779/")]


def tool_types(request: Any) -> list[str]:
    return [str(t.get("type", "function")) for t in request.body.get("tools") or []]


def links(update: dict[str, Any]) -> list[tuple[str, str]]:
    return [(c["content"]["name"], c["content"]["uri"]) for c in update.get("content") or []
            if c["content"]["type"] == "resource_link"]


async def session(provider: str, llm: Any, store: Path, workspace: Path,
                  **extra: Any) -> tuple[Any, str]:
    """A process of the test's own: for one that changes what the whole process holds."""
    client = await start_client()
    client.rec = await initialize(client, settings_for(provider, llm.url, store, **extra))
    sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
    return client, sid


async def shared(sidecars: Any, provider: str, workspace: Path, **extra: Any) -> tuple[Any, str]:
    """A new session on the module's one process with these settings."""
    client = await sidecars.session(workspace, provider, **extra)
    return client, client.sid


async def test_anthropic_search_and_fetch_go_back_as_the_api_requires(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client, sid = await shared(sidecars, "anthropic", workspace)
    llm.queue(Reply(content=[
        *web_search("python 3.14 release", PAGES),
        cited("Python 3.14 is out.", (PAGES[0][1], PAGES[0][0], "Python 3.14 was released")),
    ]))
    await prompt(client, sid, "what is new in python?")
    first = llm.requests[-1]
    assert first.status == 200 and first.refusal is None
    assert tool_types(first)[-2:] == ["web_search_20260318", "web_fetch_20260318"]
    # Generally available: no beta header asked for them.
    assert "web" not in first.headers.get("anthropic-beta", "")
    # No client tool ran: the turn ended with the answer.
    assert client.rec.of("tool_call")[0]["kind"] == "search"
    [start] = client.rec.of("tool_call")
    assert start["title"] == "Web search: python 3.14 release"
    [done] = client.rec.of("tool_call_update")
    assert done["status"] == "completed" and links(done) == PAGES
    assert done["rawOutput"]["sources"] == [{"title": t, "url": u} for t, u in PAGES]

    client.rec.reset()
    llm.queue(Reply(content=[*web_fetch(PAGES[1][1], "PEP 779 text", title=PAGES[1][0]),
                             {"type": "text", "text": "PEP 779 is about free threading."}]))
    await prompt(client, sid, "and PEP 779?")
    second = llm.requests[-1]
    assert second.status == 200 and second.refusal is None
    answer = second.body["messages"][1]
    assert answer["role"] == "assistant"
    kinds = [b["type"] for b in answer["content"]]
    assert kinds == ["server_tool_use", "web_search_tool_result", "text"]
    # The search's input, streamed in pieces, assembled; no client call was made of it.
    assert answer["content"][0]["input"] == {"query": "python 3.14 release"}
    # Verbatim: the encrypted results and the citation as the API sent them.
    served = [final_block(b) for b in web_search("python 3.14 release", PAGES)]
    sent_results = answer["content"][1]["content"]
    assert [r["encrypted_content"] for r in sent_results] == \
        [r["encrypted_content"] for r in served[1]["content"]]
    assert answer["content"][2]["citations"][0]["type"] == "web_search_result_location"
    [fetch] = client.rec.of("tool_call")
    assert fetch["kind"] == "fetch" and fetch["title"] == f"Web fetch: {PAGES[1][1]}"
    assert links(client.rec.of("tool_call_update")[0]) == [PAGES[1]]

    llm.queue(Reply.text("done"))
    await prompt(client, sid, "thanks")
    third = llm.requests[-1]
    assert third.status == 200 and third.refusal is None
    kinds = [b["type"] for b in third.body["messages"][3]["content"]]
    assert kinds == ["server_tool_use", "web_fetch_tool_result", "text"]
    # The searches count in the gauge as tool results, and the one search in the cost
    # at the provider's $10 per 1,000 (the tokens of these short turns cost far less).
    gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
    assert gauge["breakdown"]["toolResults"] > 0
    # (The fake records each request's token usage; its answer's usage.server_tool_use
    # said one search on the first.)
    tokens_only = sum(cost_usd(Usage.from_json(r.usage) or Usage(), str(r.body["model"]),
                               "anthropic") or 0.0 for r in llm.requests if r.usage)
    assert gauge["cost"]["amount"] == pytest.approx(tokens_only + 0.01, abs=2e-6)


async def test_a_paused_turn_of_searches_is_continued(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    """``pause_turn``: the provider stopped a long run of its own tools; the answer so far
    goes back as the last message and the model carries on in the same turn."""
    client, sid = await shared(sidecars, "anthropic", workspace)
    llm.queue(Reply(content=web_search("first", PAGES[:1]), stop_reason="pause_turn"))
    llm.queue(Reply(content=[*web_search("second", PAGES[1:], id="srvtoolu_02"),
                             {"type": "text", "text": "Both found."}]))
    result = await prompt(client, sid, "search twice")
    assert result["stopReason"] == "end_turn"
    resumed = llm.requests[-1]
    assert resumed.status == 200 and resumed.refusal is None
    last = resumed.body["messages"][-1]
    assert last["role"] == "assistant"
    assert [b["type"] for b in last["content"]] == ["server_tool_use", "web_search_tool_result"]
    assert [u["title"] for u in client.rec.of("tool_call")] == [
        "Web search: first", "Web search: second"]


async def test_responses_search_goes_back_as_its_item(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client, sid = await shared(sidecars, "openai", workspace)
    llm.queue(Reply(content=[
        *web_search("python 3.14 release", PAGES),
        cited("Python 3.14 is out.", (PAGES[0][1], PAGES[0][0], "released")),
    ]))
    await prompt(client, sid, "what is new in python?")
    first = llm.requests[-1]
    assert first.path == "/v1/responses" and first.refusal is None
    assert tool_types(first)[-1] == "web_search"
    assert "web_fetch" not in json.dumps(first.body.get("tools"))
    assert "web_search_call.action.sources" in first.body["include"]
    [done] = client.rec.of("tool_call_update")
    # The cited page first (with its title), then the other sources the search listed.
    assert links(done) == [PAGES[0], (PAGES[1][1], PAGES[1][1])]

    llm.queue(Reply.text("done"))
    await prompt(client, sid, "thanks")
    second = llm.requests[-1]
    assert second.status == 200 and second.refusal is None
    items = sent_conversation(second)
    [search] = [i for i in items if i.get("type") == "web_search_call"]
    assert search["action"]["query"] == "python 3.14 release"
    assert search["id"].startswith("ws_")


async def test_a_compatible_server_gets_neither_and_context_says_why(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client, sid = await shared(sidecars, "openai-compatible", workspace)
    llm.queue(Reply.text("hi"))
    await prompt(client, sid, "hello")
    assert "web" not in json.dumps(llm.requests[-1].body.get("tools"))
    view = await call(client, "sidecar/context", {"sessionId": sid})
    assert [(s["tool"], s["offered"]) for s in view["serverTools"]] == [
        ("web_search", False), ("web_fetch", False)]
    await prompt(client, sid, "/context")
    text = client.rec.text()
    assert ("web search: not offered — provider openai-compatible (Chat Completions) has "
            "no server tools") in text


async def test_a_setting_turns_its_tool_off(sidecars: Any, llm: Any, workspace: Path) -> None:
    """tools.webSearch off: the request has the fetch tool alone (each setting and each
    provider: tests/unit/tools/test_web.py)."""
    client, sid = await shared(sidecars, "anthropic", workspace,
                               tools={"webSearch": False})
    llm.queue(Reply.text("hi"))
    await prompt(client, sid, "hello")
    assert [t for t in tool_types(llm.requests[-1]) if t.startswith("web_")] == \
        ["web_fetch_20260318"]
    view = await call(client, "sidecar/context", {"sessionId": sid})
    assert {"tool": "web_search", "offered": False,
            "reason": "turned off by tools.webSearch"} in view["serverTools"]


async def test_a_model_the_models_list_gives_no_web_search_gets_none(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    from dataclasses import replace

    from sidecar.fake_llm.models_wire import DEFAULT_ANTHROPIC_MODELS

    llm.configure_models({"models": [
        replace(m, web_search=False).to_json() if m.id == "claude-sonnet-5-5" else m.to_json()
        for m in DEFAULT_ANTHROPIC_MODELS]})
    client, sid = await session("anthropic", llm, tmp_path / "store", workspace)
    try:
        await call(client, "sidecar/models", {"sessionId": sid})
        llm.queue(Reply.text("hi"))
        await prompt(client, sid, "hello")
        main = [r for r in llm.requests if r.path.endswith("/messages")][-1]
        assert main.refusal is None
        assert [t for t in tool_types(main) if t.startswith("web_")] == ["web_fetch_20260318"]
        view = await call(client, "sidecar/context", {"sessionId": sid})
        [search] = [s for s in view["serverTools"] if s["tool"] == "web_search"]
        assert not search["offered"] and "server_tools.web_search" in search["reason"]
    finally:
        await stop_client(client)


async def test_clearing_an_old_web_result_sends_what_the_api_accepts(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    """A session left for hours: time-based clearing clears the older searches' and the
    fetch's results (the newest kept), in forms the fake accepts; the loaded history shows
    each search and fetch with its sources."""
    from sidecar.core.conversation.messages import Message, Usage, user_text
    from sidecar.storage.transcript import TranscriptWriter

    client = await sidecars.client("anthropic")
    store = client.store
    sid = "0b5e7f4e-2222-4222-8333-944455556666"
    old = "2020-01-01T10:00:00.000Z"
    writer = TranscriptWriter(store)
    answers = [
        web_search("first", PAGES[:1], id="srvtoolu_a"),
        web_fetch(PAGES[1][1], "page text " * 200, title=PAGES[1][0], id="srvtoolu_b"),
        web_search("third", PAGES[1:], id="srvtoolu_c"),
    ]
    records: list[Message] = []
    for n, blocks in enumerate(answers):
        records.append(user_text(f"question {n}", timestamp=old))
        content = [final_block(b) for b in blocks] + [{"type": "text", "text": f"answer {n}"}]
        for b in content:  # as the adapter keeps them: no null fields
            if b["type"] == "web_fetch_tool_result":
                b["content"]["content"].pop("citations")
        records.append(Message(kind="assistant", content=content, message_id=f"msg_w{n}",
                               model="claude-sonnet-5-5", timestamp=old,
                               usage=Usage(input_tokens=3000 + 1000 * n, output_tokens=20)))
    for m in records:
        writer.append(m, sid, str(workspace))
    writer.close()
    sidecars.opens(client, sid)
    await call(client, "session/load", {"sessionId": sid})
    shown = client.rec.of("tool_call_update")
    assert [links(u) for u in shown] == [PAGES[:1], [PAGES[1]], PAGES[1:]]
    llm.queue(Reply.text("back again"))
    await prompt(client, sid, "continue")
    sent = llm.requests[-1]
    assert sent.status == 200 and sent.refusal is None
    results = {b["tool_use_id"]: b["content"] for m in sent.body["messages"]
               for b in m["content"] if b["type"].endswith("_tool_result")}
    assert results["srvtoolu_a"] == []
    assert results["srvtoolu_b"]["url"] == PAGES[1][1]
    assert results["srvtoolu_b"]["content"]["source"]["data"] == \
        "[Old tool result content cleared]"
    assert results["srvtoolu_c"][0]["url"] == PAGES[1][1]  # the newest is kept


async def test_a_subagent_searches_as_its_session_does(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    """The built-in agent lists no tools (it only looks), so it gets the provider's tools as
    the main conversation does; its search reaches the client nested under the Task call.
    (An agent whose tools leave them out gets neither: test_subagent_definitions.)"""
    client, sid = await shared(sidecars, "anthropic", workspace)
    def is_sub(request: Any) -> bool:
        return "SUBTASK" in json.dumps(request.body.get("messages", [])[:1])

    main = iter([Reply(content=[{"type": "tool_use", "id": "task_web", "name": "Task", "input": {
                     "description": "Look it up", "subagent_type": "general-purpose",
                     "prompt": "SUBTASK: what is new in python 3.14?"}}]),
                 Reply.text("It found the release notes.")])
    sub = iter([Reply(content=[*web_search("python 3.14", PAGES[:1]),
                               {"type": "text", "text": "The release notes list it."}])])
    llm.responder = lambda request: next(sub) if is_sub(request) else next(main)
    result = await prompt(client, sid, "use a subagent to look up python 3.14")
    assert result["stopReason"] == "end_turn"
    subs = [r for r in llm.requests if is_sub(r)]
    assert len(subs) == 1 and subs[0].status == 200 and subs[0].refusal is None
    assert tool_types(subs[0])[-2:] == ["web_search_20260318", "web_fetch_20260318"]
    search = next(u for u in client.rec.of("tool_call") if u["kind"] == "search")
    assert search["_meta"]["sidecar"]["parentToolCallId"] == "task_web"
    done = next(u for u in client.rec.of("tool_call_update")
                if u["toolCallId"] == search["toolCallId"] and u.get("status") == "completed")
    assert links(done) == PAGES[:1]
