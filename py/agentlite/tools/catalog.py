"""Every tool the model is offered, built once into one registry.

From it come the OpenAI `tools` list (native dialect) and the definitions the prompt dialects and the
stream decoders read (json, ndjson, ndjson-text); see `ToolRegistry`.

The tool modules define pydantic argument models, so they are imported when the tools are first
needed, not with this module: the agent starts without pydantic (docs/startup.md).
"""

from __future__ import annotations

from dataclasses import replace

from agentlite.tools.registry import Tool, ToolRegistry


def all_tools() -> list[Tool]:
    from agentlite.tools import code, editor, page_hands, page_preview, problems_tool, skill_loader, summary
    from agentlite.tools.briefs import BRIEFS
    from agentlite.tools.files import FILE_TOOLS

    tools = [*FILE_TOOLS, *code.TOOLS, page_preview.TOOL, *page_hands.TOOLS, skill_loader.TOOL, summary.TOOL]
    tools += [editor.TOOL, problems_tool.TOOL]
    return [replace(tool, brief=BRIEFS.get(tool.name, tool.brief)) for tool in tools]


def default_registry() -> ToolRegistry:
    """A fresh registry with every tool (canonical names and aliases as in the contract), built on
    first use."""
    return ToolRegistry.deferred(all_tools)
