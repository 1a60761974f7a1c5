"""The rules the APIs document that their request types cannot express.

Each rule returns the first problem as ``(param, message)``, worded as the real API words
its 400 (``param`` is the dotted location; the OpenAI wire also returns it as ``param``).
Sources: the Messages API docs (prompt caching: at most four breakpoints, one-hour
breakpoints before five-minute ones in the order tools, system, messages; tool use:
results directly after their calls, results first in the user message; server tools:
each ``server_tool_use`` with its result in the same assistant message, search results
with their encrypted content unchanged; extended thinking:
signatures passed back unchanged, ``budget_tokens`` of at least 1,024 and below
``max_tokens``; context editing: behind its beta header), the Chat Completions docs
(tool messages answer a preceding ``tool_calls``; ``stream_options`` only when streaming;
reasoning models take ``max_completion_tokens``) and the Responses docs (function calls
and their outputs paired by ``call_id``, each call answered before the next message;
``max_output_tokens`` of at least 16; reasoning passed back by its encrypted content when
nothing is stored, followed by the output it led to; encrypted content unchanged;
assistant messages hold output parts, the others input parts; no reasoning settings for
models that do not reason), and the tool search docs (sidecar.fake_llm.tool_search).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Iterator

from . import tool_search
from .cache import MAX_BREAKPOINTS
from .encrypted_content import minted_here, unseal
from .responses_input import input_items, message_role, parts
from .responses_wire import ENCRYPTED_REASONING

Problem = tuple[str, str]

MIN_THINKING_BUDGET = 1_024
MAX_IMAGE_BYTES = 5 * 1024 * 1024
CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27"
COMPACTION_BETA = "compact-2026-09-04"
# A model id is a name, never a name with a window suffix such as "[1m]".
_MODEL_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/@-]*$")
_ANTHROPIC_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
_OPENAI_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_OPENAI_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)")
# Models that do not reason: the Responses API refuses reasoning settings for them.
_OPENAI_NON_REASONING_MODEL = re.compile(r"^(gpt-4|gpt-3\.5|chatgpt-4o)")
MIN_OUTPUT_TOKENS = 16
_OUTPUT_PARTS = ("output_text", "refusal")
_INPUT_PARTS = ("input_text", "input_image", "input_file")


def thinking_signature(text: str) -> str:
    """The fake's signature of a thinking text; the API verifies what comes back."""
    return "sig_" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:48]


def compaction_signature(content: str) -> str:
    """The fake's signature over a compaction summary, checked when the block comes back."""
    return "csig_" + hashlib.sha256(b"compaction\x00" + content.encode("utf-8")).hexdigest()[:48]


def _signature_ok(block: dict[str, Any]) -> bool:
    """A signature this fake issued must come back unchanged with its text; one issued by
    the real service (a loaded Claude Code session) cannot be checked here, only present."""
    signature = block.get("signature")
    if not isinstance(signature, str) or not signature:
        return False
    if signature.startswith("sig_"):
        return signature == thinking_signature(str(block.get("thinking", "")))
    return True


def beta_flags(headers: dict[str, str]) -> set[str]:
    raw = ",".join(v for k, v in headers.items() if k.lower() == "anthropic-beta")
    return {part.strip() for part in raw.split(",") if part.strip()}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


def _cache_markers(body: dict[str, Any]) -> int:
    count = 0

    def walk(node: Any) -> None:
        nonlocal count
        if isinstance(node, dict):
            if isinstance(node.get("cache_control"), dict):
                count += 1
            for key, value in node.items():
                if key != "cache_control":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(body.get("tools"))
    walk(body.get("system"))
    walk(body.get("messages"))
    if isinstance(body.get("cache_control"), dict):
        count += 1  # automatic caching takes one of the four slots
    return count


