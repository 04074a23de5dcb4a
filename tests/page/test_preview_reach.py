"""What a preview frame is handed and when it reruns by itself (docs/preview.md, "What the frame receives"
and "Reloads"), in Node: the files a page names (HTML, CSS, modules, string literals) and the web files of
its folder, never an unnamed hidden file or anything under .git, within a byte cap; a change the agent
made to what the page shows waits for the user's Reload unless the chats auto-approve `js`."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from buildsys.common import ROOT

RUNNER = ROOT / "tests" / "page" / "preview_reach.mjs"
PREVIEW = ROOT / "web" / "src" / "preview" / "page"


@pytest.fixture(scope="module")
def out() -> dict[str, Any]:
    node = shutil.which("node")
    if node is None or not (ROOT / "web" / "node_modules" / "es-module-lexer").exists():
        pytest.fail("node and web/node_modules are needed: run `python build.py`")
    args = [node, str(RUNNER), str(PREVIEW)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=ROOT / "web", check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_frame_gets_what_the_page_names_and_its_folders_web_files(out: dict[str, Any]) -> None:
    assert out["handed"] == [
        "/fonts/f.woff2",  # named by its stylesheet
        "/lib/x.js",  # imported
        "/sharex/data.json",  # a string literal of an inline script
        "/site/.config/named.json",  # hidden, but named
        "/site/css/a.css",
        "/site/index.html",
        "/site/js/later.js",  # the folder's: a computed import or fetch may name it
        "/site/js/main.js",
        "/site/pics/a.png",
    ]


def test_secrets_hidden_files_and_git_stay_out_unless_named(out: dict[str, Any]) -> None:
    assert out["rootHanded"] == ["/app.js", "/data/items.json", "/index.html", "/readme.md"]
    assert out["namedHanded"] == ["/.env", "/app.js", "/data/items.json", "/index.html", "/readme.md"]


def test_named_files_come_first_within_the_cap(out: dict[str, Any]) -> None:
    assert out["capped"] == {"paths": ["/index.html", "/b.png"], "skipped": ["/a.png"]}


def test_the_agents_changes_wait_for_the_users_reload(out: dict[str, Any]) -> None:
    assert out["rule"] == {
        "user": "reload",
        "disk": "reload",
        "agentShown": "hold",
        "shellNewInFolder": "hold",
        "agentElsewhere": "ignore",
        "agentAllowed": "reload",
        "otherTab": "hold",
        "userImport": "reload",
    }
