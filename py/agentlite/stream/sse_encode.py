"""Server-sent events as OpenAI-compatible endpoints stream them: the writing side of `sse.SseDecoder`.

One encoder for everything that plays an endpoint (the offline demo model, the scripted test server,
the unit tests), so they all speak the same framing: `data: <json>` and a blank line per chunk, and
`data: [DONE]` at the end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

DONE = b"data: [DONE]\n\n"

Payload = Mapping[str, object] | str


def sse_event(payload: Payload, *, ascii_only: bool = False) -> bytes:
    """One event: a mapping becomes its JSON, a string is sent as it is (e.g. "[DONE]").

    `ascii_only` escapes every non-ASCII character, as many providers do; otherwise UTF-8 goes as is.
    """
    data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=ascii_only)
    return f"data: {data}\n\n".encode()


def sse_events(*payloads: Payload, done: bool = True, ascii_only: bool = False) -> list[bytes]:
    """One chunk of bytes per payload, then `[DONE]` unless `done` is False (a cut-off stream)."""
    events = [sse_event(payload, ascii_only=ascii_only) for payload in payloads]
    return [*events, DONE] if done else events


def sse_body(*payloads: Payload, ascii_only: bool = False) -> bytes:
    """A whole body from raw payloads: no `[DONE]` is added (pass the string "[DONE]" for one)."""
    return b"".join(sse_events(*payloads, done=False, ascii_only=ascii_only))
