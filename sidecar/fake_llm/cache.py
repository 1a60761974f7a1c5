"""Prompt-cache simulations, so usage figures carry realistic cache reads and writes.

Anthropic: explicit ``cache_control`` breakpoints write the prefix up to them; a read takes
the longest cached prefix that ends at a block boundary within 20 blocks before some
breakpoint; entries live 5 minutes (or 1 hour) and a hit refreshes them.
OpenAI: automatic prefix caching for prompts of at least 1024 tokens, reported in steps of
128 tokens, separated by ``prompt_cache_key`` when one is given.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from .counting import Unit, token_ids

Clock = Callable[[], float]

LOOKBACK_BLOCKS = 20
MAX_BREAKPOINTS = 4


@dataclass(frozen=True, slots=True)
class CacheUsage:
    input_tokens: int
    cache_read_input_tokens: int
    cache_creation_input_tokens: int
    ephemeral_5m_input_tokens: int = 0
    ephemeral_1h_input_tokens: int = 0


def prefix_keys(seed: str, units: list[Unit]) -> list[bytes]:
    """Chained digests: entry i identifies the whole prompt prefix through unit i."""
    keys: list[bytes] = []
    state = hashlib.blake2b(seed.encode("utf-8"), digest_size=16).digest()
    for unit in units:
        state = hashlib.blake2b(state + unit.key, digest_size=16).digest()
        keys.append(state)
    return keys


class AnthropicPromptCache:
    def __init__(self, clock: Clock = time.monotonic, min_tokens: int = 0) -> None:
        self.clock = clock
        # Real models refuse to cache prefixes under 1024-4096 tokens; 0 keeps small tests useful.
        self.min_tokens = min_tokens
        self._entries: dict[bytes, tuple[float, float]] = {}  # prefix key -> (expires_at, ttl)
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        now = self.clock()
        with self._lock:
            return sum(1 for expires, _ in self._entries.values() if expires > now)

    def apply(self, model: str, units: list[Unit]) -> CacheUsage:
        """Read the longest cached prefix, write each breakpoint past it; return the usage split."""
        total = sum(unit.total for unit in units)
        breakpoints = [i for i, unit in enumerate(units) if unit.breakpoint_ttl is not None]
        if not breakpoints:
            return CacheUsage(total, 0, 0)
        keys = prefix_keys(model, units)
        cumulative: list[int] = []
        running = 0
        for unit in units:
            running += unit.total
            cumulative.append(running)

        def through(index: int) -> int:
            return cumulative[index] if index >= 0 else 0

        now = self.clock()
        with self._lock:
            hit = -1
            for point in breakpoints:
                for index in range(point, max(point - LOOKBACK_BLOCKS, 0) - 1, -1):
                    if index <= hit:
                        break
                    entry = self._entries.get(keys[index])
                    if entry is not None and entry[0] > now:
                        hit = index
                        break
            if hit >= 0:
                _, ttl = self._entries[keys[hit]]
                self._entries[keys[hit]] = (now + ttl, ttl)

            created_5m = created_1h = 0
            last_written = hit
            for point in breakpoints:
                if point <= hit or through(point) < self.min_tokens:
                    continue
                ttl = units[point].breakpoint_ttl or 300.0
                self._entries[keys[point]] = (now + ttl, ttl)
                segment = through(point) - through(last_written)
                if ttl >= 3600:
                    created_1h += segment
                else:
                    created_5m += segment
                last_written = point
            self._purge(now)

        read = through(hit)
        creation = created_5m + created_1h
        return CacheUsage(
            input_tokens=total - read - creation,
            cache_read_input_tokens=read,
            cache_creation_input_tokens=creation,
            ephemeral_5m_input_tokens=created_5m,
            ephemeral_1h_input_tokens=created_1h,
        )

    def _purge(self, now: float) -> None:
        if len(self._entries) > 4096:
            for key in [k for k, (expires, _) in self._entries.items() if expires <= now]:
                del self._entries[key]


@dataclass
class _StoredPrompt:
    units: list[Unit]
    expires_at: float


class OpenAIPrefixCache:
    def __init__(
        self,
        clock: Clock = time.monotonic,
        *,
        min_tokens: int = 1024,
        granularity: int = 128,
        ttl_seconds: float = 300.0,
        keep_per_key: int = 16,
    ) -> None:
        self.clock = clock
        self.min_tokens = min_tokens
        self.granularity = granularity
        self.ttl_seconds = ttl_seconds
        self.keep_per_key = keep_per_key
        self._prompts: dict[str | None, list[_StoredPrompt]] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._prompts.clear()

    def apply(self, units: list[Unit], cache_key: str | None) -> int:
        """Cached tokens for this prompt; then remember it for later requests."""
        total = sum(unit.total for unit in units)
        now = self.clock()
        with self._lock:
            stored = [p for p in self._prompts.get(cache_key, []) if p.expires_at > now]
            best = 0
            best_prompt: _StoredPrompt | None = None
            if total >= self.min_tokens:
                for prompt in stored:
                    common = common_prefix_tokens(prompt.units, units)
                    if common > best:
                        best, best_prompt = common, prompt
            if best_prompt is not None:
                best_prompt.expires_at = now + self.ttl_seconds
            stored.append(_StoredPrompt(list(units), now + self.ttl_seconds))
            self._prompts[cache_key] = stored[-self.keep_per_key :]
        if best < self.min_tokens:
            return 0
        return best - best % self.granularity


def common_prefix_tokens(old: list[Unit], new: list[Unit]) -> int:
    """Length in tokens of the longest common token prefix of two prompts."""
    common = 0
    for left, right in zip(old, new):
        if left.key == right.key:
            common += left.total
            continue
        a = token_ids(left.text, None)
        b = token_ids(right.text, None)
        for x, y in zip(a, b):
            if x != y:
                break
            common += 1
        break
    return common
