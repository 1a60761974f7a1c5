"""The editor replay drives the engine with: it records what the engine reports.

Permission prompts are answered ``allow_always`` (the recorded user let the tools run);
edits are refused so nothing reaches the disk; chunks of streamed text are only counted,
as keeping them would hold a second copy of the whole session in memory.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from sidecar.core.permissions.choice import PermissionChoice


@dataclass
class GaugePoint:
    turn: int
    used: int
    level: str


@dataclass
class ReplayEditor:
    turn: int = 0  # set by the driver before each turn
    updates: Counter[str] = field(default_factory=Counter)
    gauges: list[GaugePoint] = field(default_factory=list)
    compactions: list[dict[str, Any]] = field(default_factory=list)
    messages: list[tuple[str, str]] = field(default_factory=list)

    def session_update(self, session_id: str, update: Mapping[str, Any]) -> None:
        kind = str(update.get("sessionUpdate"))
        self.updates[kind] += 1
        if kind == "usage_update":
            gauge = (update.get("_meta") or {}).get("sidecar") or {}
            self.gauges.append(
                GaugePoint(self.turn, int(update.get("used", 0)), str(gauge.get("level", "ok")))
            )
        elif kind == "compaction_update" and update.get("status") != "in_progress":
            entry = {k: v for k, v in update.items() if k not in ("sessionUpdate", "summary")}
            self.compactions.append({**entry, "turn": self.turn})

    def status(self, kind: str, busy: bool, message: str) -> None:
        pass

    def show_message(self, level: str, text: str) -> None:
        self.messages.append((level, text))

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, str]]
    ) -> PermissionChoice:
        return PermissionChoice("allow_always")

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        return False

    def buffer_text(self, path: Path) -> str | None:
        return None

    async def progress(
        self,
        token: str | None,
        kind: str,
        title: str,
        message: str = "",
        percentage: int | None = None,
    ) -> str | None:
        return None

    def first_level(self, level: str) -> GaugePoint | None:
        """The first gauge reading at ``level`` or above."""
        order = {"ok": 0, "warning": 1, "error": 2, "blocking": 3}
        wanted = order[level]
        return next((g for g in self.gauges if order.get(g.level, 0) >= wanted), None)
