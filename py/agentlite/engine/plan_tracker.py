"""The task plan of one turn: read from the first reply when the turn asked for one, ticked as the
calls complete and when the answer comes; every change is shown and kept with the chat."""

from __future__ import annotations

from collections.abc import Callable

from agentlite.engine.chat_events import Emit, PlanChanged
from agentlite.engine.dispatch import Call
from agentlite.engine.task_plan import Plan


class PlanTracker:
    def __init__(self, turn_id: str, set_plan: Callable[[Plan | None], None], emit: Emit) -> None:
        self.turn_id, self.set_plan, self.emit = turn_id, set_plan, emit
        self.requested = False  # the turn's message asked the model for a plan
        self.plan: Plan | None = None

    def track(self, content: str, calls: list[Call]) -> None:
        """After a round: the plan its reply wrote (once), and the steps its completed calls tick."""
        changed = False
        if self.requested and self.plan is None:
            self.plan = Plan.from_reply(content)
            changed = self.plan is not None
        for call in calls:
            if self.plan is not None and call.status == "completed":
                changed = self.plan.tick_tool(call.name, call.arguments) or changed
        if changed:
            self._publish()

    def answered(self) -> None:
        if self.plan is not None and self.plan.tick_answer():
            self._publish()

    def _publish(self) -> None:
        self.set_plan(self.plan)
        if self.plan is not None:
            self.emit(PlanChanged(turn=self.turn_id, **self.plan.to_dict()))
