"""The models endpoints of the fake: what each kind of server says of the models it serves.

- Anthropic ``GET /v1/models`` (paginated: ``limit``, ``after_id``, ``before_id``, the
  ``lifecycle`` filter; ``data``, ``has_more``, ``first_id``, ``last_id``) and
  ``GET /v1/models/{id}``, in the SDK's ``ModelInfo`` shape with every capability key.
- ``GET /v1/models`` as the OpenAI-wire servers answer it, by flavor: ``openai`` (no window;
  ``shutdown_date`` on deprecated models), ``vllm`` (``max_model_len``), ``openrouter``
  (``context_length``, ``top_provider.max_completion_tokens``), ``llamacpp`` (plain entries
  plus ``GET /props``) and ``ollama`` (plain entries plus ``POST /api/show``).

A request carrying ``anthropic-version`` (the Anthropic SDK always sends it) gets the
Anthropic answer; any other gets the configured flavor's.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable

from .request_rules import COMPACTION_BETA

FLAVORS = ("openai", "vllm", "openrouter", "llamacpp", "ollama")
_LIFECYCLES = ("active", "deprecated", "retired")


@dataclass(frozen=True)
class FakeModel:
    id: str
    context_window: int
    max_output: int
    lifecycle: str = "active"
    line: str | None = None  # opus, sonnet, haiku, ... (Anthropic's ModelLine)
    created_at: str = "2026-01-01T00:00:00Z"
    deprecated_at: str | None = None
    retires_at: str | None = None  # also OpenAI's shutdown_date
    adaptive_thinking: bool = True
    budget_thinking: bool = False
    arch: str = "llama"  # Ollama's general.architecture
    num_ctx: int | None = None  # Ollama: a num_ctx the model's parameters set
    # Anthropic's server tools (``capabilities.server_tools``), and web search among them.
    server_tools: bool = True
    web_search: bool = True

    @property
    def compacts(self) -> bool:
        """Whether the model takes server-side compaction (the generation with adaptive
        thinking does; the 4.5 family and older do not)."""
        return self.adaptive_thinking

    @classmethod
    def from_json(cls, raw: Any) -> FakeModel:
        if not isinstance(raw, dict):
            raise ValueError(f"a model is an object, not {raw!r}")
        known = {f.name for f in fields(cls)}
        unknown = set(raw) - known
        if unknown:
            raise ValueError(f"unknown model fields: {sorted(unknown)}")
        model = cls(**raw)
        if model.lifecycle not in _LIFECYCLES:
            raise ValueError(f"lifecycle must be one of {_LIFECYCLES}")
        return model

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _anthropic(id: str, window: int, out: int, line: str, created: str, **kw: Any) -> FakeModel:
    return FakeModel(id, window, out, line=line, created_at=f"{created}T00:00:00Z", **kw)


# The Anthropic lineup the SDK names today, newest first as the API lists it.
DEFAULT_ANTHROPIC_MODELS: tuple[FakeModel, ...] = (
    _anthropic("claude-fable-5-2", 1_000_000, 128_000, "fable", "2026-11-18"),
    _anthropic("claude-mythos-5-2", 1_000_000, 128_000, "mythos", "2026-11-18"),
    _anthropic("claude-haiku-5-5", 1_000_000, 128_000, "haiku", "2026-10-07"),
    _anthropic("claude-sonnet-5-5", 1_000_000, 128_000, "sonnet", "2026-09-22"),
    _anthropic("claude-opus-5-5", 1_000_000, 128_000, "opus", "2026-09-22"),
    _anthropic("claude-fable-5-1", 1_000_000, 128_000, "fable", "2026-08-26"),
    _anthropic("claude-mythos-5-1", 1_000_000, 128_000, "mythos", "2026-08-26"),
    _anthropic("claude-opus-5", 1_000_000, 128_000, "opus", "2026-07-24"),
    _anthropic("claude-sonnet-5", 1_000_000, 128_000, "sonnet", "2026-06-30"),
    _anthropic("claude-fable-5", 1_000_000, 128_000, "fable", "2026-06-02"),
    _anthropic("claude-mythos-5", 1_000_000, 128_000, "mythos", "2026-06-02"),
    _anthropic("claude-opus-4-8", 1_000_000, 128_000, "opus", "2026-05-28"),
    _anthropic("claude-opus-4-7", 1_000_000, 128_000, "opus", "2026-04-16"),
    _anthropic("claude-sonnet-4-6", 1_000_000, 64_000, "sonnet", "2026-02-17",
               budget_thinking=True),
    _anthropic("claude-opus-4-6", 1_000_000, 128_000, "opus", "2026-02-05",
               budget_thinking=True),
    _anthropic("claude-opus-4-5-20251101", 200_000, 64_000, "opus", "2025-11-24",
               lifecycle="deprecated", deprecated_at="2026-11-23T00:00:00Z",
               retires_at="2027-01-22T00:00:00Z", adaptive_thinking=False,
               budget_thinking=True),
    _anthropic("claude-haiku-4-5-20251001", 200_000, 64_000, "haiku", "2025-10-15",
               adaptive_thinking=False, budget_thinking=True),
    _anthropic("claude-sonnet-4-5-20250929", 200_000, 64_000, "sonnet", "2025-09-29",
               lifecycle="retired", deprecated_at="2026-09-29T00:00:00Z",
               retires_at="2026-11-30T00:00:00Z", adaptive_thinking=False,
               budget_thinking=True),
)

# What OpenAI's /v1/models lists (ids the openai SDK names); deprecated ones carry the
# shutdown date its ChatModel docstring announces.
DEFAULT_OPENAI_MODELS: tuple[FakeModel, ...] = (
    FakeModel("gpt-6-astra", 1_050_000, 128_000, created_at="2026-09-03T00:00:00Z"),
    FakeModel("gpt-6-sol", 1_050_000, 128_000, created_at="2026-09-03T00:00:00Z"),
    FakeModel("gpt-5.6-sol", 1_050_000, 128_000, created_at="2026-07-09T00:00:00Z"),
    FakeModel("gpt-5.6-terra", 1_050_000, 128_000, created_at="2026-07-09T00:00:00Z"),
    FakeModel("gpt-5.6-luna", 1_050_000, 128_000, created_at="2026-07-09T00:00:00Z"),
    FakeModel("gpt-5.5", 1_050_000, 128_000, created_at="2026-04-23T00:00:00Z"),
    FakeModel("gpt-5", 400_000, 128_000, lifecycle="deprecated",
              retires_at="2026-12-11", created_at="2025-08-07T00:00:00Z"),
    FakeModel("gpt-4.1", 1_047_576, 32_768, lifecycle="deprecated",
              retires_at="2027-01-14", created_at="2025-04-14T00:00:00Z"),
    FakeModel("gpt-4o", 128_000, 16_384, lifecycle="deprecated",
              retires_at="2027-01-14", created_at="2024-05-13T00:00:00Z"),
)


def _supported(flag: bool) -> dict[str, bool]:
    return {"supported": flag}


def model_info(m: FakeModel, betas: frozenset[str] = frozenset()) -> dict[str, Any]:
    """One model in the Anthropic SDK's ``ModelInfo`` shape; asked with the compaction beta,
    its capabilities also say whether it takes ``compaction`` (``BetaModelInfo``)."""
    thinking = m.adaptive_thinking or m.budget_thinking
    info: dict[str, Any] = {
        "type": "model",
        "id": m.id,
        "display_name": m.id.replace("-", " ").title(),
        "created_at": m.created_at,
        "deprecated_at": m.deprecated_at if m.lifecycle != "active" else None,
        "retires_at": m.retires_at if m.lifecycle != "active" else None,
        "lifecycle": m.lifecycle,
        "line": m.line,
        "max_input_tokens": m.context_window,
        "max_tokens": m.max_output,
        "capabilities": {
            "batch": _supported(True),
            "citations": _supported(True),
            "code_execution": _supported(True),
            "context_management": {
                "supported": True,
                "clear_thinking_20251015": _supported(thinking),
                "clear_tool_uses_20250919": _supported(True),
                "compact_20260112": _supported(m.compacts),
            },
            "effort": {"supported": m.adaptive_thinking, "low": _supported(m.adaptive_thinking),
                       "medium": _supported(m.adaptive_thinking),
                       "high": _supported(m.adaptive_thinking),
                       "max": _supported(m.adaptive_thinking),
                       "xhigh": _supported(m.adaptive_thinking)},
            "image_input": _supported(True),
            "pdf_input": _supported(True),
            "server_tools": {"supported": m.server_tools,
                             "code_execution": _supported(m.server_tools),
                             "web_search": _supported(m.server_tools and m.web_search)},
            "structured_outputs": _supported(True),
            "thinking": {"supported": thinking, "types": {
                "adaptive": _supported(m.adaptive_thinking),
                "between_tools": _supported(m.adaptive_thinking),
                "disabled": _supported(True),
                "enabled": _supported(m.budget_thinking),
            }},
        },
    }
    if COMPACTION_BETA in betas:
        info["capabilities"]["compaction"] = {"supported": m.compacts,
                                              "summarize": _supported(m.compacts)}
    return info


def _lifecycles(query: dict[str, list[str]]) -> tuple[str, ...]:
    asked = [part for key in ("lifecycle[]", "lifecycle") for value in query.get(key, [])
             for part in value.split(",") if part]
    return tuple(asked) if asked else ("active", "deprecated")


def anthropic_page(models: list[FakeModel], query: dict[str, list[str]],
                   betas: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``GET /v1/models``: a page of ``ModelInfo`` with the cursor fields the SDK reads."""
    listed = [m for m in models if m.lifecycle in _lifecycles(query)]
    try:
        limit = max(1, min(int(query.get("limit", ["20"])[0]), 1000))
    except ValueError:
        limit = 20
    ids = [m.id for m in listed]
    after = query.get("after_id", [None])[0]
    before = query.get("before_id", [None])[0]
    if before is not None:
        end = ids.index(before) if before in ids else 0
        page = listed[max(0, end - limit):end]
        has_more = end - limit > 0
    else:
        start = ids.index(after) + 1 if after in ids else 0
        page = listed[start:start + limit]
        has_more = start + limit < len(listed)
    return {
        "data": [model_info(m, betas) for m in page],
        "has_more": has_more,
        "first_id": page[0].id if page else None,
        "last_id": page[-1].id if page else None,
    }


