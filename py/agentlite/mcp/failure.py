"""`McpFailure`: everything that can go wrong talking to an MCP server, typed once.

Each kind maps to one tool error type (tools/result.py), so the model hears why a call failed, and the
connection state the page will show (needs-auth, unreachable, error) reads the same kind.
"""

from __future__ import annotations

import enum
from typing import Any

from agentlite.tools.result import ToolErrorType


class FailureKind(enum.StrEnum):
    AUTH = "auth"  # 401/403: the server wants a (different) bearer token
    NETWORK = "network"  # cannot connect, or the connection dropped before an answer
    TIMEOUT = "timeout"  # no answer in time
    HTTP = "http"  # an HTTP error without a JSON-RPC error in its body
    RPC = "rpc"  # a JSON-RPC error object
    PROTOCOL = "protocol"  # the server broke the protocol (bad JSON, no result, no common revision)
    TOO_LARGE = "too_large"  # the answer passed the byte limit
    INPUT = "input"  # the server asked for user input this client cannot give yet


# JSON-RPC error codes that say the call itself was wrong.
INVALID_PARAMS = -32602
METHOD_NOT_FOUND = -32601
UNSUPPORTED_VERSION = -32022

_TOOL_ERRORS = {
    FailureKind.AUTH: ToolErrorType.DENIED,
    FailureKind.NETWORK: ToolErrorType.UNREACHABLE,
    FailureKind.TIMEOUT: ToolErrorType.TIMEOUT,
    FailureKind.TOO_LARGE: ToolErrorType.TOO_LARGE,
}


class McpFailure(Exception):
    """A failed exchange with an MCP server; the message is safe to show (never holds the token)."""

    def __init__(
        self,
        kind: FailureKind,
        message: str,
        *,
        code: int | None = None,
        status: int | None = None,
        data: Any = None,
        challenge: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.code = code
        self.status = status
        self.data = data
        self.challenge = challenge  # a 401/403's WWW-Authenticate: where sign-in starts (mcp.oauth_metadata)

    @property
    def tool_error(self) -> ToolErrorType:
        if self.kind is FailureKind.RPC:
            if self.code == INVALID_PARAMS:
                return ToolErrorType.INVALID_ARGUMENT
            if self.code == METHOD_NOT_FOUND:
                return ToolErrorType.NOT_FOUND
        return _TOOL_ERRORS.get(self.kind, ToolErrorType.REMOTE)

    def __str__(self) -> str:
        where = f" (HTTP {self.status})" if self.status else ""
        code = f" [{self.code}]" if self.code is not None else ""
        return f"{self.message}{code}{where}"
