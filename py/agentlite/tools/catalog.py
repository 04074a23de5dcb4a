"""Every tool the model is offered, built once into one registry.

From it come the OpenAI `tools` list (native dialect) and the definitions the prompt dialects and the
stream decoders read (json, ndjson, ndjson-text); see `ToolRegistry`.
"""

from __future__ import annotations

from agentlite.tools import code, editor, summary
from agentlite.tools.files import FILE_TOOLS
from agentlite.tools.registry import Tool, ToolRegistry


def all_tools() -> list[Tool]:
    return [*FILE_TOOLS, *code.TOOLS, summary.TOOL, editor.TOOL]


def default_registry() -> ToolRegistry:
    """A fresh registry with every tool (canonical names and aliases as in the contract)."""
    return ToolRegistry(all_tools())