def _cache_ttl_order(body: dict[str, Any]) -> Iterator[Problem]:
    """A one-hour breakpoint after a five-minute one (tools, then system, then messages)."""
    seen_short: list[str] = []

    def walk(node: Any, path: str) -> Iterator[Problem]:
        if isinstance(node, dict):
            control = node.get("cache_control")
            if isinstance(control, dict):
                if control.get("ttl") == "1h" and seen_short:
                    yield (f"{path}.cache_control",
                           f"{path}.cache_control: a ttl='1h' cache_control block must not come "
                           "after a ttl='5m' cache_control block. Note that blocks are processed "
                           "in the following order: `tools`, `system`, `messages`.")
                    return
                if control.get("ttl", "5m") == "5m":
                    seen_short.append(path)
            for key, value in node.items():
                if key != "cache_control":
                    yield from walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{path}.{i}")

    for part in ("tools", "system", "messages"):
        for problem in walk(body.get(part), part):
            yield problem
            return


def _model(body: dict[str, Any]) -> Iterator[Problem]:
    model = body.get("model")
    if isinstance(model, str) and not _MODEL_ID.match(model):
        yield "model", f"model: {model!r} is not a model id (a window suffix such as [1m] is " \
                       "chosen by a beta header, not by the name)"


def anthropic_problems(body: dict[str, Any], headers: dict[str, str], *,
                       count_only: bool = False) -> Iterator[Problem]:
    """Every documented Messages API rule the body breaks, in the order the API checks."""
    yield from _model(body)
    if not any(k.lower() == "anthropic-version" for k in headers):
        yield "anthropic-version", "anthropic-version: header is required"
    betas = beta_flags(headers)
    if "context_management" in body and CONTEXT_MANAGEMENT_BETA not in betas:
        yield "context_management", ("context_management: Extra inputs are not permitted "
                                     f"(it needs the beta header {CONTEXT_MANAGEMENT_BETA})")
    if "compaction" in body and not count_only:
        if COMPACTION_BETA not in betas:
            yield "compaction", ("compaction: Extra inputs are not permitted "
                                 f"(it needs the beta header {COMPACTION_BETA})")
        if "context_management" in body:
            yield "compaction", "compaction: cannot be combined with context_management"
        last = _list(body.get("messages"))[-1:] or [{}]
        if isinstance(last[0], dict) and last[0].get("role") == "assistant" and any(
                b.get("type") == "tool_use" for b in _blocks(last[0].get("content"))):
            yield "messages", ("messages: a conversation whose last turn has a `tool_use` without "
                               "its `tool_result` cannot be compacted")
    markers = _cache_markers(body)
    if markers > MAX_BREAKPOINTS:
        yield "cache_control", (f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may "
                                f"be provided. Found {markers}.")
    yield from _cache_ttl_order(body)
    tools = _list(body.get("tools"))
    names: set[str] = set()
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue
        name = tool.get("name")
        if tool.get("type") in (None, "custom") and not (
                isinstance(name, str) and _ANTHROPIC_TOOL_NAME.match(name)):
            yield f"tools.{i}.name", (f"tools.{i}.custom.name: String should match pattern "
                                      "'^[a-zA-Z0-9_-]{1,128}$'")
        if isinstance(name, str):
            if name in names:
                yield "tools", "tools: Tool names must be unique."
            names.add(name)
    yield from tool_search.problems(body)
    thinking = _dict(body.get("thinking"))
    # With a fixed budget the model always thinks first, and the API insists that the turn
    # a tool loop continues hands that thinking back; adaptive thinking may not think.
    thinking_on = thinking.get("type") == "enabled"
    edits = _list(_dict(body.get("context_management")).get("edits"))
    kinds = [e.get("type") for e in edits if isinstance(e, dict)]
    if "clear_thinking_20251015" in kinds:
        if thinking.get("type") not in ("enabled", "adaptive"):
            yield "context_management.edits", (
                "context_management.edits: clear_thinking_20251015 strategy requires thinking "
                "to be enabled or adaptive")
        elif kinds[0] != "clear_thinking_20251015":
            yield "context_management.edits", (
                "context_management.edits: clear_thinking_20251015 must be the first strategy "
                "in edits")
    if thinking.get("type") == "enabled" and not count_only:
        budget = thinking.get("budget_tokens")
        if isinstance(budget, int):
            if budget < MIN_THINKING_BUDGET:
                yield "thinking.enabled.budget_tokens", (
                    "thinking.enabled.budget_tokens: Input should be greater than or equal "
                    f"to {MIN_THINKING_BUDGET}")
            max_tokens = body.get("max_tokens")
            if isinstance(max_tokens, int) and max_tokens <= budget:
                yield "max_tokens", ("`max_tokens` must be greater than "
                                     "`thinking.budget_tokens`. Please consult our documentation "
                                     "at https://docs.claude.com/en/docs/build-with-claude/"
                                     "extended-thinking#max-tokens-and-context-window-size")
    yield from _anthropic_messages(body.get("messages"), thinking_on)


