"""Failing a test on the fake's findings: refusals the real API would give, broken invariants."""

from __future__ import annotations

from typing import Any

import pytest


def fail_on_violations(server: Any, request: pytest.FixtureRequest) -> None:
    """Fail the test unless it is marked ``allow_violations``; the findings are cleared."""
    found = server.take_violations()
    if found and request.node.get_closest_marker("allow_violations") is None:
        pytest.fail("the fake saw requests that break an invariant:\n"
                    + "\n".join(str(v) for v in found[:20]), pytrace=False)
