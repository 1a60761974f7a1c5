"""The fake and the providers' server tools (web search, web fetch): it serves them in the
APIs' shapes, accepts them sent back as they came, and refuses what the APIs refuse."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from sidecar.core.conversation import server_tools
from sidecar.fake_llm import FakeLLMServer, Reply
from sidecar.fake_llm.anthropic_wire import final_block, message_json, stream_events
from sidecar.fake_llm.models_wire import DEFAULT_ANTHROPIC_MODELS
from sidecar.fake_llm.responses_wire import Shape, output_items
from sidecar.fake_llm.script import cited, web_fetch, web_search
from sidecar.fake_llm.validation import judge_anthropic, judge_responses
from tests.unit.fake_llm.test_server import call

HEADERS = {"anthropic-version": "2023-06-01"}
PAGE = ("Python 3.14 release notes", "https://docs.python.org/3.14/whatsnew/3.14.html")
TOOLS = [{"type": "web_search_20260318", "name": "web_search"},
         {"type": "web_fetch_20260318", "name": "web_fetch"}]


def answer() -> list[dict[str, Any]]:
    """A served answer's blocks: a search, a fetch, cited text."""
    blocks = [*web_search("python", [PAGE]), *web_fetch(PAGE[1], "the page", title=PAGE[0]),
              cited("It is out.", (PAGE[1], PAGE[0], "out"))]
    served = [final_block(b) for b in blocks]
    for b in served:  # as a client keeps them: without the null fields
        if b["type"] == "web_fetch_tool_result":
            b["content"]["content"].pop("citations")
    return served


def body(assistant: list[dict[str, Any]]) -> dict[str, Any]:
    return {"model": "claude-sonnet-5-5", "max_tokens": 1024, "stream": True, "tools": TOOLS,
            "messages": [{"role": "user", "content": "news?"},
                         {"role": "assistant", "content": assistant},
                         {"role": "user", "content": "thanks"}]}


def refusal(assistant: list[dict[str, Any]]) -> str | None:
    found = judge_anthropic("/v1/messages", body(assistant), HEADERS)
    return None if found is None else found.message


def test_a_served_answer_goes_back_as_it_came() -> None:
    assert refusal(answer()) is None


def test_a_server_tool_use_without_its_result_is_refused() -> None:
    blocks = [b for b in answer() if b["type"] != "web_search_tool_result"]
    message = refusal(blocks)
    assert message is not None and "srvtoolu_01" in message and "without a corresponding" in message


def test_a_result_that_answers_no_server_tool_use_is_refused() -> None:
    blocks = answer()
    blocks[1] = {**blocks[1], "tool_use_id": "srvtoolu_99"}
    message = refusal(blocks)
    assert message is not None and "srvtoolu_99" in message and "does not match" in message


def test_a_result_of_another_tool_type_is_refused() -> None:
    search, found, fetch, fetched, text = answer()
    blocks = [search, fetch, {**found, "tool_use_id": "srvtoolu_02"},
              {**fetched, "tool_use_id": "srvtoolu_01"}, text]
    message = refusal(blocks)
    assert message is not None and "cannot answer" in message


def test_a_client_tool_result_answering_a_server_tool_is_refused() -> None:
    b = body(answer())
    b["messages"][2] = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "srvtoolu_01", "content": "ok"}]}
    found = judge_anthropic("/v1/messages", b, HEADERS)
    assert found is not None and "srvtoolu_01" in found.message


def test_server_tool_blocks_in_a_user_message_are_refused() -> None:
    b = body(answer())
    b["messages"][2] = {"role": "user", "content": answer()[:2]}
    found = judge_anthropic("/v1/messages", b, HEADERS)
    assert found is not None and "only appear in `assistant` messages" in found.message


def test_an_altered_search_result_is_refused() -> None:
    blocks = answer()
    blocks[1] = copy.deepcopy(blocks[1])
    blocks[1]["content"][0]["encrypted_content"] += "x"
    message = refusal(blocks)
    assert message is not None and "encrypted_content" in message


