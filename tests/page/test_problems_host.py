"""The page's problems host (web/src/problems/page/problems-host.js) under Node, with fake checker Workers:
each file goes to its checker, a checker starts only for its files, a job under an old session is answered
`resync`, a fresh one resets what the checkers hold, the editor and the tree get the newest problems, and
a malformed job is refused without reaching a checker."""

from __future__ import annotations

from typing import Any

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "problems_host_runner.mjs"


def job(session: str | None = "$", mode: str = "change", **fields: Any) -> dict[str, Any]:
    return {"session": session, "mode": mode, "files": {}, "deleted": [], "check": [], "ruff": {}, **fields}


def test_files_go_to_their_checker_and_the_views_get_the_newest_problems() -> None:
    first, second = run_node(
        RUNNER,
        [
            job(None, "sync", files={"/a.ts": "one", "/b.py": "two", "/c.md": "x"}),
            job(files={"/b.py": "three"}, check=["/b.py"]),
        ],
    )
    assert sorted(first["started"]) == ["ruff", "ts"]
    assert first["jobs"]["ts"][0]["files"] == {"/a.ts": "one"} and first["jobs"]["ts"][0]["reset"] is True
    assert first["jobs"]["ruff"][0]["files"] == {"/b.py": "two"}
    assert second["started"] == [] and second["jobs"]["ts"] == []  # nothing for TypeScript: not asked
    assert second["answer"] == {
        "session": "$",
        "before": {"/b.py": [[1, 1, "F1", "two"]]},
        "problems": {"/b.py": [[1, 1, "F1", "three"]]},
    }
    assert second["shown"] == {"/b.py": [[1, 1, "F1", "three"]]}


def test_a_project_without_typescript_never_starts_its_checker() -> None:
    (only,) = run_node(RUNNER, [job(None, "sync", files={"/b.py": "x"})])
    assert only["started"] == ["ruff"]


def test_an_old_session_is_answered_resync_and_a_malformed_job_is_refused() -> None:
    old, bad = run_node(RUNNER, [job("stale"), job(mode="explode", files={"/a.ts": 5})])
    assert old["answer"]["resync"] is True and old["jobs"] == {"ts": [], "ruff": []}
    assert bad["error"]["type"] == "bad_request" and bad["jobs"] == {"ts": [], "ruff": []}
