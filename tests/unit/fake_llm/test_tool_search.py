"""The fake's tool search: the rules of deferred tools it refuses as the API does (one test
each), the shapes it accepts, its search of the request's deferred definitions, and what
deferred definitions count."""

from __future__ import annotations

import copy
from typing import Any

from sidecar.fake_llm import Reply
from sidecar.fake_llm.counting import anthropic_units, responses_units, total_tokens
from sidecar.fake_llm.tool_search import answer_responses_searches, answer_searches, search
from sidecar.fake_llm.validation import judge_anthropic, judge_responses

HEADERS = {"anthropic-version": "2023-06-01"}
SEARCH_TOOL = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}


def tool(name: str, description: str, deferred: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "description": description,
                           "input_schema": {"type": "object",
                                            "properties": {"customer_id": {"type": "string"}}}}
    if deferred:
        out["defer_loading"] = True
    return out


TOOLS = [tool("Read", "Read a file", deferred=False), SEARCH_TOOL,
         tool("create_invoice", "Create an invoice for a customer"),
         tool("list_tickets", "List support tickets"),
         tool("delete_project", "Delete a project permanently")]


def found(use_id: str, *names: str) -> list[dict[str, Any]]:
    """The server tool use and its result, as the assistant's message carries them."""
    return [{"type": "server_tool_use", "id": use_id, "name": "tool_search_tool_bm25",
             "input": {"query": "invoice"}},
            {"type": "tool_search_tool_result", "tool_use_id": use_id,
             "content": {"type": "tool_search_tool_search_result",
                         "tool_references": [{"type": "tool_reference", "tool_name": n}
                                             for n in names]}}]


def conversation(assistant: list[dict[str, Any]], tools: list[dict[str, Any]] = TOOLS,
                 result: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    call = {"type": "tool_use", "id": "toolu_1", "name": "create_invoice",
            "input": {"customer_id": "c1"}}
    return {"model": "claude-sonnet-4-6", "max_tokens": 1024, "stream": True,
            "tools": copy.deepcopy(tools),
            "messages": [{"role": "user", "content": "bill c1"},
                         {"role": "assistant", "content": assistant + [call]},
                         {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                       "content": result or "done"}]}]}


def refusal(body: dict[str, Any]) -> str:
    judged = judge_anthropic("/v1/messages", body, HEADERS)
    assert judged is not None, "the body was accepted"
    return judged.message


def test_a_search_that_referenced_the_tool_it_calls_is_accepted() -> None:
    assert judge_anthropic("/v1/messages", conversation(found("srvtoolu_1", "create_invoice")),
                           HEADERS) is None
    # A client's own search may answer with tool_reference blocks in its tool result.
    body = conversation(found("srvtoolu_1", "create_invoice"),
                        result=[{"type": "text", "text": "found"},
                                {"type": "tool_reference", "tool_name": "list_tickets"}])
    assert judge_anthropic("/v1/messages", body, HEADERS) is None


def test_deferred_tools_without_a_tool_search_tool_are_refused() -> None:
    tools = [t for t in TOOLS if t is not SEARCH_TOOL]
    body = conversation(found("srvtoolu_1", "create_invoice"), tools)
    assert "require a tool search tool" in refusal(body)


def test_a_deferred_tool_search_tool_is_refused() -> None:
    tools = [{**t, "defer_loading": True} if t is SEARCH_TOOL else t for t in TOOLS]
    assert "tool search tool cannot have defer_loading" in refusal(
        conversation(found("srvtoolu_1", "create_invoice"), tools))


def test_every_tool_deferred_is_refused() -> None:
    tools = [{**t, "defer_loading": True} if "input_schema" in t else t for t in TOOLS]
    tools = [t for t in tools if t is not SEARCH_TOOL] + [
        {**SEARCH_TOOL, "defer_loading": True}]
    body = conversation(found("srvtoolu_1", "create_invoice"), tools)
    body["messages"] = body["messages"][:1]
    assert "all tools have defer_loading" in refusal(body)


def test_a_reference_to_a_tool_not_in_the_request_is_refused() -> None:
    body = conversation(found("srvtoolu_1", "create_invoice", "send_fax"))
    assert "Tool reference 'send_fax' has no corresponding tool definition" in refusal(body)
    body = conversation(found("srvtoolu_1", "create_invoice"),
                        result=[{"type": "tool_reference", "tool_name": "send_fax"}])
    assert "'send_fax'" in refusal(body)


def test_calling_a_deferred_tool_no_search_referenced_is_refused() -> None:
    assert "no tool search result has referenced" in refusal(conversation([]))
    assert "no tool search result has referenced" in refusal(
        conversation(found("srvtoolu_1", "list_tickets")))


