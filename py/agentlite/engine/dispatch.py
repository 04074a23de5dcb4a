"""The tool dispatcher: runs the calls of one reply, in order, with approvals, locks and statuses.

Each call goes pending → (awaiting-approval) → executing → completed / failed / rejected (origins: engine
§7.2), and every change is sent to the UI as a `tool_status` event. Calls start in the order the model wrote
them: a call that may change something waits for every call before it, a read waits only for the last
change before it, so independent reads overlap (origins: orchestration 5). Across chats, `ResourceLocks`
serialise calls on the same resource (a path, the sandbox).

Approval is asked as soon as a call arrives (several cards may wait at once, and one answer can cover the
whole reply); execution still keeps the order. The batch rule (`engine.approvals`) is checked twice: when
a call arrives, and again just before it starts, because in ndjson the reply's (`BATCH_LIMIT` + 1)-th file
operation may arrive while earlier ones wait for their turn: from then on every file operation of the
reply that has not started asks (operations that already ran are not undone). The instructions rule is
checked again too, under the call's locks just before it runs: an earlier call of the same reply (or
another chat) may have put a skill or an AGENTS.md where a move takes it, and the question is decided on
the workspace as the call will find it; while that question waits the call holds its locks.

Stopping: calls not yet running never run (rejected); running code (sandbox) is cancelled; running file
operations finish, so the workspace is never torn. The loop guard's 5th identical call is refused
(`rejected`, with the reason) and the turn asks the user whether to go on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentlite.engine.approvals import (
    ApprovalDesk,
    Ask,
    Exists,
    Peek,
    approval,
    batch_approval,
    instructions_question,
    is_file_operation,
)
from agentlite.engine.chat_events import ApprovalAsked, Emit, ToolStatus
from agentlite.engine.locks import ResourceLocks
from agentlite.engine.loopguard import LoopGuard
from agentlite.problems.change_notes import noting_problems
from agentlite.tools.context import ToolContext
from agentlite.tools.registry import Risk, Tool, ToolRegistry
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult

log = logging.getLogger(__name__)


@dataclass
class Call:
    id: str
    name: str
    arguments: dict[str, Any]
    note: str | None = None
    status: str = "pending"
    result: ToolResult | None = None
    warning: str | None = None  # loop guard's note for the model
    duration_ms: int | None = None
    executing: bool = False
    asked: bool = False  # the user was asked (or a batch answer covered it): no second approval
    asked_instructions: bool = False  # the user answered this call's question as `instructions`

    def for_model(self) -> str:
        text = self.result.for_model() if self.result is not None else "not run"
        if self.note:
            text += f"\n({self.note})"
        return f"{text}\n\n{self.warning}" if self.warning else text


def rejected(reason: str) -> ToolResult:
    return ToolResult.failure(ToolErrorType.REJECTED, reason)


USER_REJECTED = (
    "The user rejected this call, so it did not run. "
    "Do not repeat it; ask the user or propose something else."
)
STOPPED = "Not run: the user stopped the turn."


class Dispatcher:
    def __init__(
        self,
        registry: ToolRegistry,
        context: ToolContext,
        *,
        locks: ResourceLocks,
        desk: ApprovalDesk,
        guard: LoopGuard,
        emit: Emit,
        exists: Exists | Peek,
        auto_approve: set[str],
        batch: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = registry
        self.context = context
        self.locks = locks
        self.desk = desk
        self.guard = guard
        self.emit = emit
        editor = getattr(context, "editor_path", None)  # the open file, for the AGENTS.md rule
        self.exists = dataclasses.replace(exists, editor=editor) if isinstance(exists, Peek) else exists
        self.auto_approve = auto_approve
        self.batch = batch
        self.clock = clock
        self.calls: list[Call] = []
        self.stop_reason: str | None = None  # set when the loop guard stops the turn
        self.stopping = False
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._last_change: asyncio.Task[None] | None = None
        self._file_ops = 0
        # the tools the request offered, when only those run (ModelProfile.only_offered_run)
        self.offered: frozenset[str] | None = None
        # why a tool may not run in this turn at all (Plan mode, engine.plan_mode); None: it may
        self.refuse: Callable[[Tool], str | None] | None = None

    def submit(self, calls: list[Call]) -> None:
        """Schedule calls in order; the batch size for approvals counts every file operation of the reply
        so far (a whole native reply at once, ndjson calls one by one). Each call is made canonical first
        (`ToolRegistry.canonical`): a call that fails validation never runs and asks nothing."""
        valid = [call for call in calls if self._canonical(call)]
        for call in valid:
            tool = self.registry.get(call.name)
            if is_file_operation(tool, call.arguments):
                self._file_ops += 1
        for call in valid:
            self._schedule(call)

    def _canonical(self, call: Call) -> bool:
        """Put the call in its canonical form in place; fail it (False) when its arguments are invalid."""
        try:
            tool, call.arguments = self.registry.canonical(call.name, call.arguments)
        except ToolError as error:
            self.fail(call, ToolResult.from_error(error))
            return False
        call.name = tool.name
        refused = self.refuse(tool) if self.refuse is not None else None
        if refused is not None:
            self.fail(call, ToolResult.failure(ToolErrorType.DENIED, refused), "rejected", reason=refused)
            return False
        if self.offered is not None and tool.name not in self.offered:
            self.fail(call, ToolResult.failure(ToolErrorType.NOT_FOUND, not_offered(tool.name, self.offered)))
            return False
        return True

    def fail(self, call: Call, result: ToolResult, status: str = "failed", reason: str | None = None) -> None:
        """A call that can never run (invalid, or refused by the loop guard); recorded in order."""
        call.result, call.status = result, status
        self.calls.append(call)
        self._status(call, reason=reason)

    async def drain(self) -> list[Call]:
        """Wait for every scheduled call; the calls in the order they were written."""
        while any(not task.done() for task in self._tasks.values()):
            await asyncio.wait(list(self._tasks.values()))
        return list(self.calls)

    @property
    def pending(self) -> bool:
        return any(not task.done() for task in self._tasks.values())

    async def stop(self) -> list[Call]:
        """Stop: nothing new starts, approvals are refused, running code is cancelled; then drain."""
        self.stopping = True
        self.desk.reject_all()
        for call in self.calls:
            task = self._tasks.get(call.id)
            tool = self.registry.get(call.name)
            if task and not task.done() and call.executing and tool is not None and tool.risk is Risk.EXECUTE:
                task.cancel()
        return await self.drain()

    def _schedule(self, call: Call) -> None:
        verdict = self.guard.check_call(call.name, call.arguments)
        if verdict.stop:
            self.stop_reason = self.stop_reason or verdict.stop
            self.fail(call, rejected(f"Not run: {verdict.stop}"), "rejected", reason=verdict.stop)
            return
        self.calls.append(call)
        call.warning = verdict.warning
        tool = self.registry.get(call.name)
        reads = tool is not None and tool.risk is Risk.READ
        before = [t for t in self._tasks.values() if not t.done()]
        deps = ([self._last_change] if self._last_change else []) if reads else before
        self._status(call)
        task = asyncio.ensure_future(self._run(call, [d for d in deps if not d.done()]))
        self._tasks[call.id] = task
        if not reads:
            self._last_change = task

    async def _run(self, call: Call, deps: list[asyncio.Task[None]]) -> None:
        try:
            approved = await self._approved(call)
            if approved and deps:
                await asyncio.wait(deps)
            approved = approved and await self._batch_approved(call)
            if not approved or self.stopping:
                self._finish(call, rejected(STOPPED if self.stopping else USER_REJECTED), "rejected")
                return
            await self._execute(call)
        except asyncio.CancelledError:
            self._finish(call, rejected("Cancelled: the user stopped the turn while it ran."), "failed")
        except Exception as error:  # a bug in a tool must not end the turn: the model hears of it
            log.exception("tool %s failed", call.name)
            message = f"internal error in {call.name}: {type(error).__name__}: {error}"
            self._finish(call, ToolResult.failure(ToolErrorType.INTERNAL, message), "failed")

    async def _approved(self, call: Call) -> bool:
        """The check when the call arrives: every approval rule, with the reply's file operations so far."""
        tool = self.registry.get(call.name)
        found = await approval(tool, call.arguments, self._file_ops, self.exists, self.auto_approve)
        if found is None:
            return True
        kind, reason = found
        return await self._answer(call, kind, reason)

    async def _batch_approved(self, call: Call) -> bool:
        """The check just before the call starts: the batch rule, in case the reply passed the limit while
        this call waited for an earlier one (ndjson)."""
        if call.asked:
            return True
        reason = batch_approval(
            self.registry.get(call.name), call.arguments, self._file_ops, self.auto_approve
        )
        if reason is None:
            return True
        return await self._answer(call, Ask.BATCH, reason)

    async def _outcome_approved(self, call: Call) -> bool:
        """The instructions rule again, under the call's locks just before it runs, on the workspace as it
        is then: an earlier call of the reply (or another chat) may have put a skill where a move takes
        it. A call already answered as `instructions` is not asked again."""
        if call.asked_instructions or Ask.INSTRUCTIONS.value in self.auto_approve:
            return True
        reason = await instructions_question(self.registry.get(call.name), call.arguments, self.exists)
        if reason is None:
            return True
        if not await self._ask(call, Ask.INSTRUCTIONS, reason):
            return False
        call.status = "executing"
        self._status(call)
        return True

    async def _answer(self, call: Call, kind: Ask, reason: str) -> bool:
        """A batch question the user already answered for this reply covers the call; else ask."""
        covered = self.desk.batch_answer(self.batch) if kind is Ask.BATCH else None
        if covered is not None:
            call.asked = True
            return covered
        return await self._ask(call, kind, reason)

    async def _ask(self, call: Call, kind: Ask, reason: str) -> bool:
        if self.stopping:
            return False
        call.status, call.asked = "awaiting-approval", True
        call.asked_instructions = call.asked_instructions or kind is Ask.INSTRUCTIONS
        self._status(call, reason=reason)
        self.emit(
            ApprovalAsked(
                id=call.id,
                name=call.name,
                arguments=call.arguments,
                reason=reason,
                batch=self.batch,
                ask=kind.value,
            )
        )
        return await self.desk.wait(call.id, self.batch, kind)

    async def _execute(self, call: Call) -> None:
        tool = self.registry.get(call.name)
        resources = tool.resources(call.arguments) if tool is not None else ()
        shared = tool is not None and tool.risk is Risk.READ
        call.status, call.executing = "executing", True
        self._status(call)
        started = self.clock()
        async with self.locks.hold(resources, shared=shared):
            if not await self._outcome_approved(call):
                self._finish(call, rejected(STOPPED if self.stopping else USER_REJECTED), "rejected")
                return
            result = await noting_problems(
                self.context, tool, lambda: self.registry.call(call.name, call.arguments, self.context)
            )
        call.duration_ms = round((self.clock() - started) * 1000)
        self._finish(call, result, "completed" if result.ok else "failed")

    def _finish(self, call: Call, result: ToolResult, status: str) -> None:
        call.result, call.status, call.executing = result, status, False
        self._status(call)

    def _status(self, call: Call, reason: str | None = None) -> None:
        final = call.result is not None and call.status in ("completed", "failed", "rejected")
        self.emit(
            ToolStatus(
                id=call.id,
                name=call.name,
                status=call.status,
                arguments=call.arguments if call.status == "pending" else None,
                reason=reason or None,
                result=call.result.to_dict() if final and call.result is not None else None,
                duration_ms=call.duration_ms if final else None,
            )
        )


def not_offered(name: str, offered: frozenset[str]) -> str:
    """What the model hears when it calls a tool the turn did not offer: what it may use instead."""
    if not offered:
        return f"{name} is not offered here: this turn offers no tools, so answer in text"
    return f"{name} is not offered here; use {', '.join(sorted(offered))}"
