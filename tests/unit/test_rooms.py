"""The rooms' own work, on CPython: what the switchboard hands them comes back as the page reads it."""

from __future__ import annotations

import asyncio
import base64

import pytest

from agentlite.editor_state import EditorState
from agentlite.engine.locks import ResourceLocks
from agentlite.rooms.editor_room import EditorRoom
from agentlite.rooms.file_room import FileRoom
from agentlite.rooms.transfer_room import TransferRoom
from agentlite.tools.context import ToolContext
from agentlite.workspace import Workspace
from agentlite.workspace.storage import MemoryStorage


async def _no_packages(_names: list[str]) -> None:
    return None


def test_a_saved_attachment_gets_a_free_safe_name() -> None:
    async def scenario() -> list[str]:
        workspace = await Workspace.open(MemoryStorage())
        room = FileRoom(workspace, ResourceLocks())
        data = base64.b64encode(b"\x89PNG").decode()
        return [
            await room.save_attachment(name, data) for name in ("my file.png", "my file.png", "../..", "x")
        ]

    assert asyncio.run(scenario()) == [
        "/attachments/my_file.png",
        "/attachments/my_file-2.png",
        "/attachments/attachment",
        "/attachments/x",
    ]


def test_a_folder_in_batches_is_one_change_and_a_batch_whose_sizes_lie_is_refused() -> None:
    async def scenario() -> tuple[str | None, str | None, int]:
        workspace = await Workspace.open(MemoryStorage())
        room = TransferRoom(workspace, {}, _no_packages)
        key = room.import_start()
        room.import_add(key, [{"path": "/a.txt", "size": 1}], base64.b64encode(b"A").decode(), None)
        room.import_add(key, [{"path": "/b.txt", "size": 2}], base64.b64encode(b"BB").decode(), ["/empty"])
        with pytest.raises(ValueError, match="do not add up"):
            room.import_add(key, [{"path": "/c.txt", "size": 5}], base64.b64encode(b"C").decode(), None)
        await room.import_finish(key, False, None)
        history = await workspace.history("/a.txt")
        return await workspace.read_text("/a.txt"), await workspace.read_text("/b.txt"), len(history)

    assert asyncio.run(scenario()) == ("A", "BB", 1)


def test_the_editor_room_is_what_a_turns_tools_read_from_start_to_end() -> None:
    room = EditorRoom()
    room.changed(EditorState.from_message("/a.md"))
    context = room.follow("t1", ToolContext(None, "t1", editor_path="/stale.md"))  # type: ignore[arg-type]
    assert context.editor_path == "/a.md"
    room.changed(EditorState.from_message("/b.md"))
    assert context.editor_path == "/b.md" and room.state.open_file == "/b.md"
