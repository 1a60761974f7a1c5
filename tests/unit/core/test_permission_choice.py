"""A client's answer to a permission request, read the same way on both transports; the
reason travels where ACP's official schema allows a client to put it."""

from __future__ import annotations

from acp import schema

from sidecar.core.permissions.choice import REASON_LIMIT, PermissionChoice, read_permission_result

OPTIONS = [{"optionId": "allow_once", "name": "Allow", "kind": "allow_once"},
           {"optionId": "reject_once", "name": "Reject", "kind": "reject_once"}]


def test_the_reason_rides_where_the_acp_schema_allows_it() -> None:
    answer = {"outcome": {"outcome": "selected", "optionId": "reject_once",
                          "_meta": {"sidecar": {"reason": "  keep the name  "}}}}
    # The official schema accepts the answer as a client would send it.
    schema.RequestPermissionResponse.model_validate(answer)
    assert read_permission_result(answer, OPTIONS) == PermissionChoice("reject_once", "keep the name")


def test_cancelled_unoffered_and_overlong_answers() -> None:
    cancelled = {"outcome": {"outcome": "cancelled"}}
    schema.RequestPermissionResponse.model_validate(cancelled)
    assert read_permission_result(cancelled, OPTIONS) == PermissionChoice("cancelled")
    assert read_permission_result({"outcome": {"outcome": "selected", "optionId": "allow_all"}},
                                  OPTIONS) == PermissionChoice("reject_once")
    assert read_permission_result(None, OPTIONS) == PermissionChoice("cancelled")
    long = {"outcome": {"outcome": "selected", "optionId": "reject_once",
                        "_meta": {"sidecar": {"reason": "x" * (REASON_LIMIT + 5)}}}}
    assert read_permission_result(long, OPTIONS).reason == "x" * REASON_LIMIT
    blank = {"outcome": {"outcome": "selected", "optionId": "reject_once",
                         "_meta": {"sidecar": {"reason": "   "}}}}
    assert read_permission_result(blank, OPTIONS) == PermissionChoice("reject_once")
