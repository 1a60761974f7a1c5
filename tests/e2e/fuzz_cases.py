"""Fuzzed input for both transports, shared by the suite's fuzz tests and bench_fuzz.

Hypothesis strategies make ``Case``s: bytes to write (well-framed or not) and what the
sidecar owes for them. ``FuzzTarget`` runs one live sidecar, writes a case, then a valid
probe request, and lists every broken promise: the process died, the probe went unanswered
or was slow, the case's request got no answer, two answers, or the wrong JSON-RPC code.
"""

from __future__ import annotations

import itertools
import json
import string
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from tests.e2e.raw_wire import RawPeer, frame, notification, request, sidecar_env

PARSE, INVALID, NOT_FOUND, BAD_PARAMS, INTERNAL = -32700, -32600, -32601, -32602, -32603
APP_CODES = frozenset(range(-33006, -33000))  # SessionNotFound .. SessionBusy
MAX_BYTES = 16 * 1024  # the fuzzed sidecar's transport.maxMessageBytes: oversize is cheap
PROBE_SECONDS = 2.0
ANSWER_SECONDS = 20.0
NO_KEY = "CONTEXT_SIDECAR_FUZZ_NO_KEY"

_ids = itertools.count(10_000)


def next_id() -> int:
    return next(_ids)


@dataclass(frozen=True)
class Case:
    label: str
    data: bytes
    messages: int = 1  # what a client meant as messages (bytes of noise count as one)
    rid: int | None = None
    # "one": exactly one answer; "at_most_one"; "never". Checked again after the run.
    rid_answer: str = "never"
    codes: frozenset[int] = frozenset()  # error codes the answer to rid may carry
    result_ok: bool = False
    null_codes: frozenset[int] = frozenset()  # codes answers with id null may carry
    null_count: tuple[int, int] = (0, 0)
    # A message cut short: exactly one answer overall, to rid or with id null.
    one_overall: bool = False


# ----- JSON values ------------------------------------------------------------------------

_scalars = (st.none() | st.booleans() | st.integers(-(2**53), 2**53)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=16))
json_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=10,
)
non_objects = st.recursive(
    _scalars, lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=6,
).filter(lambda v: not isinstance(v, dict))
scalar_params = st.booleans() | st.integers(-1000, 1000) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)


# ----- the methods and what their params may hold -----------------------------------------

LSP_REQUESTS: dict[str, list[str]] = {
    "session/new": ["cwd", "model", "provider", "title"],
    "session/load": ["sessionId", "cwd"],
    "session/list": ["cwd"],
    "session/close": ["sessionId"],
    "session/delete": ["sessionId"],
    "session/prompt": ["sessionId", "prompt"],
    "session/set_model": ["sessionId", "model", "provider"],
    "session/set_mode": ["sessionId", "modeId"],
    "session/set_title": ["sessionId", "title"],
    "sidecar/gauge": ["sessionId"],
    "sidecar/compact": ["sessionId", "instructions", "workDoneToken"],
    "sidecar/context": ["sessionId"],
    "sidecar/history/list": ["limit", "project"],
    "sidecar/history/undo": [],
}
# workspace/didChangeConfiguration is left out: it may set transport.maxMessageBytes to 1,
# after which refusing everything is the right answer and the fuzz would measure nothing.
LSP_NOTIFICATIONS: dict[str, list[str]] = {
    "session/cancel": ["sessionId"],
    "textDocument/didOpen": ["textDocument"],
    "textDocument/didChange": ["textDocument", "contentChanges"],
    "textDocument/didClose": ["textDocument"],
    "workspace/didChangeWatchedFiles": ["changes"],
    "$/cancelRequest": ["id"],
    "$/setTrace": ["value"],
}
ACP_REQUESTS: dict[str, list[str]] = {
    "initialize": ["protocolVersion", "clientCapabilities", "clientInfo"],
    "authenticate": ["methodId"],
    "session/new": ["cwd", "mcpServers", "_meta"],
    "session/load": ["sessionId", "cwd", "mcpServers"],
    "session/resume": ["sessionId", "cwd"],
    "session/list": ["cwd", "cursor"],
    "session/close": ["sessionId"],
    "session/delete": ["sessionId"],
    "session/prompt": ["sessionId", "prompt"],
    "session/set_model": ["sessionId", "modelId", "model", "provider"],
    "_sidecar/set_model": ["sessionId", "model", "provider"],
    "session/set_mode": ["sessionId", "modeId"],
    "session/set_title": ["sessionId", "title"],
    "_sidecar/set_title": ["sessionId", "title"],
    "_sidecar/gauge": ["sessionId"],
    "_sidecar/compact": ["sessionId", "instructions"],
    "_sidecar/context": ["sessionId"],
    "_sidecar/history/list": ["limit", "project"],
    "_sidecar/history/undo": [],
}
ACP_NOTIFICATIONS: dict[str, list[str]] = {
    "session/cancel": ["sessionId"],
    "document/didOpen": ["uri", "text"],
    "document/didChange": ["uri", "contentChanges"],
    "document/didClose": ["uri"],
    "$/cancel_request": ["requestId"],
}