def _created(m: FakeModel) -> int:
    return int(dt.datetime.fromisoformat(m.created_at.replace("Z", "+00:00")).timestamp())


def openai_models(models: list[FakeModel], flavor: str) -> dict[str, Any]:
    """``GET /v1/models`` as a server of ``flavor`` answers it."""
    data: list[dict[str, Any]] = []
    for m in models:
        if flavor == "openrouter":
            # OpenRouter's entries have no "object" or "owned_by".
            data.append({"id": m.id, "name": m.id, "created": _created(m),
                         "context_length": m.context_window,
                         "top_provider": {"context_length": m.context_window,
                                          "max_completion_tokens": m.max_output,
                                          "is_moderated": False},
                         "pricing": {"prompt": "0", "completion": "0"}})
            continue
        entry: dict[str, Any] = {"id": m.id, "object": "model", "created": _created(m),
                                 "owned_by": {"openai": "openai", "vllm": "vllm",
                                              "llamacpp": "llamacpp",
                                              "ollama": "library"}[flavor]}
        if flavor == "openai":
            entry["shutdown_date"] = m.retires_at if m.lifecycle != "active" else None
        elif flavor == "vllm":
            entry.update(root=m.id, parent=None, max_model_len=m.context_window)
        elif flavor == "llamacpp":
            # The training context, not the server's: a client must not take it for the window.
            entry["meta"] = {"n_ctx_train": m.context_window * 4, "n_vocab": 128_256}
        data.append(entry)
    return {"object": "list", "data": data}


