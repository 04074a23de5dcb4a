"""Plan mode: the agent reads and plans; nothing changes until the user approves the plan.

What a Plan-mode turn may run is read from each tool's own declaration, never from a list of names: a
tool whose risk is `read`, or a run that leaves nothing behind (`Tool.inspects`: opening a page in the
preview, reading it as a tree). Every other call (a write, an edit, a move, the shell, JavaScript, a
remote server's tool) is refused with a result that tells the model it is planning. Such tools are not
offered either, so a model that follows its prompt never meets the refusal. The turn's final answer is
the plan: the checklist it ends with (`task_plan.read_plan`), proposed to the user (`Plan.proposed`).
"""

from __future__ import annotations

from typing import Any

from agentlite.tools.registry import Risk, Tool, ToolRegistry

PLANNING = (
    "Not run: this chat is in Plan mode — read and plan only; nothing may be changed until the user "
    "approves the plan. Look with the tools you are offered, then end your reply with the plan as a "
    "Markdown checklist (- [ ] step)."
)


def may_plan(tool: Tool) -> bool:
    """Whether a Plan-mode turn may run the tool: it reads, or its run changes nothing."""
    return tool.risk is Risk.READ or tool.inspects


def refusal(tool: Tool) -> str | None:
    """What the model hears instead of a result when a Plan-mode turn calls the tool; None: it runs."""
    return None if may_plan(tool) else PLANNING


def offered(registry: ToolRegistry, definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The definitions a Plan-mode request offers: those of the tools it may run."""
    return [d for d in definitions if (tool := registry.get(str(d.get("name")))) and may_plan(tool)]
