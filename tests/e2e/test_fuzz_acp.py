"""A standing property-based fuzzer of the ACP transport (``serve --acp``), against the real
process: line framing (blank lines, CRLF, noise, overlong lines), JSON-RPC envelopes and every
method's params, each followed by a valid probe. The checks are ``FuzzTarget``'s, as for LSP;
``tests/bench/bench_fuzz.py`` runs the same cases 10,000 at a time.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.e2e.fuzz_cases import FuzzTarget, Wire, acp_line_case, envelope_case, params_case

WIRE = Wire(acp=True)
RUN = settings(max_examples=400, deadline=None, database=None, print_blob=True,
               suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def target(tmp_path_factory: Any) -> Iterator[FuzzTarget]:
    fuzz = FuzzTarget(tmp_path_factory.mktemp("fuzz-acp"), acp=True)
    yield fuzz
    fuzz.close()


@RUN
@given(case=acp_line_case())
def test_lines(target: FuzzTarget, case: Any) -> None:
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
