"""What a provider's models endpoints say of its models, as ``ModelDescription``s.

- Anthropic: ``GET /v1/models`` through the SDK (``client.models.list``), every lifecycle
  asked for, so a retired model can be called retired. ``max_input_tokens`` is the window,
  ``max_tokens`` the output limit. The API names no replacement; a model it lists as
  deprecated or retired is pointed at the newest active model of its ``line`` (the list is
  newest first), never at one guessed from the id.
- OpenAI and compatible servers: ``GET /v1/models`` through the SDK. OpenAI itself reports
  no window, only ``shutdown_date`` (the lifecycle); vLLM adds ``max_model_len``, OpenRouter
  ``context_length`` and ``top_provider.max_completion_tokens``. When no entry carries a
  window, a compatible server is asked at its root, outside the OpenAI API, with the SDK
  client's raw requests: llama.cpp server ``GET /props``
  (``default_generation_settings.n_ctx``, the context each request slot has), then Ollama
  ``POST /api/show`` per model (``num_ctx`` in ``parameters`` when the model sets one, which
  is what Ollama runs it with, else ``model_info["<arch>.context_length"]``).

Every request has a short timeout, and every failure means "nothing said" (an empty list,
or the entries gathered so far): this runs in the background and must never raise.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterable
from typing import Any

from sidecar.core.ports import Lifecycle, ModelDescription
from sidecar.providers.sdk_values import sdk_dict, sdk_field

log = logging.getLogger(__name__)

REQUEST_TIMEOUT_SECONDS = 5.0
# Ollama answers /api/show once per model; a server with hundreds of models is asked about
# the first ones only.
MAX_SHOW_REQUESTS = 50
ANTHROPIC_SOURCE = "anthropic /v1/models"
OPENAI_SOURCE = "openai /v1/models"
VLLM_SOURCE = "vllm max_model_len"
OPENROUTER_SOURCE = "openrouter context_length"
LLAMACPP_SOURCE = "llama.cpp n_ctx"
OLLAMA_NUM_CTX_SOURCE = "ollama num_ctx"
OLLAMA_CONTEXT_SOURCE = "ollama context_length"
_LIFECYCLES = ("active", "deprecated", "retired")
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


def _count(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return int(value)


def _name(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _iso_date(value: Any) -> str | None:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
        return value[:10]
    return None


def capability_names(raw: Any) -> frozenset[str]:
    """Dotted names of every capability marked ``supported`` (``thinking``,
    ``thinking.types.adaptive``, ``context_management.compact_20260112``, ...)."""
    names: set[str] = set()

    def walk(prefix: str, node: Any) -> None:
        node = sdk_dict(node)
        if prefix and node.get("supported") is True:
            names.add(prefix)
        for key, value in node.items():
            if key != "supported":
                walk(f"{prefix}.{key}" if prefix else key, value)

    walk("", raw)
    return frozenset(names)


# ----- Anthropic ------------------------------------------------------------------------


def describe_anthropic(models: Iterable[Any]) -> list[ModelDescription]:
    """``ModelInfo`` objects (or dicts of that shape), in the API's order: newest first."""
    listed = [m for m in models if isinstance(sdk_field(m, "id"), str) and sdk_field(m, "id")]
    newest: dict[str, str] = {}
    for m in listed:
        line = sdk_field(m, "line")
        if isinstance(line, str) and sdk_field(m, "lifecycle") == "active":
            newest.setdefault(line, str(sdk_field(m, "id")))
    out: list[ModelDescription] = []
    for m in listed:
        model = str(sdk_field(m, "id"))
        said = sdk_field(m, "lifecycle")
        lifecycle: Lifecycle = said if said in _LIFECYCLES else "active"
        line = sdk_field(m, "line")
        replacement = newest.get(line) if isinstance(line, str) and lifecycle != "active" else None
        out.append(ModelDescription(
            model=model,
            context_window=_count(sdk_field(m, "max_input_tokens")),
            max_output_tokens=_count(sdk_field(m, "max_tokens")),
            lifecycle=lifecycle,
            capabilities=capability_names(sdk_field(m, "capabilities")),
            replacement=replacement if replacement != model else None,
            source=ANTHROPIC_SOURCE,
            retires_at=_iso_date(sdk_field(m, "retires_at")),
            display_name=_name(sdk_field(m, "display_name")),
        ))
    return out


async def list_anthropic_models(client: Any, betas: list[str]) -> list[ModelDescription]:
    """Ask an ``anthropic.AsyncAnthropic`` client; [] when the endpoint fails. The betas
    asked for add their capabilities to each entry (compaction is listed only so)."""
    models: list[Any] = []
    try:
        async for info in client.beta.models.list(
                lifecycle=["active", "deprecated", "retired"], limit=1000, betas=betas,
                timeout=REQUEST_TIMEOUT_SECONDS):
            models.append(info)
    except Exception as exc:  # a proxy without the endpoint, no network, a bad key
        log.info("anthropic /v1/models unavailable: %s", type(exc).__name__)
        return []
    return describe_anthropic(models)


