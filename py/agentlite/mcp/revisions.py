"""The MCP revisions this client speaks and the names they put on the wire, written once: the client
(client.py, wire.py) reads them here, and the page's connection doctor reads them from
web/src/generated/mcp.json, which buildsys/build/page_facts.py writes from this table, so its probes ask a
server exactly as the client will (docs/mcp.md, Connection doctor)."""

from __future__ import annotations

HANDSHAKE_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")  # the session handshake's, oldest first
MODERN_VERSIONS = ("2026-07-28",)  # the stateless revision's (`server/discover`)
CLIENT_INFO = {"name": "agentlite", "version": "0.1.0"}

# The stateless revision's envelope: what every request carries in `params._meta`, and the server's answer.
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT = "io.modelcontextprotocol/clientInfo"
META_SERVER = "io.modelcontextprotocol/serverInfo"

# The MCP headers a request may carry (besides Accept, Content-Type and Authorization), which a server
# reached from a page must name in its CORS preflight answer.
VERSION_HEADER = "MCP-Protocol-Version"
SESSION_HEADER = "Mcp-Session-Id"  # the handshake's session; the server sends it, the client repeats it
METHOD_HEADER = "Mcp-Method"  # the stateless revision's copy of the method
NAME_HEADER = "Mcp-Name"  # and of the tool, prompt or resource named (client.NAMED)
RESUME_HEADER = "Last-Event-ID"  # a stream picked up again where it was cut (wire.py)
REQUEST_HEADERS = (VERSION_HEADER, SESSION_HEADER, METHOD_HEADER, NAME_HEADER, RESUME_HEADER)
