"""Judging a request as the real API would: its SDK's request type, then its documented rules.

The fake refuses what the real services refuse (HTTP 400, ``invalid_request_error``, a
message naming the field), so a test that passes here does not pass only because the fake
was written with the same assumptions as the client. ``strict=False`` on the server turns
this off for the few tests that need to send something the APIs refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import request_rules, request_schema


@dataclass(frozen=True)
class Refusal:
    param: str
    message: str


def _first(problems: Any) -> Refusal | None:
    for param, message in problems:
        return Refusal(param, message)
    return None


def judge_anthropic(path: str, body: dict[str, Any], headers: dict[str, str]) -> Refusal | None:
    count_only = path.endswith("/count_tokens")
    if count_only:
        name = "anthropic.count_tokens"
    else:
        name = "anthropic.messages.stream" if body.get("stream") else "anthropic.messages"
    problem = request_schema.check(name, body)
    if problem is not None:
        return Refusal(problem.location, problem.text())
    return _first(request_rules.anthropic_problems(body, headers, count_only=count_only))


def judge_openai(body: dict[str, Any], headers: dict[str, str]) -> Refusal | None:
    name = "openai.chat.stream" if body.get("stream") else "openai.chat"
    problem = request_schema.check(name, body)
    if problem is not None:
        return Refusal(problem.location, f"Invalid value for '{problem.location}': {problem.message}")
    return _first(request_rules.openai_problems(body, headers))


# The Responses endpoints by path, and the SDK params type each is judged by.
RESPONSES_ENDPOINTS = {
    "/v1/responses": "create",
    "/v1/responses/compact": "compact",
    "/v1/responses/input_tokens": "input_tokens",
}


def judge_responses(path: str, body: dict[str, Any]) -> Refusal | None:
    endpoint = RESPONSES_ENDPOINTS.get(path, "create")
    if endpoint == "create":
        name = "openai.responses.stream" if body.get("stream") else "openai.responses"
    else:
        name = f"openai.responses.{endpoint}"
    problem = request_schema.check(name, body)
    if problem is not None:
        return Refusal(problem.location, f"Invalid value for '{problem.location}': {problem.message}")
    return _first(request_rules.responses_problems(body, endpoint=endpoint))
