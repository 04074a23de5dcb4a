"""The hand-off file: one project (files, history, chats, memory, MCP servers, attachments, settings) as
one verified zip another browser opens as a new project (docs/handoff-format.md)."""

from agentlite.handoff.handoff_contents import Handoff
from agentlite.handoff.handoff_format import HandoffRefused
from agentlite.handoff.handoff_open import open_handoff
from agentlite.handoff.handoff_reader import read_handoff
from agentlite.handoff.handoff_records import check_contents
from agentlite.handoff.handoff_writer import collect_handoff, encode_handoff, write_handoff

__all__ = [
    "Handoff",
    "HandoffRefused",
    "check_contents",
    "collect_handoff",
    "encode_handoff",
    "open_handoff",
    "read_handoff",
    "write_handoff",
]
