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


def from_http(status: int, body: bytes, retry_after: str | None = None) -> ModelError:
    """A typed error from a non-2xx response: the provider's message, type and code when it sent JSON."""
    import json

    message, code, provider_type = "", None, None
    try:
        data = json.loads(body.decode("utf-8", "replace"))
        error = data.get("error", data) if isinstance(data, dict) else {}
        if isinstance(error, str):
            message = error
        elif isinstance(error, dict):
            message = str(error.get("message") or "")
            code = None if error.get("code") is None else str(error.get("code"))
            provider_type = None if error.get("type") is None else str(error.get("type"))
    except (ValueError, AttributeError):
        message = body.decode("utf-8", "replace").strip()[:300]
    kind = classify_status(status, f"{message} {code or ''}")
    return ModelError(
        type=kind,
        message=message or f"the model endpoint answered HTTP {status}",
        status=status,
        code=code,
        provider_type=provider_type,
        retry_after=parse_retry_after(retry_after),
    )


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds; an HTTP date is treated as unknown)."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return seconds if seconds >= 0 else None
