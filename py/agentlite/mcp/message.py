"""JSON-RPC 2.0 messages as MCP sends them: building requests, reading what a server sends back.

Pure: dicts in, dicts out. A server's message is untrusted data: anything that is not a well-formed
response, notification or request is a protocol failure, never a crash.
"""

from __future__ import annotations

import enum
import json
from typing import Any

from agentlite.mcp.failure import FailureKind, McpFailure


class Shape(enum.Enum):
    RESPONSE = "response"
    NOTIFICATION = "notification"
    REQUEST = "request"


def request(ident: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        body["params"] = params
    return body


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        body["params"] = params
    return body


def reply(ident: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def error_reply(ident: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def decode(text: str) -> list[dict[str, Any]]:
    """The messages in one body or one SSE event's data (a JSON object, or a batch of them)."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise McpFailure(
            FailureKind.PROTOCOL, f"the server sent something that is not JSON: {text[:80]!r}"
        ) from exc
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(item, dict) for item in items):
        raise McpFailure(FailureKind.PROTOCOL, "the server sent JSON that is not a JSON-RPC message")
    return items


def shape(message: dict[str, Any]) -> Shape:
    if "method" in message:
        return Shape.REQUEST if "id" in message else Shape.NOTIFICATION
    if "id" in message and ("result" in message or "error" in message):
        return Shape.RESPONSE
    raise McpFailure(FailureKind.PROTOCOL, "the server sent a JSON-RPC message of no known shape")


def result_of(message: dict[str, Any]) -> dict[str, Any]:
    """The result of a response, or the McpFailure its error object describes."""
    error = message.get("error")
    if error is not None:
        raise rpc_failure(error)
    result = message.get("result")
    if not isinstance(result, dict):
        raise McpFailure(FailureKind.PROTOCOL, "the server's result is not an object")
    return result


def rpc_failure(error: Any) -> McpFailure:
    if not isinstance(error, dict):
        return McpFailure(FailureKind.PROTOCOL, "the server sent a malformed error")
    code = error.get("code")
    text = error.get("message")
    return McpFailure(
        FailureKind.RPC,
        str(text)[:500] if text else "the server reported an error",
        code=code if isinstance(code, int) and not isinstance(code, bool) else None,
        data=error.get("data"),
    )
