"""The protocol text of the prompt dialects: the tool list and the call format, for the system prompt,
and the one-line format reminder that opens every tool-result message (origins: streaming, point 1).

The system prompt carries the whole protocol once; the reminder keeps the format in view every round
without re-sending it.
"""

from __future__ import annotations

import json
from typing import Any

REMINDERS = {
    "json": 'Reply with prose; each tool call is one JSON object on its own line: {"tool": ..., "arguments": '
    "{...}}.",
    "ndjson": "Reply in NDJSON only, one record per line; large fields in bs64 streams of base64 chunks.",
    "ndjson-text": "Reply in NDJSON only, one record per line; large fields in bs64 streams of text chunks.",
}

_JSON_RULES = """\
## How to call a tool
Write the call as one JSON object alone on its own line (a ```json fence around it is fine):
{"tool": "read_file", "arguments": {"path": "/src/App.tsx"}}
- Keys and strings in double quotes; the object complete, valid JSON. Escape newlines in strings as \\n.
- Several calls may follow each other, one per line. Calls written inside your thinking do not run.
- After your calls, stop. The results come back in the next user message, each opening with
  "[tool result · <tool> · ok]" or "[tool result · <tool> · error]"."""

_NDJSON_RULES = """\
## Reply format: NDJSON
Write only NDJSON: one JSON object per line, nothing outside the lines, no blank lines, no fences.
Large fields travel as streams of chunks so they can be shown while you write them:
{"type":"bs64_start","bs64_id":"<stream id>"}
{"type":"bs64_chunk","bs64_id":"<stream id>","seq":0,%(chunk)s}
{"type":"bs64_end","bs64_id":"<stream id>","hash":null}
- %(chunk_rule)s
- seq starts at 0 and rises by 1. Stream ids are yours to choose and must be unique in the reply.
- "hash" may be null (the client computes the sha256); if you give one it must be "sha256:<hex>".
Records, per tool in this order: its thinking, the thinking's stream, the tool record, the tool's streams.
{"type":"thinking","id":"<tool id>","data_b64":"<stream id>"}   why you call the tool (a stream)
{"type":"tool","id":"<tool id>","tool":"<name>","data":{<arguments>}}
In "data", a streamed field <name> is written "<name>_b64":"<stream id>"; every other field is a plain value.
{"type":"text","data_b64":"<stream id>"}   what the user should read (a stream), before, between, after tools
{"type":"done"}   last line of the reply
A tool runs as soon as its record and all its streams have ended. The results come back in the next user
message, each opening with "[tool result · <tool> · ok]" or "[tool result · <tool> · error]"."""

_CHUNKS = {
    "ndjson": ('"data_b64":"<base64, at most 4096 characters>"', "Chunks carry base64 of the UTF-8 text."),
    "ndjson-text": ('"data":"<text as a JSON string>"', "Chunks carry the text itself as a JSON string."),
}


def protocol_text(dialect: str, tools: list[dict[str, Any]]) -> str:
    """The system-prompt section of a prompt dialect: the tools, then how to call them."""
    listing = "## Tools\n" + "\n".join(tool_line(tool, dialect) for tool in tools if tool.get("name"))
    if dialect == "json":
        return f"{listing}\n\n{_JSON_RULES}"
    chunk, rule = _CHUNKS[dialect]
    return f"{listing}\n\n{_NDJSON_RULES % {'chunk': chunk, 'chunk_rule': rule}}"


def tool_line(tool: dict[str, Any], dialect: str) -> str:
    """`- name(arg: type, opt?: type = default): description [streamed: a, b]`."""
    schema = _mapping(tool.get("parameters"))
    properties = _mapping(schema.get("properties"))
    required = set(schema.get("required") or ())
    arguments = ", ".join(_argument(name, spec, name in required) for name, spec in properties.items())
    line = f"- {tool['name']}({arguments})"
    if tool.get("description"):
        line += f": {str(tool['description']).strip()}"
    streamed = [str(f) for f in tool.get("streamed") or ()]
    if streamed and dialect != "json":
        line += f" [streamed: {', '.join(streamed)}]"
    return line


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _argument(name: str, spec: Any, required: bool) -> str:
    spec = spec if isinstance(spec, dict) else {}
    kind = spec.get("type", "any")
    if isinstance(kind, list):
        kind = "|".join(str(k) for k in kind)
    text = f"{name}{'' if required else '?'}: {kind}"
    if "default" in spec:
        text += f" = {json.dumps(spec['default'], ensure_ascii=False)}"
    return text


def result_header(name: str, ok: bool, dialect: str, first: bool) -> str:
    """`[tool result · read_file · ok]`, followed on the first result of a message by the format reminder."""
    header = f"[tool result · {name} · {'ok' if ok else 'error'}]"
    return f"{header} {REMINDERS[dialect]}" if first else header
