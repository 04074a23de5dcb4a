"""Approvals (origins: engine §9): which calls wait for the user, and the desk where they wait.

The rule is enforced here, in the dispatcher, not by the model, on the call's canonical form (the
dispatcher validates every call first, so `file_path` is `path` by the time a rule reads it): deletes,
overwriting an existing file (a whole-file write over it, the editor document, a move onto it, an
edit that removes or rewrites a large share of it: `engine.edit_size`), creating, changing, moving or
deleting any AGENTS.md or anything in a skill's folder (instructions the model follows) where the call's
files END UP (`engine.outcomes`: a folder moved or renamed into `.agents`, a destination "inside" a
folder; checked again just before the call runs, engine.dispatch), shell commands, JS evaluation,
and every file change in a reply of more than `BATCH_LIMIT` file operations ask the user, unless the
user auto-approved that kind in the chat's settings. Every call of a remote MCP server's tool asks
(kind `mcp`) unless the user allowed that tool (its full name, `mcp__<server>__<tool>`) or its whole
server (`mcp__<server>`) in the same settings, matched to the server the tool was registered for
(`Tool.server`), never to a part of its name: "all" and the bare kind allow no remote tool, and nothing
a server sends reaches these settings. When several kinds apply, the call asks for the
first one not auto-approved. Reads, creates and small edits never ask. A rejection goes back to the
model as a `rejected` result (it may propose something else).

The batch rule, precisely: a reply's file operations are counted as they arrive. From the moment its
(`BATCH_LIMIT` + 1)-th file operation arrives, every file operation of that reply that has not started
yet asks. Native and json replies are complete before any call runs, so there every one of them asks;
in ndjson a call runs as soon as it is ready, so operations 1..`BATCH_LIMIT` may already have run when
the next one arrives (they are not undone) and the rule covers the rest. "Approve all" on one card
answers every call of the reply waiting then with the same kind of question (never another kind: a
shell, JS or remote call beside a delete still asks), and on a batch card every later batch-rule ask of
the same reply.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agentlite.engine import outcomes
from agentlite.engine.edit_size import edit_blocks, is_large_edit
from agentlite.engine.outcomes import Exists as Exists  # re-exported: the engine builds a Peek
from agentlite.engine.outcomes import Peek as Peek
from agentlite.engine.outcomes import as_peek
from agentlite.tools.registry import Risk, Tool
from agentlite.workspace import paths

BATCH_LIMIT = 10
OVERWRITING = {"write_file", "edit_current_editor_document"}  # replace a whole existing file
FILE_RISKS = {Risk.CREATE, Risk.MODIFY, Risk.DESTRUCTIVE}
REMOTE_PREFIX = "mcp__"  # the names of remote tools (agentlite.mcp.tool_names, not imported: it loads late)


SKILL = "skill"  # the reason of an `Ask.INSTRUCTIONS` that touches a skill's folder


class Ask(enum.StrEnum):
    """Why a call asks; the values are what `auto_approve` settings name."""

    DELETE = "delete"
    OVERWRITE = "overwrite"
    INSTRUCTIONS = "instructions"
    SHELL = "shell"
    JS = "js"
    BATCH = "batch"
    MCP = "mcp"


WHOLE_KINDS = tuple(a for a in Ask if a is not Ask.MCP)  # what settings (and the page) allow as a whole

REASONS: dict[Ask | str, str] = {
    Ask.DELETE: "deletes {target}",
    Ask.OVERWRITE: "overwrites the existing file {target}",
    Ask.INSTRUCTIONS: "changes the project instructions in {target}, which go into every request",
    # the same kind: a skill is instructions the model follows (docs/skills.md)
    SKILL: "changes the Agent Skill in {target}, whose instructions the model follows",
    Ask.SHELL: "runs a shell command",
    Ask.JS: "runs JavaScript in a sandbox",
    Ask.BATCH: "is one of {count} file operations in this reply",
    Ask.MCP: "calls {target}, a tool of a remote MCP server",
}


def auto_approved(setting: Any) -> set[str]:
    """`auto_approve` as given in settings: True / "all", or a list of `Ask` values and allowed remote
    tools and servers. "all" is every kind but `mcp`: remote tools are allowed one by one."""
    if setting is True or setting == "all":
        return {a.value for a in WHOLE_KINDS}
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
    tool: Tool | None, arguments: dict[str, Any], batch_size: int, look: Peek | Exists, auto: set[str]
) -> str | None:
    """The reason this call must wait for the user, or None when it may run now."""
    found = await approval(tool, arguments, batch_size, look, auto)
    return None if found is None else found[1]


async def approval(
    tool: Tool | None, arguments: dict[str, Any], batch_size: int, look: Peek | Exists, auto: set[str]
) -> tuple[Ask, str] | None:
    """Why this call must wait for the user (the kind and the reason shown), or None. `arguments` are
    the canonical ones (`ToolRegistry.canonical`)."""
    if tool is None:
        return None  # an unknown tool fails validation; nothing to approve
    for kind, reason in await _kinds(tool, arguments, batch_size, as_peek(look)):
        allowed = remote_allowed(tool, auto) if kind is Ask.MCP else kind.value in auto
        if not allowed:
            return kind, reason
    return None


def remote_allowed(tool: Tool, auto: set[str]) -> bool:
    """Whether the user allowed this remote tool: the server it was registered for (`Tool.server`, never
    read from its name) as a whole (`mcp__<server>`), or the tool by its full name, which begins with
    that server's `mcp__<server>__` (a slug holds no `__`, so no other server's tool has that name)."""
    server = tool.server
    if not server or tool.asks != Ask.MCP:
        return False
    own = tool.name.startswith(f"{REMOTE_PREFIX}{server}__")
    return f"{REMOTE_PREFIX}{server}" in auto or (own and tool.name in auto)


def batch_approval(
    tool: Tool | None, arguments: dict[str, Any], batch_size: int, auto: set[str]
) -> str | None:
    """The batch rule alone: the reason a file operation asks once its reply has passed `BATCH_LIMIT`."""
    if tool is None or batch_size <= BATCH_LIMIT or Ask.BATCH.value in auto:
        return None
    if not is_file_operation(tool, arguments):
        return None
    return _reason(Ask.BATCH, _resource(tool, arguments), batch_size)


def _reason(kind: Ask | str, target: str | None, batch_size: int = 0) -> str:
    return f"This call {REASONS[kind].format(target=target or 'a file', count=batch_size)}."


async def _kinds(tool: Tool, arguments: dict[str, Any], batch_size: int, peek: Peek) -> list[tuple[Ask, str]]:
    """Every kind of question this call raises, most specific first."""
    found: list[tuple[Ask, str]] = []
    instructions = await instructions_question(tool, arguments, peek)
    if instructions:
        found.append((Ask.INSTRUCTIONS, instructions))
    kind = await _own_kind(tool, arguments, peek)
    if kind is not None:
        found.append(kind)
    if batch_size > BATCH_LIMIT and is_file_operation(tool, arguments):
        found.append((Ask.BATCH, _reason(Ask.BATCH, _resource(tool, arguments), batch_size)))
    return found


async def _own_kind(tool: Tool, arguments: dict[str, Any], peek: Peek) -> tuple[Ask, str] | None:
    """The question the tool itself raises: a delete, running code, an overwrite in any of its forms."""
    target = _resource(tool, arguments)
    if tool.asks == Ask.DELETE:
        return Ask.DELETE, _reason(Ask.DELETE, target)
    if tool.asks in (Ask.JS, Ask.SHELL):
        return Ask(tool.asks), _reason(Ask(tool.asks), None)
    if tool.asks == Ask.MCP:
        return Ask.MCP, _reason(Ask.MCP, tool.name)
    if tool.name == "edit_current_editor_document":
        return Ask.OVERWRITE, _reason(Ask.OVERWRITE, "open in the editor")
    destination = _normal(arguments.get("destination")) if tool.name == "move_file" else None
    if tool.name in OVERWRITING or destination:
        path = destination or target
        if path and await peek.exists(path):
            return Ask.OVERWRITE, _reason(Ask.OVERWRITE, path)
    if tool.name == "edit_file" and target:
        return await _large_edit(target, arguments, peek)
    return None


async def _large_edit(path: str, arguments: dict[str, Any], peek: Peek) -> tuple[Ask, str] | None:
    text = await peek.text(path)
    large = is_large_edit(text, edit_blocks(arguments)) if text is not None else None
    if large is None:
        return None
    count, size = large
    return Ask.OVERWRITE, f"This call removes or rewrites {count:,} of the {size:,} lines of {path}."


def _is_instructions(path: str) -> bool:
    return paths.is_instructions(path) or paths.is_skill(path)


async def instructions_question(
    tool: Tool | None, arguments: dict[str, Any], look: Peek | Exists
) -> str | None:
    """The reason shown when a file operation creates, changes, moves or deletes an AGENTS.md or a
    skill's file where its files end up (engine.outcomes), or None."""
    if tool is None or tool.risk not in FILE_RISKS:
        return None
    for path in await outcomes.touched(tool, arguments, as_peek(look)):
        if _is_instructions(path):
            return _reason(SKILL if paths.is_skill(path) else Ask.INSTRUCTIONS, path)
    return None


