"""A project handed on in Firefox ESR and WebKitGTK (docs/projects.md): each engine writes a project as a
sealed file (the bytes its "Copy link" carries) and opens it again as a new project, and WebKit opens the
file Firefox wrote — what the sealed envelope and the hand-off zip are in one engine, the other reads."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from tests.engines.drivers import EngineTimeout
from tests.engines.probe import Probe

PASSPHRASE = "a passphrase typed in one browser"
WRITTEN: dict[str, Path] = {}  # engine -> the sealed file it wrote
OPEN_S = 180.0


def wait(probe: Probe, expression: str, what: str, timeout_s: float = OPEN_S) -> None:
    try:
        probe.wait_for(expression, timeout_s, what)
    except EngineTimeout as err:
        raise EngineTimeout(f"{err}\nthe page: {probe.story()}") from None


def click(probe: Probe, testid: str) -> None:
    probe.value(f"(document.querySelector('[data-testid={testid}]').click(), true)")


def type_passphrase(probe: Probe, text: str) -> None:
    probe.value(
        "(() => { const field = document.querySelector('[data-testid=handoff-passphrase]');"
        f" field.value = {json.dumps(text)}; field.dispatchEvent(new Event('input', {{bubbles: true}}));"
        " return true; })()"
    )


def sealed_file(probe: Probe, folder: Path) -> Path:
    """The open project sealed with PASSPHRASE: the bytes after the `#handoff=` of its link."""
    click(probe, "project-switcher")
    type_passphrase(probe, PASSPHRASE)
    click(probe, "handoff-link")
    wait(probe, "document.querySelector('[data-testid=handoff-link-text]').value", "the project's link", 60)
    link = str(probe.value("document.querySelector('[data-testid=handoff-link-text]').value"))
    encoded = link.split("#handoff=", 1)[1]
    path = folder / f"{probe.engine.name}.agentlite"
    path.write_bytes(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    return path


def open_file(probe: Probe, path: Path, project: str) -> None:
    """Pick `path` in the projects dialog with PASSPHRASE typed, accept it, and wait for the new project
    (named `project`) to be open."""
    click(probe, "project-switcher")
    type_passphrase(probe, PASSPHRASE)
    probe.engine.upload("[data-testid=handoff-open]", path)
    wait(probe, "!document.querySelector('[data-testid=handoff-offer]').hidden", "the file's offer")
    click(probe, "handoff-accept")
    # The new project's page writes the file into its database, then starts again on it (a reload).
    wait(
        probe,
        f"new URLSearchParams(location.search).get('project') === {json.dumps(project)}"
        " && performance.getEntriesByType('navigation')[0]?.type === 'reload'"
        " && document.querySelector('[data-testid=app]')?.dataset.state === 'ready'",
        "the opened project",
    )


def test_a_sealed_project_file_opens_again_here_and_in_another_engine(
    probe: Probe, tmp_path_factory: pytest.TempPathFactory
) -> None:
    name = probe.engine.name
    probe.open(f"index.html?project=Travel%20{name}")
    probe.wait_ready()
    probe.vfs("writeText", "/travel/notes.md", "first\n")
    probe.vfs("writeText", "/travel/notes.md", f"first\nwritten in {name}\n")
    path = sealed_file(probe, tmp_path_factory.mktemp(name))
    assert not path.read_bytes().startswith(b"PK"), "a sealed file is not a readable zip"
    WRITTEN[name] = path
    open_file(probe, path, f"Travel {name} (2)")
    assert probe.vfs("readText", "/travel/notes.md") == f"first\nwritten in {name}\n"
    assert len(probe.vfs("history", "/travel/notes.md")) == 2
    for other, written in WRITTEN.items():
        if other == name:
            continue
        open_file(probe, written, f"Travel {other}")
        assert probe.vfs("readText", "/travel/notes.md") == f"first\nwritten in {other}\n"
