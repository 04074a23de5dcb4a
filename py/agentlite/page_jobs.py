"""Jobs only the page can do, asked for by the agent worker: model-written code in the page's sandbox
frames, a preview of a workspace page, a PDF read in its frame.

The worker cannot create iframes. `PageJobClient.run` posts a PAGE_JOB to the page through the
injected `post`; the page runs it (code in an opaque-origin frame through its SandboxHost,
web/src/sandbox/page/host.js; a preview or a PDF in their own frames) and answers with a
PAGE_JOB_RESULT, which the service hands to `deliver`.

Kinds and their results (shapes checked by the page before they get here):

- ``js`` ``{code}`` -> ``{value, type, logs: [{level, text}], error: {name, message, line} | None}``
- ``shell`` ``{command, files: {path: text}, cwd}`` and ``python`` ``{code, files, cwd, args}`` ->
  ``{stdout, stderr, exit_code, changed: {path: text}, deleted: [path], created_dirs: [path],
  deleted_dirs: [path]}`` (``payload.dirs``, optional: folders to create first, e.g. empty ones)
- ``preview`` ``{path, screenshot}`` -> the Preview panel's report (tools/page_preview.py), or with ``op``
  (``snapshot``, ``act``, ``wait``) the agent's hands on the previewed page (tools/page_hands.py), and ``pdf``
  ``{data: base64}`` -> ``{pages, title, note, page_count}`` from the page's PDF reader
  (tools/pdf_text.py): neither runs in a sandbox frame, the page answers them through the same channel
- ``problems`` ``{session, mode, files, deleted, check, ruff}`` -> ``{session, before, problems}`` or
  ``{session, resync: true}``: the page's problem checkers (problems/problem_watch.py, docs/problems.md)

Runs of one realm (``js``; ``shell`` and ``python`` share one) go to the page one at a time, as the
page runs them, so each run's own deadline starts when the page starts it. A run whose caller was
cancelled still holds its realm until the page answers or its deadline passes: the code is still
running over there.

`ScriptedSandbox` is the fake of this seam (as `ScriptedTransport` is the model's): it answers runs
with a function, on CPython, with no page.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agentlite.limits import SANDBOX_BOOT_MS, SANDBOX_START_ALLOWANCE_MS
from agentlite.protocol import Msg

Post = Callable[[dict[str, Any]], Any]
Handler = Callable[[str, dict[str, Any], int], Awaitable[dict[str, Any]] | dict[str, Any]]

# How long past timeout_ms the page may take before the client gives up on it: the page's frame
# start, Pyodide's first start inside a frame (granted once per frame), messaging.
DEFAULT_GRACE_MS = SANDBOX_BOOT_MS + SANDBOX_START_ALLOWANCE_MS + 5_000
MAX_TIMEOUT_MS = 10 * 60 * 1000
# Which sandbox frame (realm) each kind runs in: kinds of one realm share its frame, its runtime and
# its queue (Python runs in the shell's frame, on the files the shell sees). The page's SandboxHost
# reads this table from web/src/generated/sandbox-realms.json (buildsys/build/page_facts.py writes it); a
# kind not listed (preview, pdf) is a realm of its own, answered by the page outside the frames.
REALM_OF: dict[str, str] = {"js": "js", "shell": "shell", "python": "shell"}


class SandboxError(Exception):
    """A run that produced no result. `type` is the page's reason (`timeout`, `unavailable`,
    `invalid`, `failed`, `bad_request`) or `no_answer` when the page never answered."""

    def __init__(self, type: str, message: str) -> None:
        super().__init__(message)
        self.type = type
        self.message = message

    def __str__(self) -> str:
        return f"{self.type}: {self.message}"


class SandboxTimeoutError(SandboxError):
    """The code ran past its time: the page's watchdog removed the frame."""


class SandboxNoAnswerError(SandboxError):
    """The page did not answer within timeout_ms plus the grace period."""


@dataclass
class _Run:
    future: asyncio.Future[dict[str, Any]]
    realm: str
    timer: asyncio.TimerHandle | None = field(default=None)


