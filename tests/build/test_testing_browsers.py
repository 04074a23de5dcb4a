"""`python build.py test` installs the browsers it lacks with apt (once) and runs the engine suite."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from buildsys.testing import gate, llama_server


def test_only_the_missing_browsers_are_installed_in_one_apt_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    present = tmp_path / "chromium"
    present.touch()
    browsers = {present: "chromium", tmp_path / "firefox-esr": "firefox-esr", tmp_path / "Xvfb": "xvfb"}
    monkeypatch.setattr(gate, "BROWSERS", browsers)
    monkeypatch.setattr(gate.shutil, "which", lambda name: f"/usr/bin/{name}")
    commands: list[list[str]] = []

    def apt(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        commands.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(gate.subprocess, "run", apt)
    gate.install_browsers()
    assert commands == [
        ["apt-get", "update", "-q"],
        ["apt-get", "install", "-y", "-q", "firefox-esr", "xvfb"],
    ]

    commands.clear()
    monkeypatch.setattr(gate, "BROWSERS", {present: "chromium"})
    gate.install_browsers()
    assert commands == [], "nothing is missing: no apt run"


def test_the_engine_suite_runs_and_its_failure_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    for step in ("install_test_extras", "install_browsers"):
        monkeypatch.setattr(gate, step, lambda: None)
    monkeypatch.setattr(gate.assemble, "build", lambda: None)
    monkeypatch.setattr(gate, "static_checks", list)
    monkeypatch.setattr(llama_server, "install", lambda: None)
    ran: list[str] = []
    monkeypatch.setattr(
        gate, "pytest", lambda paths, extra: ran.append(paths[0]) or paths[0] != "tests/engines"
    )
    assert gate.test([]) == 1
    assert ran == ["tests/unit", "tests/e2e", gate.REAL_SERVER_TESTS, "tests/engines"]
