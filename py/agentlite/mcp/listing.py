"""The listing budget: a server's tools offered within a share of the context window.

A server's listing is offered in full (the server's description and JSON schema of each tool) while its
estimated size stays within the budget (3,000 tokens, about a tenth of a 32k window). Past it, every tool
of that server is offered compactly: its name, the first sentence of its description and the names of
its top-level arguments (the required ones marked), with an open object as its schema.
The full schema is not lost: the arguments are still checked against it, and a call whose arguments it
refuses gets it back in the error, so the model reads the schema on demand, for the one tool it is using
(docs/mcp.md, "The listing budget").
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from typing import Any

from agentlite.engine.tokens import estimate
from agentlite.mcp.schema import Checker
from agentlite.tools.registry import Tool
from agentlite.tools.result import ToolError, ToolErrorType

OPEN_OBJECT: dict[str, Any] = {"type": "object", "properties": {}}
DEFAULT_BUDGET = 3_000  # estimated tokens of one server's tool definitions
MAX_LINE = 100  # characters of a compact description's sentence
MAX_SCHEMA_IN_ERROR = 8_000  # characters of the full schema an argument error carries
_SENTENCE = re.compile(r"(?<=[.!?])\s")


def listing_tokens(tools: list[Tool]) -> int:
    """The estimated tokens of the tools' definitions as a request carries them."""
    return sum(estimate(json.dumps(_offered(tool), ensure_ascii=False)) for tool in tools)


def fit(tools: list[Tool], server: str, said: dict[str, str], budget: int = DEFAULT_BUDGET) -> list[Tool]:
    """The tools as offered: unchanged within the budget, else each compact. `said`: each tool's
    description as the server wrote it, by registry name."""
    if listing_tokens(tools) <= budget:
        return tools
    return [_compact(tool, server, said.get(tool.name, "")) for tool in tools]


def one_line(text: str) -> str:
    """The first sentence of `text`, at most MAX_LINE characters."""
    first = _SENTENCE.split(" ".join(text.split()), maxsplit=1)[0]
    return first if len(first) <= MAX_LINE else first[: MAX_LINE - 1] + "…"


@dataclasses.dataclass(frozen=True)
class CompactSchema:
    """Offers an open object; checks against the full schema, and gives it back in the
    error when the arguments are wrong."""

    schema: dict[str, Any]

    def parameters(self) -> dict[str, Any]:
        return dict(OPEN_OBJECT)

    def check(self, arguments: dict[str, Any]) -> dict[str, Any]:
        problems = Checker(self.schema).errors(arguments)
        if problems:
            full = json.dumps(self.schema, ensure_ascii=False)
            if len(full) > MAX_SCHEMA_IN_ERROR:
                full = full[:MAX_SCHEMA_IN_ERROR] + " [cut]"
            message = "invalid arguments: " + "; ".join(problems) + f". The tool's full schema: {full}"
            raise ToolError(ToolErrorType.INVALID_ARGUMENT, message)
        return copy.deepcopy(arguments)


def argument_names(schema: dict[str, Any]) -> str:
    """The top-level arguments as the compact description names them: required first, marked so."""
    properties = _properties(schema)
    required = _required(schema, properties)
    optional = [name for name in properties if name not in required]
    named = [f"{name} (required)" for name in required] + optional
    return f" Arguments: {', '.join(named)}." if named else " No arguments."


def _properties(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found = schema.get("properties")
    if not isinstance(found, dict):
        return {}
    return {str(name): spec if isinstance(spec, dict) else {} for name, spec in found.items()}


def _required(schema: dict[str, Any], properties: dict[str, dict[str, Any]]) -> list[str]:
    required = schema.get("required")
    return [str(name) for name in required if str(name) in properties] if isinstance(required, list) else []


def _offered(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.brief or tool.description, "parameters": tool.parameters()}


def _compact(tool: Tool, server: str, said: str) -> Tool:
    schema = tool.args.schema if isinstance(tool.args, CompactSchema) else tool.parameters()
    text = f'MCP server `{server}` says: "{one_line(said)}"{argument_names(schema)}'
    return dataclasses.replace(tool, description=text, brief=text, args=CompactSchema(schema))