def llamacpp_props(models: list[FakeModel]) -> dict[str, Any]:
    """llama.cpp server's ``GET /props`` (one loaded model: the first)."""
    m = models[0]
    return {"default_generation_settings": {"n_ctx": m.context_window,
                                            "params": {"n_predict": -1}},
            "total_slots": 1, "model_path": f"/models/{m.id}.gguf",
            "chat_template": "", "build_info": "b6000-fake"}


def ollama_show(m: FakeModel) -> dict[str, Any]:
    """Ollama's ``POST /api/show``."""
    parameters = 'stop "<|eot_id|>"'
    if m.num_ctx:
        parameters = f"num_ctx {m.num_ctx}\n{parameters}"
    return {"modelfile": f"FROM {m.id}", "parameters": parameters, "template": "",
            "details": {"format": "gguf", "family": m.arch},
            "model_info": {"general.architecture": m.arch,
                           f"{m.arch}.context_length": m.context_window,
                           f"{m.arch}.embedding_length": 4096},
            "capabilities": ["completion", "tools"]}


# The server tool types a model takes only with each capability.
_TOOL_CAPABILITIES = (("web_search_", "web_search"), ("web_fetch_", "server_tools"))


def unsupported_tool(m: FakeModel, tool_type: str) -> bool:
    """Whether the model's capabilities leave out the server tool of this type."""
    for prefix, capability in _TOOL_CAPABILITIES:
        if tool_type.startswith(prefix):
            return not (m.server_tools and (capability == "server_tools" or m.web_search))
    return False


def find(listed: Iterable[FakeModel], model: str) -> FakeModel | None:
    """The listed model an id names: itself, or the dated snapshot an alias stands for
    (``claude-haiku-4-5`` is ``claude-haiku-4-5-20251001``), as the API resolves it."""
    models = list(listed)
    exact = next((m for m in models if m.id == model), None)
    if exact is not None:
        return exact
    return next((m for m in models if re.fullmatch(re.escape(model) + r"-\d{8}", m.id)), None)
