"""The page's commands to the chats, typed: each is built once, where `calls.py` checks the page's
call, and travels as a frozen object from there to the turn (docs/architecture.md, "Seams").

`SendMessage` is a `chats.send`: what the user said and what goes with it. `PageSettings` is a
`settings.apply`: the endpoint, the limits every chat's turns use and the tools' limits. Malformed
values count as "not given", never as an error the user cannot fix (the page clamps them too).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from agentlite import user_attachments
from agentlite.editor_state import EditorState
from agentlite.engine.session import PageLimits
from agentlite.engine.turn_deps import MODES, Attachment, TurnOptions
from agentlite.limits import EVAL_TIMEOUT_S, MAX_ROUNDS, Bound
from agentlite.settings import Settings
from agentlite.tools.context import ToolSettings


@dataclass(frozen=True)
class SendMessage:
    """A user message for the chat `chat_id`: its text, the turn's options and the editor's state."""

    chat_id: str
    text: str
    options: TurnOptions
    editor: EditorState

    @classmethod
    def of(
        cls,
        chat_id: str,
        text: object,
        *,
        mode: object = None,
        tool: object = None,
        references: object = None,
        editor: EditorState,
        edit: object = None,
        regenerate: object = False,
        attached: object = None,
    ) -> SendMessage:
        checked = user_attachments.check(attached)
        options = TurnOptions(
            mode=mode if isinstance(mode, str) and mode in MODES else None,
            tool=tool if isinstance(tool, str) and tool else None,
            references=attachments(references),
            open_file=editor.open_file,
            selection=editor.selection.describe() if editor.selection else None,
            edit=edit if isinstance(edit, str) and edit else None,
            regenerate=regenerate is True,
            attachments=tuple(checked.kept),
            attachment_notes=tuple(checked.notes),
        )
        return cls(str(chat_id), text if isinstance(text, str) else "", options, editor)


def attachments(value: object) -> tuple[Attachment, ...]:
    """Files attached to a message: paths to read, or `{path, content}` the page read itself."""
    found: list[Attachment] = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str) and item:
            found.append(Attachment(item))
        elif isinstance(item, dict):
            path, content = item.get("path"), item.get("content")
            if isinstance(content, str):
                found.append(Attachment(str(path or "attachment"), content))
            elif isinstance(path, str) and path:
                found.append(Attachment(path))
    return tuple(found)


@dataclass(frozen=True)
class PageSettings:
    """One `settings.apply`: the endpoint, the chats' limits and the tools' limits."""

    settings: Settings
    limits: PageLimits
    tools: ToolSettings

    @classmethod
    def from_message(cls, values: dict[str, object]) -> PageSettings:
        approve = values.get("auto_approve")
        limits = PageLimits(
            max_rounds=bounded(values.get("max_rounds"), MAX_ROUNDS),
            auto_approve=_approvals(approve),
            changes="review" if values.get("changes") == "review" else "apply",
        )
        settings = Settings.from_message(values)
        tools = replace(_tool_settings(values.get("eval_timeout_s")), takes_images=settings.takes_images)
        return cls(settings, limits, tools)


def bounded(value: object, bound: Bound) -> int | None:
    """An integer setting clamped to its bounds; None when it is missing, zero or not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = int(float(value))
    except (ValueError, OverflowError):
        return None
    return min(bound.high, max(bound.low, number)) if number else None


def _tool_settings(eval_timeout_s: object) -> ToolSettings:
    try:
        seconds = float(eval_timeout_s or 0)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seconds = 0
    if not seconds:
        return ToolSettings()
    bound = EVAL_TIMEOUT_S
    return replace(ToolSettings(), eval_timeout_ms=int(min(bound.high, max(bound.low, seconds)) * 1000))


def _approvals(value: object) -> tuple[str, ...] | None:
    if value is True or value == "all":
        return ("all",)
    if isinstance(value, list):
        return tuple(str(kind) for kind in value)
    return None
