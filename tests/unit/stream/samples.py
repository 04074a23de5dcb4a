"""Valid replies per dialect, the seeds of the property tests."""

from __future__ import annotations

import json

from agentlite.stream.ndjson_writer import NdjsonWriter

from .support import TRANSCRIPTS, content_chunks

JSON_TEXTS = [
    'Let me read it.\n{"tool":"read_file","arguments":{"path":"/src/App.tsx"}}\nDone.',
    'Creating:\n```json\n{"tool": "file_create", "arguments": '
    '{"path": "/b.tsx", "content": "a\\nb \\"q\\" ü"}}\n```\nok',
    '<think>\nmaybe {"tool":"read_file","arguments":{"path":"/x"}}\n</think>\nNo call.',
    'Config: {"a": 1}\n{"name": "Bob"}\n```python\n{"tool": 1}\n```\nend',
    '{"tool":"read_file","arguments":{"path":"/y"}\nThanks',
    '{"tool":"shell_exec","arguments":{"command":"ls",}}\n{"tool":"read_file","arguments":{"path":"/a"}}}}]\n',
    '{\n  "tool": "search",\n  "arguments": {\n    "query": "TODO"\n  }\n}\nFound.',
    'Sure: {"tool": "read_file", "arguments": {"path": "/m"}} done\n'
    '{"tool":"read_file","arguments":{"path" "/x"}}\n',
    '```json\n{"tool": "read_file", "arguments": {"path": "/a"}}\n'
    '{"name": "grep", "arguments": {"query": "q"}}\n```\n',
    '{"tool": "write_file", "arguments": {"path": "/w", "content": "' + "line\\n" * 300 + '"}}\n',
    '[{"tool":"read_file","arguments":{"path":"/a"}},\n'
    ' {"tool":"grep","arguments":{"query":"x"}}]\n[link](x)\n',
    # messy shapes of real models (docs/protocol.md, "Messy tool calls")
    'Reading.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "/h"}}\n</tool_call>\nok',
    'Now <function=write_file>{"path": "/f", "content": "a<b>c"}</function> and <func or <tool_',
    '<|python_tag|>{"name": "read_file", "parameters": {"path": "/p"}}<|eom_id|>',
    "{'tool': 'read_file', 'arguments': {'path': '/q'}}\nand it's fine",
    '{"tool":"read_file","arguments":{"path":"/g1"}}{"name":"read_file","arguments":{"path":"/g2"}}\n',
]

JSON_TOKENS = [
    "\n",
    '{"tool":"read_file","arguments":{"path":"/a"}}',
    " ",
    "{",
    "}",
    "]",
    "[",
    ",",
    ":",
    '"',
    "\\",
    '{"tool":',
    '"read_file"',
    '"arguments":',
    '{"path":"/a"}',
    '"content":"x',
    "```json\n",
    "```\n",
    "```",
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    "<function=read_file>",
    "</function>",
    "<|python_tag|>",
    "<|eom_id|>",
    "'",
    "}{",
    "<th",
    "ink>",
]


def _ndjson(base64: bool, hashes: bool = True) -> str:
    writer = NdjsonWriter(base64=base64, chunk_size=12, hashes=hashes)
    writer.thinking("w1", "Edit a.ts, then test.")
    writer.tool(
        "w1",
        "file_write",
        {"path": "src/a.ts", "originalCode": "let a = 1;\n", "newCode": "let a = 2; // ü 😀\n"},
        ("originalCode", "newCode"),
    )
    writer.tool("w2", "shell_exec", {"command": "npm test"}, ("command",))
    writer.text("Done. Both steps ran.")
    writer.done()
    return writer.render()


SEED_STYLE = (
    '{"type":"tool","id":"w1","tool":"file_write","data":{\n'
    '    "path_b64":"src/a.ts",\n'
    '    "originalCode_b64":"b2",\n'
    '    "new_bs64":"b1"\n'
    "  }}\n"
    '{"type":"bs64_start","bs64_id":"b1"}\n'
    '{"type":"bs64_chunk","bs64_id":"b1","seq":0,"data_b64":"bGV0IGEgPSAyOw=="}\n'
    '{"type":"bs64_end","bs64_id":"b1","hash":null}\n'
    '{"type":"bs64_start","bs64_id":"b2"}\n'
    '{"type":"bs64_chunk","bs64_id":"b2","seq":0,"data_b64":"bGV0IGEgPSAxOw"}\n'
    '{"type":"bs64_chunk","bs64_id":"b2","seq":2,"data_b64":"bGV0"}\n'
    '{"type":"bs64_end","bs64_id":"b2","hash":"sha256:00"}\n'
    "Some prose.\n```\n"
    '{"type":"done"}\n'
)

NDJSON_TEXTS = [_ndjson(True), _ndjson(False), _ndjson(True, hashes=False), SEED_STYLE]

NDJSON_TOKENS = [
    "\n",
    '{"tool":"read_file","arguments":{"path":"/a"}}',
    "{",
    "}",
    '"',
    '{"type":"bs64_start","bs64_id":"s1"}\n',
    '{"type":"bs64_chunk","bs64_id":"s1","seq":0,"data_b64":"YWJj"}\n',
    '{"type":"bs64_chunk","bs64_id":"s1","seq":1,"data":"x\\n"}\n',
    '{"type":"bs64_end","bs64_id":"s1","hash":null}\n',
    '{"type":"tool","id":"t1","tool":"shell_exec","data":{"command_b64":"s1"}}\n',
    '{"type":"thinking","id":"t1","data_b64":"s1"}\n',
    '{"type":"text","data_b64":"s1"}\n',
    '{"type":"done"}\n',
    "```\n",
    "prose ",
]


def _tokens(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def bodies(dialect: str) -> list[bytes]:
    """SSE bodies of a dialect: the literal transcripts for native, content chunks for the others."""
    if dialect == "native":
        paths = sorted(TRANSCRIPTS.glob("*.sse"))
        return [p.read_bytes() for p in paths if not p.name.startswith(("json_", "ndjson_"))]
    if dialect == "json":
        return [content_chunks(*_tokens(text)) for text in JSON_TEXTS]
    texts = [_ndjson(dialect == "ndjson"), SEED_STYLE]
    reasoning = {"choices": [{"index": 0, "delta": {"reasoning_content": "plan"}}]}
    first = json.dumps(reasoning).encode()
    return [b"data: " + first + b"\n\n" + content_chunks(*_tokens(text, 40)) for text in texts]