def pool(workspace: Path, session_id: str) -> dict[str, list[Any]]:
    """Values a real client would send, by key, so the fuzz also reaches past the params
    checks; ``"*"`` serves any key. Sessions the fuzz opens join ``sessionId``."""
    hello = (workspace / "hello.py").as_uri()
    prompts = [
        [{"type": "text", "text": "hi"}], [{"type": "text", "text": "/context"}],
        [{"type": "text", "text": "/model gpt-4o"}], [{"type": "text", "text": "/clear"}],
        [{"type": "text", "text": "/compact keep it short"}], [{"type": "text", "text": "/nonsense"}],
        [{"type": "text", "text": "/plan"}], [{"type": "text", "text": "/mode acceptEdits"}],
        [{"type": "resource_link", "uri": hello, "name": "hello.py"}],
        [{"type": "resource_link", "uri": "file:///nonexistent/x.py"}],
        [{"type": "resource", "resource": {"uri": hello, "text": "x = 1"}}],
        [{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}],
        [{"type": "audio", "data": "AAAA"}], [],
    ]
    models = ["claude-sonnet-4-5", "gpt-4o", "claude-opus-4-6[1m]", "no-such-model"]
    return {
        "sessionId": [session_id],
        "cwd": [str(workspace), "/nonexistent/place", "relative/path"],
        "model": models,
        "modelId": models,
        "modeId": ["default", "acceptEdits", "plan", "bypassPermissions", "nope"],
        "provider": ["anthropic", "openai", "openai-compatible", "nope"],
        "prompt": prompts,
        "limit": [1, 5, 0, -1, 10**9],
        "project": [str(workspace)],
        "instructions": ["keep it short", ""],
        "textDocument": [{"uri": hello, "languageId": "python", "version": 1, "text": "x = 1\n"},
                         {"uri": hello, "version": 2}],
        "contentChanges": [[{"text": "replaced"}],
                           [{"range": {"start": {"line": 0, "character": 0},
                                       "end": {"line": 0, "character": 1}}, "text": "y"}]],
        "changes": [[{"uri": hello, "type": 2}]],
        "uri": [hello, "not a uri"],
        "text": ["x = 1\n"],
        "protocolVersion": [1],
        "mcpServers": [[]],
        "*": [session_id, str(workspace), 1, 0, -1, "", [], {}, None, True],
    }


@st.composite
def params(draw: st.DrawFn, keys: list[str], values: dict[str, list[Any]]) -> tuple[str, Any]:
    """(shape, params); shape "absent" means the message has no params member."""
    shape = draw(st.sampled_from(["absent", "null", "scalar", "array", "object", "known", "known", "known"]))
    if shape == "absent":
        return shape, None
    if shape == "null":
        return shape, None
    if shape == "scalar":
        return shape, draw(scalar_params)
    if shape == "array":
        return shape, draw(st.lists(json_values, max_size=3))
    if shape == "object":
        return shape, draw(st.dictionaries(st.text(max_size=10), json_values, max_size=4))
    every = draw(st.booleans())
    chosen = list(keys) if every else (draw(st.lists(st.sampled_from(keys), unique=True)) if keys else [])
    out: dict[str, Any] = {}
    for key in chosen:
        source = draw(st.integers(0, 9))
        # An index taken modulo the list's length: the session list grows during a run,
        # and a strategy whose bounds change between replays is flaky to hypothesis.
        pick = draw(st.integers(0, 63))
        if source < 7 and key in values:
            out[key] = values[key][pick % len(values[key])]
        elif source < 8:
            out[key] = values["*"][pick % len(values["*"])]
        else:
            out[key] = draw(json_values)
    return shape, out


# ----- framing --------------------------------------------------------------------------


