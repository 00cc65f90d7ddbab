"""The simulator's coverage table at the end of a pytest run that played whole events."""

from __future__ import annotations

from tests.simulator import coverage


def pytest_terminal_summary(terminalreporter):
    """Every event this process played, as one table (a run split by pytest-xdist prints it in
    each test's captured output instead: the workers have no terminal)."""
    if coverage.SUITE:
        terminalreporter.section("whole-event simulator: what it played")
        terminalreporter.write_line(coverage.table(coverage.SUITE))