def _anthropic_messages(messages: Any, thinking_on: bool) -> Iterator[Problem]:
    if not isinstance(messages, list):
        return
    if not messages:
        yield "messages", "messages: at least one message is required"
        return
    seen_ids: set[str] = set()
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        content = message.get("content")
        last = i == len(messages) - 1
        if isinstance(content, str):
            if not content and not (last and role == "assistant"):
                yield f"messages.{i}", ("messages: all messages must have non-empty content "
                                        "except for the optional final assistant message")
            elif last and role == "assistant" and content != content.rstrip():
                yield f"messages.{i}", "messages: final assistant content cannot end with " \
                                       "trailing whitespace"
            continue
        blocks = _blocks(content)
        if not blocks and not (last and role == "assistant"):
            yield f"messages.{i}", ("messages: all messages must have non-empty content except "
                                    "for the optional final assistant message")
        for j, block in enumerate(blocks):
            where = f"messages.{i}.content.{j}"
            kind = block.get("type")
            if kind == "text" and not str(block.get("text", "")):
                yield where, "messages: text content blocks must be non-empty"
            if kind == "thinking" and not _signature_ok(block):
                yield where, f"{where}: Invalid `signature` in `thinking` block"
            if kind == "compaction" and block.get("content") is not None:
                signature = block.get("signature")
                if signature != compaction_signature(str(block.get("content"))):
                    yield where, f"{where}: Invalid `signature` in `compaction` block"
            yield from _image_size(block, where)
            if kind == "tool_use":
                tid = str(block.get("id", ""))
                if tid in seen_ids:
                    yield where, f"messages.{i}.content.{j}: `tool_use` ids must be unique"
                seen_ids.add(tid)
        if last and role == "assistant" and blocks and blocks[-1].get("type") == "text":
            text = str(blocks[-1].get("text", ""))
            if text != text.rstrip():
                yield f"messages.{i}", "messages: final assistant content cannot end with " \
                                       "trailing whitespace"
        yield from _tool_pairing(messages, i, blocks, thinking_on)
        yield from _server_tool_pairing(i, role, blocks)


# The result block type each server tool answers with.
SERVER_RESULTS = {"web_search": "web_search_tool_result", "web_fetch": "web_fetch_tool_result",
                  "code_execution": "code_execution_tool_result",
                  "bash_code_execution": "bash_code_execution_tool_result",
                  "text_editor_code_execution": "text_editor_code_execution_tool_result",
                  "tool_search_tool_regex": "tool_search_tool_result",
                  "tool_search_tool_bm25": "tool_search_tool_result"}


def _is_server_result(block: dict[str, Any]) -> bool:
    kind = str(block.get("type", ""))
    return kind.endswith("_tool_result") and kind != "tool_result"


