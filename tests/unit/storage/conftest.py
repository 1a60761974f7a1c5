"""Storage tests start with no held keys: redaction is process-wide, and a key another test
registered would rewrite what these tests write and compare."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sidecar.core.secrets.redaction import forget_secrets


@pytest.fixture(autouse=True)
def no_held_keys() -> Iterator[None]:
    forget_secrets()
    yield
    forget_secrets()
