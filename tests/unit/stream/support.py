"""Shared helpers of the stream tests: tool definitions as the registry sends them, transcripts, splits."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from agentlite.events import Event, TextDelta, ThinkingDelta, ToolArgPreview, ToolCallInvalid
from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.sse_encode import sse_body

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def _tool(
    name: str, *fields: str, streamed: Sequence[str] = (), aliases: Sequence[str] = ()
) -> dict[str, Any]:
    properties = {field: {"type": "string"} for field in fields}
    return {
        "name": name,
        "description": f"The {name} tool.",
        "parameters": {"type": "object", "properties": properties, "required": list(fields)},
        "streamed": list(streamed),
        "aliases": list(aliases),
    }


TOOLS: list[dict[str, Any]] = [
    _tool("list_directory", "path", aliases=["list_files"]),
    _tool("read_file", "path"),
    _tool("search", "query", aliases=["search_files", "grep"]),
    _tool("create_file", "path", "content", streamed=["content"], aliases=["file_create"]),
    _tool("write_file", "path", "content", streamed=["content"], aliases=["update_file"]),
    _tool(
        "edit_file",
        "path",
        "originalCode",
        "newCode",
        streamed=["originalCode", "newCode"],
        aliases=["file_write"],
    ),
    _tool("shell_exec", "command", streamed=["command"]),
    _tool("conversation_summary", "summary", streamed=["summary"]),
]


def transcript(name: str) -> bytes:
    return (TRANSCRIPTS / name).read_bytes()


def sse(*payloads: dict[str, Any] | str) -> bytes:
    """An SSE body: dicts become `data:` events, strings are raw lines (e.g. "[DONE]")."""
    return sse_body(*payloads)


def content_chunks(*texts: str, finish: str = "stop") -> bytes:
    """An SSE body that streams `texts` as content deltas, then finishes."""
    chunks: list[dict[str, Any] | str] = [{"choices": [{"index": 0, "delta": {"content": t}}]} for t in texts]
    chunks += [{"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}, "[DONE]"]
    return sse(*chunks)


def decode(body: bytes, dialect: str = "native", pieces: Iterable[bytes] | None = None) -> list[Event]:
    decoder = StreamDecoder(dialect=dialect, tools=TOOLS)
    events: list[Event] = []
    for piece in [body] if pieces is None else pieces:
        events += decoder.feed(piece)
    return events + decoder.close()


def split(body: bytes, cuts: Iterable[int]) -> list[bytes]:
    points = sorted({min(max(c, 0), len(body)) for c in cuts})
    edges = [0, *points, len(body)]
    return [body[a:b] for a, b in itertools.pairwise(edges)]


def normalized(events: list[Event]) -> list[Any]:
    """Events with adjacent text/thinking merged and previews reduced to the final text per field.

    Text may be cut differently by different splits, and preview frequency follows the chunking
    (stream/preview.py); everything else must be identical. The last preview of a call that turned out
    invalid is whatever had arrived, so only previews of the other calls are compared.
    """
    out: list[Any] = []
    last_preview: dict[tuple[str, str], str] = {}
    invalid = {e.id for e in events if isinstance(e, ToolCallInvalid)}
    for event in events:
        if isinstance(event, ToolArgPreview):
            if event.id not in invalid:
                last_preview[(event.id, event.field)] = event.text
            continue
        if isinstance(event, TextDelta | ThinkingDelta) and out and type(out[-1]) is type(event):
            previous = out[-1]
            if not isinstance(event, ThinkingDelta) or previous.tool_id == event.tool_id:
                out[-1] = type(event)(**{**previous.__dict__, "text": previous.text + event.text})
                continue
        if isinstance(event, TextDelta | ThinkingDelta) and not event.text:
            continue
        out.append(event)
    out.append(("previews", sorted(last_preview.items())))
    return out


def texts(events: list[Event]) -> tuple[str, str]:
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    thinking = "".join(e.text for e in events if isinstance(e, ThinkingDelta))
    return text, thinking


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