def _server_tool_pairing(i: int, role: Any, blocks: list[dict[str, Any]]) -> Iterator[Problem]:
    """Server tool blocks (the tool use docs, server tools): the model's, so only in an
    assistant message; each ``server_tool_use`` with its result, of the type its tool
    answers with, in the same message; each result after the use it answers. A web search
    result goes back with the encrypted content it came with."""
    uses: dict[str, str] = {}  # id -> tool name, of the uses seen so far in the message
    answered: set[str] = set()
    for j, block in enumerate(blocks):
        kind = block.get("type")
        where = f"messages.{i}.content.{j}"
        if role != "assistant" and (kind == "server_tool_use" or _is_server_result(block)):
            yield where, f"{where}: `{kind}` blocks may only appear in `assistant` messages"
            continue
        if kind == "server_tool_use":
            uses[str(block.get("id"))] = str(block.get("name"))
        elif _is_server_result(block):
            tid = str(block.get("tool_use_id"))
            name = uses.get(tid)
            if name is None:
                yield where, (f"{where}: `{kind}` block with tool_use_id `{tid}` does not match "
                              "any preceding `server_tool_use` block in the same message")
            elif SERVER_RESULTS.get(name) != kind:
                yield where, (f"{where}: `{kind}` block cannot answer the `{name}` tool "
                              f"(`server_tool_use` `{tid}`); expected `{SERVER_RESULTS.get(name)}`")
            answered.add(tid)
            yield from _search_results_sealed(block, where)
    for tid, name in uses.items():
        if tid not in answered:
            yield f"messages.{i}", (
                f"messages.{i}: `server_tool_use` block with id `{tid}` was found without a "
                f"corresponding `{SERVER_RESULTS.get(name, name + '_tool_result')}` block in "
                "the same message")


def _search_results_sealed(block: dict[str, Any], where: str) -> Iterator[Problem]:
    if block.get("type") != "web_search_tool_result" or not isinstance(block.get("content"), list):
        return
    for k, result in enumerate(_blocks(block.get("content"))):
        payload = unseal(result.get("encrypted_content"))
        if payload is None or payload.get("url") != result.get("url"):
            yield f"{where}.content.{k}", (f"{where}.content.{k}.encrypted_content: invalid "
                                           "encrypted content for this web search result")


def _image_size(block: dict[str, Any], where: str) -> Iterator[Problem]:
    kind = block.get("type")
    if kind == "tool_result":
        for k, inner in enumerate(_blocks(block.get("content"))):
            yield from _image_size(inner, f"{where}.content.{k}")
        return
    source = block.get("source") if kind == "image" else None
    if not isinstance(source, dict) or source.get("type") != "base64":
        return
    data = str(source.get("data", ""))
    size = len(data) * 3 // 4 - data[-2:].count("=")
    if size > MAX_IMAGE_BYTES:
        yield where, (f"{where}.image.source.base64: image exceeds 5 MB maximum: {size} bytes > "
                      f"{MAX_IMAGE_BYTES} bytes")


def _tool_pairing(messages: list[Any], i: int, blocks: list[dict[str, Any]],
                  thinking_on: bool) -> Iterator[Problem]:
    message = messages[i]
    role = message.get("role")
    results = [b for b in blocks if b.get("type") == "tool_result"]
    if role == "user" and results:
        prev = messages[i - 1] if i > 0 and isinstance(messages[i - 1], dict) else {}
        asked = {str(b.get("id")) for b in _blocks(prev.get("content"))
                 if b.get("type") == "tool_use"} if prev.get("role") == "assistant" else set()
        stray = [str(b.get("tool_use_id")) for b in results if str(b.get("tool_use_id")) not in asked]
        if stray:
            yield f"messages.{i}", (
                f"messages.{i}.content.0: unexpected `tool_use_id` found in `tool_result` blocks: "
                f"{', '.join(stray)}. Each `tool_result` block must have a corresponding "
                "`tool_use` block in the previous message.")
        first_other = next((k for k, b in enumerate(blocks) if b.get("type") != "tool_result"),
                           len(blocks))
        if any(b.get("type") == "tool_result" for b in blocks[first_other:]):
            yield f"messages.{i}", (
                f"messages.{i}: `tool_result` blocks must come first in the content of a user "
                "message, before any other block")
    if role == "assistant":
        uses = [str(b.get("id")) for b in blocks if b.get("type") == "tool_use"]
        if not uses or i == len(messages) - 1:
            return
        nxt = messages[i + 1] if isinstance(messages[i + 1], dict) else {}
        answered = {str(b.get("tool_use_id")) for b in _blocks(nxt.get("content"))
                    if b.get("type") == "tool_result"} if nxt.get("role") == "user" else set()
        missing = [u for u in uses if u not in answered]
        if missing:
            yield f"messages.{i}", (
                f"messages.{i + 1}: `tool_use` ids were found without `tool_result` blocks "
                f"immediately after: {', '.join(missing)}. Each `tool_use` block must have a "
                "corresponding `tool_result` block in the next message.")
        # With thinking on, the assistant turn being continued by tool results must hand
        # back its thinking first (the API checks the last such turn).
        later_assistant = any(isinstance(m, dict) and m.get("role") == "assistant"
                              for m in messages[i + 1:])
        if thinking_on and not later_assistant and blocks[0].get("type") not in (
                "thinking", "redacted_thinking"):
            yield f"messages.{i}", (
                f"messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but "
                f"found `{blocks[0].get('type')}`. When `thinking` is enabled, a final "
                "`assistant` message must start with a thinking block (preceeding the "
                "lastmost set of `tool_use` and `tool_result` blocks).")


