"""What the providers' models endpoints said of their models, per endpoint, kept on disk.

One entry per provider and base URL in ``<storageDir>/models.json``. Nothing here touches
the network: the session service asks a provider (``Provider.describe_models``) in a
background task after a session opens and hands the answer to ``store``. ``load`` and
``store`` read and write a file, so they run in worker threads; ``describe`` only reads
memory and may be called anywhere, the event loop and window resolution included.

An entry is fresh for ``ttl_seconds`` (24 hours); after a refresh that failed or came back
empty the endpoint is not asked again for ``retry_seconds``, so an unreachable server costs
one attempt per ten minutes, not one per session. A stale entry keeps answering until a
refresh replaces it: a day-old window is a better guess than the catalog's.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sidecar.core.json_files import write_json
from sidecar.core.models.catalog import api_model_id
from sidecar.core.ports import ModelDescription
from sidecar.core.settings import Settings, resolve_base_url
from sidecar.core.workspace.own_files import read_own_text

log = logging.getLogger(__name__)

CACHE_FILE = "models.json"
TTL_SECONDS = 24 * 60 * 60
RETRY_SECONDS = 10 * 60
_VERSION = 1
_LIFECYCLES = ("active", "deprecated", "retired")
_SNAPSHOT = re.compile(r"\d{8}")


def endpoint_key(settings: Settings, environ: Mapping[str, str]) -> str:
    """Which endpoint a session's models come from: the provider and its base URL."""
    url = resolve_base_url(settings, environ)
    return f"{settings.provider} {url.rstrip('/') if url else 'default'}"


@dataclass(frozen=True, slots=True)
class EndpointModels:
    fetched_at: float  # seconds since the epoch
    models: dict[str, ModelDescription]  # by lower-cased model id


class ModelRegistry:
    def __init__(self, path: Path, *, ttl_seconds: float = TTL_SECONDS,
                 retry_seconds: float = RETRY_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.ttl_seconds = ttl_seconds
        self.retry_seconds = retry_seconds
        self.clock = clock
        self._entries: dict[str, EndpointModels] = {}
        self._attempted: dict[str, float] = {}
        self._loaded = False
        self._lock = threading.Lock()

    # ----- memory (any thread, no I/O) --------------------------------------------------

    def describe(self, endpoint: str, model: str) -> ModelDescription | None:
        """What ``endpoint`` said of ``model`` (its API id: a ``[1m]`` suffix is ignored).

        An alias such as ``claude-sonnet-4-5`` finds the one dated snapshot it stands for
        (``claude-sonnet-4-5-20250929``): the Anthropic list names older models by snapshot.
        """
        entry = self._entries.get(endpoint)
        if entry is None:
            return None
        name = api_model_id(model)[0].lower()
        found = entry.models.get(name)
        if found is None:
            snapshots = [d for key, d in entry.models.items()
                         if key.startswith(name + "-") and _SNAPSHOT.fullmatch(key[len(name) + 1:])]
            found = snapshots[0] if len(snapshots) == 1 else None
        return found

    def listed(self, endpoint: str) -> list[ModelDescription] | None:
        """Every model ``endpoint`` said it serves, in its order; None when it said nothing."""
        entry = self._entries.get(endpoint)
        return list(entry.models.values()) if entry is not None and entry.models else None

    def fetched_at(self, endpoint: str) -> float | None:
        entry = self._entries.get(endpoint)
        return entry.fetched_at if entry is not None else None

    def needs_refresh(self, endpoint: str) -> bool:
        now = self.clock()
        entry = self._entries.get(endpoint)
        if entry is not None and now - entry.fetched_at < self.ttl_seconds:
            return False
        last = self._attempted.get(endpoint)
        return last is None or now - last >= self.retry_seconds

    def note_attempt(self, endpoint: str) -> None:
        """A refresh of ``endpoint`` starts (or failed): do not start another too soon."""
        self._attempted[endpoint] = self.clock()

    # ----- disk (worker threads) --------------------------------------------------------

    def load(self) -> None:
        """Read the cache file once; entries already in memory are newer and stay."""
        if self._loaded:
            return
        found = _read(self.path)
        with self._lock:
            for key, entry in found.items():
                mine = self._entries.get(key)
                if mine is None or mine.fetched_at < entry.fetched_at:
                    self._entries[key] = entry
            self._loaded = True

    def store(self, endpoint: str, models: list[ModelDescription]) -> None:
        """Keep what ``endpoint`` just said and write the file (merged with what another
        sidecar process may have written since: per endpoint, the newer entry wins)."""
        entry = EndpointModels(self.clock(), {m.model.lower(): m for m in models})
        with self._lock:
            self._entries[endpoint] = entry
            merged = _read(self.path)
            for key, mine in self._entries.items():
                theirs = merged.get(key)
                if theirs is None or theirs.fetched_at <= mine.fetched_at:
                    merged[key] = mine
            self._entries.update(merged)
            try:
                _write(self.path, merged)
            except OSError as exc:  # a cache: the next refresh writes it again
                log.info("models cache %s not written: %s", self.path, exc)


# ----- the file ------------------------------------------------------------------------------


def description_to_json(d: ModelDescription) -> dict[str, Any]:
    return {"model": d.model, "contextWindow": d.context_window,
            "maxOutputTokens": d.max_output_tokens, "lifecycle": d.lifecycle,
            "capabilities": sorted(d.capabilities), "replacement": d.replacement,
            "source": d.source, "retiresAt": d.retires_at, "lifecycleKnown": d.lifecycle_known,
            "displayName": d.display_name}


def description_from_json(raw: Any) -> ModelDescription | None:
    """One cached description, or None when the value is not one (a hand-edited or
    half-written file must not take a session down)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("model"), str) or not raw["model"]:
        return None
    lifecycle = raw.get("lifecycle")
    caps = raw.get("capabilities")
    return ModelDescription(
        model=raw["model"],
        context_window=_positive(raw.get("contextWindow")),
        max_output_tokens=_positive(raw.get("maxOutputTokens")),
        lifecycle=lifecycle if lifecycle in _LIFECYCLES else "active",
        capabilities=frozenset(c for c in caps if isinstance(c, str))
        if isinstance(caps, list) else frozenset(),
        replacement=_text(raw.get("replacement")),
        source=_text(raw.get("source")) or "",
        retires_at=_text(raw.get("retiresAt")),
        lifecycle_known=raw.get("lifecycleKnown") is not False,
        display_name=_text(raw.get("displayName")),
    )


def _positive(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _read(path: Path) -> dict[str, EndpointModels]:
    try:
        data = json.loads(read_own_text(path, limit=16 << 20))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.info("models cache %s not read: %s", path, exc)
        return {}
    endpoints = data.get("endpoints") if isinstance(data, dict) else None
    if not isinstance(endpoints, dict):
        return {}
    out: dict[str, EndpointModels] = {}
    for key, raw in endpoints.items():
        if not isinstance(raw, dict):
            continue
        fetched = raw.get("fetchedAt")
        models = raw.get("models")
        if not isinstance(fetched, (int, float)) or isinstance(fetched, bool) \
                or not isinstance(models, list):
            continue
        described = [d for d in (description_from_json(m) for m in models) if d is not None]
        out[str(key)] = EndpointModels(float(fetched), {d.model.lower(): d for d in described})
    return out


def _write(path: Path, entries: dict[str, EndpointModels]) -> None:
    body = {"version": _VERSION, "endpoints": {
        key: {"fetchedAt": entry.fetched_at,
              "models": [description_to_json(d) for d in entry.models.values()]}
        for key, entry in sorted(entries.items())}}
    write_json(path, body, indent=1)
