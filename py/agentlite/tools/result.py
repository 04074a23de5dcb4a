"""One result shape for every tool: `{code, message, data, errorType}` (origins: orchestration).

`code` is 0 on success and 1 on failure; `errorType` comes from a small taxonomy so the engine and
the model can tell a missing path from a rejected approval: `rejected` is the user's refusal of a call,
`denied` a refusal by the app itself (this tab's storage was closed by a newer version of the app in
another tab), `too_large` also covers a full browser storage. `remote` is a failure a remote tool server
reported (an MCP tool's own error, a JSON-RPC error, a broken answer), `unreachable` a server that could
not be reached or dropped the call (docs/mcp.md). A result may carry images (`tools.images`, checked
there); `for_model()` stays text, the request adds the images when the model takes them.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from typing import Any

from agentlite.tools.images import ToolImage


class ToolErrorType(enum.StrEnum):
    NOT_FOUND = "not_found"
    INVALID_ARGUMENT = "invalid_argument"
    CONFLICT = "conflict"
    TOO_LARGE = "too_large"
    TIMEOUT = "timeout"
    DENIED = "denied"
    REJECTED = "rejected"
    SANDBOX = "sandbox"
    INTERNAL = "internal"
    REMOTE = "remote"
    UNREACHABLE = "unreachable"


class ToolError(Exception):
    """Raised by a tool for a failure the model caused; it becomes a failed result, never a crash.

    `hint` is written for the model: what to do next (the nearest paths, the candidate lines ...).
    """

    def __init__(self, error_type: ToolErrorType, message: str, hint: str = "", data: Any = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.hint = hint
        self.data = data


@dataclass(frozen=True)
class ToolResult:
    code: int
    message: str
    data: Any = None
    error_type: ToolErrorType | None = None
    images: tuple[ToolImage, ...] = ()
    problems: tuple[int, int] | None = None  # (introduced, fixed) by the change, for the tool card

    @property
    def ok(self) -> bool:
        return self.code == 0

    @classmethod
    def success(cls, message: str, data: Any = None) -> ToolResult:
        return cls(0, message, data)

    @classmethod
    def failure(cls, error_type: ToolErrorType, message: str, data: Any = None) -> ToolResult:
        return cls(1, message, data, error_type)

    @classmethod
    def from_error(cls, error: ToolError) -> ToolResult:
        message = f"{error.message}\n{error.hint}" if error.hint else error.message
        return cls.failure(error.error_type, message, error.data)

    def with_images(self, images: tuple[ToolImage, ...]) -> ToolResult:
        return replace(self, images=images)

    def to_dict(self) -> dict[str, Any]:
        shown = {
            "code": self.code,
            "message": self.message,
            "data": self.data,
            "errorType": None if self.error_type is None else self.error_type.value,
        }
        if self.images:
            shown["images"] = [image.to_dict() for image in self.images]
        if self.problems is not None:
            shown["problems"] = {"introduced": self.problems[0], "fixed": self.problems[1]}
        return shown

    def for_model(self) -> str:
        """The text the model reads: the message, then the data when there is any."""
        if self.data is None:
            return self.message
        data = self.data if isinstance(self.data, str) else json.dumps(self.data, ensure_ascii=False)
        return f"{self.message}\n{data}"