def test_a_cleared_result_is_accepted_and_a_marker_string_is_not() -> None:
    blocks = answer()
    cleared = [server_tools.cleared(b) if server_tools.is_result(b) else b for b in blocks]
    assert cleared != blocks
    assert refusal(cleared) is None
    # The client tool_result's marker in place of the results: not a shape the API takes.
    marked = [{**b, "content": "[Old tool result content cleared]"}
              if server_tools.is_result(b) else b for b in blocks]
    assert refusal(marked) is not None


def test_the_stream_serves_server_tools_in_the_api_shapes() -> None:
    reply = Reply(content=[*web_search("python", [PAGE]), cited("It is out.", (PAGE[1], PAGE[0], "out"))])
    usage = {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
             "output_tokens": 5}
    events = stream_events(reply, model="claude-sonnet-5-5", usage=usage, context_management=None)
    from anthropic.types.beta import BetaRawMessageStreamEvent
    from pydantic import TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(BetaRawMessageStreamEvent)
    parsed = [adapter.validate_python(data) for name, data in events if name != "ping"]
    starts = [e.content_block.type for e in parsed if e.type == "content_block_start"]
    assert starts == ["server_tool_use", "web_search_tool_result", "text"]
    [delta] = [e for e in parsed if e.type == "message_delta"]
    assert delta.usage.server_tool_use.web_search_requests == 1
    citations = [e.delta.citation for e in parsed
                 if e.type == "content_block_delta" and e.delta.type == "citations_delta"]
    assert citations[0].url == PAGE[1] and citations[0].title == PAGE[0]
    result = [e.content_block for e in parsed if e.type == "content_block_start"][1]
    assert result.content[0].page_age == "2 days ago" and result.content[0].encrypted_content
    from anthropic.types.beta import BetaMessage

    whole = BetaMessage.model_validate(message_json(reply, model="m", usage=usage,
                                                    context_management=None))
    assert whole.usage.server_tool_use is not None
    assert whole.usage.server_tool_use.web_search_requests == 1


def test_the_responses_wire_serves_a_search_call_and_url_citations() -> None:
    reply = Reply(content=[*web_search("python", [PAGE]), cited("It is out.", (PAGE[1], PAGE[0], "out"))])
    items = output_items(reply, Shape(summaries=False, encrypted=False, sources=True))
    assert [i["type"] for i in items] == ["web_search_call", "message"]
    assert items[0]["action"] == {"type": "search", "query": "python",
                                  "sources": [{"type": "url", "url": PAGE[1]}]}
    assert items[1]["content"][0]["annotations"][0]["type"] == "url_citation"
    # Sent back as an input item, it is accepted.
    sent = {"model": "gpt-5", "store": False, "tools": [{"type": "web_search"}],
            "input": [{"role": "user", "content": "news?"}, items[0],
                      {"role": "assistant", "content": "It is out."},
                      {"role": "user", "content": "thanks"}]}
    assert judge_responses("/v1/responses", sent) is None


def test_web_search_offered_to_a_model_without_it_is_refused() -> None:
    models = [replace(m, web_search=False).to_json() if m.id == "claude-sonnet-5-5"
              else m.to_json() for m in DEFAULT_ANTHROPIC_MODELS]
    with FakeLLMServer() as fake:
        fake.configure_models({"models": models})
        fake.queue_many([Reply.text("hi"), Reply.text("hi")])
        sent = {"model": "claude-sonnet-5-5", "max_tokens": 64,
                "messages": [{"role": "user", "content": "hi"}]}
        headers = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
        status, _, raw = call(fake, "/v1/messages", {**sent, "tools": TOOLS[:1]}, headers)
        assert status == 400
        assert "web_search_20260318" in json.loads(raw)["error"]["message"]
        status, _, raw = call(fake, "/v1/messages", {**sent, "tools": TOOLS[1:]}, headers)
        assert status == 200, raw
        fake.take_violations()


@pytest.mark.parametrize("name", ["web_search", "web_fetch"])
def test_a_search_or_fetch_use_alone_counts_as_unpaired(name: str) -> None:
    blocks = [b for b in answer() if not (b["type"] == "server_tool_use" and b["name"] == name)]
    assert refusal(blocks) is not None
    assert json.dumps(server_tools.paired(blocks)) != json.dumps(blocks)
    assert refusal(server_tools.paired(blocks)) is None