class Wire:
    def __init__(self, acp: bool) -> None:
        self.acp = acp

    def pack(self, message: Any) -> bytes:
        body = message if isinstance(message, bytes) else json.dumps(message).encode()
        return body + b"\n" if self.acp else frame(body)


def _probe_free(data: bytes) -> bool:
    return b"content-length" not in data.lower()


# ----- case strategies --------------------------------------------------------------------


@st.composite
def params_case(draw: st.DrawFn, wire: Wire, values: dict[str, list[Any]]) -> Case:
    """Every method, with random params: one answer, never an internal error."""
    requests = ACP_REQUESTS if wire.acp else LSP_REQUESTS
    notes = ACP_NOTIFICATIONS if wire.acp else LSP_NOTIFICATIONS
    if draw(st.integers(0, 4)) == 0:
        method = draw(st.sampled_from(sorted(notes)))
        shape, p = draw(params(notes[method], values))
        message = notification(method) if shape == "absent" else notification(method, p)
        if shape == "scalar":  # not a valid Request object: JSON-RPC answers it, id null
            return Case(f"notification {method} scalar params", wire.pack(message),
                        null_codes=frozenset({INVALID}), null_count=(1, 1))
        return Case(f"notification {method} {shape}", wire.pack(message))
    # Turns reach the deepest code; closing and deleting end the sessions the rest needs.
    method = draw(st.sampled_from(sorted(requests) + ["session/prompt"] * 4 + ["session/new"]))
    shape, p = draw(params(requests[method], values))
    rid = next_id()
    message = request(rid, method) if shape == "absent" else request(rid, method, p)
    if shape == "scalar":
        return Case(f"{method} scalar params", wire.pack(message), rid=rid, rid_answer="one",
                    codes=frozenset({INVALID}))
    return Case(f"{method} {shape}", wire.pack(message), rid=rid, rid_answer="one",
                codes=frozenset({BAD_PARAMS}) | APP_CODES, result_ok=True)


