"""Removal of API keys from text before it leaves the process or reaches the disk.

Two nets: a pattern for keys that look like keys (``sk-...`` of some length), and the exact
values of the keys this process holds, whatever their shape, from MIN_SECRET_LENGTH
characters up. The second net is what catches a short or unusually shaped key, and a key
echoed back inside a provider's error text.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the keys are held (and this module loaded) before the first answer
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.permissions.choice import PermissionChoice

REDACTED_KEY = "[REDACTED_API_KEY]"

# Anthropic (sk-ant-...), OpenAI (sk-..., sk-proj-...) and compatible servers' keys. The
# look-behind keeps words such as "task-..." intact; the length floor keeps "sk-learn".
# The character class holds no JSON escape characters, so the pattern is also safe to run
# over serialized JSON.
_API_KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}")

# Below this length a value cannot be told apart from ordinary text: a 4-character test
# key "test" occurs in every pytest path, and replacing it rewrote transcripts' cwd so
# their sessions vanished from session/list. Such a value protects nothing anyway (it is a
# placeholder for a local server); it is still kept out of child processes.
MIN_SECRET_LENGTH = 8

log = logging.getLogger(__name__)
_lock = threading.Lock()
# Every form a held key can take in text we emit: the value itself and, when it holds
# characters JSON escapes, its escaped form (what a serialized record contains). Longest
# first, so a key containing another key is replaced whole.
_secret_forms: tuple[str, ...] = ()
_secret_bytes: tuple[bytes, ...] = ()
_short_warned: set[str] = set()


def register_secret(value: str | None, name: str = "a key variable") -> bool:
    """Redact ``value`` by exact match from now on. Blank values are ignored; values
    shorter than MIN_SECRET_LENGTH are refused with a warning. True when registered."""
    global _secret_forms
    if not value or not value.strip():
        return False
    if len(value.strip()) < MIN_SECRET_LENGTH:
        if value not in _short_warned:
            _short_warned.add(value)
            log.warning("the value of %s is %d characters long, too short to redact from text "
                        "without mangling ordinary words; it is kept out of child processes only",
                        name, len(value.strip()))
        return False
    forms = {value, value.strip(), json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    global _secret_bytes
    with _lock:
        merged = set(_secret_forms) | {f for f in forms if f}
        _secret_forms = tuple(sorted(merged, key=len, reverse=True))
        _secret_bytes = tuple(f.encode("utf-8", "surrogatepass") for f in _secret_forms)
    install_log_redaction()
    return True


def forget_secrets() -> None:
    """Tests only: start from no held keys."""
    global _secret_forms, _secret_bytes
    with _lock:
        _secret_forms = ()
        _secret_bytes = ()
        _short_warned.clear()


def contains_secret(text: str) -> bool:
    return any(form in text for form in _secret_forms) or ("sk-" in text and bool(_API_KEY.search(text)))


def contains_secret_bytes(data: bytes) -> bool:
    """Whether raw bytes (a stored line) may hold a key; decoding is left to the caller."""
    return any(form in data for form in _secret_bytes) or (
        b"sk-" in data and bool(_API_KEY.search(data.decode("utf-8", "replace"))))


def redact_api_keys(text: str) -> str:
    for form in _secret_forms:  # a substring test per held key: cheap when absent
        if form in text:
            text = text.replace(form, REDACTED_KEY)
    if "sk-" not in text:  # the common case costs one substring search
        return text
    return _API_KEY.sub(REDACTED_KEY, text)


def redact_value(value: Any) -> Any:
    """``value`` with every string in it (keys of objects too) redacted.

    Works on the structure rather than on serialized text, so a key that happens to look
    like JSON syntax can never corrupt a record. Iterative, because a record may nest deeper
    than Python's recursion limit. Unchanged containers are returned as they are.
    """
    if isinstance(value, str):
        return redact_api_keys(value)
    if not isinstance(value, (dict, list, tuple)):
        return value
    if not _might_hold_secret(value):
        return value
    return _redact_container(value)


def _might_hold_secret(value: Any) -> bool:
    """A quick scan of every string; redaction copies only when something matches."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if contains_secret(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def _redact_container(root: Any) -> Any:
    """A copy of ``root`` with its strings redacted; tuples come back as lists (the data is
    bound for JSON, which has no tuples)."""
    def empty(c: Any) -> Any:
        return {} if isinstance(c, dict) else []

    out_root = empty(root)
    stack: list[tuple[Any, Any]] = [(root, out_root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            if isinstance(item, (dict, list, tuple)):
                new_item: Any = empty(item)
                stack.append((item, new_item))
            elif isinstance(item, str):
                new_item = redact_api_keys(item)
            else:
                new_item = item
            if isinstance(target, dict):
                target[redact_api_keys(key) if isinstance(key, str) else key] = new_item
            else:
                target.append(new_item)
    return out_root


# ----- logs ---------------------------------------------------------------------------

_factory_installed = False


def install_log_redaction() -> None:
    """Every log record from now on is redacted when formatted, whichever handler writes it.

    A record factory rather than a handler filter: handlers are added by whoever sets up
    logging (and by libraries), a factory covers them all, including exception text.
    """
    global _factory_installed
    with _lock:
        if _factory_installed:
            return
        _factory_installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.__class__ = _redacting_class(type(record))
        return record

    logging.setLogRecordFactory(factory)

    # Tracebacks that bypass logging (an uncaught error, in the main thread or another) are
    # printed to stderr from the exception's own text.
    previous_hook = sys.excepthook

    def excepthook(kind: Any, value: Any, tb: Any) -> None:
        previous_hook(kind, redact_exception(value) if value is not None else value, tb)  # type: ignore[arg-type]

    sys.excepthook = excepthook
    previous_thread_hook = threading.excepthook

    def thread_excepthook(args: Any) -> None:
        if args.exc_value is not None:
            redact_exception(args.exc_value)
        previous_thread_hook(args)

    threading.excepthook = thread_excepthook


_classes: dict[type, type] = {}


def _redacting_class(base: type) -> type:
    cls = _classes.get(base)
    if cls is None:
        cls = type("Redacting" + base.__name__, (_RedactingRecord, base), {})
        _classes[base] = cls
    return cls


class _RedactingRecord(logging.LogRecord):
    def getMessage(self) -> str:  # noqa: N802 - the logging API's name
        return redact_api_keys(super().getMessage())

    def __setattr__(self, name: str, value: Any) -> None:
        # Formatters store the rendered traceback and stack here before writing them.
        if name in ("exc_text", "stack_info") and isinstance(value, str):
            value = redact_api_keys(value)
        super().__setattr__(name, value)


# ----- errors and the editor ------------------------------------------------------------


def redact_exception(exc: BaseException) -> BaseException:
    """Redact an exception's text in place (``message``/``data`` of the sidecar's errors,
    ``args`` of any other), so whoever turns it into a reply or a log line cannot leak."""
    for name in ("message", "data", "strerror", "filename", "filename2"):
        if getattr(exc, name, None) is not None:
            try:
                setattr(exc, name, redact_value(getattr(exc, name)))
            except AttributeError:
                pass
    exc.args = tuple(redact_value(a) for a in exc.args)
    return exc


class RedactingEditor:
    """The editor port with every outgoing text redacted: updates, status, messages and
    permission requests. Anything else is passed through to the editor it wraps."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def session_update(self, session_id: str, update: SessionUpdate) -> None:
        self._inner.session_update(session_id, redact_value(update))

    def status(self, kind: str, busy: bool, message: str) -> None:
        self._inner.status(kind, busy, redact_api_keys(message))

    def show_message(self, level: str, text: str) -> None:
        self._inner.show_message(level, redact_api_keys(text))

    async def request_permission(self, session_id: str, tool_call: dict[str, Any],
                                 options: list[dict[str, str]]) -> PermissionChoice:
        return await self._inner.request_permission(session_id, redact_value(tool_call), options)

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        return await self._inner.progress(token, kind, redact_api_keys(title),
                                          redact_api_keys(message), percentage)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
