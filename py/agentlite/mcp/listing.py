"""The listing budget: a server's tools offered within a fixed share of the context window, whatever it
sends.

A server's listing is offered in full (the server's description and JSON schema of each tool) while its
cost stays within the server's budget (3,200 tokens, just under a tenth of a 32k window; less when several
servers share `ALL_BUDGET`). Past it, each tool is offered compactly: its name, the first sentence of its
description and the plain names of its top-level arguments (the required ones marked), each cut, with
an open object as its schema; compact tools are offered in the server's order until the budget is
spent, and the last one offered says how many more were left out ("N more tools of the MCP server `x`
are not offered"), as the Servers panel does. The full schema is not lost: the arguments are still
checked against it, and a call whose arguments it refuses gets it back in the error, so the model reads
the schema on demand, for the one tool it is using (docs/mcp.md, "The listing budget").

The cost of a text is its count by the real tokenizer once the worker has it (`engine.tokens.use`);
until then the estimate can be fooled (nonsense words, symbols, emoji cost up to five times what it
says), so the cost is the larger of the estimate and a third of the text's ASCII characters plus two
thirds of its other bytes, and the servers fit their tools again once the tokenizer has come
(mcp.servers). A tool is counted in the most verbose shape a request gives it (the native `tools`).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import re
from typing import Any

from agentlite.engine.tokens import estimate, installed
from agentlite.mcp.schema import Checker
from agentlite.tools.registry import Tool
from agentlite.tools.result import ToolError, ToolErrorType

OPEN_OBJECT: dict[str, Any] = {"type": "object", "properties": {}}
DEFAULT_BUDGET = 3_200  # tokens of one server's tool definitions at most (just under a tenth of 32k)
ALL_BUDGET = 6_400  # tokens of every server's together at most (the servers share it)
SERVER_SHARE = 0.10  # of the chat's context window, for one server's tools
ALL_SHARE = 0.20  # of the chat's context window, for every server's together
MAX_LINE = 100  # characters of a compact description's sentence
MAX_ARGUMENTS = 24  # argument names a compact description names
MAX_ARGUMENT_NAME = 40  # characters; a longer or odd name is counted, not named
MAX_SCHEMA_IN_ERROR = 8_000  # characters of the full schema an argument error carries
MAX_SLUG_IN_NOTE = 64
_SENTENCE = re.compile(r"(?<=[.!?])\s")
_PLAIN_NAME = re.compile(rf"[A-Za-z0-9_.$-]{{1,{MAX_ARGUMENT_NAME}}}")


@dataclasses.dataclass(frozen=True)
class Listing:
    """A server's tools as offered, and how many of them the budget left out."""

    tools: list[Tool]
    left_out: int = 0


def server_budget(window: int | None, servers: int) -> int:
    """One server's budget in a request to a `window`-token context (None: not known yet): a share of the
    window, at most the fixed caps, and less when `servers` share what all servers may take."""
    own, every = DEFAULT_BUDGET, ALL_BUDGET
    if window is not None:
        own, every = min(own, int(window * SERVER_SHARE)), min(every, int(window * ALL_SHARE))
    return max(0, min(own, every // max(1, servers)))


def cost(text: str) -> int:
    """What a text costs in the budget: the real tokenizer's count, else the estimate or a byte-based
    floor (a third of the ASCII characters and two thirds of the other bytes), whichever is more."""
    real = installed()
    if real is not None:
        return real(text)
    ascii_chars = len(text.encode("ascii", "ignore"))
    other = len(text.encode("utf-8", "replace")) - ascii_chars
    return max(estimate(text), math.ceil(ascii_chars / 3 + other / 1.5))


def tool_cost(tool: Tool) -> int:
    """A tool's cost as the most verbose request shape carries it (the native dialect's `tools`)."""
    return cost(json.dumps({"type": "function", "function": _offered(tool)}, ensure_ascii=False))


def listing_tokens(tools: list[Tool], stop_after: int | None = None) -> int:
    """The cost of the tools' definitions as a request carries them (counting stops past `stop_after`)."""
    total = 0
    for tool in tools:
        total += tool_cost(tool)
        if stop_after is not None and total > stop_after:
            break
    return total


def fit(tools: list[Tool], server: str, said: dict[str, str], budget: int = DEFAULT_BUDGET) -> Listing:
    """The tools as offered: unchanged within the budget, else compact, as many as the budget holds.
    `said`: each tool's description as the server wrote it, by registry name."""
    if listing_tokens(tools, stop_after=budget) <= budget:
        return Listing(tools)
    spent = cost(note(len(tools), server))  # room for the note, kept whatever follows
    offered: list[Tool] = []
    for tool in tools:
        compact = _compact(tool, server, said.get(tool.name, ""))
        spent += tool_cost(compact)
        if spent > budget:
            break
        offered.append(compact)
    # The note joins the last tool's description, and a tokenizer does not count joined text as the sum
    # of its parts: the listing is counted whole, with its note, and loses its last tool until it fits.
    while offered and len(offered) < len(tools):
        left_out = len(tools) - len(offered)
        last = offered[-1]
        text = f"{last.description} ({note(left_out, server)})"
        noted = [*offered[:-1], dataclasses.replace(last, description=text, brief=text)]
        if sum(tool_cost(t) for t in noted) <= budget:
            return Listing(noted, left_out)
        offered.pop()
    return Listing(offered, len(tools) - len(offered))


def note(left_out: int, server: str) -> str:
    """What the model reads of the tools the budget left out."""
    slug = server[:MAX_SLUG_IN_NOTE]
    return f"{left_out} more tools of the MCP server `{slug}` are not offered: its listing is past its budget"


def one_line(text: str) -> str:
    """The first sentence of `text`, at most MAX_LINE characters, with no double quote (it would end the
    quote the server's words sit in)."""
    first = _SENTENCE.split(" ".join(text[: MAX_LINE * 4].split()), maxsplit=1)[0].replace('"', "'")
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
    """The top-level arguments as the compact description names them: required first, marked so; at most
    MAX_ARGUMENTS plain names, the rest counted (their names are in the full schema)."""
    properties = _properties(schema)
    required = _required(schema, properties)
    ordered = required + [name for name in properties if name not in set(required)]
    shown = [name for name in ordered if _PLAIN_NAME.fullmatch(name)][:MAX_ARGUMENTS]
    marked = set(required)
    named = [f"{name} (required)" if name in marked else name for name in shown]
    more = len(ordered) - len(shown)
    if more:
        named.append(f"{more} more named in the full schema")
    return f" Arguments: {', '.join(named)}." if named else " No arguments."


def _properties(schema: dict[str, Any]) -> list[str]:
    found = schema.get("properties")
    return [str(name) for name in found] if isinstance(found, dict) else []


def _required(schema: dict[str, Any], properties: list[str]) -> list[str]:
    required = schema.get("required")
    known = set(properties)
    names = [str(name) for name in required if str(name) in known] if isinstance(required, list) else []
    return list(dict.fromkeys(names))


def _offered(tool: Tool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.brief or tool.description, "parameters": tool.parameters()}


def _compact(tool: Tool, server: str, said: str) -> Tool:
    schema = tool.args.schema if isinstance(tool.args, CompactSchema) else tool.parameters()
    text = f'MCP server `{server}` says: "{one_line(said)}"{argument_names(schema)}'
    return dataclasses.replace(tool, description=text, brief=text, args=CompactSchema(schema))