def _normal(value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return paths.normalize(value)
    except Exception:  # an invalid path: the tool will say so
        return value


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
    kind: Ask | None


class ApprovalDesk:
    """Calls waiting for the user: `wait()` blocks a call, `answer()` releases it (page → engine).

    "Approve all" (`answer(..., batch=True)`) answers the waiting calls of the same reply that ask the
    same kind of question as the card it was clicked on, never a kind that card did not show: a shell
    command, JavaScript or a remote tool waiting beside a delete still asks."""

    def __init__(self) -> None:
        self._pending: dict[str, _Pending] = {}
        self._batch_answers: dict[tuple[str, Ask | None], bool] = {}  # (reply, kind) -> "all" answer

    def batch_answer(self, batch: str, kind: Ask | None = Ask.BATCH) -> bool | None:
        """The answer the user gave to all of a reply's calls of one kind, if any: for the batch rule it
        covers the reply's later batch-rule asks too, as one "Approve all" covers a whole native reply."""
        return self._batch_answers.get((batch, kind))

    @property
    def waiting(self) -> list[str]:
        return list(self._pending)

    def kind_of(self, call_id: str) -> Ask | None:
        """The kind of question the waiting call asks (None when it is not waiting)."""
        pending = self._pending.get(call_id)
        return None if pending is None else pending.kind

    async def wait(self, call_id: str, batch: str | None = None, kind: Ask | None = None) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = _Pending(future, batch, kind)
        try:
            return await future
        finally:
            self._pending.pop(call_id, None)

    def answer(self, call_id: str, approved: bool, batch: bool = False, kind: str | None = None) -> bool:
        """Resolve the call (and, with `batch`, every call waiting in its reply with the same kind of
        question); False when unknown, or when `kind` (what the card showed) is not what it asks now."""
        pending = self._pending.get(call_id)
        if pending is None or (kind is not None and pending.kind is not None and kind != pending.kind):
            return False
        chosen = [pending]
        if batch and pending.batch is not None:
            chosen = [p for p in self._pending.values() if (p.batch, p.kind) == (pending.batch, pending.kind)]
            self._batch_answers[pending.batch, pending.kind] = bool(approved)
        for item in chosen:
            if not item.future.done():
                item.future.set_result(bool(approved))
        return True

    def reject_all(self) -> None:
        for pending in list(self._pending.values()):
            if not pending.future.done():
                pending.future.set_result(False)