class PageJobClient:
    def __init__(self, post: Post, *, grace_ms: int = DEFAULT_GRACE_MS) -> None:
        self._post = post
        self._grace_ms = grace_ms
        self._ids = itertools.count(1)
        self._runs: dict[int, _Run] = {}
        self._busy: dict[str, asyncio.Future[dict[str, Any]]] = {}  # realm -> its run on the page

    @property
    def pending(self) -> int:
        """Runs posted to the page and not yet answered or expired."""
        return len(self._runs)

    async def run(self, kind: str, payload: dict[str, Any], timeout_ms: int) -> dict[str, Any]:
        """Run `payload` of `kind` in a sandbox frame; the result dict, or a SandboxError."""
        if not isinstance(timeout_ms, int) or not 0 < timeout_ms <= MAX_TIMEOUT_MS:
            raise ValueError(f"timeout_ms must be an int in 1..{MAX_TIMEOUT_MS}, not {timeout_ms!r}")
        realm = REALM_OF.get(kind, kind)
        while (busy := self._busy.get(realm)) is not None and not busy.done():
            await asyncio.wait([busy])  # the realm's previous run, however it ends
        loop = asyncio.get_running_loop()
        run_id = next(self._ids)
        run = _Run(loop.create_future(), realm)
        run.future.add_done_callback(
            _consume
        )  # an expired run nobody awaits any more is not "never retrieved"
        self._runs[run_id] = run
        self._busy[realm] = run.future
        seconds = (timeout_ms + self._grace_ms) / 1000
        run.timer = loop.call_later(seconds, self._expire, run_id, timeout_ms)
        try:
            self._post(
                {
                    "type": Msg.PAGE_JOB.value,
                    "id": run_id,
                    "kind": kind,
                    "payload": payload,
                    "timeout_ms": timeout_ms,
                }
            )
        except BaseException as exc:
            if self._settle(run_id) is not None:  # free the realm for the next run
                run.future.set_exception(SandboxError("unavailable", f"could not post to the page: {exc}"))
            raise
        # shield: cancelling the caller leaves the run registered until the page answers or it expires
        return await asyncio.shield(run.future)

    def deliver(self, message: dict[str, Any]) -> bool:
        """Hand over a PAGE_JOB_RESULT from the page. False when it matches no waiting run
        (late, unknown or not a result): such messages are ignored."""
        if message.get("type") != Msg.PAGE_JOB_RESULT.value:
            return False
        run_id = message.get("id")
        run = self._settle(run_id) if isinstance(run_id, int) else None
        if run is None:
            return False
        result = message.get("result")
        if message.get("ok") and isinstance(result, dict):
            run.future.set_result(result)
        elif message.get("ok"):
            run.future.set_exception(SandboxError("invalid", "the page answered without a result object"))
        else:
            run.future.set_exception(_error_from(message.get("error")))
        return True

    def _expire(self, run_id: int, timeout_ms: int) -> None:
        run = self._settle(run_id)
        if run is not None:
            message = f"the page did not answer within {timeout_ms + self._grace_ms} ms"
            run.future.set_exception(SandboxNoAnswerError("no_answer", message))

    def _settle(self, run_id: int) -> _Run | None:
        run = self._runs.pop(run_id, None)
        if run is None or run.future.done():
            return None
        if run.timer is not None:
            run.timer.cancel()
        return run


def _error_from(error: Any) -> SandboxError:
    if isinstance(error, dict):
        kind = str(error.get("type") or "failed")
        message = str(error.get("message") or "the sandbox run failed")
    else:
        kind, message = "failed", str(error or "the sandbox run failed")
    cls = SandboxTimeoutError if kind == "timeout" else SandboxError
    return cls(kind, message)


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class ScriptedSandbox:
    """Answers each run with `handler(kind, payload, timeout_ms)` (or raises what it raises, e.g. a
    `SandboxError`); records every run it was asked for."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.runs: list[tuple[str, dict[str, Any], int]] = []

    async def run(self, kind: str, payload: dict[str, Any], timeout_ms: int) -> dict[str, Any]:
        self.runs.append((kind, payload, timeout_ms))
        answer = self.handler(kind, payload, timeout_ms)
        return await answer if inspect.isawaitable(answer) else answer


def js_result(value: Any, type: str = "", logs: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """A `js` run's result as the page's sandbox host checks and returns it."""
    return {"value": value, "type": type or _js_type(value), "logs": logs or [], "error": None}


def shell_result(**fields: Any) -> dict[str, Any]:
    """A `shell` or `python` run's result as the page's sandbox host checks and returns it."""
    result: dict[str, Any] = {
        "stdout": "",
        "stderr": "",
        "exit_code": 0,
        "changed": {},
        "deleted": [],
        "created_dirs": [],
        "deleted_dirs": [],
    }
    result.update(fields)
    return result


def _js_type(value: Any) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else "string" if isinstance(value, str) else "object"
