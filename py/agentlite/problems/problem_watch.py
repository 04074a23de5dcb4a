"""The agent's side of the page's checkers: keeps them holding what the workspace holds, and asks them
what a change did.

The page's checkers (TypeScript's language service, Ruff) live in workers of the page and keep the
project's checked files in memory between changes. `ProblemWatch` remembers what it sent them (path ->
sha256) and under which `session` (a checker that restarted answers `resync`, and gets everything again).
Before a tool changes the workspace, `settle` sends what changed since (the user's edits); after it,
`changed` sends the tool's changes and gets the problems of the changed files and of the files whose
problems they change (a TypeScript file's importers), before and after, whose difference the model reads
(`problem_diff`). A project with no checked file never asks the page anything; a checker that fails is
a note, never a failed change.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from agentlite.problems.problem import Problems, parse_problems
from agentlite.problems.problem_diff import ProblemDiff, diff
from agentlite.problems.ruff_settings import ruff_settings

CHECKED = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".py", ".pyi")
CONFIGS = ("/tsconfig.json", "/jsconfig.json", "/pyproject.toml", "/ruff.toml", "/.ruff.toml")
SKIPPED = frozenset({"node_modules", ".git", "__pycache__", ".venv", "venv", ".pytest_cache", ".mypy_cache"})
MAX_FILES = 2_000  # checked files of one project; past it, the first by path
MAX_FILE_BYTES = 512 * 1024  # bigger files are generated or data: not checked
TIMEOUT_MS = 60_000  # a cold start of both checkers on a big project, with room


class Runner(Protocol):
    async def run(self, kind: str, payload: dict[str, Any], timeout_ms: int) -> dict[str, Any]: ...


class Reader(Protocol):
    async def list(
        self, dir: str = "/", recursive: bool = False, details: bool = False
    ) -> list[dict[str, Any]]: ...

    async def read_text(self, path: str) -> str | None: ...


class ProblemWatch:
    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._sent: dict[str, str] = {}  # what the page's checkers hold: path -> sha256
        self._session: str | None = None
        self.known: Problems = {}  # the newest problems the checkers reported, by path
        self.failure = ""  # why the last ask failed ("" when it did not)
        self.lock = asyncio.Lock()  # one exchange with the checkers at a time: each reads and sets `_sent`

    async def settle(self, workspace: Reader) -> None:
        """Before a change: the checkers hold the workspace as it is now (the user's edits included)."""
        async with self.lock:
            wanted = await checked_files(workspace)
            if wanted != self._sent:
                await self._ask(workspace, wanted, "sync", [])

    async def changed(self, workspace: Reader) -> ProblemDiff:
        """After a change: the problems it introduced and fixed (empty when no checked file changed)."""
        async with self.lock:
            wanted = await checked_files(workspace)
            touched = sorted(
                p for p in wanted.keys() | self._sent.keys() if wanted.get(p) != self._sent.get(p)
            )
            if not touched:
                return ProblemDiff()
            answer = await self._ask(workspace, wanted, "change", [p for p in touched if not _config(p)])
            if answer is None:
                return ProblemDiff()
            return diff(parse_problems(answer.get("before")), self._keep(answer, wanted))

    async def check(self, workspace: Reader, folder: str) -> Problems:
        """Every problem of the checked files in `folder` (a file's path names that file alone)."""
        async with self.lock:
            wanted = await checked_files(workspace)
            inside = folder.rstrip("/") + "/"
            paths = [p for p in wanted if (p == folder or p.startswith(inside)) and not _config(p)]
            answer = await self._ask(workspace, wanted, "check", paths)
        return (
            {}
            if answer is None
            else {p: rows for p, rows in self._keep(answer, wanted).items() if p in paths}
        )

    def _keep(self, answer: dict[str, Any], wanted: dict[str, str]) -> Problems:
        after = parse_problems(answer.get("problems"))
        self.known.update(after)
        for path in [p for p in self.known if p not in wanted]:
            del self.known[path]
        return after

    async def _ask(
        self, workspace: Reader, wanted: dict[str, str], mode: str, check: list[str]
    ) -> dict[str, Any] | None:
        """One job for the page's checkers; once more with every file when they lost what they held."""
        for _ in range(2):
            sent = self._sent if self._session is not None else {}
            payload = await self._payload(workspace, wanted, sent, mode, check)
            try:
                answer = await self._runner.run("problems", payload, TIMEOUT_MS)
            except Exception as exc:  # a checker that fails costs the change nothing
                self.failure = str(exc) or type(exc).__name__
                self._session = None
                return None
            session = answer.get("session")
            self._session = session if isinstance(session, str) else None
            if answer.get("resync") is True:
                self._session = None
                continue
            self._sent, self.failure = dict(wanted), ""
            return answer
        return None

    async def _payload(
        self, workspace: Reader, wanted: dict[str, str], sent: dict[str, str], mode: str, check: list[str]
    ) -> dict[str, Any]:
        files: dict[str, str] = {}
        for path, sha in wanted.items():
            if sent.get(path) != sha and (text := await workspace.read_text(path)) is not None:
                files[path] = text
        configs = {p: files.get(p) or await workspace.read_text(p) or "" for p in wanted if _config(p)}
        return {
            "session": self._session,
            "mode": mode,
            "files": files,
            "deleted": sorted(p for p in sent if p not in wanted),
            "check": check,
            "ruff": ruff_settings(configs),
        }


async def checked_files(workspace: Reader) -> dict[str, str]:
    """path -> sha256 of the files the checkers read: sources and the configs at the root, bounded."""
    found: dict[str, str] = {}
    for entry in await workspace.list("/", recursive=True, details=True):
        path, sha = entry.get("path", ""), entry.get("sha256")
        if entry.get("kind") != "file" or not isinstance(sha, str) or entry.get("binary"):
            continue
        if entry.get("size", 0) > MAX_FILE_BYTES or SKIPPED.intersection(path.split("/")):
            continue
        if path.endswith(CHECKED) or _config(path):
            found[path] = sha
            if len(found) >= MAX_FILES:
                break
    return found


def _config(path: str) -> bool:
    return path in CONFIGS
