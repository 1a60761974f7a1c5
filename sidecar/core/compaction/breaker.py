"""The circuit breaker: after N consecutive auto-compact failures, stop trying."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class CircuitBreaker:
    limit: int = 3
    consecutive_failures: int = 0

    @property
    def open(self) -> bool:
        return self.consecutive_failures >= self.limit

    def record_failure(self) -> None:
        self.consecutive_failures += 1

    def record_success(self) -> None:
        self.consecutive_failures = 0
