"""The file tools, in the order the model sees them: look (list, read, search), then change.

Split by what they do: `reading` (list_directory, read_file, search), `editing` (edit_file) and
`writing` (create, write, delete, move, rename, create a folder).
"""

from __future__ import annotations

from agentlite.tools import editing, reading, writing
from agentlite.tools.registry import Tool

FILE_TOOLS: list[Tool] = [
    *reading.TOOLS,
    writing.TOOLS[0],
    writing.TOOLS[1],
    editing.TOOL,
    *writing.TOOLS[2:],
]
