"""The error taxonomy shared by transport, stream decoding and the engine.

`ErrorType` values are the `data-error-type` of the UI's error banner (CONTRACT.md §3).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ErrorType(enum.StrEnum):
    RATE_LIMIT = "rate_limit"
    AUTH = "auth"
    NETWORK = "network"
    TIMEOUT = "timeout"
    CONTEXT_LENGTH = "context_length"
    INVALID_FORMAT = "invalid_format"
    EMPTY_RESULT = "empty_result"
    TOOL = "tool"
    PROTOCOL = "protocol"
    SERVER = "server"


@dataclass
class ModelError(Exception):
    """A failure talking to the model: typed, safe to show (never carries the API key)."""

    type: ErrorType
    message: str
    status: int | None = None
    code: str | None = None
    provider_type: str | None = None
    retry_after: float | None = None

    def __str__(self) -> str:
        where = f" (HTTP {self.status})" if self.status else ""
        return f"{self.type.value}: {self.message}{where}"

    def to_dict(self) -> dict:
        return {
            "error_type": self.type.value,
            "message": self.message,
            "status": self.status,
            "code": self.code,
            "provider_type": self.provider_type,
            "retry_after": self.retry_after,
        }


class StreamError(ModelError):
    """A stream that broke the protocol or ended early; raised only by the stream decoders."""


def classify_status(status: int, message: str = "") -> ErrorType:
    """Map an HTTP status (and the provider's message) to the taxonomy."""
    lowered = message.lower()
    if status == 429:
        return ErrorType.RATE_LIMIT
    if status in (401, 403):
        return ErrorType.AUTH
    if status in (408, 504):
        return ErrorType.TIMEOUT
    if status in (400, 413, 422) and ("context" in lowered or "too long" in lowered or "maximum" in lowered):
        return ErrorType.CONTEXT_LENGTH
    if status == 413:
        return ErrorType.CONTEXT_LENGTH
    if status >= 500:
        return ErrorType.SERVER
    return ErrorType.PROTOCOL
