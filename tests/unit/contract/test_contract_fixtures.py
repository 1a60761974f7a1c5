"""The golden fixtures under docs/contract/ are what the contract module generates, and the
examples they are made from fit the contract's own types."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from contract_shapes import mismatches

from sidecar.contract import examples, fixtures
from sidecar.contract.decoding import decode, encode
from sidecar.contract.errors import CODES
from sidecar.contract.updates import UPDATE_KINDS, SessionUpdate
from sidecar.routes import NOTIFICATIONS, REQUESTS, ROUTES


def test_the_committed_fixtures_are_what_the_contract_generates() -> None:
    found = fixtures.differences(fixtures.DEFAULT_DIR)
    assert not found, "docs/contract/ is stale; run python -m sidecar.contract.fixtures:\n" + "\n".join(found)


def test_the_check_sees_a_changed_missing_or_extra_file(tmp_path: Path) -> None:
    fixtures.write(tmp_path)
    assert fixtures.differences(tmp_path) == []
    assert fixtures.main([str(tmp_path), "--check"]) == 0
    gauge = tmp_path / "requests" / "sidecar-gauge.result.json"
    gauge.write_text(gauge.read_text().replace('"seq"', '"sequence"'))
    (tmp_path / "updates" / "tool_call.json").unlink()
    (tmp_path / "updates" / "agent_plan.json").write_text("{}\n")
    assert fixtures.differences(tmp_path) == [
        "missing: updates/tool_call.json",
        "not generated: updates/agent_plan.json",
        "differs: requests/sidecar-gauge.result.json",
    ]
    assert fixtures.main([str(tmp_path), "--check"]) == 1
    fixtures.write(tmp_path)
    assert fixtures.differences(tmp_path) == []


def test_every_routed_method_has_a_fixture() -> None:
    index = fixtures.generate()["index.json"]
    assert list(index["requests"]) == [route.method for route in REQUESTS]
    assert list(index["notifications"]) == [route.method for route in NOTIFICATIONS]
    assert list(index["serverNotifications"]["session/update"]["kinds"]) == list(UPDATE_KINDS)
    assert {name: entry["code"] for name, entry in index["errors"].items()} == CODES


@pytest.mark.parametrize("example", examples.requests() + examples.client_notifications(),
                         ids=lambda e: e.method)
def test_example_params_survive_the_wire(example: Any) -> None:
    route = ROUTES[example.method]
    assert isinstance(example.params, route.params)
    assert decode(route.params, encode(example.params)) == example.params


@pytest.mark.parametrize("example", examples.requests(), ids=lambda e: e.method)
def test_example_results_show_every_field_of_the_result_type(example: Any) -> None:
    result_type = get_type_hints(ROUTES[example.method].call)["return"]
    assert mismatches(example.result, result_type, complete=True) == []


def test_example_updates_fit_the_update_kinds() -> None:
    for params in examples.session_updates():
        assert mismatches(params["update"], SessionUpdate) == [], params["update"]["sessionUpdate"]


def test_the_shape_check_finds_what_does_not_fit() -> None:
    (example,) = [e for e in examples.requests() if e.method == "sidecar/gauge"]
    gauge = dict(example.result)
    gauge.pop("seq")
    gauge["level"] = "fine"
    gauge["extra"] = 1
    result_type = get_type_hints(ROUTES["sidecar/gauge"].call)["return"]
    assert mismatches(gauge, result_type) == [
        "$.seq: missing", "$.extra: not in Gauge", "$.level: 'fine' is none of ('ok', 'warning', 'error', 'blocking')"]


def test_the_contract_imports_nothing_else_of_the_sidecar() -> None:
    # Core and the transports import the contract; the other way round would tie the wire
    # to whatever the engine happens to be.
    probe = ("import json, sys, sidecar.contract.fixtures; "
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('sidecar.'))))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    modules = json.loads(loaded.stdout)
    assert "sidecar.contract.fixtures" in modules
    assert [m for m in modules if not m.startswith("sidecar.contract")] == []