def openai_problems(body: dict[str, Any], headers: dict[str, str]) -> Iterator[Problem]:
    """Every documented Chat Completions rule the body breaks."""
    yield from _model(body)
    if body.get("stream_options") is not None and not body.get("stream"):
        yield "stream_options", ("The 'stream_options' parameter is only allowed when 'stream' "
                                 "is enabled.")
    model = str(body.get("model", ""))
    if _OPENAI_REASONING_MODEL.match(model) and "max_tokens" in body:
        yield "max_tokens", ("Unsupported parameter: 'max_tokens' is not supported with this "
                             "model. Use 'max_completion_tokens' instead.")
    tools = _list(body.get("tools"))
    for i, tool in enumerate(tools):
        fn = tool.get("function") if isinstance(tool, dict) else None
        name = fn.get("name") if isinstance(fn, dict) else None
        if isinstance(name, str) and not _OPENAI_TOOL_NAME.match(name):
            yield f"tools[{i}].function.name", (
                f"Invalid 'tools[{i}].function.name': string does not match pattern. Expected a "
                "string that matches the pattern '^[a-zA-Z0-9_-]+$'.")
    messages = body.get("messages")
    if not isinstance(messages, list):
        return
    if not messages:
        yield "messages", "[] is too short - 'messages'"
        return
    open_calls: list[str] = []
    seen: set[str] = set()
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "tool":
            tid = str(message.get("tool_call_id"))
            if tid not in open_calls:
                yield f"messages.[{i}].role", (
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.")
            else:
                open_calls.remove(tid)
            continue
        if open_calls:
            yield f"messages.[{i}].role", (
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(open_calls)}")
            open_calls = []
        if role == "assistant":
            calls = message.get("tool_calls") or []
            for call in calls if isinstance(calls, list) else []:
                cid = str(call.get("id")) if isinstance(call, dict) else ""
                if cid in seen:
                    yield f"messages.[{i}].tool_calls", f"Duplicate tool_call id: {cid}"
                seen.add(cid)
                open_calls.append(cid)
    if open_calls:
        yield f"messages.[{len(messages) - 1}].role", (
            "An assistant message with 'tool_calls' must be followed by tool messages responding "
            "to each 'tool_call_id'. The following tool_call_ids did not have response "
            f"messages: {', '.join(open_calls)}")


def responses_problems(body: dict[str, Any], *, endpoint: str = "create") -> Iterator[Problem]:
    """Every documented Responses API rule the body breaks; ``endpoint`` is ``create``,
    ``compact`` or ``input_tokens`` (the last two take the same input, fewer settings)."""
    yield from _model(body)
    if endpoint == "create":
        if body.get("stream_options") is not None and not body.get("stream"):
            yield "stream_options", ("The 'stream_options' parameter is only allowed when "
                                     "'stream' is enabled.")
        limit = body.get("max_output_tokens")
        if isinstance(limit, int) and limit < MIN_OUTPUT_TOKENS:
            yield "max_output_tokens", (
                "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= "
                f"{MIN_OUTPUT_TOKENS}, but got {limit} instead.")
    if _OPENAI_NON_REASONING_MODEL.match(str(body.get("model", ""))):
        if _dict(body.get("reasoning")).get("effort") is not None:
            yield "reasoning.effort", ("Unsupported parameter: 'reasoning.effort' is not "
                                       "supported with this model.")
        if ENCRYPTED_REASONING in _list(body.get("include")):
            yield "include", "Encrypted content is not supported with this model."
    for i, tool in enumerate(_list(body.get("tools"))):
        name = tool.get("name") if isinstance(tool, dict) and tool.get("type") == "function" \
            else None
        if isinstance(name, str) and not _OPENAI_TOOL_NAME.match(name):
            yield f"tools[{i}].name", (
                f"Invalid 'tools[{i}].name': string does not match pattern. Expected a string "
                "that matches the pattern '^[a-zA-Z0-9_-]+$'.")
    yield from tool_search.responses_problems(body, input_items(body))
    # Nothing the fake answers is stored, so reasoning can only come back encrypted.
    stored = endpoint == "create" and body.get("store") is not False
    yield from _responses_items(input_items(body), stored)


def _responses_items(items: list[dict[str, Any]], stored: bool) -> Iterator[Problem]:
    calls: dict[str, int] = {}
    open_calls: list[str] = []
    for i, item in enumerate(items):
        where = f"input[{i}]"
        kind = item.get("type", "message" if "role" in item else None)
        if kind == "function_call":
            call_id = str(item.get("call_id"))
            if call_id in calls:
                yield f"{where}.call_id", (
                    f"Invalid 'input[{i}].call_id': {call_id!r} is already the call_id of "
                    f"input[{calls[call_id]}]. Each function call needs its own call_id.")
            calls[call_id] = i
            open_calls.append(call_id)
        elif kind == "function_call_output":
            call_id = str(item.get("call_id"))
            if call_id in open_calls:
                open_calls.remove(call_id)
            else:
                yield where, f"No tool call found for function call output with call_id {call_id}."
        elif kind == "message":
            if open_calls:
                yield where, f"No tool output found for function call {open_calls[0]}."
                open_calls = []
            yield from _message_parts(item, where)
        elif kind == "reasoning":
            yield from _reasoning_item(items, i, stored)
        elif kind == "compaction":
            yield from _sealed(item, where, "compaction")
    if open_calls:
        yield f"input[{len(items) - 1}]", f"No tool output found for function call {open_calls[0]}."


def _message_parts(item: dict[str, Any], where: str) -> Iterator[Problem]:
    if not isinstance(item.get("content"), list):
        return
    allowed = _OUTPUT_PARTS if message_role(item) == "assistant" else _INPUT_PARTS
    for j, part in enumerate(parts(item.get("content"))):
        kind = str(part.get("type"))
        if kind not in allowed:
            names = ", ".join(f"'{a}'" for a in allowed[:-1]) + f" and '{allowed[-1]}'"
            yield f"{where}.content[{j}]", (f"Invalid value: '{kind}'. Supported values are: "
                                            f"{names}.")


def _reasoning_item(items: list[dict[str, Any]], i: int, stored: bool) -> Iterator[Problem]:
    item = items[i]
    item_id = str(item.get("id"))
    if not item.get("encrypted_content"):
        tail = "" if stored else (" Items are not persisted when `store` is set to false. Try "
                                  "again with `store` set to true, or remove this item from "
                                  "your input.")
        yield f"input[{i}]", f"Item with id '{item_id}' not found.{tail}"
        return
    yield from _sealed(item, f"input[{i}]", "reasoning")
    follower = items[i + 1] if i + 1 < len(items) else {}
    kind = follower.get("type", "message" if "role" in follower else None)
    if not (kind in ("function_call", "reasoning")
            or (kind == "message" and message_role(follower) == "assistant")):
        yield f"input[{i}]", (f"Item '{item_id}' of type 'reasoning' was provided without its "
                              "required following item.")


def _sealed(item: dict[str, Any], where: str, kind: str) -> Iterator[Problem]:
    """Encrypted content the fake minted must come back unchanged, and as the same kind;
    a real service's cannot be checked here."""
    value = item.get("encrypted_content")
    if not minted_here(value):
        return
    payload = unseal(value)
    if payload is None or payload.get("kind") != kind:
        yield f"{where}.encrypted_content", (
            f"The encrypted content for item {where} could not be verified.")