@st.composite
def envelope_case(draw: st.DrawFn, wire: Wire) -> Case:
    """JSON-RPC envelopes gone wrong, each framed correctly."""
    kind = draw(st.sampled_from([
        "non_object", "invalid_json", "cut_request", "bad_jsonrpc", "bad_id", "bad_method",
        "deep_request", "deep_notification", "unknown_method", "stray_response", "batch", "neither",
        "oversize",
    ]))
    rid = next_id()
    if kind == "non_object":
        value = draw(non_objects)
        return Case(kind, wire.pack(value), null_codes=frozenset({INVALID}), null_count=(1, 1))
    if kind == "invalid_json":
        text = draw(st.text(min_size=1, max_size=60).filter(lambda t: "\n" not in t and "\r" not in t))
        assume(text.strip() and _probe_free(text.encode()))
        try:
            json.loads(text)
        except ValueError:
            pass
        else:
            assume(False)
        return Case(kind, wire.pack(text.encode()), null_codes=frozenset({PARSE}), null_count=(1, 1))
    if kind == "cut_request":
        body = json.dumps(request(rid, "session/list", {"cwd": "/tmp"})).encode()
        cut = draw(st.integers(1, len(body) - 1))
        return Case(kind, wire.pack(body[:cut]), rid=rid, rid_answer="at_most_one", codes=frozenset({PARSE}),
                    null_codes=frozenset({PARSE}), null_count=(0, 1), one_overall=True)
    if kind == "bad_jsonrpc":
        version = draw(st.none() | st.text(max_size=5).filter(lambda v: v != "2.0") | st.integers() | st.just("MISSING"))
        message: dict[str, Any] = {"id": rid, "method": "session/list"}
        if version != "MISSING":
            message["jsonrpc"] = version
        return Case(kind, wire.pack(message), rid=rid, rid_answer="one", codes=frozenset({INVALID}))
    if kind == "bad_id":
        bad = draw(st.floats(allow_nan=False, allow_infinity=False) | st.booleans()
                   | st.none() | st.lists(st.integers(), max_size=2) | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
        return Case(kind, wire.pack(request(bad, "session/list", {})), null_codes=frozenset({INVALID}), null_count=(1, 1))
    if kind == "bad_method":
        method = draw(st.none() | st.integers() | st.lists(st.text(max_size=3), max_size=2) | st.booleans())
        return Case(kind, wire.pack(request(rid, method, {})), rid=rid, rid_answer="one", codes=frozenset({INVALID}))
    if kind in ("deep_request", "deep_notification"):
        depth = draw(st.integers(65, 5_000))
        nested = "[" * depth + "]" * depth
        if kind == "deep_request":
            body = f'{{"jsonrpc":"2.0","id":{rid},"method":"session/list","params":{{"x":{nested}}}}}'
            return Case(kind, wire.pack(body.encode()), rid=rid, rid_answer="one", codes=frozenset({PARSE}))
        body = f'{{"jsonrpc":"2.0","method":"session/cancel","params":{{"x":{nested}}}}}'
        return Case(kind, wire.pack(body.encode()), null_codes=frozenset({PARSE}), null_count=(1, 1))
    if kind == "unknown_method":
        known = set(ACP_REQUESTS if wire.acp else LSP_REQUESTS) | {"initialize", "shutdown", "exit", "initialized"}
        method = draw(st.text(max_size=30).filter(lambda m: m not in known and "/" not in m[:1]))
        return Case(kind, wire.pack(request(rid, "x/" + method, {})), rid=rid, rid_answer="one",
                    codes=frozenset({NOT_FOUND}))
    if kind == "stray_response":
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": draw(st.integers(900_000, 999_999) | st.text(max_size=6))}
        if draw(st.booleans()):
            answer["result"] = draw(json_values)
        else:
            answer["error"] = draw(json_values)
        return Case(kind, wire.pack(answer))
    if kind == "batch":
        inner = [request(next_id(), "session/list", {}) for _ in range(draw(st.integers(1, 3)))]
        return Case(kind, wire.pack(inner), messages=len(inner), null_codes=frozenset({INVALID}), null_count=(1, 1))
    if kind == "neither":
        return Case(kind, wire.pack({"jsonrpc": "2.0", "id": rid}), null_codes=frozenset({INVALID}), null_count=(1, 1))
    # oversize: a valid request longer than transport.maxMessageBytes
    size = draw(st.integers(MAX_BYTES + 1, 3 * MAX_BYTES))
    body = json.dumps(request(rid, "session/list", {"cwd": "/" + "x" * size}))
    return Case(kind, wire.pack(body.encode()), rid=rid, rid_answer="one", codes=frozenset({PARSE}))


_header_text = st.text(alphabet=string.ascii_letters + string.punctuation + " \t", min_size=1, max_size=12)


@st.composite
def framing_case(draw: st.DrawFn) -> Case:
    """LSP's Content-Length framing gone wrong around one valid request."""
    rid = next_id()
    body = json.dumps(request(rid, "session/list", {})).encode()
    n = len(body)
    kind = draw(st.sampled_from([
        "too_large", "too_small", "negative", "non_numeric", "empty", "huge", "cut_header",
        "missing", "truncated", "garbage", "valid_variant",
    ]))

    def refused(data: bytes) -> Case:
        return Case(kind, data, rid=rid, rid_answer="one", codes=frozenset({INVALID}))

    if kind == "too_large":
        return refused(frame(body, n + draw(st.integers(1, 3_000))))
    if kind == "too_small":
        return refused(frame(body, n - draw(st.integers(1, n))))
    if kind == "negative":
        return refused(frame(body, f"-{draw(st.integers(0, 10**6))}"))
    if kind == "non_numeric":
        text = draw(_header_text.filter(lambda t: t.strip() and not t.strip().isdigit()))
        return refused(frame(body, text))
    if kind == "empty":
        return refused(frame(body, ""))
    if kind == "huge":
        return refused(frame(body, str(draw(st.integers(MAX_BYTES + 1, 10**40)))))
    if kind == "cut_header":
        # A header line with no body: the message after it is read on its own.
        return Case(kind, b"Content-Length: %d\r\n" % draw(st.integers(0, 10**6)) + frame(body),
                    messages=2, rid=rid, rid_answer="one", result_ok=True,
                    null_codes=frozenset({PARSE}), null_count=(0, 1))
    if kind == "missing":
        return refused(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body)
    if kind == "truncated":
        cut = draw(st.integers(1, n - 1))
        return Case(kind, frame(body)[: -(n - cut)], rid=rid, rid_answer="at_most_one", codes=frozenset({PARSE}),
                    null_codes=frozenset({PARSE}), null_count=(0, 1), one_overall=True)
    if kind == "garbage":
        junk = draw(st.binary(min_size=1, max_size=200).filter(_probe_free))
        return Case(kind, junk, null_codes=frozenset({PARSE, INVALID}), null_count=(0, 1))
    # Variants that are valid and must be served.
    name = draw(st.sampled_from([b"Content-Length", b"content-length", b"CONTENT-LENGTH", b"Content-length"]))
    eol = draw(st.sampled_from([b"\r\n", b"\n"]))
    extra = draw(st.sampled_from([b"", b"Content-Type: application/vscode-jsonrpc; charset=utf-8",
                                  b"X-Anything: at all"]))
    lead = draw(st.sampled_from([b"", b"\r\n", b"\n\n"]))
    headers = [name + b": " + str(n).encode()] + ([extra] if extra else [])
    if draw(st.booleans()):
        headers.reverse()
    data = lead + eol.join(headers) + eol + eol + body
    return Case(kind, data, rid=rid, rid_answer="one", result_ok=True)


@st.composite
def acp_line_case(draw: st.DrawFn) -> Case:
    """ACP's line framing: blank lines, CRLF, lines of noise."""
    kind = draw(st.sampled_from(["blank", "crlf", "noise"]))
    if kind == "blank":
        return Case(kind, draw(st.sampled_from([b"\n", b"\r\n", b"   \n", b"\t\n\n"])))
    if kind == "crlf":
        rid = next_id()
        return Case(kind, json.dumps(request(rid, "session/list", {})).encode() + b"\r\n", rid=rid,
                    rid_answer="one", result_ok=True)
    junk = draw(st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b and b.strip()))
    try:
        assume(not isinstance(json.loads(junk), dict))
    except ValueError:
        pass
    return Case(kind, junk + b"\n", null_codes=frozenset({PARSE, INVALID}), null_count=(0, 1))


