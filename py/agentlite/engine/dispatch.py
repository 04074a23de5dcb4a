"""The tool dispatcher: runs the calls of one reply, in order, with approvals, locks and statuses.

Each call goes pending → (awaiting-approval) → executing → completed / failed / rejected (seed 001 §7.2),
and every change is sent to the UI as a `tool_status` event. Calls start in the order the model wrote
them: a call that may change something waits for every call before it, a read waits only for the last
change before it, so independent reads overlap (seed 003 point 5). Across chats, `ResourceLocks`
serialise calls on the same resource (a path, the sandbox).

Approval is asked as soon as a call arrives (several cards may wait at once, and one answer can cover the
whole reply); execution still keeps the order. Stopping: calls not yet running never run (rejected);
running code (sandbox) is cancelled; running file operations finish, so the workspace is never torn.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agentlite.engine.approvals import ApprovalDesk, Exists, approval_reason, is_file_operation
from agentlite.engine.locks import ResourceLocks
from agentlite.engine.loopguard import LoopGuard
from agentlite.tools.registry import Risk, ToolRegistry
from agentlite.tools.result import ToolErrorType, ToolResult

log = logging.getLogger(__name__)
Emit = Callable[[dict[str, Any]], None]


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
        context: Any,
        *,
        locks: ResourceLocks,
        desk: ApprovalDesk,
        guard: LoopGuard,
        emit: Emit,
        exists: Exists,
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
        self.exists = exists
        self.auto_approve = auto_approve
        self.batch = batch
        self.clock = clock
        self.calls: list[Call] = []
        self.stop_reason: str | None = None  # set when the loop guard stops the turn
        self.stopping = False
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._last_change: asyncio.Task[None] | None = None
        self._file_ops = 0

    def submit(self, calls: list[Call]) -> None:
        """Schedule calls in order; the batch size for approvals counts every file operation so far."""
        for call in calls:
            tool = self.registry.get(call.name)
            if is_file_operation(tool, call.arguments):
                self._file_ops += 1
        for call in calls:
            self._schedule(call)

    def fail(self, call: Call, result: ToolResult) -> None:
        """A call that can never run (invalid); recorded in order with the others."""
        call.result, call.status = result, "failed"
        self.calls.append(call)
        self._status(call)

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
            self.fail(call, rejected(f"Not run: {verdict.stop}"))
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
            if not await self._approved(call):
                self._finish(call, rejected(STOPPED if self.stopping else USER_REJECTED), "rejected")
                return
            if deps:
                await asyncio.wait(deps)
            if self.stopping:
                self._finish(call, rejected(STOPPED), "rejected")
                return
            await self._execute(call)
        except asyncio.CancelledError:
            self._finish(call, rejected("Cancelled: the user stopped the turn while it ran."), "failed")
        except Exception as error:  # a bug in a tool must not end the turn: the model hears of it
            log.exception("tool %s failed", call.name)
            message = f"internal error in {call.name}: {type(error).__name__}: {error}"
            self._finish(call, ToolResult.failure(ToolErrorType.INTERNAL, message), "failed")

    async def _approved(self, call: Call) -> bool:
        tool = self.registry.get(call.name)
        reason = await approval_reason(tool, call.arguments, self._file_ops, self.exists, self.auto_approve)
        if reason is None:
            return True
        if self.stopping:
            return False
        call.status = "awaiting-approval"
        self._status(call, reason=reason)
        self.emit(
            {
                "kind": "approval",
                "id": call.id,
                "name": call.name,
                "arguments": call.arguments,
                "reason": reason,
                "batch": self.batch,
            }
        )
        return await self.desk.wait(call.id, self.batch)

    async def _execute(self, call: Call) -> None:
        tool = self.registry.get(call.name)
        resource = _resource(tool, call.arguments)
        shared = tool is not None and tool.risk is Risk.READ
        call.status, call.executing = "executing", True
        self._status(call)
        started = self.clock()
        async with self.locks.hold(resource, shared=shared):
            result = await self.registry.call(call.name, call.arguments, self.context)
        call.duration_ms = round((self.clock() - started) * 1000)
        self._finish(call, result, "completed" if result.ok else "failed")

    def _finish(self, call: Call, result: ToolResult, status: str) -> None:
        call.result, call.status, call.executing = result, status, False
        self._status(call)

    def _status(self, call: Call, reason: str | None = None) -> None:
        event: dict[str, Any] = {
            "kind": "tool_status",
            "id": call.id,
            "name": call.name,
            "status": call.status,
        }
        if call.status == "pending":
            event["arguments"] = call.arguments
        if reason:
            event["reason"] = reason
        if call.result is not None and call.status in ("completed", "failed", "rejected"):
            event["result"] = call.result.to_dict()
            if call.duration_ms is not None:
                event["duration_ms"] = call.duration_ms
        self.emit(event)


def _resource(tool: Any, arguments: dict[str, Any]) -> str | None:
    if tool is None:
        return None
    try:
        resource = tool.resource(arguments)
    except Exception:  # arguments that will fail validation anyway
        return None
    return None if resource is None else str(resource)
