"""How the demo model says a reply: real OpenAI-style SSE in the dialect the request asked for (native
`tool_calls` deltas, prompt-reinforced JSON lines, NDJSON with base64 chunks and real sha256, or NDJSON
with text chunks), streamed in model-sized pieces through the same decoders a network model goes through.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from agentlite.stream.ndjson_writer import NdjsonWriter
from agentlite.stream.sse_encode import DONE, sse_event

STREAMED = {"create_file": ("content",), "write_file": ("content",), "edit_file": ("originalCode", "newCode")}


@dataclass
class Step:
    """What the demo model says next: prose, then calls (or neither: the final answer is the prose)."""

    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    thinking: str = ""


def tokens(text: str) -> list[str]:
    """Split text the way a model streams it: words with their leading whitespace."""
    return re.findall(r"\s*\S+|\s+$", text) or [text]


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return sse_event({"id": "demo", "object": "chat.completion.chunk", "model": "demo", "choices": [choice]})


def text_reply(text: str) -> list[bytes]:
    body = [chunk({"role": "assistant", "content": ""})]
    body += [chunk({"content": piece}) for piece in tokens(text)]
    body += [chunk({}, finish="stop"), DONE]
    return body


def encode(step: Step, dialect: str) -> list[bytes]:
    """The SSE body of one reply in the dialect the request asked for."""
    if dialect == "native":
        body = [chunk({"role": "assistant", "content": ""})]
        body += [chunk({"reasoning_content": t}) for t in tokens(step.thinking)] if step.thinking else []
        body += [chunk({"content": t}) for t in tokens(step.text)] if step.text else []
        body += [
            part for index, (name, args) in enumerate(step.calls) for part in _native_call(index, name, args)
        ]
        return [*body, chunk({}, finish="tool_calls" if step.calls else "stop"), DONE]
    return text_reply_raw(_content(step, dialect))


def _native_call(index: int, name: str, args: dict[str, Any]) -> list[bytes]:
    """One call as `tool_calls` deltas: id and name first, then the arguments in pieces."""
    head = {"index": index, "id": f"call_demo_{index + 1}", "type": "function"}
    text = json.dumps(args, ensure_ascii=False)
    parts = [chunk({"tool_calls": [{**head, "function": {"name": name, "arguments": ""}}]})]
    delta = [{"index": index, "function": {"arguments": p}} for p in pieces(text, max(24, len(text) // 80))]
    return parts + [chunk({"tool_calls": [d]}) for d in delta]


def _content(step: Step, dialect: str) -> str:
    if dialect in ("json", "plain"):
        think = f"<think>{step.thinking}</think>\n" if step.thinking else ""
        calls = "".join(
            "\n" + json.dumps({"tool": n, "arguments": a}, ensure_ascii=False) for n, a in step.calls
        )
        return f"{think}{step.text}{calls}"
    writer = NdjsonWriter(base64=dialect == "ndjson", chunk_size=96, prefix="b")
    if step.text:
        writer.text(step.text + ("\n" if step.calls else ""))
    for index, (name, args) in enumerate(step.calls, start=1):
        writer.thinking(f"w{index}", step.thinking or f"Calling {name}.")
        writer.tool(f"w{index}", name, args, STREAMED.get(name, ()))
    writer.done()
    return writer.render()


def text_reply_raw(content: str) -> list[bytes]:
    """Content streamed in model-sized pieces (long lines, like NDJSON chunks, in larger ones)."""
    body = [chunk({"role": "assistant", "content": ""})]
    for token in tokens(content):
        body += [chunk({"content": p}) for p in pieces(token, 48)]
    return [*body, chunk({}, finish="stop"), DONE]
