"""The page's commands are checked once into typed objects, and nothing on the way from the page's call
to the turn is typed `Any`."""

from __future__ import annotations

import asyncio
import typing
from typing import Any

from agentlite import calls
from agentlite.commands import PageSettings, SendMessage
from agentlite.editor_state import EditorState
from agentlite.engine import session, turn
from agentlite.engine.turn_deps import Attachment, TurnOptions
from agentlite.rooms.chat_room import ChatRoom
from agentlite.rooms.settings_room import SettingsRoom
from tests.unit.test_service import apply_settings, drain, make_service, send

SEND_PATH = (
    calls.CallHandler.chats_send,
    calls.CallHandler.settings_apply,
    ChatRoom.send,
    SettingsRoom.apply,
    session.ChatSession.start_turn,
    session.ChatSession.new_turn,
    turn.Turn.__init__,
)


def _mentions_any(hint: object) -> bool:
    return hint is Any or any(_mentions_any(arg) for arg in typing.get_args(hint))


def test_nothing_between_the_pages_call_and_the_turn_is_typed_any() -> None:
    untyped = [
        f"{fn.__qualname__}({name})"
        for fn in SEND_PATH
        for name, hint in typing.get_type_hints(fn).items()
        if _mentions_any(hint)
    ]
    for command in (SendMessage, PageSettings, TurnOptions, Attachment):
        untyped += [
            f"{command.__name__}.{n}" for n, h in typing.get_type_hints(command).items() if _mentions_any(h)
        ]
    assert untyped == []


def test_a_send_is_checked_into_typed_options() -> None:
    editor = EditorState.from_message("/a.md", {"start_line": 2, "end_line": 3, "text": "hi"})
    attached = ["/b.md", {"path": "/c.md", "content": "C"}, {"content": "D"}, {"path": ""}, 7, None]
    sent = SendMessage.of(
        "c1", "hello", mode="agent", tool="read_file", references=attached, editor=editor, edit="m3"
    )
    assert sent.options == TurnOptions(
        mode="agent",
        tool="read_file",
        references=(Attachment("/b.md"), Attachment("/c.md", "C"), Attachment("attachment", "D")),
        open_file="/a.md",
        selection="(lines 2-3)\nhi",
        edit="m3",
    )
    assert (sent.chat_id, sent.text, sent.editor) == ("c1", "hello", editor)


def test_malformed_send_values_count_as_not_given() -> None:
    sent = SendMessage.of(
        5, ["x"], mode="boss", tool=3, references="/a.md", editor=EditorState(), regenerate=1
    )
    assert (sent.chat_id, sent.text) == ("5", "")
    assert sent.options == TurnOptions()


def test_page_settings_carry_the_chats_limits_clamped() -> None:
    page = PageSettings.from_message({"max_rounds": "500", "auto_approve": ["delete"], "eval_timeout_s": 30})
    assert (page.limits.max_rounds, page.limits.auto_approve) == (50, ("delete",))
    assert page.tools.eval_timeout_ms == 30_000
    unset = PageSettings.from_message({"max_rounds": "many", "auto_approve": None})
    assert (unset.limits.max_rounds, unset.limits.auto_approve) == (None, None)
    assert PageSettings.from_message({"auto_approve": True}).limits.auto_approve == ("all",)


def test_the_chats_limits_live_in_every_chat_and_a_send_does_not_carry_them() -> None:
    service_, _posted, seen = make_service()

    async def scenario() -> tuple[int, int, list[str], int]:
        send(service_, {"id": "old", "text": "hi"})
        await drain(service_)
        apply_settings(service_, {"model": "demo", "max_rounds": 3, "auto_approve": ["delete"]})
        await drain(service_)
        old = service_.chats["old"].settings.max_rounds
        sends = len(seen)
        send(service_, {"id": "new", "text": "hi"})
        send(service_, {"id": "new", "text": "again"})
        await drain(service_)
        new = service_.chats["new"].settings
        return old, new.max_rounds, new.auto_approve, len(seen) - sends

    old, new, approved, links_made = asyncio.run(scenario())
    assert (old, new, approved) == (3, 3, ["delete"])
    assert links_made == 0  # the link was made with the settings, not with each message
