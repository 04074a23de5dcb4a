"""The agent's hands on the preview in Firefox ESR and WebKitGTK (docs/preview.md, "Hands on the page"):
on TodoMVC's vanilla JavaScript app, the snapshot's tree, a todo typed and entered, its box checked with
DOM events in the opaque-origin frame, each act's change read back by the model."""

from __future__ import annotations

import json

import pytest

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.test_preview_hands import NEW_TODO, TOGGLE, todomvc_files
from tests.engines.preview import write
from tests.engines.probe import Probe
from tests.engines.test_engines import this_turn

CALLS = [
    ("preview_snapshot", {"path": "/index.html"}),
    ("preview_act", {"ref": NEW_TODO, "action": "type", "value": "buy milk"}),
    ("preview_act", {"ref": NEW_TODO, "action": "press", "value": "Enter"}),
    ("preview_act", {"ref": TOGGLE, "action": "check"}),
]


# Approves each card that asks; true once the model's closing answer `said` is shown.
def approve_until(said: str) -> str:
    return (
        "(() => { for (const b of document.querySelectorAll("
        "'[data-testid=tool-card][data-status=awaiting-approval] [data-testid=tool-approve]')) b.click();"
        " return [...document.querySelectorAll('[data-testid=message][data-role=assistant]')]"
        f".some((m) => m.textContent.includes({json.dumps(said)})) || null; }})()"
    )


def test_the_agent_types_enters_and_checks_a_todo(probe: Probe) -> None:
    if probe.engine.name == "firefox":
        # In Firefox ESR the preview shows TodoMVC without it starting, also under preview_page alone: its
        # sections that start hidden show, and an inline script added to it logged nothing in two runs of
        # four, while small pages run. A matter of the preview's page writing, not of the hands;
        # test_a_small_todo_page_in_every_engine drives Firefox.
        pytest.xfail("TodoMVC does not start in Firefox's preview")
    with ModelServer() as model:
        model.script(
            *[Scripted(chunks=tool_call_chunks(call)) for call in CALLS],
            Scripted(chunks=text_chunks("TodoMVC driven.")),
        )
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native")
        probe.wait_ready()
        write(probe, todomvc_files())
        probe.send("does adding a todo work?")
        probe.wait_for(approve_until("TodoMVC driven."), 240, "the model's answer after four preview calls")
        body = model.completions()[-1].body
    turn = this_turn(body["messages"], "does adding a todo work?")  # the chat holds the turns before
    snapshot, typed, entered, checked = [str(m["content"]) for m in turn if m["role"] == "tool"]
    print(f"{probe.engine.name}: {json.dumps([snapshot.splitlines()[:3], checked.splitlines()[:6]])}")
    assert f'- textbox "What needs to be done?" [ref={NEW_TODO}]' in snapshot, snapshot
    assert f"[ref={NEW_TODO}]: buy milk" in typed, typed
    assert f"+     - checkbox [ref={TOGGLE}]" in entered and "buy milk" in entered, entered
    assert "+     - checkbox [checked]" in checked and f"[ref={TOGGLE}]" in checked, checked
    assert "0 items left" in checked, checked


# A todo page of a few lines: a form whose submit adds a row with a checkbox, and a count.
SMALL_TODO = {
    "/small.html": (
        "<!doctype html><title>Small todos</title><h1>todos</h1>"
        '<form id="f"><input id="new" aria-label="New todo"></form><ul id="list"></ul><p id="left">0 left</p>'
        "<script>\n"
        "const list = document.getElementById('list');\n"
        "const count = () => { document.getElementById('left').textContent ="
        " list.querySelectorAll('input:not(:checked)').length + ' left'; };\n"
        "document.getElementById('f').addEventListener('submit', (event) => {\n"
        "  event.preventDefault();\n"
        "  const field = document.getElementById('new');\n"
        "  const row = document.createElement('li');\n"
        "  row.innerHTML = '<label><input type=checkbox> </label>';\n"
        "  row.querySelector('label').append(field.value);\n"
        "  row.querySelector('input').addEventListener('change', count);\n"
        "  list.append(row); field.value = ''; count();\n"
        "});\n"
        "</script>"
    )
}
SMALL_CALLS = [
    ("preview_snapshot", {"path": "/small.html"}),
    ("preview_act", {"ref": "e3", "action": "type", "value": "buy milk"}),
    ("preview_act", {"ref": "e3", "action": "press", "value": "Enter"}),
    ("preview_act", {"ref": "e7", "action": "check"}),
]


def test_a_small_todo_page_in_every_engine(probe: Probe) -> None:
    with ModelServer() as model:
        model.script(
            *[Scripted(chunks=tool_call_chunks(call)) for call in SMALL_CALLS],
            Scripted(chunks=text_chunks("Small page driven.")),
        )
        probe.open(f"index.html?base_url={model.base_url}&model=test-model&dialect=native")
        probe.wait_ready()
        write(probe, SMALL_TODO)
        probe.send("does the small page work?")
        probe.wait_for(
            approve_until("Small page driven."), 240, "the model's answer after four preview calls"
        )
        body = model.completions()[-1].body
    turn = this_turn(body["messages"], "does the small page work?")
    snapshot, typed, entered, checked = [str(m["content"]) for m in turn if m["role"] == "tool"]
    print(f"{probe.engine.name}: {json.dumps([snapshot, entered, checked])}")
    assert '- textbox "New todo" [ref=e3]' in snapshot, snapshot
    assert "[ref=e3]: buy milk" in typed, typed
    assert (
        '+     - checkbox "buy milk" [ref=e7]' in entered and "+ - paragraph [ref=e5]: 1 left" in entered
    ), entered
    assert '+     - checkbox "buy milk" [checked]' in checked and "[ref=e7]" in checked, checked
    assert "+ - paragraph [ref=e5]: 0 left" in checked, checked
