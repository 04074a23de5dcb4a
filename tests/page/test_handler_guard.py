"""The preview's guard of event-handler attributes (docs/preview.md, "Looping pages"), in Node: where the
preview frame shares the app's thread, a loop in `onerror="…"` or `onclick="…"` is stopped with its
file:line like a loop of an inline script; the attribute still means what it meant; no line moves; an
attribute without a loop stays byte for byte; one that does not parse is named, not guessed."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from buildsys.common import ROOT

RUNNER = ROOT / "tests" / "page" / "handler_guard_runner.mjs"
STOPPED = "RangeError: preview stopped a loop that ran for more than 1000 ms at /index.html:"


def rewrite(*pages: str, due: bool = True) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "entities").exists():
        pytest.fail("node and web/node_modules are needed: run `python build.py`")
    done = subprocess.run(
        [node, str(RUNNER), json.dumps([{"html": html, "due": due} for html in pages])],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT / "web",
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_loop_in_a_handler_attribute_is_stopped_with_its_line() -> None:
    html = (
        '<!doctype html>\n<body onload="for (;;) {}">\n'
        "<img src=x.png\n  onerror='while (1) {}'>\n<button onclick=while(1);>b</button>\n"
    )
    (page,) = rewrite(html)
    assert [(h["name"], h["thrown"]) for h in page["handlers"]] == [
        ("onload", f"{STOPPED}2"),
        ("onerror", f"{STOPPED}4"),
        ("onclick", f"{STOPPED}5"),
    ]
    assert page["unguarded"] == []
    assert len(page["html"].splitlines()) == len(html.splitlines())


def test_a_guarded_handler_means_what_it_meant_character_references_and_all() -> None:
    code = (
        "for (const c of &quot;a&amp;b&quot;) out += c === &quot;&amp;&quot; ? 10 : 1;"
        " out += &quot;&#x31;&quot;.length"
    )
    (page,) = rewrite(
        f"<p onclick=\"{code}\">p</p><p onclick='for (const x of [1, 2]) out += x'>q</p>", due=False
    )
    first, second = page["handlers"]
    assert first["value"] == 13 and '"a&b"' in first["code"], first
    assert second["value"] == 3, second
    assert "__agentliteLoopDue" in first["code"] and "__agentliteLoopDue" in second["code"]


def test_handlers_without_a_loop_comments_and_other_attributes_stay_as_written() -> None:
    html = (
        "<button onclick=count++ data-x='&amp;'>+</button>\n"
        '<!-- <img onerror="while (1) {}"> -->\n'
        '<p title="x onclick=while(1){}">t</p><p>onclick="while (1) {}"</p>\n'
    )
    (page,) = rewrite(html)
    assert page["html"] == html
    assert not [h for h in page["handlers"] if "__agentliteLoopDue" in h["code"]]


def test_a_handler_that_does_not_parse_is_named_and_left_as_written() -> None:
    html = '<p>\n<b onclick="while (">b</b>\n<script onload="for (;;) {}"></script>'
    (page,) = rewrite(html)
    assert page["unguarded"] == ["/index.html (the onclick attribute at line 2): Unexpected token (1:7)"]
    assert '<b onclick="while (">' in page["html"]
    assert "__agentliteLoopDue" in page["html"].split("<script")[1]  # a script's own handler too
