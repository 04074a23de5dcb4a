"""Approvals (origins: engine §9): which calls wait for the user, and the desk where they wait.

The rule is enforced here, in the dispatcher, not by the model: deletes, overwriting an existing file
(a whole-file write over it, the editor document, a move onto it), shell commands, JS evaluation, and
every file change in a reply of more than `BATCH_LIMIT` file operations ask the user, unless the user
auto-approved that kind in the chat's settings. Reads, creates and single small edits never ask.
A rejection goes back to the model as a `rejected` result (it may propose something else).

The batch rule, precisely: a reply's file operations are counted as they arrive. From the moment its
(`BATCH_LIMIT` + 1)-th file operation arrives, every file operation of that reply that has not started
yet asks. Native and json replies are complete before any call runs, so there every one of them asks;
in ndjson a call runs as soon as it is ready, so operations 1..`BATCH_LIMIT` may already have run when
the next one arrives (they are not undone) and the rule covers the rest. "Approve all" on one card
answers every call of the reply waiting then and every later batch-rule ask of the same reply.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from agentlite.tools.registry import Risk, Tool

BATCH_LIMIT = 10
OVERWRITING = {"write_file", "edit_current_editor_document"}  # replace a whole existing file
FILE_RISKS = {Risk.CREATE, Risk.MODIFY, Risk.DESTRUCTIVE}


class Ask(enum.StrEnum):
    """Why a call asks; the values are what `auto_approve` settings name."""

    DELETE = "delete"
    OVERWRITE = "overwrite"
    SHELL = "shell"
    JS = "js"
    BATCH = "batch"


REASONS = {
    Ask.DELETE: "deletes {target}",
    Ask.OVERWRITE: "overwrites the existing file {target}",
    Ask.SHELL: "runs a shell command",
    Ask.JS: "runs JavaScript in a sandbox",
    Ask.BATCH: "is one of {count} file operations in this reply",
}

Exists = Callable[[str], Awaitable[bool]]


def auto_approved(setting: Any) -> set[str]:
    """`auto_approve` as given in settings: True / "all", or a list of `Ask` values."""
    if setting is True or setting == "all":
        return {a.value for a in Ask}
    if isinstance(setting, str):
        return {setting}
    if isinstance(setting, Iterable):
        return {str(s) for s in setting}
    return set()


def is_file_operation(tool: Tool | None, arguments: dict[str, Any]) -> bool:
    if tool is None or tool.risk not in FILE_RISKS:
        return False
    resource = _resource(tool, arguments)
    return resource is not None and resource.startswith("/")


async def approval_reason(
    tool: Tool | None, arguments: dict[str, Any], batch_size: int, exists: Exists, auto: set[str]
) -> str | None:
    """The reason this call must wait for the user, or None when it may run now."""
    found = await approval(tool, arguments, batch_size, exists, auto)
    return None if found is None else found[1]


async def approval(
    tool: Tool | None, arguments: dict[str, Any], batch_size: int, exists: Exists, auto: set[str]
) -> tuple[Ask, str] | None:
    """Why this call must wait for the user (the kind and the reason shown), or None."""
    if tool is None:
        return None  # an unknown tool fails validation; nothing to approve
    kind, target = await _kind(tool, arguments, batch_size, exists)
    if kind is None or kind.value in auto:
        return None
    return kind, _reason(kind, target, batch_size)


def batch_approval(
    tool: Tool | None, arguments: dict[str, Any], batch_size: int, auto: set[str]
) -> str | None:
    """The batch rule alone: the reason a file operation asks once its reply has passed `BATCH_LIMIT`."""
    if tool is None or batch_size <= BATCH_LIMIT or Ask.BATCH.value in auto:
        return None
    if not is_file_operation(tool, arguments):
        return None
    return _reason(Ask.BATCH, _resource(tool, arguments), batch_size)


def _reason(kind: Ask, target: str | None, batch_size: int) -> str:
    return f"This call {REASONS[kind].format(target=target or 'a file', count=batch_size)}."


async def _kind(
    tool: Tool, arguments: dict[str, Any], batch_size: int, exists: Exists
) -> tuple[Ask | None, str | None]:
    target = _resource(tool, arguments)
    if tool.asks == Ask.DELETE:
        return Ask.DELETE, target
    if tool.asks in (Ask.JS, Ask.SHELL):
        return Ask(tool.asks), None
    if tool.name == "edit_current_editor_document":
        return Ask.OVERWRITE, "open in the editor"
    destination = arguments.get("destination") if tool.name == "move_file" else None
    if tool.name in OVERWRITING or destination:
        path = str(destination or target or arguments.get("path") or "")
        if path and await exists(path):
            return Ask.OVERWRITE, path
    if batch_size > BATCH_LIMIT and is_file_operation(tool, arguments):
        return Ask.BATCH, target
    return None, None


def _resource(tool: Tool, arguments: dict[str, Any]) -> str | None:
    """The call's first resource (a move's source): the path an approval names."""
    found = tool.resources(arguments)
    if found:
        return found[0]
    if isinstance(arguments.get("path"), str):
        path = str(arguments["path"])
        return path if path.startswith("/") else "/" + path
    return None


@dataclass
class _Pending:
    future: asyncio.Future[bool]
    batch: str | None


class ApprovalDesk:
    """Calls waiting for the user: `wait()` blocks a call, `answer()` releases it (page → engine)."""

    def __init__(self) -> None:
        self._pending: dict[str, _Pending] = {}
        self._batch_answers: dict[str, bool] = {}  # batch id -> the user's "all" answer

    def batch_answer(self, batch: str) -> bool | None:
        """The answer the user gave to a whole batch (reply), if any: it covers the reply's later
        batch-rule asks too, as one "Approve all" covers a whole native reply."""
        return self._batch_answers.get(batch)

    @property
    def waiting(self) -> list[str]:
        return list(self._pending)

    async def wait(self, call_id: str, batch: str | None = None) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = _Pending(future, batch)
        try:
            return await future
        finally:
            self._pending.pop(call_id, None)

    def answer(self, call_id: str, approved: bool, batch: bool = False) -> bool:
        """Resolve the call (and, with `batch`, every call waiting in its batch); False when unknown."""
        pending = self._pending.get(call_id)
        if pending is None:
            return False
        chosen = [pending]
        if batch and pending.batch is not None:
            chosen = [p for p in self._pending.values() if p.batch == pending.batch]
            self._batch_answers[pending.batch] = bool(approved)
        for item in chosen:
            if not item.future.done():
                item.future.set_result(bool(approved))
        return True

    def reject_all(self) -> None:
        for pending in list(self._pending.values()):
            if not pending.future.done():
                pending.future.set_result(False)
