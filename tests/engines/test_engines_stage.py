"""A staged turn in Firefox ESR and WebKitGTK (docs/stage.md), on the demo model with `?changes=review`:
the component the agent creates is on the chat's stage, not in the workspace; after a reload the stage
and its review are still there (the stage is in the project's database); Keep all makes it real."""

from __future__ import annotations

import json

from tests.engines.probe import Probe

PATH = "/src/Button.tsx"
PANEL = "document.querySelector('[data-testid=review-panel]')"


def staged(probe: Probe, path: str) -> object:
    return probe.value(f"window.agentlite.vfs.readText({json.dumps(path)}, {{staged: true}})")


def test_a_staged_change_survives_a_reload_and_is_kept(probe: Probe) -> None:
    name = probe.engine.name
    probe.open(f"index.html?project=Stage%20{name}&changes=review")
    probe.wait_ready()
    status, _answer = probe.turn("create a Button component", "create_file")
    assert status == "completed"
    probe.wait_for(
        f"{PANEL} && {PANEL}.querySelectorAll('[data-testid=review-file]').length", 60, "the review"
    )
    assert probe.vfs("readText", PATH) is None
    assert "React" in str(staged(probe, PATH))

    probe.open(f"index.html?project=Stage%20{name}&changes=review")
    probe.wait_ready()
    probe.wait_for(
        f"!!{PANEL}?.querySelector('[data-testid=review-file][data-path=\"{PATH}\"]')", 60, "the review again"
    )
    assert probe.vfs("readText", PATH) is None
    assert "React" in str(staged(probe, PATH))
    probe.value("(document.querySelector('[data-testid=review-keep-all]').click(), true)")
    probe.wait_for(f"window.agentlite.vfs.readText({json.dumps(PATH)})", 60, "the kept file")
    probe.wait_for(f"!{PANEL}", 60, "the review's end")
