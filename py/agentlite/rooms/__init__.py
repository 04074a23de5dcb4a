"""The rooms: one object per group of the page's calls, owning that group's work (`agentlite.calls`
only checks a call and hands it to its room). The service wires them and uses them too: the chats'
room is the one that starts every turn, the editor's room the one holder of the editor's state."""

from __future__ import annotations

from dataclasses import dataclass

from agentlite.rooms.chat_room import ChatRoom
from agentlite.rooms.connection_room import ConnectionRoom
from agentlite.rooms.demo_room import DemoRoom
from agentlite.rooms.editor_room import EditorRoom
from agentlite.rooms.file_room import FileRoom
from agentlite.rooms.handoff_room import HandoffRoom
from agentlite.rooms.mcp_room import McpRoom
from agentlite.rooms.memory_room import MemoryRoom
from agentlite.rooms.settings_room import SettingsRoom
from agentlite.rooms.skills_room import SkillsRoom
from agentlite.rooms.stage_room import StageRoom
from agentlite.rooms.transfer_room import TransferRoom
from agentlite.rooms.worker_room import WorkerRoom


@dataclass(frozen=True)
class Rooms:
    files: FileRoom
    transfers: TransferRoom
    chats: ChatRoom
    memory: MemoryRoom
    skills: SkillsRoom
    connection: ConnectionRoom
    demo: DemoRoom
    settings: SettingsRoom
    editor: EditorRoom
    worker: WorkerRoom
    mcp: McpRoom
    handoff: HandoffRoom
    stage: StageRoom