# ----- the live target --------------------------------------------------------------------


@dataclass
class Tally:
    cases: int = 0
    fuzzed: int = 0  # fuzzed messages
    messages: int = 0  # everything sent, probes included
    crashes: int = 0
    unanswered: int = 0  # requests with an id that got no answer
    problems: list[str] = field(default_factory=list)
    codes: Counter[str] = field(default_factory=Counter)  # answers to fuzzed messages, probes apart
    probe_ms: list[float] = field(default_factory=list)


class FuzzTarget:
    def __init__(self, tmp: Path, acp: bool) -> None:
        self.tmp = tmp
        self.acp = acp
        self.wire = Wire(acp)
        self.workspace = tmp / "ws"
        self.workspace.mkdir(parents=True, exist_ok=True)
        (self.workspace / "hello.py").write_text("def hello():\n    return 'hi'\n")
        self.probe_dir = tmp / "probe"
        self.probe_dir.mkdir(exist_ok=True)
        self.tally = Tally()
        self.checked: list[Case] = []
        self.sent_ids: set[Any] = set()
        self.starts = 0
        self.peers: list[RawPeer] = []
        self.peer = self._start()

    # ----- process ----------------------------------------------------------------------

    def _settings(self) -> dict[str, Any]:
        # No key anywhere, and a base URL nothing listens on: no turn leaves the machine.
        return {"storageDir": str(self.tmp / f"store{self.starts}"), "apiKeyEnv": NO_KEY,
                "baseUrl": "http://127.0.0.1:9", "retry": {"maxRetries": 0},
                "transport": {"maxMessageBytes": MAX_BYTES}}

    def _start(self) -> RawPeer:
        self.starts += 1
        home = self.tmp / f"run{self.starts}"
        env = sidecar_env(home)
        for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", NO_KEY):
            env.pop(name, None)
        if self.acp:
            env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps(self._settings())
        peer = RawPeer(home, acp=self.acp, env=env)
        self.peers.append(peer)
        peer.initialize(None if self.acp else self._settings())
        params = {"cwd": str(self.workspace)}
        if self.acp:
            params["mcpServers"] = []
        answer = peer.call("setup-session", "session/new", params)
        self.session_id = answer["result"]["sessionId"]
        self.values = pool(self.workspace, self.session_id)
        return peer

    def close(self) -> None:
        for peer in self.peers:
            peer.close()

    # ----- one case ---------------------------------------------------------------------

    def run(self, case: Case) -> list[str]:
        """Send ``case`` and a probe; what went wrong, or an empty list."""
        problems: list[str] = []
        peer = self.peer
        if not peer.alive():
            self.peer = peer = self._start()
        nulls_before = len(peer.null_answers)
        if case.rid is not None:
            self.sent_ids.add(case.rid)
        self.tally.cases += 1
        self.tally.fuzzed += case.messages
        self.tally.messages += case.messages + 1
        try:
            peer.write(case.data)
        except OSError:
            pass
        probe = f"probe-{next_id()}"
        self.sent_ids.add(probe)
        started = time.monotonic()
        try:
            peer.send(request(probe, "session/list", {"cwd": str(self.probe_dir)}))
            answer = peer.answer(probe, PROBE_SECONDS + 8)
            took = time.monotonic() - started
            self.tally.probe_ms.append(took * 1000)
            if "result" not in answer:
                problems.append(f"probe answered {answer.get('error')}")
            if took > PROBE_SECONDS:
                problems.append(f"probe took {took:.2f}s")
        except (TimeoutError, OSError):
            problems.append("probe unanswered")
        if case.rid is not None and case.rid_answer == "one":
            try:
                answer = peer.answer(case.rid, ANSWER_SECONDS)
            except TimeoutError:
                pass
            else:
                opened = (answer.get("result") or {}).get("sessionId") if isinstance(answer.get("result"), dict) else None
                if isinstance(opened, str) and opened not in self.values["sessionId"]:
                    self.values["sessionId"].append(opened)
        if not peer.alive():
            self.tally.crashes += 1
            problems.append(f"the sidecar exited ({peer.proc.returncode}); stderr: {peer.log_text()[-1500:]}")
        problems += self._judge(case, peer, peer.null_answers[nulls_before:])
        self.checked.append(case)
        for problem in problems:
            self.tally.problems.append(f"{case.label}: {problem}")
        return problems

    def _judge(self, case: Case, peer: RawPeer, nulls: list[dict[str, Any]]) -> list[str]:
        problems: list[str] = []
        answers = peer.answers(case.rid) if case.rid is not None else []
        null_codes = [m["error"]["code"] for m in nulls]
        low, high = case.null_count
        if case.one_overall:
            if len(answers) + len(nulls) != 1:
                problems.append(f"{len(answers)} answers to id and {len(nulls)} with id null; expected one in all")
        elif not low <= len(nulls) <= high:
            problems.append(f"{len(nulls)} answers with id null {null_codes}; expected {low}..{high}")
        for code in null_codes:
            if code not in case.null_codes:
                problems.append(f"an answer with id null carries {code}")
        if case.rid is not None:
            if case.rid_answer == "one" and len(answers) != 1:
                problems.append(f"{len(answers)} answers to id {case.rid}; expected one")
                if not answers:
                    self.tally.unanswered += 1
            elif case.rid_answer == "at_most_one" and len(answers) > 1:
                problems.append(f"{len(answers)} answers to id {case.rid}")
            elif case.rid_answer == "never" and answers:
                problems.append(f"id {case.rid} was answered: {answers[0]}")
            for answer in answers[:1]:
                if "error" in answer:
                    code = answer["error"].get("code")
                    if code not in case.codes:
                        problems.append(f"answered {code} ({answer['error'].get('message')!r}); "
                                        f"expected one of {sorted(case.codes)}")
                elif not case.result_ok:
                    problems.append(f"answered with a result; expected one of {sorted(case.codes)}")
        return problems

    # ----- after the run ----------------------------------------------------------------

    def finish(self) -> list[str]:
        """Answers that came late: duplicates, answers to ids never sent, wrong codes."""
        time.sleep(0.5)
        problems: list[str] = []
        own = {json.dumps("init"), json.dumps("setup-session")}
        for peer in self.peers:
            received = list(peer.received)
            counts = Counter(json.dumps(m.get("id")) for m in received
                             if "method" not in m and m.get("id") is not None)
            for key, count in counts.items():
                if count > 1:
                    problems.append(f"id {key} answered {count} times")
                if key not in own and json.loads(key) not in self.sent_ids:
                    problems.append(f"an answer to id {key}, which was never sent")
            for message in received:
                rid = message.get("id")
                if "method" in message or json.dumps(rid) in own or str(rid).startswith("probe-"):
                    continue
                self.tally.codes[str(message["error"]["code"]) if "error" in message else "result"] += 1
            if peer.read_error:
                problems.append(f"the sidecar wrote a malformed message: {peer.read_error}")
        for case in self.checked:
            if case.rid is None:
                continue
            answers = [a for peer in self.peers for a in peer.answers(case.rid)]
            if case.rid_answer == "never" and answers:
                problems.append(f"{case.label}: id {case.rid} answered late: {answers[0]}")
        return problems

