"""A standing property-based fuzzer of the LSP transport, against the real process.

Framing (garbled headers, wrong lengths, cut bodies, noise), JSON-RPC envelopes and every
method's params, each followed by a valid probe. ``FuzzTarget`` checks that the process
lives, that every request with an id is answered once with the code JSON-RPC prescribes,
and that the probe is answered within two seconds. ``tests/bench/bench_fuzz.py`` runs the
same cases 10,000 at a time.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.fuzz_cases import FuzzTarget, Wire, envelope_case, framing_case, params_case

WIRE = Wire(acp=False)
RUN = settings(max_examples=400, deadline=None, database=None, print_blob=True,
               suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def target(tmp_path_factory: Any) -> Iterator[FuzzTarget]:
    fuzz = FuzzTarget(tmp_path_factory.mktemp("fuzz-lsp"), acp=False)
    yield fuzz
    fuzz.close()


@RUN
@given(case=framing_case())
def test_framing(target: FuzzTarget, case: Any) -> None:
    assert target.run(case) == []


@RUN
@given(case=envelope_case(WIRE))
def test_envelopes(target: FuzzTarget, case: Any) -> None:
    assert target.run(case) == []


@RUN
@given(data=st.data())
def test_every_methods_params(target: FuzzTarget, data: st.DataObject) -> None:
    assert target.run(data.draw(params_case(WIRE, target.values))) == []


def test_no_late_duplicate_or_stray_answers(target: FuzzTarget) -> None:
    assert target.tally.cases > 0
    assert target.finish() == []
    assert target.tally.crashes == 0 and target.starts == 1
