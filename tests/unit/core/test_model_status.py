"""Whether a model is current: the provider's word first, the announced dates otherwise."""

from __future__ import annotations

import datetime as dt

import pytest

from sidecar.core.models.retirements import (
    ANTHROPIC_RETIREMENTS,
    OPENAI_RETIREMENTS,
    lookup_retirement,
)
from sidecar.core.models.status import CATALOG_SOURCE, ModelStatus, model_status
from sidecar.core.ports import ModelDescription

TODAY = dt.date(2026, 12, 1)
SOURCE = "anthropic /v1/models"


def test_a_current_model_says_nothing() -> None:
    status = model_status("claude-sonnet-5-5", "anthropic", None, TODAY)
    assert status == ModelStatus("claude-sonnet-5-5", "active")
    assert status.message(TODAY) is None
    assert status.to_json(TODAY)["message"] is None


def test_the_provider_calls_it_deprecated_and_names_the_replacement() -> None:
    said = ModelDescription("claude-sonnet-5", 1_000_000, 128_000, lifecycle="deprecated",
                            replacement="claude-sonnet-5-5", retires_at="2027-03-01",
                            source=SOURCE)
    status = model_status("claude-sonnet-5", "anthropic", said, TODAY)
    assert (status.lifecycle, status.replacement, status.source) == (
        "deprecated", "claude-sonnet-5-5", SOURCE)
    assert status.message(TODAY) == ("claude-sonnet-5 is deprecated and retires on 2027-03-01; "
                                     "move to claude-sonnet-5-5.")


def test_the_provider_calls_it_retired() -> None:
    said = ModelDescription("claude-opus-4-6", 1_000_000, 128_000, lifecycle="retired",
                            replacement="claude-opus-5-5", source=SOURCE)
    message = model_status("claude-opus-4-6", "anthropic", said, TODAY).message(TODAY)
    assert message == "claude-opus-4-6 was retired: requests to it fail; move to claude-opus-5-5."


def test_the_provider_wins_over_the_catalog_both_ways() -> None:
    active = ModelDescription("claude-sonnet-4-5", 200_000, 64_000, source=SOURCE)
    assert model_status("claude-sonnet-4-5", "anthropic", active, TODAY).current
    deprecated = ModelDescription("claude-sonnet-4-5", 200_000, 64_000, lifecycle="deprecated",
                                  source=SOURCE)
    status = model_status("claude-sonnet-4-5", "anthropic", deprecated, TODAY)
    # Past its date but the provider still serves it: deprecated, overdue. The catalog
    # fills in the replacement and date the endpoint did not give.
    assert (status.lifecycle, status.replacement, status.retires_at) == (
        "deprecated", "claude-sonnet-5-5", "2026-11-30")
    assert "was due to retire on 2026-11-30: requests may start failing" in str(
        status.message(TODAY))


def test_without_the_provider_the_announced_dates_decide() -> None:
    before = model_status("claude-sonnet-4-5", "anthropic", None, dt.date(2026, 11, 1))
    assert (before.lifecycle, before.source) == ("deprecated", CATALOG_SOURCE)
    after = model_status("claude-sonnet-4-5", "anthropic", None, dt.date(2026, 11, 30))
    assert after.lifecycle == "retired"
    assert after.message(TODAY) == ("claude-sonnet-4-5 was retired on 2026-11-30: requests to "
                                    "it fail; move to claude-sonnet-5-5.")


def test_a_server_that_says_no_lifecycle_leaves_the_catalogs_word() -> None:
    vllm = ModelDescription("gpt-4o", 128_000, None, source="vllm max_model_len",
                            lifecycle_known=False)
    status = model_status("gpt-4o", "openai-compatible", vllm, TODAY)
    assert (status.lifecycle, status.retires_at, status.source) == (
        "deprecated", "2027-01-14", CATALOG_SOURCE)
    assert status.message(TODAY) == ("gpt-4o is deprecated and retires on 2027-01-14; "
                                     "choose a current model with /model NAME.")


@pytest.mark.parametrize("model", ["claude-sonnet-4-7", "claude-sonnet-4", "claude-opus-4-9",
                                   "gpt-4o-2025-01-01", "my-claude-sonnet-4-0"])
def test_retirement_is_by_exact_id_never_by_prefix(model: str) -> None:
    assert lookup_retirement(model, "anthropic") is None
    assert model_status(model, "anthropic", None, TODAY).current


def test_aliases_snapshots_and_spellings() -> None:
    assert lookup_retirement("claude-sonnet-4-20250514", "anthropic") == \
        lookup_retirement("Claude-Sonnet-4-0[1m]", "anthropic")
    assert lookup_retirement("openai/gpt-4o", "openai-compatible") is not None
    assert lookup_retirement("anthropic/claude-opus-4-1", "openai-compatible") is not None


def test_every_announced_entry_is_well_formed() -> None:
    for table in (ANTHROPIC_RETIREMENTS, OPENAI_RETIREMENTS):
        for model, entry in table.items():
            assert model == model.lower() and entry.lifecycle in ("deprecated", "retired")
            assert entry.retires_at is None or dt.date.fromisoformat(entry.retires_at)
            assert entry.replacement is None or lookup_retirement(entry.replacement,
                                                                 "anthropic") is None, model


def test_the_openai_table_is_the_sdks_deprecation_list() -> None:
    """Every id the openai SDK's ChatModel docstring announces a shutdown date for is in
    the table with that date (the SDK is the oracle; this catches a stale table)."""
    import inspect
    import re

    from openai.types.shared import chat_model

    doc = inspect.getsource(chat_model).split('"""Deprecated values:')[1]
    checked = 0
    for block in re.split(r"\n- ", doc):
        date = re.search(r"shutdown date:\s*(\d{4}-\d{2}-\d{2})", block.replace("\n  ", " "))
        if not date:
            continue
        for model in re.findall(r'"([^"]+)"', block.split("Announced")[0]):
            if "audio" in model:
                continue  # not chat models this sidecar can drive
            assert OPENAI_RETIREMENTS[model].retires_at == date.group(1), model
            checked += 1
    assert checked > 50


def test_the_anthropic_sdks_deprecations_are_in_the_table() -> None:
    from anthropic._data import DEPRECATED_MODELS

    for model in DEPRECATED_MODELS:
        assert model in ANTHROPIC_RETIREMENTS, model
