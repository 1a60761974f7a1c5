"""Suite-wide: the fake LLM server's verdict on every request the tests made, and the official
ACP schema's on every message the sidecar sent over ACP.

The suite runs in parallel worker processes (pytest-xdist); each worker hands its counts to
the controller when it ends, and the closing lines add them up.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

# What the workers reported (the controller's own counts are added at the end).
_from_workers: dict[str, Any] = {"checked": 0, "refused": 0, "acp": Counter(), "acp_violations": 0}


def _local_counts() -> dict[str, Any]:
    from sidecar.fake_llm.invariants import InvariantChecker
    from tests.acp_conformance import Totals

    return {"checked": InvariantChecker.process_checked, "refused": InvariantChecker.process_refused,
            "acp": dict(Totals.checked), "acp_violations": len(Totals.violations)}


# Where a file's tests run first under xdist: the files that wait on real processes (Neovim
# and the sidecar) start before the unit tests, which fill the workers' last minutes. With
# --no-loadscope-reorder (scripts/test.sh) the files go out in this order; xdist's own
# reorder (by test count) would leave the single-test process files for last, one worker
# running each while the others idle.
_FIRST = ("tests/nvim/", "tests/e2e/")


def _rank(item: pytest.Item) -> int:
    path = item.nodeid
    return next((i for i, prefix in enumerate(_FIRST) if path.startswith(prefix)), len(_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the order files are handed out
        items.sort(key=_rank)  # stable: a file's tests stay together and in order


def pytest_sessionfinish(session: pytest.Session) -> None:
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # a worker: hand the counts to the controller
        output["counts"] = json.dumps(_local_counts())


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    raw = getattr(node, "workeroutput", {}).get("counts")
    if not raw:
        return
    counts = json.loads(raw)
    _from_workers["checked"] += counts["checked"]
    _from_workers["refused"] += counts["refused"]
    _from_workers["acp"].update(counts["acp"])
    _from_workers["acp_violations"] += counts["acp_violations"]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests.acp_conformance import summary_line

    local = _local_counts()
    checked = local["checked"] + _from_workers["checked"]
    refused = local["refused"] + _from_workers["refused"]
    if checked:
        terminalreporter.write_line(
            f"fake LLM server: {checked:,} requests validated against the SDK request types "
            f"and API rules in this run, {refused} refused (tests of the refusal path only)")
    line = summary_line(_from_workers["acp"] + Counter(local["acp"]),
                        _from_workers["acp_violations"] + local["acp_violations"])
    if line:
        terminalreporter.write_line(line)
