"""shell_exec through the whole app (issue 5): the scripted model runs ls, grep -rn, a pipe, redirects and
a Python script; the shell's file changes land in the workspace as recorded changes of the agent's turn,
and restoring the turn brings back the exact earlier files."""

from __future__ import annotations

import json

from playwright.sync_api import Page

from buildsys.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs, wait_file, wait_reply

FILES = {
    "/README.md": "# Demo\nhello from the readme\n",
    "/src/app.py": "def greet():\n    return 'hello'\n",
    "/src/notes.txt": "alpha\nbeta\ngamma hello\n",
    "/data/numbers.txt": "3\n4\n5\n",
    "/tools/report.py": (
        "import json\nfrom pathlib import Path\n\n"
        "numbers = [int(n) for n in Path('data/numbers.txt').read_text().split()]\n"
        "Path('data/report.json').write_text(json.dumps({'sum': sum(numbers)}))\n"
        "print('total', sum(numbers))\n"
    ),
}
COMMANDS = [
    "ls /src && ls",
    "grep -rn hello . | sort",
    "cat data/numbers.txt | awk '{s += $1} END {print s}' > data/sum.txt && echo delta >> src/notes.txt",
    "python tools/report.py",
]


def shell_model() -> list[Scripted]:
    rounds = [Scripted(chunks=tool_call_chunks(("shell_exec", {"command": c}))) for c in COMMANDS]
    return [*rounds, Scripted(chunks=text_chunks("Shell work done."))]


def test_the_shell_works_on_the_workspace_and_its_writes_can_be_undone(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(*shell_model())
    start(page, origin, model_server)
    for path, text in FILES.items():
        vfs(page, "writeText", path, text)
    send(page, "look around and add things up")
    for index in range(len(COMMANDS)):
        assert approve_through(page, card(page, "shell_exec", index)) == "completed", index
    wait_reply(page, "Shell work done.")
    wait_idle(page)

    listing, grep, piped, python = tool_results(model_server)
    assert listing.startswith("exit code 0\n--- stdout ---\napp.py\nnotes.txt\n")
    assert "README.md" in listing and "data" in listing and "tools" in listing
    assert grep.splitlines()[2:5] == [
        "README.md:2:hello from the readme",
        "src/app.py:2:    return 'hello'",
        "src/notes.txt:3:gamma hello",
    ]
    assert piped.startswith("exit code 0")
    assert "total 12" in python

    # the pipe's redirect created a file, the append changed one, Python wrote one: all in this turn
    assert vfs(page, "readText", "/data/sum.txt") == "12\n"
    assert vfs(page, "readText", "/src/notes.txt") == FILES["/src/notes.txt"] + "delta\n"
    assert json.loads(vfs(page, "readText", "/data/report.json")) == {"sum": 12}
    created, appended = vfs(page, "history", "/data/sum.txt"), vfs(page, "history", "/src/notes.txt")
    assert [h["op"] for h in created] == ["create"]
    assert len(appended) == 2
    turn = created[0]["turn"]
    assert turn and appended[-1]["turn"] == turn
    assert vfs(page, "history", "/data/report.json")[0]["turn"] == turn
    assert vfs(page, "readText", "/README.md") == FILES["/README.md"]  # read, never rewritten
    assert len(vfs(page, "history", "/README.md")) == 1

    # undo the turn: the exact earlier state
    page.on("dialog", lambda dialog: dialog.accept())
    restore = page.locator(f"[data-testid=restore-turn][data-turn='{turn}']")
    restore.wait_for(timeout=WAIT_MS)
    restore.click()
    wait_file(page, "/src/notes.txt", FILES["/src/notes.txt"])
    wait_file(page, "/data/sum.txt", None)
    wait_file(page, "/data/report.json", None)
    for path, text in FILES.items():
        assert vfs(page, "readText", path) == text, path
    assert len(vfs(page, "history", "/src/notes.txt")) == 3  # the undo is recorded too
