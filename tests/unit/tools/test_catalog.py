"""Every tool, defined once, is offered in all four dialects with the contract's names, aliases and streams.

native: `registry.openai_tools()`; json / ndjson / ndjson-text: `registry.definitions()`, which the
stream decoders read for aliases and streamed fields (docs/protocol.md, ndjson).
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from agentlite.events import ToolCallReady
from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.dialect_prompt import protocol_text
from agentlite.stream.tool_specs import ToolCatalog
from agentlite.tools.catalog import default_registry
from agentlite.tools.registry import Risk
from tests.unit.tools.conftest import call, context_with

REGISTRY = default_registry()

CONTRACT = {  # docs/contract.md, tool names: canonical name -> aliases
    "list_directory": ["list_files"],
    "read_file": [],
    "search": ["search_files", "grep"],
    "create_file": ["file_create"],
    "write_file": ["update_file"],
    "edit_file": ["file_write"],
    "delete_file": [],
    "move_file": [],
    "rename_file": [],
    "create_folder": [],
    "browser_js_eval": [],
    "shell_exec": [],
    "preview_page": [],
    "preview_snapshot": [],
    "preview_act": [],
    "preview_wait": [],
    "load_skill": [],
    "conversation_summary": [],
    "edit_current_editor_document": [],
    "check_problems": [],
}
STREAMED = {  # docs/protocol.md, ndjson, and write_file's content
    "edit_file": ["originalCode", "newCode"],
    "create_file": ["content"],
    "shell_exec": ["command"],
    "conversation_summary": ["summary"],
    "write_file": ["content"],
}
REQUIRED = {
    "list_directory": [],
    "read_file": ["path"],
    "search": ["query"],
    "create_file": ["path", "content"],
    "write_file": ["path", "content"],
    "edit_file": ["path", "originalCode", "newCode"],
    "delete_file": ["path"],
    "move_file": ["source", "destination"],
    "rename_file": ["path", "new_name"],
    "create_folder": ["path"],
    "browser_js_eval": ["code"],
    "shell_exec": ["command"],
    "preview_page": [],
    "preview_snapshot": [],
    "preview_act": ["ref", "action"],
    "preview_wait": [],
    "load_skill": ["name"],
    "conversation_summary": ["summary"],
    "edit_current_editor_document": ["content"],
    "check_problems": [],
}
RISKS = {
    Risk.READ: {
        "list_directory",
        "read_file",
        "search",
        "load_skill",
        "conversation_summary",
        "check_problems",
    },
    Risk.CREATE: {"create_file", "create_folder"},
    Risk.MODIFY: {"edit_file", "move_file", "rename_file", "write_file", "edit_current_editor_document"},
    Risk.DESTRUCTIVE: {"delete_file"},
    Risk.EXECUTE: {
        "browser_js_eval",
        "shell_exec",
        "preview_page",
        "preview_snapshot",
        "preview_act",
        "preview_wait",
    },
}


def test_names_and_aliases_are_the_contract() -> None:
    assert {d["name"]: d["aliases"] for d in REGISTRY.definitions()} == CONTRACT
    for name, aliases in CONTRACT.items():
        for alias in aliases:
            assert REGISTRY.get(alias) is REGISTRY.get(name)


def test_streamed_fields_match_the_protocol() -> None:
    assert {d["name"]: d["streamed"] for d in REGISTRY.definitions() if d["streamed"]} == STREAMED
    for definition in REGISTRY.definitions():
        assert set(definition["streamed"]) <= set(definition["parameters"]["properties"])


def test_risks() -> None:
    assert {risk: {t.name for t in REGISTRY if t.risk == risk} for risk in Risk} == RISKS


def walk(node: Any) -> list[str]:
    """Every key anywhere in a JSON schema."""
    if isinstance(node, dict):
        return [*node, *(key for value in node.values() for key in walk(value))]
    if isinstance(node, list):
        return [key for value in node for key in walk(value)]
    return []


def test_native_tools_are_plain_schemas_with_descriptions() -> None:
    tools = REGISTRY.openai_tools()
    assert [t["function"]["name"] for t in tools] == list(CONTRACT)
    for tool in tools:
        function = tool["function"]
        parameters = function["parameters"]
        assert tool["type"] == "function" and len(function["description"]) > 40
        assert "\n" not in function["description"]  # one line per tool in the prompt dialects
        assert parameters["type"] == "object"
        assert sorted(parameters.get("required", [])) == sorted(REQUIRED[function["name"]])
        assert not {"$ref", "$defs", "anyOf", "title"} & set(walk(parameters)), function["name"]
        for name, prop in parameters["properties"].items():
            assert prop.get("description"), f"{function['name']}.{name}"
        json.dumps(tool)


def test_the_prompt_dialects_list_each_tool_on_one_line() -> None:
    text = protocol_text("ndjson", REGISTRY.definitions())
    lines = [line for line in text.split("\n## ")[0].splitlines() if line.startswith("- ")]
    assert len(lines) == len(CONTRACT)
    assert lines[5].startswith(
        "- edit_file(path: string, originalCode: string, newCode: string, edits?: array"
    )
    assert lines[5].endswith("[streamed: originalCode, newCode]")


def test_descriptions_teach_paging_line_numbers_and_stopping() -> None:
    read = REGISTRY.get("read_file")
    search = REGISTRY.get("search")
    assert read is not None and search is not None
    assert "(end of file)" in read.description and "start_line" in read.description
    assert "path:line: text" in search.description


RESOURCES = [
    ("read_file", {"path": "src/a.ts"}, "/src/a.ts"),
    ("search", {"query": "x"}, "/"),
    ("edit_file", {"path": "a", "originalCode": "x", "newCode": "y"}, "/a"),
    ("move_file", {"source": "a", "destination": "b/c"}, ("/a", "/b/c")),
    ("list_directory", {}, "/"),
    ("delete_file", {"path": "../x"}, "../x"),
    ("browser_js_eval", {"code": "1"}, "sandbox"),
    ("conversation_summary", {"summary": "s"}, "conversation"),
    ("edit_current_editor_document", {"content": "c"}, "editor"),
]


@pytest.mark.parametrize(("name", "arguments", "expected"), RESOURCES)
def test_resources(name: str, arguments: dict[str, Any], expected: str | tuple[str, ...]) -> None:
    tool, args = REGISTRY.validate(name, arguments)
    assert tool.resource(args) == expected
    assert tool.resource(arguments) == expected  # the engine may ask before validating


def test_the_decoders_resolve_aliases_and_stream_fields_from_the_definitions() -> None:
    catalog = ToolCatalog(REGISTRY.definitions())
    assert catalog.canonical("file_write") == "edit_file"
    assert catalog.canonical("grep") == "search"
    assert catalog.streamed("file_create") == ("content",)
    assert catalog.stream_field("file_write", "new") == "newCode"  # the design note's `new_bs64`
    assert catalog.stream_field("file_write", "originalCode") == "originalCode"


def chunks(stream_id: str, text: str, *, b64: bool) -> list[dict[str, Any]]:
    chunk: dict[str, Any] = {"type": "bs64_chunk", "bs64_id": stream_id, "seq": 0}
    if b64:
        chunk["data_b64"] = base64.b64encode(text.encode()).decode()
    else:
        chunk["data"] = text
    return [
        {"type": "bs64_start", "bs64_id": stream_id},
        chunk,
        {"type": "bs64_end", "bs64_id": stream_id, "hash": None},
    ]


def ready_calls(dialect: str, text: str) -> list[ToolCallReady]:
    decoder = StreamDecoder.for_text(dialect, REGISTRY.definitions())
    events = decoder.feed(text) + decoder.close()
    return [e for e in events if isinstance(e, ToolCallReady)]


@pytest.mark.parametrize("dialect", ["ndjson", "ndjson-text"])
async def test_a_seed_style_ndjson_file_write_runs_as_edit_file(dialect: str) -> None:
    b64 = dialect == "ndjson"
    tool = {"path_b64": "src/a.ts", "originalCode_b64": "b2", "new_bs64": "b1"}
    records = [
        {"type": "tool", "id": "w1", "tool": "file_write", "data": tool},
        *chunks("b1", "const a = 2;", b64=b64),
        *chunks("b2", "const a = 1;", b64=b64),
        {"type": "done"},
    ]
    (ready,) = ready_calls(dialect, "".join(json.dumps(r) + "\n" for r in records))
    assert ready.name == "edit_file"
    context = await context_with({"src/a.ts": "const a = 1;\n"})
    result = await call(context, ready.name, **ready.arguments)
    assert result.ok, result.message
    assert await context.workspace.read_text("/src/a.ts") == "const a = 2;\n"


async def test_a_json_dialect_call_by_alias_runs() -> None:
    (ready,) = ready_calls("json", 'Looking.\n{"tool":"grep","arguments":{"query":"needle"}}\n')
    assert ready.name == "search"
    context = await context_with({"hay.txt": "a needle\n"})
    result = await call(context, ready.name, **ready.arguments)
    assert result.message.splitlines()[1] == "/hay.txt:1: a needle"
