"""Suite-wide: the fake LLM server's verdict on every request the tests made."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from sidecar.fake_llm.invariants import InvariantChecker

    if InvariantChecker.process_checked:
        terminalreporter.write_line(
            f"fake LLM server: {InvariantChecker.process_checked:,} requests validated against "
            f"the SDK request types and API rules in this process, "
            f"{InvariantChecker.process_refused} refused (tests of the refusal path only)")

    from tests.acp_conformance import summary_line

    line = summary_line()
    if line:
        terminalreporter.write_line(line)
