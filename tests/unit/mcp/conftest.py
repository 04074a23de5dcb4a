"""The real MCP servers of tests/mcp_servers.py, for every test here."""

from tests.mcp_servers import (
    auth_server,
    mcp_server,
    nocors_server,
    oauth_server,
    stateful_server,
    stateless_server,
)

__all__ = [
    "auth_server",
    "mcp_server",
    "nocors_server",
    "oauth_server",
    "stateful_server",
    "stateless_server",
]
