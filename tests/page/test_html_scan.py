"""The preview's scans of a page's HTML (web/src/preview/page/html-scan.js) in Node: they find what the
regular expressions they replace found, on 20,000 random pages, and their work grows linearly with the
page on hostile ones (an unclosed <script>, thousands of openers, long attribute runs, unclosed comments and
quotes), measured as the characters they look at, for n and 10 n pieces (a quadratic scan does 100x)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from buildsys.common import ROOT

RUNNER = ROOT / "tests" / "page" / "html_scan_runner.mjs"


@pytest.fixture(scope="module")
def scanned() -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed: run `python build.py`")
    done = subprocess.run(
        [node, str(RUNNER)], capture_output=True, text=True, timeout=120, cwd=ROOT / "web", check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_scans_find_what_the_regular_expressions_found(scanned: dict[str, Any]) -> None:
    assert scanned["differ"] == []


def test_ten_times_the_page_is_at_most_about_ten_times_the_work(scanned: dict[str, Any]) -> None:
    for family, (small, large) in scanned["work"].items():
        assert large <= 11 * small, f"{family}: {small} -> {large} characters looked at"


def test_an_unclosed_script_is_looked_at_a_few_times_per_character(scanned: dict[str, Any]) -> None:
    small, _large = scanned["work"]["<script> openers never closed"]
    assert small <= 8 * len("<script>x") * scanned["size"]
