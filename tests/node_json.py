"""Running a page module's Node runner (`tests/page/*_runner.mjs` and the like) on JSON in, JSON lines out."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest


def run_node(runner: Path, payload: Any, timeout: int = 120) -> list[dict[str, Any]]:
    """`payload` as JSON on the runner's stdin; one parsed JSON object per line it prints."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed: run `python build.py`")
    done = subprocess.run(
        [node, str(runner)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]
