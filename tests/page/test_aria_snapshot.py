"""The preview frame's accessibility tree and actions (web/src/preview/frame/aria-snapshot.js,
page-actions.js) on a DOM without layout (linkedom): the line format, roles and names by the usual
precedence, hidden content left out, refs in document order and stable while an element lives, an
unknown ref's error, and the events typing and Enter fire in a browser's order."""

from __future__ import annotations

from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "aria_snapshot_runner.mjs"
TODO = (
    "<html><body><header><h1>todos</h1>"
    '<input id="new" placeholder="What needs to be done?"></header>'
    '<section><input id="all" type="checkbox"><label for="all">Mark all</label>'
    '<ul><li><input type="checkbox" class="toggle" checked><label>buy milk</label>'
    '<button aria-label="Delete"></button></li></ul></section>'
    '<p hidden>secret</p><div style="display: none">gone</div><span aria-hidden="true">x</span>'
    '<nav><a href="#/">All</a> <a href="#/active" title="Only active">Active</a></nav>'
    '<img src="a.png" alt="Logo"><img src="b.png" alt="">'
    "<p>Created by <a href='#'>someone</a></p></body></html>"
)
FORM = (
    '<html><body><form id="f" onsubmit="return false"><label>Name <input id="name"></label>'
    '<select id="size" aria-labelledby="size-label">'
    '<option>Small</option><option value="l">Large</option></select>'
    '<span id="size-label">Size</span><button id="go" disabled>Send</button>'
    '<input type="radio" name="r" id="r1" aria-label="One"></form></body></html>'
)


def one(html: str, steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    [row] = run_node(RUNNER, [{"html": html, "steps": steps or []}])
    return row


def test_a_page_reads_as_one_element_a_line_with_roles_names_states_and_refs() -> None:
    assert one(TODO)["snapshots"][0] == [
        "- banner [ref=e1]:",
        '  - heading "todos" [level=1] [ref=e2]',
        '  - textbox "What needs to be done?" [ref=e3]',
        '- checkbox "Mark all" [ref=e4]',
        "- generic [ref=e5]: Mark all",
        "- list [ref=e6]:",
        "  - listitem [ref=e7]:",
        "    - checkbox [checked] [ref=e8]",
        "    - generic [ref=e9]: buy milk",
        '    - button "Delete" [ref=e10]',
        "- navigation [ref=e11]:",
        '  - link "All" [ref=e12]',
        '  - link "Active" [ref=e13]',
        '- img "Logo" [ref=e14]',
        "- paragraph [ref=e15]:",
        "  - text: Created by",
        '  - link "someone" [ref=e16]',
    ]


def test_form_fields_take_their_names_from_labels_and_labelledby_and_show_values() -> None:
    lines = one(FORM, [{"ref": "e2", "action": "type", "value": "Ada"}])["snapshots"]
    assert lines[1][:3] == ["- form [ref=e1]:", "  - text: Name", '  - textbox "Name" [ref=e2]: Ada']
    assert lines[1][3:6] == [
        '  - combobox "Size" [ref=e3]:',
        '    - option "Small" [ref=e4]',
        '    - option "Large" [ref=e5]',
    ]
    assert '  - button "Send" [disabled] [ref=e7]' in lines[1]
    assert '  - radio "One" [ref=e8]' in lines[1]


def test_refs_stay_with_their_element_and_an_unknown_one_is_a_clear_error() -> None:
    row = one(TODO, [{"ref": "e3", "action": "type", "value": "eggs"}, {"ref": "e99", "action": "click"}])
    before, typed, _ = row["snapshots"]
    assert typed[2] == '  - textbox "What needs to be done?" [ref=e3]: eggs'
    assert [line for line in typed if "e3" not in line] == [line for line in before if "e3" not in line]
    assert row["errors"] == ["", 'unknown ref "e99": take a new preview_snapshot and use a ref from it']


def test_typing_then_enter_fires_input_then_keys_then_change_as_a_browser_does() -> None:
    row = one(
        TODO,
        [
            {"ref": "e3", "action": "type", "value": "eggs"},
            {"ref": "e3", "action": "press", "value": "Enter"},
        ],
    )
    assert row["heard"] == ["input:new", "keydown:new", "keypress:new", "change:new", "keyup:new"]


def test_an_action_that_does_not_fit_the_element_says_why() -> None:
    steps = [
        {"ref": "e7", "action": "click"},
        {"ref": "e2", "action": "select", "value": "Huge"},
        {"ref": "e1", "action": "type", "value": "x"},
        {"ref": "e3", "action": "check"},
        {"ref": "e3", "action": "press", "value": "NotAKey!"},
        {"ref": "e3", "action": "select", "value": "large"},
    ]
    row = one(FORM, steps)
    assert row["errors"][:5] == [
        "that element is disabled",
        "select needs a select element (a combobox or listbox)",
        "type needs a text field (an input, a textarea or an editable element)",
        "check needs a checkbox, a radio button or a switch",
        'unknown key "NotAKey!"',
    ]
    assert row["errors"][5] == "" and '    - option "Large" [selected] [ref=e5]' in row["snapshots"][6]
