"""The client as the official MCP conformance suite drives it: `python -m agentlite.mcp.conformance_client
URL` (the suite appends the URL and names the scenario in `MCP_CONFORMANCE_SCENARIO`).

It does what the agent does with a server: connect (negotiating the revision), list the tools, call each
with arguments made from its schema, close. Exit code 0 when every step worked (tests/unit/mcp/
test_conformance.py runs the suite's client scenarios against it).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import McpFailure
from agentlite.mcp.urllib_transport import UrllibTransport

SAMPLES: dict[str, Any] = {"number": 5, "integer": 3, "string": "conformance", "boolean": True}


def sample_arguments(schema: Any) -> dict[str, Any]:
    """One value of the right type for every required property (and for the rest when typed)."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    arguments = {}
    for name, spec in properties.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        if isinstance(kind, str) and kind in SAMPLES:
            arguments[name] = SAMPLES[kind]
    return arguments


async def exercise(url: str) -> list[str]:
    """Connect, list, call every tool, close; what happened, one line each."""
    client = McpClient(url, UrllibTransport(timeout=20), timeout=25)
    await client.connect()
    said = [f"connected: {client.revision} {client.server_name}"]
    for tool in await client.list_tools():
        result = await client.call_tool(tool["name"], sample_arguments(tool.get("inputSchema")))
        said.append(f"called {tool['name']}: error={result.get('isError') is True}")
    await client.close()
    return said


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python -m agentlite.mcp.conformance_client URL", file=sys.stderr)
        return 2
    try:
        for line in asyncio.run(exercise(argv[-1])):
            print(line)
    except McpFailure as failure:
        print(f"failed: {failure.kind.value}: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
