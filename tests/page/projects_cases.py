"""Running the projects' modules (web/src/projects) under Node for the tests of each: one call, many cases."""

from __future__ import annotations

import base64
from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "projects_runner.mjs"


def answers(*cases: dict[str, Any]) -> list[Any]:
    """Each case's answer; a case whose op threw comes back as {"error": {name, message, code}}."""
    lines = run_node(RUNNER, list(cases))
    return [line.get("value", line) for line in lines]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def unb64(text: str) -> bytes:
    return base64.b64decode(text)