# ----- OpenAI and compatible servers ----------------------------------------------------


def describe_openai_entry(entry: Any, provider: str, today: dt.date) -> ModelDescription | None:
    """One ``/v1/models`` entry; None when it says nothing we can use."""
    model = sdk_field(entry, "id")
    if not isinstance(model, str) or not model:
        return None
    max_model_len = _count(sdk_field(entry, "max_model_len"))
    if max_model_len:
        return ModelDescription(model, max_model_len, None, source=VLLM_SOURCE,
                                lifecycle_known=False)
    context_length = _count(sdk_field(entry, "context_length"))
    if context_length:
        top = sdk_field(entry, "top_provider")
        return ModelDescription(model, context_length,
                                _count(sdk_field(top, "max_completion_tokens")),
                                source=OPENROUTER_SOURCE, lifecycle_known=False)
    if provider != "openai":
        return None  # a plain entry from a compatible server: no window, no lifecycle
    shutdown = _iso_date(sdk_field(entry, "shutdown_date"))
    if shutdown is None:
        return ModelDescription(model, None, None, source=OPENAI_SOURCE)
    lifecycle: Lifecycle = "retired" if shutdown <= today.isoformat() else "deprecated"
    return ModelDescription(model, None, None, lifecycle=lifecycle, source=OPENAI_SOURCE,
                            retires_at=shutdown)


def describe_llamacpp_props(props: Any, models: list[str]) -> list[ModelDescription]:
    """llama.cpp server's ``/props``: one loaded model, whatever ``/v1/models`` calls it."""
    settings = sdk_field(props, "default_generation_settings")
    n_ctx = _count(sdk_field(settings, "n_ctx")) or _count(sdk_field(props, "n_ctx"))
    if not n_ctx:
        return []
    n_predict = _count(sdk_field(sdk_field(settings, "params"), "n_predict"))
    return [ModelDescription(m, n_ctx, n_predict, source=LLAMACPP_SOURCE, lifecycle_known=False)
            for m in models]


def describe_ollama_show(model: str, show: Any) -> ModelDescription | None:
    """Ollama's ``/api/show`` of one model."""
    parameters = sdk_field(show, "parameters")
    if isinstance(parameters, str):
        match = _NUM_CTX.search(parameters)
        if match and _count(int(match.group(1))):
            return ModelDescription(model, int(match.group(1)), None,
                                    source=OLLAMA_NUM_CTX_SOURCE, lifecycle_known=False)
    info = sdk_dict(sdk_field(show, "model_info"))
    arch = info.get("general.architecture")
    window = _count(info.get(f"{arch}.context_length")) if isinstance(arch, str) else None
    if not window:
        return None
    return ModelDescription(model, window, None, source=OLLAMA_CONTEXT_SOURCE,
                            lifecycle_known=False)


def server_root(base_url: str | None) -> str | None:
    """Where a compatible server's own API lives: its OpenAI base URL without ``/v1``."""
    if not base_url:
        return None
    return base_url.rstrip("/").removesuffix("/v1")


async def list_openai_models(client: Any, provider: str, base_url: str | None,
                             today: dt.date) -> list[ModelDescription]:
    """Ask an ``openai.AsyncOpenAI`` client (``provider``: "openai" or
    "openai-compatible"); [] when nothing useful is said."""
    entries: list[Any] = []
    try:
        async for entry in client.models.list(timeout=REQUEST_TIMEOUT_SECONDS):
            entries.append(entry)
    except Exception as exc:
        log.info("%s /v1/models unavailable: %s", provider, type(exc).__name__)
        return []
    described = [d for d in (describe_openai_entry(e, provider, today) for e in entries) if d]
    root = server_root(base_url)
    if provider == "openai" or described or root is None:
        return described
    ids = [str(sdk_field(e, "id")) for e in entries if sdk_field(e, "id")]
    props = await _raw(client, "get", f"{root}/props")
    if props is not None:
        found = describe_llamacpp_props(props, ids)
        if found:
            return found
    out: list[ModelDescription] = []
    for model in ids[:MAX_SHOW_REQUESTS]:
        show = await _raw(client, "post", f"{root}/api/show", {"model": model})
        if show is None:
            break  # not Ollama (or gone): asking about the other models would fail too
        one = describe_ollama_show(model, show)
        if one is not None:
            out.append(one)
    return out


async def _raw(client: Any, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    """A JSON answer from an endpoint outside the OpenAI API, or None on any failure."""
    options = {"timeout": REQUEST_TIMEOUT_SECONDS, "max_retries": 0}
    try:
        if method == "get":
            return await client.get(url, cast_to=object, options=options)
        return await client.post(url, cast_to=object, body=body, options=options)
    except Exception as exc:
        log.debug("%s %s: %s", method.upper(), url, type(exc).__name__)
        return None
