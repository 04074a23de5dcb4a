"""conversation_summary: the model condenses the conversation so far into goal / done / to do.

The engine owns the chat memory; this tool parses the sections and hands the summary to the engine's
`save_summary` hook, which keeps it in place of the older messages.
"""

from __future__ import annotations

import inspect

from pydantic import Field

from agentlite.tools.common import ToolArgs, prose
from agentlite.tools.context import ConversationSummary, ToolContext
from agentlite.tools.registry import Risk, Tool
from agentlite.tools.result import ToolError, ToolErrorType, ToolResult

SECTIONS = {
    "goal": ("goal", "goals", "objective", "task"),
    "done": ("done", "completed", "finished", "progress"),
    "todo": ("to do", "todo", "to-do", "next", "next steps", "remaining", "pending"),
}
LABELS = {"goal": "Goal", "done": "Done", "todo": "To do"}


def parse_summary(text: str) -> ConversationSummary:
    """Split a summary at its section headings (`Goal:`, `## Done`, `**To do:** ...`)."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        section, rest = _heading(line)
        if section is not None:
            current = section
            found.setdefault(section, [])
            if rest:
                found[section].append(rest)
        elif current is not None:
            found[current].append(line)
    parts = {key: "\n".join(lines).strip() for key, lines in found.items()}
    return ConversationSummary(
        text.strip(), parts.get("goal", ""), parts.get("done", ""), parts.get("todo", "")
    )


def _heading(line: str) -> tuple[str | None, str]:
    stripped = line.strip().lstrip("#>*_- ").strip()
    name, colon, rest = stripped.partition(":")
    name = name.strip(" *_").lower()
    if not colon and not line.lstrip().startswith("#"):
        return None, ""
    for key, names in SECTIONS.items():
        if name in names:
            return key, rest.strip(" *_")
    return None, ""


class SummaryArgs(ToolArgs):
    summary: str = Field(
        min_length=1,
        description="The summary, in three sections: 'Goal:', 'Done:' and 'To do:'.",
    )


async def conversation_summary(context: ToolContext, args: SummaryArgs) -> ToolResult:
    if context.save_summary is None:
        raise ToolError(ToolErrorType.INTERNAL, "conversation summaries cannot be stored in this chat")
    summary = parse_summary(args.summary)
    stored = context.save_summary(summary)
    if inspect.isawaitable(stored):
        await stored
    missing = [LABELS[key] for key in ("goal", "done", "todo") if not getattr(summary, key)]
    text = f"Summary stored ({len(summary.text)} characters); it stands in for the earlier messages."
    if missing:
        text += f" It has no {' / '.join(missing)} section; add it next time."
    return ToolResult.success(text, {"sections": [k for k in LABELS if getattr(summary, k)]})


CONVERSATION_SUMMARY = prose(
    """Store a summary of the conversation so far; it replaces the older messages when
the context gets long, so write everything still needed to finish the task. Three sections:
'Goal:' what the user wants; 'Done:' what has been done (files changed, decisions, facts found);
'To do:' what is left. Keep exact paths, names and numbers."""
)

TOOL = Tool(
    "conversation_summary",
    CONVERSATION_SUMMARY,
    SummaryArgs,
    conversation_summary,
    Risk.READ,
    streamed=("summary",),
    resource=lambda _args: "conversation",
    content="summary",
)
