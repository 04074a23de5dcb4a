"""`auto` dialect (docs/protocol.md, auto): native tool calling when the endpoint does it, else
prompt-reinforced JSON.

The choice is remembered per base URL + model for the life of the worker. `native` is tried first; the
engine falls back to `json` when the endpoint rejects the `tools` parameter (an HTTP 4xx that names
tools or functions), when it answers a request with tools by an empty stream (llama-cpp-python's server with
`tool_choice: "auto"`; docs/protocol.md, "Empty stream"), or when the model, offered native tools, writes a
JSON tool call as text instead.
A dialect the user forced is never changed. Before anything is learned, `auto` starts where the model's
profile says (`ModelProfile.dialect`: `json` for the model in the page, `native` elsewhere).
"""

from __future__ import annotations

import json
import re

from agentlite.errors import ErrorType, ModelError
from agentlite.stream.decoder import EMPTY_BODY
from agentlite.stream.markup import without_markup

PROMPT_DIALECTS = ("json", "ndjson", "ndjson-text")
_TOOLS_WORDS = re.compile(r"\btools?\b|tool_choice|function", re.I)
_JSON_LINE = re.compile(r"^\s*(\{.*\})\s*$", re.M)


class DialectChooser:
    def __init__(self) -> None:
        self.learned: dict[tuple[str, str], str] = {}

    def resolve(self, dialect: str, base_url: str, model: str, start: str = "native") -> str:
        """The user's dialect, or for `auto` the one learned for this endpoint + model, else `start`."""
        if dialect != "auto":
            return dialect
        return self.learned.get((base_url, model), start)

    def learn(self, base_url: str, model: str, dialect: str) -> None:
        self.learned[(base_url, model)] = dialect


def rejects_tools(error: ModelError) -> bool:
    """An endpoint (or model) that does not take the `tools` parameter."""
    if error.type not in (ErrorType.PROTOCOL, ErrorType.INVALID_FORMAT) or error.status is None:
        return False
    return 400 <= error.status < 500 and bool(_TOOLS_WORDS.search(error.message))


def empty_stream(error: ModelError) -> bool:
    """A `200` whose stream held no event at all: the server could not serve the request as sent."""
    return error.type is ErrorType.EMPTY_RESULT and error.code == EMPTY_BODY


def writes_calls_as_text(text: str, tool_names: set[str]) -> bool:
    """A native reply whose text holds a tool call written as JSON (`{"tool": ...}` or `{"name": ...}`),
    bare or in a chat template's call markup (`<tool_call>`, `<function=...>`, `<|python_tag|>`)."""
    for match in _JSON_LINE.finditer(without_markup(text)):
        try:
            value = json.loads(match.group(1))
        except ValueError:
            continue
        if isinstance(value, dict):
            name = value.get("tool") or value.get("name")
            arguments = value.get("arguments", value.get("parameters", {}))
            if name in tool_names and isinstance(arguments, dict):
                return True
    return False