def test_the_sdk_types_judge_the_new_fields() -> None:
    bad = conversation(found("srvtoolu_1", "create_invoice"))
    bad["tools"][2]["defer_loading"] = "later"
    assert "defer_loading" in refusal(bad)
    bad = conversation(found("srvtoolu_1", "create_invoice"))
    bad["tools"][1] = {**SEARCH_TOOL, "type": "tool_search_tool_bm25_20990101"}
    assert refusal(bad)


def test_the_fake_searches_the_deferred_definitions_and_answers_in_the_apis_shape() -> None:
    body = {"tools": TOOLS}
    assert search(body, "create an invoice")[0] == "create_invoice"
    assert "Read" not in search(body, "read a file")  # only deferred tools are searched
    reply = answer_searches(Reply(content=[{"type": "tool_search", "query": "support tickets"},
                                           {"type": "text", "text": "found"}]), body)
    use, result, text = reply.content
    assert use["type"] == "server_tool_use" and use["name"] == "tool_search_tool_bm25"
    assert use["input"] == {"query": "support tickets"} and use["id"].startswith("srvtoolu_")
    assert result == {"type": "tool_search_tool_result", "tool_use_id": use["id"],
                      "content": {"type": "tool_search_tool_search_result", "tool_references": [
                          {"type": "tool_reference", "tool_name": "list_tickets"}]}}
    assert text["text"] == "found"


def test_deferred_definitions_count_only_once_a_search_loads_them() -> None:
    plain = total_tokens(anthropic_units({"tools": TOOLS[:2]}))
    assert total_tokens(anthropic_units({"tools": TOOLS})) == plain
    before = {"tools": TOOLS, "messages": [{"role": "user", "content": "x"}]}
    after = conversation(found("srvtoolu_1", "create_invoice"))
    grown = total_tokens(anthropic_units(after)) - total_tokens(anthropic_units(before))
    definition = total_tokens(anthropic_units({"tools": [tool(
        "create_invoice", "Create an invoice for a customer", deferred=False)]}))
    assert grown > definition > 0


# ----------------------------------------------------------------- OpenAI Responses

def function(name: str, deferred: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function", "name": name, "description": f"{name} it",
                           "parameters": {"type": "object", "properties": {}}, "strict": False}
    if deferred:
        out["defer_loading"] = True
    return out


FUNCTIONS = [function("Read", deferred=False), {"type": "tool_search"},
             function("create_invoice"), function("list_tickets")]


def responses_body(loaded: list[str], tools: list[dict[str, Any]] = FUNCTIONS) -> dict[str, Any]:
    search = [{"type": "tool_search_call", "id": "tsc_1", "call_id": "call_s", "execution": "server",
               "status": "completed", "arguments": {"query": "invoice"}},
              {"type": "tool_search_output", "id": "tso_1", "call_id": "call_s",
               "execution": "server", "status": "completed",
               "tools": [t for t in FUNCTIONS if t.get("name") in loaded]}]
    return {"model": "gpt-5", "stream": True, "store": False, "tools": copy.deepcopy(tools),
            "input": [{"role": "user", "content": "bill c1"}, *search,
                      {"type": "function_call", "call_id": "call_1", "name": "create_invoice",
                       "arguments": "{}"},
                      {"type": "function_call_output", "call_id": "call_1", "output": "done"}]}


def responses_refusal(body: dict[str, Any]) -> str:
    judged = judge_responses("/v1/responses", body)
    assert judged is not None, "the body was accepted"
    return judged.message


def test_responses_a_call_of_a_function_the_search_loaded_is_accepted() -> None:
    assert judge_responses("/v1/responses", responses_body(["create_invoice"])) is None


def test_responses_deferred_functions_without_a_tool_search_tool_are_refused() -> None:
    tools = [t for t in FUNCTIONS if t.get("type") != "tool_search"]
    assert "require a 'tool_search' tool" in responses_refusal(
        responses_body(["create_invoice"], tools))


def test_responses_calling_a_function_no_search_loaded_is_refused() -> None:
    assert "no tool_search_output before it loaded it" in responses_refusal(
        responses_body(["list_tickets"]))


def test_responses_the_hosted_search_answers_with_the_loaded_definitions() -> None:
    reply = answer_responses_searches(Reply(content=[{"type": "tool_search",
                                                      "query": "invoice"}]), {"tools": FUNCTIONS})
    call, output = reply.content
    assert call["type"] == "tool_search_call" and call["arguments"] == {"query": "invoice"}
    assert output["call_id"] == call["call_id"] and output["tools"] == [FUNCTIONS[2]]
    # Deferred functions count once the output loads them.
    assert total_tokens(responses_units({"tools": FUNCTIONS})) == total_tokens(
        responses_units({"tools": FUNCTIONS[:2]}))
    grown = total_tokens(responses_units(responses_body(["create_invoice"])))
    assert grown > total_tokens(responses_units(responses_body([])))
