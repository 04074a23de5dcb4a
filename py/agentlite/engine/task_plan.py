"""The task plan of a complex request (origins: orchestration 3), kept in the chat's metadata, shown as a
checklist.

When a request crosses the decomposition threshold (long, several goal verbs, or several targets) the turn
asks the model for a short numbered plan first. The plan is read from the reply's first numbered or
bulleted list; the engine ticks a step off when a successful tool call matches it (the step's verb
family and, when the step names a file, that file), and ticks the answer-only steps ("report", "explain")
when the final answer arrives. Nothing here makes a model request.

A Markdown checklist (`- [ ] step`, `1. [x] step`) is a plan too: a Plan-mode turn ends with one
(`read_plan`, proposed to the user), and a message in Agent mode that carries one (an approved plan)
gives its turn the plan to tick (`read_checklist`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

LONG_REQUEST = 300  # characters (origins: orchestration: input length > N)
MAX_STEPS = 8

# verb families: the words a step uses → the tools that do it
FAMILIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "list": (("list", "check", "look", "see", "explore", "inspect", "browse"), ("list_directory",)),
    "read": (("read", "open", "view", "look", "inspect", "check", "review", "examine"), ("read_file",)),
    "search": (("search", "find", "grep", "locate"), ("search",)),
    "create": (("create", "add", "make", "new", "generate", "scaffold"), ("create_file", "create_folder")),
    "change": (
        ("change", "update", "edit", "modify", "replace", "rename", "write", "set", "fix", "refactor"),
        ("edit_file", "write_file", "rename_file", "edit_current_editor_document", "move_file"),
    ),
    "delete": (("delete", "remove", "clean"), ("delete_file",)),
    "run": (
        ("run", "compute", "calculate", "execute", "eval", "evaluate", "test"),
        ("browser_js_eval", "shell_exec"),
    ),
    "answer": (("report", "explain", "summarize", "summarise", "tell", "answer", "confirm", "show"), ()),
}
GOAL_VERBS = {verb for family, (verbs, _tools) in FAMILIES.items() if family != "answer" for verb in verbs}
_STEP = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+(?:\[[ xX]\]\s*)?(?P<text>\S.*)$")
_BOX = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+\[(?P<mark>[ xX])\]\s+(?P<text>\S.*)$")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
MAX_CHECKLIST = 30  # steps a plan keeps: a longer list is no plan a person approves at a glance
_WORDS = re.compile(r"[a-z]+")
_PATHISH = re.compile(r"[\w./-]*\w\.\w+|/[\w./-]+")


def is_complex(text: str) -> bool:
    """The decomposition threshold: a long request, or two or more distinct goal verbs."""
    if len(text) > LONG_REQUEST:
        return True
    verbs = {w for w in _WORDS.findall(text.lower()) if w in GOAL_VERBS}
    families = {f for f, (vs, _t) in FAMILIES.items() if f != "answer" and verbs & set(vs)}
    return len(families) >= 2 and bool(re.search(r"\b(and|then)\b|[,;，、]", text.lower()))


def read_steps(text: str) -> list[str]:
    """The first list of two or more items in a reply: numbered (1. 2)) or bulleted (- * •) lines."""
    steps: list[str] = []
    for line in text.splitlines():
        match = _STEP.match(line)
        if match:
            steps.append(match.group("text").strip().strip("*_ ").rstrip("."))
        elif steps and line.strip():
            break
    return steps[:MAX_STEPS] if len(steps) >= 2 else []


def read_checklist(text: str) -> list[Step]:
    """The checklist items of a text, in order, ticked or not; lines inside code fences are examples."""
    steps: list[Step] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _BOX.match(line)
        if match and match.group("text").strip():
            steps.append(Step(match.group("text").strip(), match.group("mark") != " "))
    return steps[:MAX_CHECKLIST]


def read_plan(text: str) -> list[Step]:
    """The plan a Plan-mode answer ends with: its checklist, else its first list of two or more items."""
    return read_checklist(text) or [Step(step) for step in read_steps(text)]


def checklist(steps: list[Step]) -> str:
    """Steps as a Markdown checklist, one a line (what `read_checklist` reads back)."""
    return "\n".join(f"- [{'x' if step.done else ' '}] {step.text}" for step in steps)


@dataclass
class Step:
    text: str
    done: bool = False

    def families(self) -> set[str]:
        words = set(_WORDS.findall(self.text.lower()))
        return {family for family, (verbs, _tools) in FAMILIES.items() if words & set(verbs)}

    def targets(self) -> set[str]:
        return {p.rstrip(".").lower().rsplit("/", 1)[-1] for p in _PATHISH.findall(self.text)}


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    turn: str = ""  # the turn that proposed it ("" for a plan being carried out)
    proposed: bool = False  # a Plan-mode turn's answer, waiting for the user to edit and approve it

    @classmethod
    def from_reply(cls, text: str) -> Plan | None:
        steps = read_steps(text)
        return cls([Step(s) for s in steps]) if steps else None

    def tick_tool(self, name: str, arguments: dict[str, Any]) -> bool:
        """Tick the first open step this successful call does; True when a step was ticked."""
        touched = {
            str(v).rstrip("/").lower().rsplit("/", 1)[-1] for v in arguments.values() if isinstance(v, str)
        }
        for step in self.steps:
            if step.done:
                continue
            tools = {t for f in step.families() for t in FAMILIES[f][1]}
            targets = step.targets()
            if name in tools and (not targets or targets & touched):
                step.done = True
                return True
        return False

    def tick_answer(self) -> bool:
        """The final answer arrived: tick the steps that only report or explain."""
        ticked = False
        for step in self.steps:
            families = step.families()
            if not step.done and families and families <= {"answer"}:
                step.done = ticked = True
        return ticked

    @property
    def finished(self) -> bool:
        return all(step.done for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"steps": [{"text": s.text, "done": s.done} for s in self.steps]}
        return {**data, "turn": self.turn, "proposed": True} if self.proposed else data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Plan | None:
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list) or not data["steps"]:
            return None
        steps = [
            Step(str(s.get("text", "")), bool(s.get("done"))) for s in data["steps"] if isinstance(s, dict)
        ]
        proposed = data.get("proposed") is True
        return cls(steps, str(data.get("turn") or "") if proposed else "", proposed) if steps else None
