"""Request bodies per dialect (stream/request.py)."""

from __future__ import annotations

import json

from agentlite.stream.decoder import StreamDecoder
from agentlite.stream.request import build_request

from .support import TOOLS

HISTORY = [
    {"role": "user", "content": "Fix a.ts"},
    {
        "role": "assistant",
        "content": "Reading first.",
        "tool_calls": [
            {"id": "c1", "name": "read_file", "arguments": {"path": "/a.ts"}},
            {"id": "c2", "name": "write_file", "arguments": {"path": "/b.ts", "content": "x"}},
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "name": "read_file", "content": "let a = 1;", "ok": True},
    {"role": "tool", "tool_call_id": "c2", "name": "write_file", "content": "no such folder", "ok": False},
]


def test_native_body() -> None:
    body = build_request("m", "native", HISTORY, TOOLS, system="You are AgentLite.")
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["tool_choice"] == "auto"
    assert body["tools"][1] == {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "The read_file tool.",
            "parameters": TOOLS[1]["parameters"],
        },
    }
    messages = body["messages"]
    assert messages[0] == {"role": "system", "content": "You are AgentLite."}
    assert messages[2]["tool_calls"][0] == {
        "id": "c1",
        "type": "function",
        "function": {"name": "read_file", "arguments": '{"path": "/a.ts"}'},
    }
    assert messages[3] == {"role": "tool", "tool_call_id": "c1", "content": "let a = 1;"}
    assert messages[4]["tool_call_id"] == "c2"


def test_native_without_tools_has_no_tool_fields() -> None:
    body = build_request("m", "native", [{"role": "user", "content": "hi"}], [], include_usage=False)
    assert "tools" not in body and "tool_choice" not in body and "stream_options" not in body


def test_json_body_puts_the_protocol_in_the_system_prompt_and_results_in_one_user_message() -> None:
    body = build_request("m", "json", HISTORY, TOOLS, system="You are AgentLite.")
    assert "tools" not in body
    system, user, assistant, results = body["messages"]
    assert system["role"] == "system" and system["content"].startswith("You are AgentLite.\n\n## Tools")
    assert "- read_file(path: string): The read_file tool." in system["content"]
    assert '{"tool": "read_file", "arguments": {"path": "/src/App.tsx"}}' in system["content"]
    assert user == {"role": "user", "content": "Fix a.ts"}
    assert assistant["content"].splitlines()[1] == '{"tool": "read_file", "arguments": {"path": "/a.ts"}}'
    first, *rest = results["content"].split("\n")
    assert results["role"] == "user"
    assert first.startswith("[tool result · read_file · ok] Reply with prose;")
    assert rest[0] == "let a = 1;"
    assert "[tool result · write_file · error]\nno such folder" in results["content"]


def test_json_history_calls_decode_back_to_the_same_calls() -> None:
    body = build_request("m", "json", HISTORY, TOOLS)
    decoder = StreamDecoder.for_text("json", TOOLS)
    events = decoder.feed(body["messages"][2]["content"]) + decoder.close()
    ready = [(e.name, e.arguments) for e in events if e.kind == "tool_ready"]
    assert ready == [("read_file", {"path": "/a.ts"}), ("write_file", {"path": "/b.ts", "content": "x"})]


def test_ndjson_body_lists_streamed_fields_and_writes_calls_as_records() -> None:
    body = build_request("m", "ndjson", HISTORY, TOOLS)
    system = body["messages"][0]["content"]
    assert (
        "- edit_file(path: string, originalCode: string, newCode: string): The edit_file tool. "
        "[streamed: originalCode, newCode]" in system
    )
    assert '"data_b64":"<base64' in system and '"hash":null' in system
    record = json.loads(body["messages"][2]["content"].splitlines()[2])
    assert record == {
        "type": "tool",
        "id": "c2",
        "tool": "write_file",
        "data": {"path": "/b.ts", "content_b64": "c2-content"},
    }
    assert body["messages"][3]["content"].startswith("[tool result · read_file · ok] Reply in NDJSON only")


def test_ndjson_text_describes_plain_chunks() -> None:
    system = build_request("m", "ndjson-text", [], TOOLS)["messages"][0]["content"]
    assert '"data":"<text as a JSON string>"' in system


def test_adjacent_user_messages_are_merged() -> None:
    history = [*HISTORY, {"role": "user", "content": "Also check b.ts"}]
    messages = build_request("m", "json", history, TOOLS)["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[-1]["content"].endswith("\n\nAlso check b.ts")


def test_native_tools_are_lean_and_sent_once() -> None:
    from agentlite.engine import prompt
    from agentlite.tools.catalog import default_registry

    tools = default_registry().definitions()
    system = prompt.system_prompt("agent")
    body = build_request("m", "native", HISTORY, tools, system=system)
    read = next(t["function"] for t in body["tools"] if t["function"]["name"] == "read_file")
    full = next(t for t in tools if t["name"] == "read_file")
    assert read["description"] == full["brief"] and len(read["description"]) < len(full["description"])
    assert read["parameters"]["required"] == ["path"]
    assert read["parameters"]["properties"]["start_line"] == {"default": 1, "type": "integer"}
    assert "## Tools" not in body["messages"][0]["content"], "tools are not repeated in the system prompt"
    assert [t["function"]["name"] for t in body["tools"]].count("read_file") == 1
    prompted = build_request("m", "json", HISTORY, tools, system=system)
    assert full["description"] in prompted["messages"][0]["content"], "the json dialect keeps the full text"


def test_lean_schema_keeps_what_models_need() -> None:
    from agentlite.stream.request import lean_schema

    schema = {
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["a", "b"], "description": "How.", "title": "Mode"},
            "description": {"type": "string", "minLength": 1},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 9}, "default": []},
        },
        "required": ["mode", "description"],
    }
    assert lean_schema(schema) == {
        "type": "object",
        "properties": {
            "mode": {"type": "string", "enum": ["a", "b"]},
            "description": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "default": []},
        },
        "required": ["mode", "description"],
    }


def test_a_call_only_assistant_message_has_empty_string_content() -> None:
    history = [{"role": "assistant", "content": "", "tool_calls": [{"id": "c", "name": "read_file"}]}]
    (message,) = build_request("m", "native", history, TOOLS)["messages"]
    assert message["content"] == ""
