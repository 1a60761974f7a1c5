"""The plan follows a compaction of either tier: whole within its budget, cut beyond it, and
with the plan mode reminder while the session plans."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sidecar.core.conversation.file_state import FileReadState
from sidecar.core.permissions.plan import reinjected_plan
from sidecar.core.settings import Settings
from tests.unit.core.core_builders import CountingLedger, WindowThresholds


@dataclass
class Host:
    plan: Path | None
    mode: str = "plan"
    planned: bool = True
    settings: Settings = field(default_factory=Settings)
    thresholds: WindowThresholds = field(default_factory=WindowThresholds)
    ledger: CountingLedger = field(default_factory=CountingLedger)
    file_state: FileReadState = field(default_factory=FileReadState)  # no files were read

    def plan_file(self) -> Path | None:
        return self.plan

    @property
    def permissions(self) -> Host:  # the mode and plan state, here the host's own fields
        return self


def texts(records: list[Any]) -> list[str]:
    return [r.content[0]["text"] for r in records]


async def test_both_tiers_carry_the_plan_and_the_reminder(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text("# Plan\n1. Do it.\n")
    for tier in ("full", "session_memory"):
        records = await reinjected_plan(Host(plan), tier)  # type: ignore[arg-type]
        assert [r.attachment["type"] for r in records] == ["plan_file_reference", "plan_mode"], tier
        assert all(r.attachment["reinjected"] for r in records)
        assert "1. Do it." in texts(records)[0] and "Plan mode is active" in texts(records)[1]


async def test_after_planning_only_the_plan_follows_and_never_planned_nothing(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text("# Plan\n")
    after = await reinjected_plan(Host(plan, mode="acceptEdits"), "full")  # type: ignore[arg-type]
    assert [r.attachment["type"] for r in after] == ["plan_file_reference"]
    never = await reinjected_plan(Host(plan, mode="default", planned=False), "full")  # type: ignore[arg-type]
    assert never == []
    gone = await reinjected_plan(Host(tmp_path / "none.md", mode="acceptEdits"), "full")  # type: ignore[arg-type]
    assert gone == []


async def test_a_plan_over_its_budget_is_cut_and_says_where_the_rest_is(tmp_path: Path) -> None:
    plan = tmp_path / "plan.md"
    plan.write_text("x" * 100_000)  # 25,000 "tokens" at four characters each
    [carried, _reminder] = await reinjected_plan(Host(plan), "full")  # type: ignore[arg-type]
    text = texts([carried])[0]
    assert text.endswith(f"[The plan continues: Read {plan} for the rest.]")
    # postCompact.perFileTokens (5,000) in a 200K window, at four characters a token.
    assert 19_000 < len(text) < 20_000 + 200
