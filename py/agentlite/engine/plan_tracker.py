"""The task plan of one turn: read from the first reply when the turn asked for one, or from the user's
message when it carries a checklist (an approved plan); ticked as the calls complete and when the answer
comes; every change is shown and kept with the chat. A Plan-mode turn's answer is proposed as the plan."""

from __future__ import annotations

from collections.abc import Callable

from agentlite.engine import prompt
from agentlite.engine.chat_events import Emit, PlanChanged
from agentlite.engine.dispatch import Call
from agentlite.engine.task_plan import Plan, is_complex, read_checklist, read_plan


class PlanTracker:
    def __init__(self, turn_id: str, set_plan: Callable[[Plan | None], None], emit: Emit) -> None:
        self.turn_id, self.set_plan, self.emit = turn_id, set_plan, emit
        self.requested = False  # the turn's message asked the model for a plan
        self.plan: Plan | None = None

    def begin(self, mode: str, text: str, plans: bool) -> list[str]:
        """As an Agent-mode turn starts: the plan its message carries, or the instruction to make one
        (when the model's profile `plans` and the request is complex). The instructions to send."""
        if mode != "agent":
            return []
        steps = read_checklist(text)
        if steps:
            self.plan = Plan(steps)
            self._publish()
            return []
        if plans and is_complex(text):
            self.requested = True
            return [prompt.PLAN_INSTRUCTION]
        return []

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

    def propose(self, answer: str) -> None:
        """A Plan-mode turn answered: the plan it ends with is proposed to the user (kept with the chat)."""
        steps = read_plan(answer)
        if not steps:
            return
        self.set_plan(Plan(steps, turn=self.turn_id, proposed=True))
        shown = [{"text": s.text, "done": s.done} for s in steps]
        self.emit(PlanChanged(turn=self.turn_id, steps=shown, proposed=True))

    def _publish(self) -> None:
        self.set_plan(self.plan)
        if self.plan is not None:
            self.emit(PlanChanged(turn=self.turn_id, **self.plan.to_dict()))
