"""`python build.py check` runs the unit suites (the agent's, the page's and the build's) in two worker
processes, so a test that leans on state another test left, or a list of tests that differs between
processes, fails at once."""

from __future__ import annotations

import pytest

from buildsys.testing import gate


def test_check_runs_the_unit_suites_in_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[tuple[list[str], list[str]]] = []

    def pytest_run(paths: list[str], extra: list[str]) -> bool:
        runs.append((paths, extra))
        return True

    monkeypatch.setattr(gate, "static_checks", list)
    monkeypatch.setattr(gate, "pytest", pytest_run)
    assert gate.check(["-q"]) == 0
    assert runs == [(["tests/unit", "tests/page", "tests/build"], ["-n", "2", "-q"])]
