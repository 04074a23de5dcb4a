"""shell_exec through the whole app (issue 5): the scripted model runs ls, grep -rn, a pipe, redirects and
a Python script; each run's file changes land in the workspace as ONE recorded change of the agent's
turn. A later run that edits, creates and removes a whole folder is undone in one step, and restoring
the first turn brings back the exact earlier files."""

from __future__ import annotations

import json

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
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
DATA = ("/data/numbers.txt", "/data/report.json", "/data/sum.txt")
COMMANDS = [
    "ls /src && ls",
    "grep -rn hello . | sort",
    "cat data/numbers.txt | awk '{s += $1} END {print s}' > data/sum.txt && echo delta >> src/notes.txt",
    "python tools/report.py",
]


LATER = "sed -i 's/alpha/ALPHA/' src/notes.txt && echo made > made.txt && rm -r data"


def shell_model() -> list[Scripted]:
    rounds = [Scripted(chunks=tool_call_chunks(("shell_exec", {"command": c}))) for c in COMMANDS]
    later = Scripted(chunks=tool_call_chunks(("shell_exec", {"command": LATER})))
    return [
        *rounds,
        Scripted(chunks=text_chunks("Shell work done.")),
        later,
        Scripted(chunks=text_chunks("Later.")),
    ]


def commit_of(page: Page, path: str) -> int:
    """The commit of the newest version of `path`."""
    return int(vfs(page, "history", path)[-1]["commit"])


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
    # each run is ONE change: the pipe's two files share a commit, the Python run has the next one
    assert created[0]["commit"] == appended[-1]["commit"]
    assert commit_of(page, "/data/report.json") == created[0]["commit"] + 1

    page.on("dialog", lambda dialog: dialog.accept())
    undo_one_run(page, model_server)

    # undo the first turn: the exact earlier state
    restore = page.locator(f"[data-testid=restore-turn][data-turn='{turn}']")
    restore.wait_for(timeout=WAIT_MS)
    restore.click()
    wait_file(page, "/src/notes.txt", FILES["/src/notes.txt"])
    wait_file(page, "/data/sum.txt", None)
    wait_file(page, "/data/report.json", None)
    for path, text in FILES.items():
        assert vfs(page, "readText", path) == text, path
    assert len(vfs(page, "history", "/src/notes.txt")) == 5  # each undo is recorded too


def undo_one_run(page: Page, model_server: ModelServer) -> None:
    """A run that edits a file, creates one and removes a folder is one change, undone in one step."""
    before = {path: vfs(page, "readText", path) for path in ("/src/notes.txt", *DATA)}
    send(page, "one more")
    assert approve_through(page, card(page, "shell_exec", len(COMMANDS))) == "completed"
    wait_reply(page, "Later.")
    wait_idle(page)
    assert tool_results(model_server)[-1].startswith("exit code 0")
    assert vfs(page, "readText", "/made.txt") == "made\n"
    assert vfs(page, "readText", "/src/notes.txt") == before["/src/notes.txt"].replace("alpha", "ALPHA")
    assert not any(item["path"] == "/data" for item in vfs(page, "list", "/"))
    made = vfs(page, "history", "/made.txt")
    changed = [made[-1], *(vfs(page, "history", p)[-1] for p in ("/src/notes.txt", "/data", *DATA))]
    assert len({(h["commit"], h["turn"], h["author"]) for h in changed}) == 1  # ONE change by the shell
    assert changed[0]["author"] == "shell" and [h["op"] for h in changed[2:]] == ["delete"] * 4
    page.locator(f"[data-testid=restore-turn][data-turn='{made[-1]['turn']}']").click()
    wait_file(page, "/made.txt", None)
    for path, text in before.items():
        wait_file(page, path, text)
    assert any(item["path"] == "/data" for item in vfs(page, "list", "/"))
