"""The conversation engine: chat states, the tool loop, error strategies, approvals, context and memory.

`Engine` (engine.engine) is shared by the chats of a workspace; `ChatSession` (engine.session) is one tab.
The events a chat emits are the dataclasses of `engine.chat_events`.
"""

from agentlite.engine.engine import Engine
from agentlite.engine.session import ChatSession

__all__ = ["ChatSession", "Engine"]
