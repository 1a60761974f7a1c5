"""The fake LLM server: real HTTP on 127.0.0.1 speaking the Anthropic Messages, OpenAI Chat
Completions and OpenAI Responses wires.

Stdlib only (``http.server``, one thread per connection); replies come from a FIFO queue,
then an optional responder, then a deterministic default.
"""

from __future__ import annotations

import socket
import threading
import time
from collections import deque
from collections.abc import Iterable
from typing import Any, Self

from . import anthropic_wire, models_wire, openai_wire, responses_wire
from .cache import AnthropicPromptCache, CacheUsage, Clock, OpenAIPrefixCache
from .context_edits import ContextEditError, apply_context_edits
from .counting import (
    anthropic_units,
    openai_units,
    output_tokens,
    responses_units,
    total_tokens,
    warm_up_in_background,
)
from .invariants import InvariantChecker, Violation
from .models_wire import FakeModel
from .request_rules import beta_flags
from .responses_compact import compacted_json
from .script import Provider, RecordedRequest, Reply, Responder, default_reply
from .tool_search import answer_responses_searches, answer_searches
from .transport import Exchange, Handler, HTTPServer
from .validation import RESPONSES_ENDPOINTS, judge_anthropic, judge_openai, judge_responses

DEFAULT_CONTEXT_WINDOW = 200_000
DEFAULT_HANG_SECONDS = 30.0
_STREAM_FAULTS = ("cut_stream", "malformed_event", "hang", "endless")
DEFAULT_ENDLESS_TEXT = "and so on, "


