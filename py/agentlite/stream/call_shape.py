"""What counts as a tool call written as a JSON object in the text (docs/protocol.md, json).

The documented shape is `{"tool": NAME, "arguments": {...}}`. Models drift toward the shapes they were
trained on, and each of these has only one reading, so they are accepted too: `tool_name`, `args` /
`parameters` / `input` / `params`, `{"name", "arguments"}`, `{"function": {"name", "arguments"}}`,
arguments as a JSON string, and the arguments written flat beside `tool`.
"""

from __future__ import annotations

from typing import Any

from agentlite.stream import jsonvalue

NAME_KEYS = ("tool", "tool_name")
ARGUMENT_KEYS = ("arguments", "args", "parameters", "input", "params")
FIRST_KEYS = frozenset({*NAME_KEYS, *ARGUMENT_KEYS, "name", "function", "type", "id"})


def call_shape(value: Any) -> tuple[str, dict[str, Any]] | None:
    """(name as written, arguments) when `value` is a tool call, else None."""
    if not isinstance(value, dict):
        return None
    function = value.get("function")
    if isinstance(function, dict) and isinstance(function.get("name"), str):
        value = function
    name_key = next((k for k in NAME_KEYS if isinstance(value.get(k), str)), None)
    if name_key is None:
        if not isinstance(value.get("name"), str) or not any(k in value for k in ARGUMENT_KEYS):
            return None
        name_key = "name"
    name = str(value[name_key]).strip()
    if not name:
        return None
    arguments = arguments_of(value, name_key)
    return None if arguments is None else (name, arguments)


def arguments_of(value: dict[str, Any], name_key: str = "tool") -> dict[str, Any] | None:
    """The arguments object of a call; flat members when none of the argument keys is present."""
    for key in ARGUMENT_KEYS:
        if key in value:
            arguments = value[key]
            if isinstance(arguments, str):
                arguments = jsonvalue.loads(arguments) if arguments.strip() else {}
            return arguments if isinstance(arguments, dict) else None
    return {k: v for k, v in value.items() if k not in (name_key, "type", "id")}
