"""Fixtures any unit test may ask for by name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sidecar.core.secrets.redaction import forget_secrets


@pytest.fixture
def no_held_keys() -> Iterator[None]:
    """Redaction is process-wide: a key another test registered would rewrite what a test
    writes and compares, so tests that compare redacted output start and end with none."""
    forget_secrets()
    yield
    forget_secrets()
