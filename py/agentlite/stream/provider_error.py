"""In-stream error reports of providers, turned into typed `StreamFailed` events.

Providers report a failure inside a 200 stream in several shapes: `{"error": {...}}` as a data event
(OpenAI, OpenRouter, vLLM), an `error:` field line (old llama.cpp), `event: error`, or
`finish_reason: "error"`.
The shape differs; the taxonomy (errors.ErrorType) is the same for all of them.
"""

from __future__ import annotations

from typing import Any

from agentlite.errors import ErrorType, classify_status
from agentlite.events import StreamFailed
from agentlite.stream import jsonvalue

_KEYWORDS: tuple[tuple[ErrorType, tuple[str, ...]], ...] = (
    (ErrorType.CONTEXT_LENGTH, ("context_length", "context length", "context window", "maximum context")),
    (ErrorType.CONTEXT_LENGTH, ("too many tokens", "prompt is too long", "context size", "exceed_context")),
    (ErrorType.RATE_LIMIT, ("rate_limit", "rate limit", "too_many_requests", "too many requests")),
    (ErrorType.RATE_LIMIT, ("insufficient_quota", "quota")),
    (ErrorType.AUTH, ("invalid_api_key", "api key", "authentication", "unauthorized", "permission")),
    (ErrorType.TIMEOUT, ("timeout", "timed out", "deadline")),
)


def failure_from_value(value: Any, default: ErrorType = ErrorType.SERVER) -> StreamFailed:
    """A typed failure from whatever a provider put under `error` (an object, a string, JSON text)."""
    if isinstance(value, str):
        value = _maybe_json(value)
    if isinstance(value, dict) and isinstance(value.get("error"), dict | str):
        value = value["error"]
        if isinstance(value, str):
            value = _maybe_json(value)
    if not isinstance(value, dict):
        message = str(value).strip() or "the model endpoint reported an error"
        return StreamFailed(_classify(message, None, default).value, message[:500])
    message = str(value.get("message") or value.get("msg") or value.get("detail") or "").strip()
    code = value.get("code")
    status = _status(value.get("status"), code)
    hint = " ".join(str(part) for part in (value.get("type"), code, message) if part is not None)
    error_type = _classify(hint, status, default)
    text = message or f"the model endpoint reported an error ({error_type.value})"
    return StreamFailed(error_type.value, text[:500], status, None if code is None else str(code))


def _maybe_json(text: str) -> Any:
    value = jsonvalue.loads(text)
    return text if jsonvalue.missing(value) else value


def _status(status: Any, code: Any) -> int | None:
    for candidate in (status, code):
        if isinstance(candidate, bool):
            continue
        if isinstance(candidate, int) and 100 <= candidate <= 599:
            return candidate
        if isinstance(candidate, str) and candidate.isdigit() and 100 <= int(candidate) <= 599:
            return int(candidate)
    return None


def _classify(hint: str, status: int | None, default: ErrorType) -> ErrorType:
    lowered = hint.lower()
    for error_type, words in _KEYWORDS:
        if any(word in lowered for word in words):
            return error_type
    if status is not None:
        return classify_status(status, hint)
    return default