class FakeLLMServer:
    """A scripted Anthropic/OpenAI-compatible model server on an ephemeral loopback port.

    Replies come from the FIFO queue, then ``responder``, then ``default_reply``.
    """

    def __init__(
        self,
        *,
        context_window: int = DEFAULT_CONTEXT_WINDOW,
        port: int = 0,
        clock: Clock | None = None,
        cache_min_tokens: int = 0,
        responder: Responder | None = None,
        strict: bool = True,
        models: Iterable[FakeModel] | None = None,
        models_flavor: str = "openai",
    ) -> None:
        self.context_window = context_window
        # Refuse what the real APIs refuse; off only for tests that must send such bodies.
        self.strict = strict
        self.checker = InvariantChecker()
        self.responder: Responder | None = responder
        self.requests: list[RecordedRequest] = []
        self._port = port
        self._base_clock: Clock = clock or time.monotonic
        self._clock_offset = 0.0
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._recorded = threading.Condition(self._lock)
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._httpd: HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.anthropic_cache = AnthropicPromptCache(self.now, min_tokens=cache_min_tokens)
        self.openai_cache = OpenAIPrefixCache(self.now)
        # The models endpoints: the models listed (None: each wire's current lineup), which
        # kind of OpenAI-wire server to be, a status to fail them with, a delay before they
        # answer, and what was asked (apart from ``requests``, which holds model calls).
        self._default_models = list(models) if models is not None else None
        self._default_flavor = models_flavor
        self.models: list[FakeModel] | None = self._default_models
        self.models_flavor = models_flavor
        self.models_fault: int | None = None
        self.models_delay = 0.0
        self.model_requests: list[str] = []

    # ------------------------------------------------------------ lifecycle

    def start(self) -> Self:
        if self._httpd is not None:
            return self
        warm_up_in_background()
        self._stopping.clear()
        httpd = HTTPServer(("127.0.0.1", self._port), Handler)
        httpd.host = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-llm", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd = self._httpd
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the fake LLM server is not running")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    # ------------------------------------------------------------ scripting

    def queue(self, reply: Reply | dict[str, Any] | str) -> None:
        with self._lock:
            self._replies.append(Reply.from_json(reply))

    def queue_many(self, replies: Iterable[Reply | dict[str, Any] | str]) -> None:
        parsed = [Reply.from_json(r) for r in replies]
        with self._lock:
            self._replies.extend(parsed)

    @property
    def pending_replies(self) -> int:
        with self._lock:
            return len(self._replies)

    def reset(self) -> None:
        """Forget queued replies, the responder, recorded requests, both prompt caches and
        the models endpoints' configuration."""
        with self._lock:
            self._replies.clear()
            self.requests.clear()
            self.responder = None
            self.model_requests.clear()
        self.models = self._default_models
        self.models_flavor = self._default_flavor
        self.models_fault = None
        self.models_delay = 0.0
        self.anthropic_cache.clear()
        self.openai_cache.clear()
        self.checker.reset()

    @property
    def violations(self) -> list[Violation]:
        """Every invariant broken since the last reset, refusals included (see invariants)."""
        return list(self.checker.violations)

    def take_violations(self) -> list[Violation]:
        found = self.violations
        self.checker.reset()
        return found

    def now(self) -> float:
        return self._base_clock() + self._clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Move the cache clock forward, e.g. past the 5-minute TTL, without sleeping."""
        self._clock_offset += seconds

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> list[RecordedRequest]:
        """Block until at least ``count`` requests were recorded; useful with other processes."""
        deadline = time.monotonic() + timeout
        with self._recorded:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"saw {len(self.requests)} of {count} requests")
                self._recorded.wait(left)
            return list(self.requests)

    # ------------------------------------------------------------ internals

    def track_connection(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def _record(self, request: RecordedRequest) -> None:
        with self._recorded:
            request.index = len(self.requests)
            self.requests.append(request)
            self._recorded.notify_all()

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
            responder = self.responder
        if responder is not None:
            return Reply.from_json(responder(request))
        return default_reply(request)

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)

    def route(self, ex: Exchange, method: str) -> None:
        path = ex.path
        if path.startswith("/_fake/"):
            self._control(ex, method, path)
            return
        if (method == "GET" and (path == "/v1/models" or path.startswith("/v1/models/")
                                 or path == "/props")) \
                or (method == "POST" and path == "/api/show"):
            self._models_endpoint(ex, method, path)
            return
        if method != "POST":
            ex.send_json(404, anthropic_wire.error_body(404, f"Not found: {method} {path}"))
            return
        if path == "/v1/messages":
            self._anthropic_messages(ex)
        elif path == "/v1/messages/count_tokens":
            self._anthropic_count(ex)
        elif path == "/v1/chat/completions":
            self._openai_chat(ex)
        elif path == "/v1/responses":
            self._openai_responses(ex)
        elif path == "/v1/responses/compact":
            self._openai_compact(ex)
        elif path == "/v1/responses/input_tokens":
            self._openai_input_tokens(ex)
        else:
            ex.send_json(404, anthropic_wire.error_body(404, f"Not found: {method} {path}"))

    def _control(self, ex: Exchange, method: str, path: str) -> None:
        if path == "/_fake/health":
            ex.send_json(200, {"ok": True})
        elif path == "/_fake/replies" and method == "POST":
            body = ex.json_body()
            replies = body.get("replies", []) if isinstance(body, dict) else body
            try:
                self.queue_many(replies)
            except (ValueError, TypeError) as err:
                ex.send_json(400, {"error": str(err)})
                return
            ex.send_json(200, {"queued": len(replies), "pending": self.pending_replies})
        elif path == "/_fake/requests" and method == "GET":
            with self._lock:
                recorded = [r.to_json() for r in self.requests]
            ex.send_json(200, {"requests": recorded})
        elif path == "/_fake/violations" and method == "GET":
            ex.send_json(200, {"checked": self.checker.checked, "refused": self.checker.refused,
                               "violations": [str(v) for v in self.violations]})
        elif path == "/_fake/reset" and method == "POST":
            self.reset()
            ex.send_json(200, {"ok": True})
        elif path == "/_fake/models" and method == "POST":
            try:
                self.configure_models(ex.json_body() or {})
            except (ValueError, TypeError) as err:
                ex.send_json(400, {"error": str(err)})
                return
            ex.send_json(200, self._models_state())
        elif path == "/_fake/models" and method == "GET":
            ex.send_json(200, self._models_state())
        elif path == "/_fake/config" and method == "POST":
            body = ex.json_body() or {}
            if "context_window" in body:
                self.context_window = int(body["context_window"])
            if "cache_min_tokens" in body:
                self.anthropic_cache.min_tokens = int(body["cache_min_tokens"])
            if "strict" in body:
                self.strict = bool(body["strict"])
            if "advance_clock_seconds" in body:
                self.advance_clock(float(body["advance_clock_seconds"]))
            ex.send_json(
                200,
                {
                    "context_window": self.context_window,
                    "cache_min_tokens": self.anthropic_cache.min_tokens,
                    "strict": self.strict,
                    "pending": self.pending_replies,
                },
            )
        else:
            ex.send_json(404, {"error": f"unknown control endpoint {method} {path}"})

    def _begin(
        self, ex: Exchange, provider: Provider
    ) -> tuple[RecordedRequest, dict[str, Any] | None]:
        """Record the request; answer auth and JSON errors. Returns the body when it may proceed."""
        try:
            body = ex.json_body()
        except (ValueError, UnicodeDecodeError):
            body = None
        request = RecordedRequest(
            path=ex.path,
            provider=provider,
            headers=ex.public_headers(),
            body=body if isinstance(body, dict) else {},
        )
        self._record(request)
        if not ex.has_credentials():
            request.status = 401
            if provider == "anthropic":
                ex.send_json(401, anthropic_wire.error_body(401, "x-api-key header is required"))
            else:
                ex.send_json(
                    401,
                    openai_wire.error_body(
                        "You didn't provide an API key. You need to provide your API key in an "
                        "Authorization header using Bearer auth "
                        "(i.e. Authorization: Bearer YOUR_KEY).",
                        "invalid_request_error",
                        None,
                    ),
                )
            return request, None
        if not isinstance(body, dict):
            request.status = 400
            message = "The request body is not valid JSON."
            if provider == "anthropic":
                ex.send_json(400, anthropic_wire.error_body(400, message))
            else:
                ex.send_json(400, openai_wire.error_body(message, "invalid_request_error", None))
            return request, None
        if self.strict:
            if provider == "anthropic":
                refusal = judge_anthropic(ex.path, body, request.headers)
            elif ex.path in RESPONSES_ENDPOINTS:
                refusal = judge_responses(ex.path, body)
            else:
                refusal = judge_openai(body, request.headers)
            if refusal is not None:
                request.status = 400
                request.refusal = refusal.message
                self._observe(request)
                if provider == "anthropic":
                    ex.send_json(400, anthropic_wire.error_body(400, refusal.message),
                                 {"request-id": anthropic_wire.new_request_id()})
                else:
                    ex.send_json(400, openai_wire.error_body(
                        refusal.message, "invalid_request_error", None, refusal.param))
                return request, None
        return request, body

    def _past_window(self, request: RecordedRequest, units: Any) -> bool:
        """Count the request's input, show it to the invariant checker, and say whether it is
        past the window (the caller then answers with its wire's refusal)."""
        request.input_tokens = total_tokens(units)
        self._observe(request)
        return request.input_tokens > self.context_window

    def _refuse_too_long(self, ex: Exchange, request: RecordedRequest, body: dict[str, Any]) -> None:
        request.status = 400
        request.fault = "prompt_too_long"
        ex.send_json(400, body)

    def _observe(self, request: RecordedRequest) -> None:
        self.checker.observe(request.index, request.provider, request.path, request.headers,
                             request.body, refusal=request.refusal,
                             input_tokens=request.input_tokens)

    def _reply_for(self, ex: Exchange, request: RecordedRequest) -> Reply | None:
        try:
            return self._next_reply(request)
        except Exception as err:  # noqa: BLE001 - any responder bug must reach the client as a 500
            request.status = 500
            request.fault = "responder_error"
            body = (
                anthropic_wire.error_body(500, f"responder failed: {err!r}")
                if request.provider == "anthropic"
                else openai_wire.error_body(f"responder failed: {err!r}", "server_error", None)
            )
            ex.send_json(500, body)
            return None

    # ------------------------------------------------------------ models endpoints

    def configure_models(self, body: dict[str, Any]) -> None:
        """``models`` (a list of FakeModel fields, or null for the defaults), ``flavor``
        (one of models_wire.FLAVORS), ``fault`` (an HTTP status, or null) and
        ``delay_seconds``; keys left out keep their value."""
        if not isinstance(body, dict):
            raise ValueError("the models configuration is an object")
        if "flavor" in body:
            if body["flavor"] not in models_wire.FLAVORS:
                raise ValueError(f"flavor must be one of {models_wire.FLAVORS}")
            self.models_flavor = str(body["flavor"])
        if "models" in body:
            raw = body["models"]
            self.models = None if raw is None else [FakeModel.from_json(m) for m in raw]
        if "fault" in body:
            self.models_fault = None if body["fault"] is None else int(body["fault"])
        if "delay_seconds" in body:
            self.models_delay = float(body["delay_seconds"])

    def _models_state(self) -> dict[str, Any]:
        with self._lock:
            asked = list(self.model_requests)
        return {"models": None if self.models is None else [m.to_json() for m in self.models],
                "flavor": self.models_flavor, "fault": self.models_fault,
                "delay_seconds": self.models_delay, "requests": asked}

    def _models_endpoint(self, ex: Exchange, method: str, path: str) -> None:
        anthropic = "anthropic-version" in ex.headers
        with self._lock:
            self.model_requests.append(f"{method} {path}")
        self._sleep(self.models_delay)
        if self.models_fault is not None:
            body = (anthropic_wire.error_body(self.models_fault, "models endpoint unavailable")
                    if anthropic else openai_wire.error_body(
                        "models endpoint unavailable", "server_error", None))
            ex.send_json(self.models_fault, body)
            return
        if path.startswith("/v1/models") and not ex.has_credentials():
            ex.send_json(401, anthropic_wire.error_body(401, "x-api-key header is required")
                         if anthropic else openai_wire.error_body(
                             "You didn't provide an API key.", "invalid_request_error", None))
            return
        betas = frozenset(beta_flags(ex.headers))
        listed = self.models
        if listed is None:
            listed = list(models_wire.DEFAULT_ANTHROPIC_MODELS if anthropic
                          else models_wire.DEFAULT_OPENAI_MODELS)
        if anthropic and path == "/v1/models":
            ex.send_json(200, models_wire.anthropic_page(listed, ex.query, betas),
                         {"request-id": anthropic_wire.new_request_id()})
        elif anthropic and path.startswith("/v1/models/"):
            wanted = path.removeprefix("/v1/models/")
            found = next((m for m in listed if m.id == wanted), None)
            if found is None:
                ex.send_json(404, anthropic_wire.error_body(404, f"model: {wanted}"))
            else:
                ex.send_json(200, models_wire.model_info(found, betas))
        elif path == "/v1/models":
            ex.send_json(200, models_wire.openai_models(listed, self.models_flavor))
        elif path == "/props" and self.models_flavor == "llamacpp" and listed:
            ex.send_json(200, models_wire.llamacpp_props(listed))
        elif path == "/api/show" and self.models_flavor == "ollama":
            body = ex.json_body()
            name = body.get("model") if isinstance(body, dict) else None
            found = next((m for m in listed if m.id == name), None)
            if found is None:
                ex.send_json(404, {"error": f"model '{name}' not found"})
            else:
                ex.send_json(200, models_wire.ollama_show(found))
        else:
            ex.send_json(404, openai_wire.error_body(f"Not found: {method} {path}",
                                                     "invalid_request_error", None))

    # ------------------------------------------------------------ Anthropic

    def _anthropic_count(self, ex: Exchange) -> None:
        request, body = self._begin(ex, "anthropic")
        if body is None:
            return
        try:
            outcome = apply_context_edits(body)
        except ContextEditError as err:
            request.status = 400
            ex.send_json(400, anthropic_wire.error_body(400, str(err)))
            return
        request.input_tokens = total_tokens(anthropic_units(outcome.body))
        request.applied_edits = outcome.applied_edits
        self._observe(request)
        answer: dict[str, Any] = {"input_tokens": request.input_tokens}
        if outcome.requested:
            answer["context_management"] = {"original_input_tokens": outcome.original_input_tokens}
        ex.send_json(200, answer, {"request-id": anthropic_wire.new_request_id()})

    def _unsupported_compaction(self, body: dict[str, Any]) -> str | None:
        """The API's refusal of ``compaction`` for a model whose capabilities leave it out
        (a model it does not list is judged elsewhere, as the real API would)."""
        if "compaction" not in body:
            return None
        listed = self.models if self.models is not None else models_wire.DEFAULT_ANTHROPIC_MODELS
        found = models_wire.find(listed, str(body.get("model")))
        if found is None or found.compacts:
            return None
        return f"compaction: not supported for model `{body.get('model')}`"

    def _unsupported_server_tool(self, body: dict[str, Any]) -> str | None:
        """The API's refusal of a server tool (web search, web fetch) offered to a model
        whose capabilities leave it out."""
        listed = self.models if self.models is not None else models_wire.DEFAULT_ANTHROPIC_MODELS
        found = models_wire.find(listed, str(body.get("model")))
        for i, tool in enumerate(body.get("tools") or []):
            kind = str(tool.get("type", "")) if isinstance(tool, dict) else ""
            if found is not None and models_wire.unsupported_tool(found, kind):
                return f"tools.{i}: `{kind}` is not supported for model `{body.get('model')}`"
        return None

    def _anthropic_messages(self, ex: Exchange) -> None:
        request, body = self._begin(ex, "anthropic")
        if body is None:
            return
        refusal = self._unsupported_server_tool(body)
        if refusal is not None:
            request.refusal = refusal
            self._observe(request)
        refusal = self._unsupported_compaction(body) or refusal
        if refusal is not None:
            request.status = 400
            ex.send_json(400, anthropic_wire.error_body(400, refusal))
            return
        try:
            outcome = apply_context_edits(body)
        except ContextEditError as err:
            request.status = 400
            ex.send_json(400, anthropic_wire.error_body(400, str(err)))
            return
        request.applied_edits = outcome.applied_edits
        units = anthropic_units(outcome.body)
        if self._past_window(request, units):
            self._anthropic_too_long(ex, request, request.input_tokens, self.context_window)
            return
        reply = self._reply_for(ex, request)
        if reply is None:
            return
        model = reply.model or str(body.get("model") or "claude-fake")
        fault = reply.fault or {}
        kind = fault.get("fault")
        if kind is not None:
            request.fault = str(kind)
        if kind == "rate_limit":
            retry_after = fault.get("retry_after", 1)
            request.status = 429
            ex.send_json(
                429,
                anthropic_wire.error_body(
                    429,
                    "This request would exceed the rate limit for your organization of 50 requests "
                    "per minute. Please try again later.",
                ),
                {"retry-after": f"{retry_after:g}", "request-id": anthropic_wire.new_request_id()},
            )
            return
        if kind == "overloaded":
            request.status = 529
            ex.send_json(529, anthropic_wire.error_body(529, "Overloaded"))
            return
        if kind == "server_error":
            request.status = 500
            ex.send_json(500, anthropic_wire.error_body(500, "Internal server error"))
            return
        if kind == "invalid_request":
            request.status = 400
            ex.send_json(400, anthropic_wire.error_body(
                400, str(fault.get("message") or "invalid request")))
            return
        if kind == "prompt_too_long":
            tokens = int(fault.get("tokens", max(request.input_tokens, self.context_window + 1)))
            self._anthropic_too_long(
                ex, request, tokens, int(fault.get("maximum", self.context_window))
            )
            return
        if kind in _STREAM_FAULTS:
            reply = self._content_for_fault(reply, request)
        if isinstance(body.get("compaction"), dict):
            reply = _as_compaction(reply)
        reply = answer_searches(reply, body)

        cache = self.anthropic_cache.apply(model, units)
        usage = _anthropic_usage(cache, output_tokens(reply.content), reply.usage)
        request.usage = usage
        management = {"applied_edits": outcome.applied_edits} if outcome.requested else None
        headers = {"request-id": anthropic_wire.new_request_id()}

        if body.get("stream"):
            events = anthropic_wire.stream_events(
                reply, model=model, usage=usage, context_management=management
            )
            payloads = [anthropic_wire.encode_event(name, data) for name, data in events]
            broken = (
                b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0,\n\n'
            )
            self._stream(ex, reply, fault, payloads, broken, end=None, headers=headers, request=request)
            return
        message = anthropic_wire.message_json(
            reply, model=model, usage=usage, context_management=management
        )
        self._single(ex, fault, message, headers)

    def _anthropic_too_long(
        self, ex: Exchange, request: RecordedRequest, tokens: int, maximum: int
    ) -> None:
        request.status = 400
        request.fault = "prompt_too_long"
        ex.send_json(
            400,
            anthropic_wire.error_body(400, anthropic_wire.prompt_too_long_message(tokens, maximum)),
            {"request-id": anthropic_wire.new_request_id()},
        )

    # ------------------------------------------------------------ OpenAI

    def _openai_chat(self, ex: Exchange) -> None:
        request, body = self._begin(ex, "openai")
        if body is None:
            return
        units = openai_units(body)
        if self._past_window(request, units):
            self._refuse_too_long(ex, request, openai_wire.prompt_too_long_body(
                request.input_tokens, self.context_window))
            return
        reply = self._reply_for(ex, request)
        if reply is None:
            return
        model = reply.model or str(body.get("model") or "gpt-fake")
        fault = reply.fault or {}
        kind = fault.get("fault")
        if self._openai_status_fault(ex, request, fault, model):
            return
        if kind == "prompt_too_long":
            request.status = 400
            tokens = int(fault.get("tokens", max(request.input_tokens, self.context_window + 1)))
            maximum = int(fault.get("maximum", self.context_window))
            ex.send_json(400, openai_wire.prompt_too_long_body(tokens, maximum))
            return
        if kind in _STREAM_FAULTS:
            reply = self._content_for_fault(reply, request)
        reply = answer_responses_searches(reply, body)

        key = body.get("prompt_cache_key")
        cached = self.openai_cache.apply(units, str(key) if key is not None else None)
        reasoning = sum(output_tokens([b]) for b in reply.content if b["type"] == "thinking")
        usage = _openai_usage(
            request.input_tokens, cached, output_tokens(reply.content), reasoning, reply.usage
        )
        request.usage = usage
        headers = {"x-request-id": anthropic_wire.new_request_id()}
        if body.get("stream"):
            options = body.get("stream_options") or {}
            chunks = openai_wire.stream_chunks(
                reply, model=model, usage=usage, include_usage=bool(options.get("include_usage"))
            )
            payloads = [openai_wire.encode_chunk(c) for c in chunks]
            broken = b'data: {"id": "chatcmpl-broken", "choices": [\n\n'
            self._stream(ex, reply, fault, payloads, broken, end=openai_wire.DONE, headers=headers, request=request)
            return
        self._single(
            ex, fault, openai_wire.completion_json(reply, model=model, usage=usage), headers
        )

    def _openai_status_fault(
        self, ex: Exchange, request: RecordedRequest, fault: dict[str, Any], model: str
    ) -> bool:
        """Answer a scripted HTTP error as both OpenAI wires do; True when one was answered."""
        kind = fault.get("fault")
        if kind is not None:
            request.fault = str(kind)
        if kind == "rate_limit":
            retry_after = fault.get("retry_after", 1)
            request.status = 429
            ex.send_json(
                429,
                openai_wire.rate_limit_body(model, float(retry_after)),
                {
                    "retry-after": f"{retry_after:g}",
                    "x-request-id": anthropic_wire.new_request_id(),
                },
            )
            return True
        if kind == "overloaded":
            request.status = 503
            ex.send_json(
                503,
                openai_wire.error_body(
                    "The server is overloaded or not ready yet.", "server_error", None
                ),
            )
            return True
        if kind == "server_error":
            request.status = 500
            ex.send_json(
                500,
                openai_wire.error_body(
                    "The server had an error while processing your request. Sorry about that!",
                    "server_error",
                    None,
                ),
            )
            return True
        return False

    # ------------------------------------------------------------ OpenAI Responses

    def _openai_responses(self, ex: Exchange) -> None:
        request, body = self._begin(ex, "openai")
        if body is None:
            return
        units = responses_units(body)
        model = str(body.get("model") or "gpt-fake")
        if self._past_window(request, units):
            self._responses_overflow(ex, request, body, model)
            return
        reply = self._reply_for(ex, request)
        if reply is None:
            return
        model = reply.model or model
        fault = reply.fault or {}
        kind = fault.get("fault")
        if self._openai_status_fault(ex, request, fault, model):
            return
        if kind == "prompt_too_long":
            # The API's overflow message names no token counts, so neither can this one.
            self._responses_overflow(ex, request, body, model)
            return
        if kind in _STREAM_FAULTS:
            reply = self._content_for_fault(reply, request)
        reply = answer_responses_searches(reply, body)

        key = body.get("prompt_cache_key")
        cached = self.openai_cache.apply(units, str(key) if key is not None else None)
        reasoning = sum(
            output_tokens([b]) for b in reply.content if b["type"] in ("thinking", "redacted_thinking")
        )
        usage = _responses_usage(
            request.input_tokens, cached, output_tokens(reply.content), reasoning, reply.usage
        )
        request.usage = usage
        headers = {"x-request-id": anthropic_wire.new_request_id()}
        if body.get("stream"):
            events = responses_wire.stream_events(reply, body, model=model, usage=usage)
            payloads = [responses_wire.encode_event(name, data) for name, data in events]
            broken = b'event: response.output_text.delta\ndata: {"type": "response.output_text.delta",\n\n'
            self._stream(ex, reply, fault, payloads, broken, end=None, headers=headers, request=request)
            return
        shape = responses_wire.Shape.of(body)
        status, reason = responses_wire.finished_status(reply)
        answer = responses_wire.response_json(
            body, response_id=responses_wire.new_id("resp"), created_at=int(time.time()),
            model=model, status=status, output=responses_wire.output_items(reply, shape),
            usage=usage, incomplete_reason=reason,
        )
        self._single(ex, fault, answer, headers)

    def _responses_overflow(
        self, ex: Exchange, request: RecordedRequest, body: dict[str, Any], model: str
    ) -> None:
        """Past the window: a 400 before anything, or, when streaming, an ``error`` event
        after the response opened (as the API reports it)."""
        request.fault = "prompt_too_long"
        if not body.get("stream"):
            request.status = 400
            ex.send_json(400, responses_wire.context_overflow_body())
            return
        ex.start_stream({"x-request-id": anthropic_wire.new_request_id()})
        for name, data in responses_wire.overflow_events(body, model=model):
            ex.write_chunk(responses_wire.encode_event(name, data))
        ex.end_stream()

    def _openai_compact(self, ex: Exchange) -> None:
        request, body = self._begin(ex, "openai")
        if body is None:
            return
        units = responses_units(body)
        if self._past_window(request, units):
            self._refuse_too_long(ex, request, responses_wire.context_overflow_body())
            return
        key = body.get("prompt_cache_key")
        cached = self.openai_cache.apply(units, str(key) if key is not None else None)
        usage = responses_wire.usage_json(request.input_tokens, cached, 0, 0)
        answer, summary = compacted_json(body, input_tokens=request.input_tokens, usage=usage)
        usage["output_tokens"] = output_tokens([{"type": "text", "text": summary}])
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        request.usage = usage
        ex.send_json(200, answer, {"x-request-id": anthropic_wire.new_request_id()})

    def _openai_input_tokens(self, ex: Exchange) -> None:
        request, body = self._begin(ex, "openai")
        if body is None:
            return
        request.input_tokens = total_tokens(responses_units(body))
        self._observe(request)
        ex.send_json(200, {"object": "response.input_tokens", "input_tokens": request.input_tokens},
                     {"x-request-id": anthropic_wire.new_request_id()})

    # ------------------------------------------------------------ delivery

    def _content_for_fault(self, reply: Reply, request: RecordedRequest) -> Reply:
        """Stream faults still need something to stream: the fault's content, else the default."""
        fault = reply.fault or {}
        if fault.get("fault") == "endless":
            piece = str(fault.get("text") or DEFAULT_ENDLESS_TEXT)
            return Reply.text(piece, chunk_size=len(piece),
                              chunk_delay_ms=float(fault.get("chunk_delay_ms", 0)),
                              usage=reply.usage)
        content = fault.get("content")
        base = Reply(content=list(content)) if isinstance(content, list) else default_reply(request)
        return Reply(
            content=base.content,
            stop_reason=fault.get("stop_reason"),
            chunk_size=int(fault.get("chunk_size", reply.chunk_size)),
            chunk_delay_ms=float(fault.get("chunk_delay_ms", reply.chunk_delay_ms)),
            usage=reply.usage,
        )

    def _stream(
        self,
        ex: Exchange,
        reply: Reply,
        fault: dict[str, Any],
        payloads: list[bytes],
        broken: bytes,
        *,
        end: bytes | None,
        headers: dict[str, str],
        request: RecordedRequest | None = None,
    ) -> None:
        kind = fault.get("fault")
        if kind == "endless":
            self._endless(ex, reply, fault, payloads, headers, request)
            return
        half = max(len(payloads) // 2, 1)
        stop_after = int(fault.get("after_events", half)) if kind in _STREAM_FAULTS else None
        if kind == "hang" and "after_events" not in fault:
            self._hang(ex, fault)  # stall before any byte, so the client's read timeout fires
        ex.start_stream(headers)
        delay = reply.chunk_delay_ms / 1000.0
        for index, payload in enumerate(payloads):
            if stop_after is not None and index == stop_after:
                if kind == "malformed_event":
                    ex.write_chunk(broken)
                elif kind == "hang":
                    self._hang(ex, fault)
                else:
                    ex.drop()
            if index and delay:
                self._sleep(delay)
            ex.write_chunk(payload)
        if stop_after is not None and stop_after >= len(payloads):
            if kind == "malformed_event":
                ex.write_chunk(broken)
            elif kind == "hang":
                self._hang(ex, fault)
            else:
                ex.drop()
        if end is not None:
            ex.write_chunk(end)
        ex.end_stream()

    def _single(
        self, ex: Exchange, fault: dict[str, Any], body: dict[str, Any], headers: dict[str, str]
    ) -> None:
        kind = fault.get("fault")
        if kind == "hang":
            self._hang(ex, fault)
        if kind == "cut_stream":
            ex.drop()
        if kind == "malformed_event":
            ex.send_bytes(200, b'{"id": "msg_broken", "content": [', "application/json", headers)
            return
        ex.send_json(200, body, headers)

    def _endless(self, ex: Exchange, reply: Reply, fault: dict[str, Any], payloads: list[bytes],
                 headers: dict[str, str], request: RecordedRequest | None) -> None:
        """The stream's opening up to its first text delta, then that delta again and again:
        an answer that never finishes, until the client closes the connection."""
        piece = "".join(str(b.get("text", "")) for b in reply.content).encode()
        repeat = next(i for i, p in enumerate(payloads) if piece in p and b"delta" in p)
        deadline = time.monotonic() + float(fault.get("seconds", 120))
        delay = reply.chunk_delay_ms / 1000.0
        sent = 0
        try:
            ex.start_stream(headers)
            for payload in payloads[:repeat]:
                ex.write_chunk(payload)
                sent += len(payload)
            while time.monotonic() < deadline and not self._stopping.is_set():
                ex.write_chunk(payloads[repeat])
                sent += len(payloads[repeat])
                if delay:
                    self._sleep(delay)
        finally:
            if request is not None:
                request.streamed_bytes = sent
                request.stream_ended = time.time()
        ex.drop()

    def _hang(self, ex: Exchange, fault: dict[str, Any]) -> None:
        self._sleep(float(fault.get("seconds", DEFAULT_HANG_SECONDS)))
        ex.drop()


def _as_compaction(reply: Reply) -> Reply:
    """A compaction request's answer: the scripted reply's text, summarized into one signed
    compaction block, and nothing sampled after it."""
    text = "\n".join(str(b.get("text", "")) for b in reply.content if b.get("type") == "text")
    return Reply(content=[{"type": "compaction", "content": text}], stop_reason="compaction",
                 chunk_size=reply.chunk_size, chunk_delay_ms=reply.chunk_delay_ms,
                 usage=reply.usage, model=reply.model)


def _anthropic_usage(
    cache: CacheUsage, out: int, override: dict[str, Any] | None
) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "input_tokens": cache.input_tokens,
        "cache_creation_input_tokens": cache.cache_creation_input_tokens,
        "cache_read_input_tokens": cache.cache_read_input_tokens,
        "cache_creation": {
            "ephemeral_5m_input_tokens": cache.ephemeral_5m_input_tokens,
            "ephemeral_1h_input_tokens": cache.ephemeral_1h_input_tokens,
        },
        "output_tokens": out,
        "service_tier": "standard",
    }
    if override:
        usage.update(override)
    return usage


def _openai_usage(
    prompt: int, cached: int, completion: int, reasoning: int, override: dict[str, Any] | None
) -> dict[str, Any]:
    if override:
        # Overrides may be written with either provider's names.
        prompt = int(override.get("prompt_tokens", override.get("input_tokens", prompt)))
        completion = int(
            override.get("completion_tokens", override.get("output_tokens", completion))
        )
        cached = int(override.get("cached_tokens", override.get("cache_read_input_tokens", cached)))
    return openai_wire.usage_json(prompt, completion, cached, reasoning)


def _responses_usage(
    prompt: int, cached: int, output: int, reasoning: int, override: dict[str, Any] | None
) -> dict[str, Any]:
    if override:
        # Overrides may be written with any wire's names.
        prompt = int(override.get("input_tokens", override.get("prompt_tokens", prompt)))
        output = int(override.get("output_tokens", override.get("completion_tokens", output)))
        cached = int(override.get("cached_tokens", override.get("cache_read_input_tokens", cached)))
    return responses_wire.usage_json(prompt, cached, output, reasoning)
