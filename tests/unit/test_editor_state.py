"""The editor's file and selection reach the engine: with each message (the prompt's open-document layer)
and when they change (the tools of a running turn write the file now open); malformed values from the page
count as nothing open."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from agentlite.editor_state import MAX_SELECTION_CHARS, EditorState, Selection
from agentlite.service import AgentService
from agentlite.transport import HttpRequest, ScriptedResponse, ScriptedTransport
from agentlite.workspace import Workspace
from agentlite.workspace.storage import MemoryStorage
from tests.unit.engine.support import calls, say
from tests.unit.test_service import apply_settings, call, drain, send

ENDPOINT = {"base_url": "http://model.test/v1", "model": "m1", "dialect": "native"}


def test_a_selection_names_its_lines() -> None:
    selection = Selection.from_message({"start_line": 3, "end_line": 2, "text": "two\nthree"})
    assert selection == Selection(2, 3, "two\nthree")
    assert selection.describe() == "(lines 2-3)\ntwo\nthree"
    assert Selection(4, 4, "x").describe() == "(line 4)\nx"


def test_a_very_long_selection_is_cut_with_a_note() -> None:
    described = Selection(1, 900, "y" * (MAX_SELECTION_CHARS + 10)).describe()
    assert described.endswith("[... 10 more characters]")
    assert len(described) < MAX_SELECTION_CHARS + 100


@pytest.mark.parametrize(
    "value",
    [None, "text", {"text": ""}, {"text": "a"}, {"start_line": 0, "end_line": 1, "text": "a"},
     {"start_line": True, "end_line": 1, "text": "a"}, {"start_line": 1, "end_line": "2", "text": "a"},
     {"start_line": 1, "end_line": 2, "text": 5}],
)  # fmt: skip
def test_a_malformed_selection_is_no_selection(value: Any) -> None:
    assert Selection.from_message(value) is None


def test_no_open_file_means_no_selection() -> None:
    state = EditorState.from_message(None, {"start_line": 1, "end_line": 1, "text": "a"})
    assert state == EditorState()
    assert EditorState.from_message(42).open_file is None
    assert EditorState.from_message("x" * 5000).open_file is None


async def app_service(responder: Any) -> tuple[AgentService, ScriptedTransport, list[dict[str, Any]]]:
    posted: list[dict[str, Any]] = []
    workspace = await Workspace.open(MemoryStorage())
    await workspace.write_text("/src/a.ts", "one\ntwo\nthree\n", author="user")
    await workspace.write_text("/src/b.ts", "bee\n", author="user")
    transport = ScriptedTransport(responder)
    service = AgentService(posted.append, workspace, lambda _s: transport)
    apply_settings(service, {**ENDPOINT, "auto_approve": ["overwrite"]})
    return service, transport, posted


def user_context(request: HttpRequest) -> str:
    assert request.body is not None
    return json.dumps([m for m in request.body["messages"] if m["role"] == "user"])


def test_the_open_file_and_selection_go_into_the_turns_prompt() -> None:
    selection = {"start_line": 2, "end_line": 3, "text": "two\nthree"}

    async def scenario() -> ScriptedTransport:
        service, transport, _ = await app_service(lambda _r: say("ok"))
        send(service, {"id": "c", "text": "explain this", "open_file": "/src/a.ts", "selection": selection})
        await drain(service)
        return transport

    transport = asyncio.run(scenario())
    chat = [r for r in transport.requests if r.url.endswith("/chat/completions")]
    sent = json.loads(user_context(chat[0]))[0]["content"]
    assert "Current document: /src/a.ts" in sent
    assert "Selected text:\n(lines 2-3)\ntwo\nthree" in sent


async def edited_while_waiting(
    sends: list[dict[str, Any]], replies: list[ScriptedResponse]
) -> tuple[str | None, str | None]:
    """Each of `sends`, then the user opens /src/b.ts while the model holds its answers back; the two
    files after every turn ended."""
    gate = asyncio.Event()

    async def responder(request: HttpRequest) -> ScriptedResponse:
        if not request.url.endswith("/chat/completions"):
            return ScriptedResponse(404, [b"{}"])
        await gate.wait()
        return replies.pop(0)

    service, _, _ = await app_service(responder)
    for message in sends:
        send(service, message)
        for _ in range(50):  # until the turn is waiting on the model (or queued behind one that is)
            await asyncio.sleep(0)
    call(service, "editor.changed", {"open_file": "/src/b.ts", "selection": None})
    for _ in range(5):
        await asyncio.sleep(0)
    gate.set()
    await drain(service)
    workspace = service.workspace
    return await workspace.read_text("/src/a.ts"), await workspace.read_text("/src/b.ts")


def test_the_editor_tool_writes_the_file_open_now_even_when_it_changed_during_the_turn() -> None:
    """The message names /src/a.ts; the user opens /src/b.ts before the model's call arrives."""
    sends = [{"id": "c", "text": "rewrite it", "open_file": "/src/a.ts"}]
    replies = [calls(("edit_current_editor_document", {"content": "new bee\n"})), say("done")]
    assert asyncio.run(edited_while_waiting(sends, replies)) == ("one\ntwo\nthree\n", "new bee\n")


def test_without_an_open_file_the_editor_tool_tells_the_model_to_use_a_path() -> None:
    replies = [calls(("edit_current_editor_document", {"content": "x"})), say("ok")]

    def responder(request: HttpRequest) -> ScriptedResponse:
        return replies.pop(0) if request.url.endswith("/chat/completions") else ScriptedResponse(404, [b"{}"])

    async def scenario() -> ScriptedTransport:
        service, transport, _ = await app_service(responder)
        send(service, {"id": "c", "text": "rewrite it"})
        await drain(service)
        return transport

    transport = asyncio.run(scenario())
    last = [r for r in transport.requests if r.url.endswith("/chat/completions")][-1]
    assert last.body is not None
    tool_results = [m["content"] for m in last.body["messages"] if m["role"] == "tool"]
    assert "no document is open in the editor" in tool_results[0]


def test_a_turn_queued_behind_another_writes_the_file_open_when_it_starts() -> None:
    """The second message names /src/a.ts and waits behind the first turn; the user opens /src/b.ts
    before it starts. Its tools read the one editor state, so they write /src/b.ts."""
    sends = [{"id": "c", "text": "first"}, {"id": "c", "text": "rewrite it", "open_file": "/src/a.ts"}]
    replies = [
        say("first done"),
        calls(("edit_current_editor_document", {"content": "new bee\n"})),
        say("done"),
    ]
    assert asyncio.run(edited_while_waiting(sends, replies)) == ("one\ntwo\nthree\n", "new bee\n")
