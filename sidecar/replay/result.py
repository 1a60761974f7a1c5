"""What replaying one session found, in the shape the table, JSON and chart read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sidecar.replay.billing import Billed, SubagentBill, weights_json


@dataclass
class TierEvent:
    tier: str  # microcompact, api_context_management, session_memory, full, failed
    turn: int
    request: int  # main requests sent before it fired
    used: int  # the gauge when it was logged
    kind: str | None = None  # microcompact: time_based; ACM: server / client_side
    trigger: str | None = None  # compactions: auto / manual
    tokens_before: int | None = None
    tokens_after: int | None = None
    cleared: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tier": self.tier,
            "turn": self.turn,
            "request": self.request,
            "used": self.used,
        }
        for key, value in (
            ("kind", self.kind),
            ("trigger", self.trigger),
            ("tokensBefore", self.tokens_before),
            ("tokensAfter", self.tokens_after),
            ("cleared", self.cleared),
        ):
            if value is not None:
                out[key] = value
        return out

    @property
    def is_compaction(self) -> bool:
        return self.tier in ("session_memory", "full")


@dataclass
class SessionResult:
    file: str
    model: str
    out_weight: float
    turns: int = 0  # engine turns run (prompts plus manual compactions and clears)
    thresholds: dict[str, int | None] = field(default_factory=dict)
    hidden: dict[str, int] = field(default_factory=dict)
    ours_series: list[int] = field(default_factory=list)  # prompt tokens of each main request
    recorded_series: list[int] = field(default_factory=list)
    compaction_points: list[int] = field(default_factory=list)  # main-request index of each
    events: list[TierEvent] = field(default_factory=list)
    levels: dict[str, dict[str, int]] = field(default_factory=dict)
    ours_main: Billed = field(default_factory=Billed)
    ours_summary: Billed = field(default_factory=Billed)
    recorded: Billed = field(default_factory=Billed)
    # The recording's compaction calls (its agent-acompact files), billed like its main ones.
    recorded_compactions: Billed = field(default_factory=Billed)
    # Subagents replayed from the recording's sidechains, by model, both sides.
    subagents: dict[str, SubagentBill] = field(default_factory=dict)
    subagent_runs: int = 0  # Task calls replayed as subagents
    # Reads of a file whose earlier Read result a clearing had taken away (main conversation).
    rereads: int = 0
    within: str | None = None  # a subagent file: the main transcript it was replayed with
    rejected_requests: int = 0
    past_blocking: int = 0
    # A recording whose first call read its prefix from a cache an earlier session wrote:
    # ours is given the same warm start, these many tokens counted as read, not written.
    warm_start_tokens: int = 0
    recorded_warm_tokens: int = 0
    # The replayed answers' output is billed alike on both sides (see driver._collect):
    # tokens added to the recording's count, and to ours, to make them so.
    output_raised_recorded: int = 0
    output_raised_ours: int = 0
    # The fake's verdict on every request: checked, refused as the real API would, and
    # each broken invariant (see sidecar.fake_llm.invariants).
    checked: int = 0
    refused: int = 0
    violations: list[str] = field(default_factory=list)
    script: dict[str, int] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str | None = None  # why the file was not replayed

    @property
    def ours_total(self) -> Billed:
        total = Billed()
        total.merge(self.ours_main)
        total.merge(self.ours_summary)
        return total

    @property
    def peak_ours(self) -> int:
        return max(self.ours_series, default=0)

    @property
    def peak_recorded(self) -> int:
        return max(self.recorded_series, default=0)

    @property
    def replayed(self) -> bool:
        return self.skipped is None and self.within is None

    def ours_billed(self) -> float:
        """Every call of ours (main, summaries, subagents) in input-token equivalents."""
        return (self.ours_total.total(self.out_weight)
                + sum(b.ours_total() for b in self.subagents.values()))

    def recorded_billed(self) -> float:
        """Every call the recording shows (main, compactions, subagents), alike."""
        return (self.recorded.total(self.out_weight)
                + self.recorded_compactions.total(self.out_weight)
                + sum(b.recorded_total() for b in self.subagents.values()))

    def billed_ratio(self) -> float | None:
        recorded = self.recorded_billed()
        return self.ours_billed() / recorded if recorded else None

    def to_json(self, series: bool = True) -> dict[str, Any]:
        if self.within is not None:
            return {"file": self.file, "within": self.within}
        if self.skipped is not None:
            return {"file": self.file, "skipped": self.skipped}
        w = self.out_weight
        ratio = self.billed_ratio()
        out: dict[str, Any] = {
            "file": self.file,
            "model": self.model,
            "turns": self.turns,
            "thresholds": self.thresholds,
            "hiddenPrefix": self.hidden,
            "requests": {
                "oursMain": len(self.ours_series),
                "oursSummary": self.ours_summary.calls,
                "oursRejected": self.rejected_requests,
                "recorded": len(self.recorded_series),
            },
            "peakContext": {"ours": self.peak_ours, "recorded": self.peak_recorded},
            "pastBlocking": self.past_blocking,
            "rereadsAfterClearing": self.rereads,
            "warmStart": {"recordedRead": self.recorded_warm_tokens,
                          "oursCountedRead": self.warm_start_tokens},
            "outputAlike": {"recordedRaised": self.output_raised_recorded,
                            "oursRaised": self.output_raised_ours},
            "checks": {"requests": self.checked, "refused": self.refused,
                       "violations": self.violations},
            "tiers": [e.to_json() for e in self.events],
            "levels": self.levels,
            "billed": {
                "weights": weights_json(w),
                "ours": {
                    **self.ours_total.to_json(w),
                    "main": self.ours_main.to_json(w),
                    "summaries": self.ours_summary.to_json(w),
                    "billed": round(self.ours_billed()),
                },
                "recorded": {
                    **self.recorded.to_json(w),
                    "compactions": self.recorded_compactions.to_json(w),
                    "billed": round(self.recorded_billed()),
                },
                "subagents": {"runs": self.subagent_runs,
                              "byModel": [b.to_json() for b in self.subagents.values()]},
                "ratio": round(ratio, 3) if ratio is not None else None,
            },
            "script": self.script,
            "errors": self.errors,
            "seconds": round(self.seconds, 2),
        }
        if series:
            out["series"] = {
                "ours": self.ours_series,
                "recorded": self.recorded_series,
                "compactions": self.compaction_points,
            }
        return out
