"""OpenAI `chat.completion.chunk` decoding: one SSE event in, the parts of the reply it carries out.

Providers stretch the format; each quirk handled here is one a real endpoint sends (docs/protocol.md, native):
`choices: []` (Azure's first chunk, usage chunks), a lone choice numbered 1 (also after a role chunk
numbered 0), choices without `delta`, usage anywhere (top level, inside the choice, under `x_groq`),
`reasoning_content` / `reasoning` thinking, Mistral's list-of-parts content, refusals, `obfuscation`
padding (ignored), in-stream `{"error": ...}` objects, an `error:` field line, and finish reasons in other
spellings (`end_turn`, `tool_use`, `max_tokens`). A character whose UTF-16 halves arrive in two deltas is
put back together (stream/surrogates.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agentlite.errors import ErrorType
from agentlite.events import Event, ProtocolNote, StreamFailed, Usage
from agentlite.stream import jsonvalue
from agentlite.stream.provider_error import failure_from_value
from agentlite.stream.sse import SseEvent
from agentlite.stream.surrogates import SurrogateJoiner

_FINISH_ALIASES = {
    "end_turn": "stop",
    "eos": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "function_call": "tool_calls",
    "max_tokens": "length",
}


@dataclass(frozen=True)
class Content:
    """Text of the content channel (prose, or the protocol text of a prompt dialect)."""

    text: str


@dataclass(frozen=True)
class Reasoning:
    text: str


@dataclass(frozen=True)
class Refusal:
    text: str


@dataclass(frozen=True)
class ToolDelta:
    """One entry of `delta.tool_calls`; `arguments_whole` when the provider sent an object, not text."""

    index: int | None
    id: str | None
    name: str | None
    arguments: str | None
    arguments_whole: bool = False


@dataclass(frozen=True)
class FinishReason:
    reason: str


@dataclass(frozen=True)
class Done:
    """The `[DONE]` sentinel."""


Part = Event | Content | Reasoning | Refusal | ToolDelta | FinishReason | Done
_TEXT_PARTS: tuple[type[Content | Reasoning | Refusal], ...] = (Content, Reasoning, Refusal)


class ChunkDecoder:
    """SSE events in, reply parts out. Across events it keeps only the notes it already gave and, per
    text channel, a trailing UTF-16 high half waiting for its low half."""

    def __init__(self) -> None:
        self._noted_malformed = False
        self.decoded = 0  # events that were JSON objects (chunks, errors)
        self.malformed = 0  # events that were not
        self._kept: int | None = None  # the choice this reply follows, once one carried content or a call
        self._joiners = {kind: SurrogateJoiner() for kind in _TEXT_PARTS}

    def feed(self, events: list[SseEvent]) -> list[Part]:
        parts: list[Part] = []
        for event in events:
            parts.extend(self._mended(self._event(event)))
        return parts

    def whole(self, payload: dict[str, Any]) -> list[Part]:
        """The parts of a completion that came as one JSON body instead of a stream."""
        self.decoded += 1
        return self._mended(chunk_parts(payload, self._read_choice(payload))) + self.close()

    def close(self) -> list[Part]:
        """Text halves that never met their other half (as U+FFFD)."""
        parts: list[Part] = []
        for kind, joiner in self._joiners.items():
            text = joiner.close()
            if text:
                parts.append(kind(text))
        return parts

    def _mended(self, parts: list[Part]) -> list[Part]:
        out: list[Part] = []
        for part in parts:
            if isinstance(part, Content | Reasoning | Refusal):
                text = self._joiners[type(part)].feed(part.text)
                if text:
                    out.append(type(part)(text))
                continue
            if isinstance(part, Done | StreamFailed):
                out.extend(self.close())  # the reply ends: a held half will not be completed
            out.append(part)
        return out

    def _event(self, event: SseEvent) -> list[Part]:
        if "error" in event.fields:
            return [failure_from_value(event.fields["error"])]
        data = (event.data or "").strip()
        if data == "[DONE]":
            return [Done()]
        if not data:
            return []
        payload = jsonvalue.loads(data)
        if jsonvalue.missing(payload):
            if event.event == "error":
                return [failure_from_value(data)]
            return self._malformed(data)
        if event.event == "error":
            return [failure_from_value(payload)]
        if not isinstance(payload, dict):
            return self._malformed(data)
        self.decoded += 1
        return chunk_parts(payload, self._read_choice(payload))

    def _read_choice(self, payload: dict[str, Any]) -> int | None:
        """The choice index to read in this chunk (docs/protocol.md, "Choice index"). A reply follows ONE
        choice: the first that carries content or a call (the lowest, when one chunk brings several), to
        the end of the reply; the others are ignored, so interleaved answers (`n` > 1) are never glued.
        A chunk that only names the role or a finish does not choose: it is read as it is."""
        if self._kept is None:
            speaking = [index for index, choice in _choices(payload) if _speaks(choice)]
            if speaking:
                self._kept = min(speaking)
        if self._kept is not None:
            return self._kept
        indexes = choice_indexes(payload)
        return indexes[0] if indexes else None

    def _malformed(self, data: str) -> list[Part]:
        self.malformed += 1
        if self._noted_malformed:
            return []
        self._noted_malformed = True
        return [ProtocolNote(f"ignored an event that is not a JSON object: {data[:80]!r}")]


def choice_indexes(payload: dict[str, Any]) -> list[int]:
    """The index of each choice a chunk carries, in order."""
    return [index for index, _choice in _choices(payload)]


def _choices(payload: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    choices = payload.get("choices")
    if not isinstance(choices, list):
        return []
    return [(_choice_index(c), c) for c in choices if isinstance(c, dict)]


def _speaks(choice: dict[str, Any]) -> bool:
    """Whether a choice carries text, thinking, a refusal or a call (not only a role or a finish)."""
    return any(not isinstance(part, FinishReason | StreamFailed) for part in _choice_parts(choice))


def _choice_index(choice: dict[str, Any]) -> int:
    index = choice.get("index")
    if isinstance(index, str) and index.isdigit():
        return int(index)
    return index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else 0


def chunk_parts(payload: dict[str, Any], choice_index: int | None = 0) -> list[Part]:
    """The parts of one decoded chunk (of choice `choice_index`), in the order a reader expects them."""
    error = payload.get("error")
    if error:
        return [failure_from_value(error)]
    parts: list[Part] = []
    choices = payload.get("choices")
    usage = payload.get("usage")
    if isinstance(choices, list):
        for choice in choices:
            if isinstance(choice, dict) and _choice_index(choice) == (choice_index or 0):
                parts.extend(_choice_parts(choice))
                usage = usage or choice.get("usage")
    groq = payload.get("x_groq")
    if not usage and isinstance(groq, dict):
        usage = groq.get("usage")
    report = usage_event(usage)
    if report is not None:
        parts.append(report)
    return parts


def _choice_parts(choice: dict[str, Any]) -> list[Part]:
    parts: list[Part] = []
    delta = choice.get("delta")
    if not isinstance(delta, dict):
        delta = choice.get("message")  # a non-streamed message inside a stream (some proxies)
    if isinstance(delta, dict):
        parts.extend(delta_parts(delta))
    reason = finish_reason(choice.get("finish_reason"))
    if reason == "error":
        parts.append(StreamFailed(ErrorType.SERVER.value, 'the model stopped with finish_reason "error"'))
    elif reason is not None:
        parts.append(FinishReason(reason))
    return parts


def delta_parts(delta: dict[str, Any]) -> list[Part]:
    """Thinking first, then text, then tool calls: the order a model produces them in."""
    parts: list[Part] = []
    reasoning = delta.get("reasoning_content")
    if not isinstance(reasoning, str) or not reasoning:
        reasoning = delta.get("reasoning")
    if isinstance(reasoning, str) and reasoning:
        parts.append(Reasoning(reasoning))
    parts.extend(_content_parts(delta.get("content")))
    refusal = delta.get("refusal")
    if isinstance(refusal, str) and refusal:
        parts.append(Refusal(refusal))
    calls = delta.get("tool_calls")
    if isinstance(calls, list):
        parts.extend(part for call in calls if (part := tool_delta(call)) is not None)
    legacy = delta.get("function_call")
    if isinstance(legacy, dict) and not (isinstance(calls, list) and calls):
        # beside `tool_calls` it repeats the same call (llama-cpp-python; docs/protocol.md, "Legacy
        # function_call"): reading both would join two copies of the arguments
        part = tool_delta({"index": 0, "function": legacy})
        if part is not None:
            parts.append(part)
    return parts


def _content_parts(content: Any) -> list[Part]:
    if isinstance(content, str):
        return [Content(content)] if content else []
    if not isinstance(content, list):
        return []
    parts: list[Part] = []
    for item in content:
        if isinstance(item, str) and item:
            parts.append(Content(item))
        elif isinstance(item, dict):
            parts.extend(_content_item(item))
    return parts


def _content_item(item: dict[str, Any]) -> list[Part]:
    kind = item.get("type")
    if kind in ("thinking", "reasoning"):
        inner = item.get("thinking", item.get("text"))
        texts = inner if isinstance(inner, list) else [inner]
        return [Reasoning(t) for t in (_item_text(x) for x in texts) if t]
    text = _item_text(item)
    return [Content(text)] if text else []


def _item_text(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and isinstance(item.get("text"), str):
        return str(item["text"])
    return ""


def tool_delta(call: Any) -> ToolDelta | None:
    if not isinstance(call, dict):
        return None
    function = call.get("function")
    function = function if isinstance(function, dict) else {}
    index = call.get("index")
    if isinstance(index, str) and index.isdigit():
        index = int(index)
    if not isinstance(index, int) or isinstance(index, bool):
        index = None
    ident = call.get("id")
    ident = ident if isinstance(ident, str) and ident and ident != "null" else None
    name = function.get("name")
    name = name if isinstance(name, str) and name else None
    arguments = function.get("arguments")
    whole = isinstance(arguments, dict | list)
    if whole:
        arguments = json.dumps(arguments, ensure_ascii=False)
    elif not isinstance(arguments, str):
        arguments = None
    return ToolDelta(index, ident, name, arguments, whole)


def finish_reason(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    reason = value.strip().lower()
    if reason in ("", "null", "none"):
        return None
    return _FINISH_ALIASES.get(reason, reason)


def usage_event(usage: Any) -> Usage | None:
    if not isinstance(usage, dict):
        return None
    prompt = _count(usage.get("prompt_tokens", usage.get("input_tokens")))
    completion = _count(usage.get("completion_tokens", usage.get("output_tokens")))
    total = _count(usage.get("total_tokens"))
    if total is None and prompt is not None and completion is not None:
        total = prompt + completion
    if prompt is None and completion is None and total is None:
        return None
    return Usage(prompt, completion, total)


def _count(value: Any) -> int | None:
    if not jsonvalue.finite(value):
        return None
    return int(value) if value >= 0 else None
