"""The error taxonomy shared by transport, stream decoding and the engine.

`ErrorType` values are the `data-error-type` of the UI's error banner (docs/contract.md, test ids). Error
messages are shown and logged, so the API key never goes into one: a server that echoes the key (in an error
body or an in-stream error) has it replaced by `REDACTED` before any message is built from its words.
"""

from __future__ import annotations

import enum
import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

REDACTED = "[redacted]"
MIN_SECRET = 8  # a shorter "key" (a placeholder such as "none") is no secret; masking it would mangle text


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

    def to_dict(self) -> dict[str, Any]:
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


# What servers answer when a request carries an image the model cannot read (lower case, matched as
# substrings; docs/attachments.md, "When the server refuses images"). Each has a unit test.
IMAGE_REFUSALS = (
    "image_url is only supported by certain models",  # OpenAI, a text-only model
    "does not support image",  # OpenAI "...does not support image input"; Ollama "...support images"
    "image input is not supported",  # llama.cpp server without a vision projector (mmproj)
    "no endpoints found that support image input",  # OpenRouter (HTTP 404)
    "content must be a string",  # Groq, a text-only model: "message[0].content must be a string"
    "unknown variant `image_url`",  # servers that parse content parts strictly (serde)
    "only 'text' content type is supported",  # mlx-lm and similar text-only servers
)


def refuses_images(message: str) -> bool:
    """Whether a server's error message says the model takes no images."""
    lowered = message.lower()
    return any(phrase in lowered for phrase in IMAGE_REFUSALS)


def classify_status(status: int, message: str = "") -> ErrorType:
    """Map an HTTP status (and the provider's message) to the taxonomy. A refused image is a request
    the server will never take as it is (PROTOCOL: no automatic retry), whatever status it came with."""
    lowered = message.lower()
    if 400 <= status < 600 and status != 429 and refuses_images(lowered):
        return ErrorType.PROTOCOL
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


def redact(text: str, secret: str | None) -> str:
    """`text` with every occurrence of `secret` replaced by `REDACTED`."""
    if not secret or len(secret) < MIN_SECRET:
        return text
    return text.replace(secret, REDACTED)


def from_http(
    status: int, body: bytes, retry_after: str | None = None, secret: str | None = None
) -> ModelError:
    """A typed error from a non-2xx response: the provider's message, type and code when it sent JSON.

    `secret` (the API key) is masked wherever the body repeats it; FetchTransport already masks it in
    every body it delivers, so this guards callers whose transport does not."""
    text = redact(body.decode("utf-8", "replace"), secret)
    message, code, provider_type = "", None, None
    try:
        data = json.loads(text)
        error = data.get("error", data) if isinstance(data, dict) else {}
        if isinstance(error, str):
            message = error
        elif isinstance(error, dict):
            detail = error.get("detail")  # FastAPI-style servers: {"detail": "..."}
            message = str(error.get("message") or (detail if isinstance(detail, str) else ""))
            code = None if error.get("code") is None else str(error.get("code"))
            provider_type = None if error.get("type") is None else str(error.get("type"))
    except (ValueError, AttributeError, RecursionError):
        message = text.strip()[:300]
    kind = classify_status(status, f"{message} {code or ''}")
    return ModelError(
        type=kind,
        message=message or f"the model endpoint answered HTTP {status}",
        status=status,
        code=code,
        provider_type=provider_type,
        retry_after=parse_retry_after(retry_after),
    )


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds from a Retry-After header (RFC 9110 §10.2.3): delta-seconds, or an HTTP date, counted from
    `now` (a date already past means "retry now")."""
    if not value:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        return _seconds_until(text, now or datetime.now(UTC))
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _seconds_until(text: str, now: datetime) -> float | None:
    # Imported here: email.utils pulls in urllib.parse and ipaddress, compiled from source on a first
    # visit, and only a Retry-After date needs them (docs/startup.md, "First visit").
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # HTTP dates are GMT; "-0000" parses as naive
    return max(0.0, (when - now).total_seconds())
