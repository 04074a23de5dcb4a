"""Record what the real model server (buildsys/testing/llama_server.py) answers, byte for byte, as fixtures
for the stream decoders: `python -m buildsys.testing.capture OUT_DIR`.

Each case writes `NAME.sse` (the response body exactly as it arrived, after HTTP chunking) and
`NAME.json` (the request sent, with the status and headers of the answer). The server listens on
127.0.0.1 only; the tool definitions are the app's own (`agentlite.tools`).
"""

from __future__ import annotations

import http.client
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from buildsys.testing.llama_server import FUNCTIONS, SMALL, LlamaServer, install

QUESTION = "What is 2+2? Answer in one short sentence."
WRITE = "Create the file /notes/hello.txt that says hello."
LONG_TEXT = " ".join(f"Line {n}: the quick brown fox jumps over the lazy dog." for n in range(200))


def app_tools(
    names: tuple[str, ...] = ("create_file", "read_file", "list_directory"),
) -> list[dict[str, Any]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
    from agentlite.stream.request import function_tool
    from agentlite.tools.catalog import default_registry

    return [function_tool(d) for d in default_registry().definitions(names)]


def chat(model: str, content: str, **extra: Any) -> dict[str, Any]:
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": content},
    ]
    return {"model": model, "stream": True, "messages": messages, **extra}


def tool_round(model: str, tools: list[dict[str, Any]], content: str | None) -> dict[str, Any]:
    """The request after a native call: the assistant's call (with `content`) and its result."""
    call = {"id": "call_0", "type": "function", "function": {"name": "create_file", "arguments": "{}"}}
    body = chat(model, WRITE, tools=tools, max_tokens=32)
    body["messages"] += [
        {"role": "assistant", "content": content, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_0", "content": "created /notes/hello.txt"},
    ]
    return body


def cases() -> dict[str, tuple[str, str, dict[str, Any] | None]]:
    """name → (method, path, body)."""
    tools = app_tools()
    forced = {"type": "function", "function": {"name": "create_file"}}
    return {
        "models": ("GET", "/v1/models", None),
        "plain_answer": ("POST", "/v1/chat/completions", chat(FUNCTIONS.alias, QUESTION, max_tokens=64)),
        "native_forced_tool": (
            "POST",
            "/v1/chat/completions",
            chat(FUNCTIONS.alias, WRITE, tools=tools, tool_choice=forced, max_tokens=200),
        ),
        "auto_tools_stream": (
            "POST",
            "/v1/chat/completions",
            chat(FUNCTIONS.alias, QUESTION, tools=tools, tool_choice="auto", max_tokens=64),
        ),
        # the assistant turn of a native call, written with `content: null` as OpenAI allows
        "assistant_content_null": ("POST", "/v1/chat/completions", tool_round(FUNCTIONS.alias, tools, None)),
        "assistant_content_empty": ("POST", "/v1/chat/completions", tool_round(FUNCTIONS.alias, tools, "")),
        # streamed, an oversized request is an empty 200 (the server fails after the headers);
        # only without streaming does it answer 400 context_length_exceeded
        "context_length_stream": ("POST", "/v1/chat/completions", chat(SMALL.alias, LONG_TEXT)),
        "context_length_error": (
            "POST",
            "/v1/chat/completions",
            {**chat(SMALL.alias, LONG_TEXT), "stream": False},
        ),
    }


def request(
    port: int, method: str, path: str, body: dict[str, Any] | None
) -> tuple[int, dict[str, str], bytes]:
    """One request; the body as the server sent it (an aborted body keeps what arrived)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    payload = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Origin": "http://127.0.0.1:8000"} if payload else {}
    connection.request(method, path, body=payload, headers=headers)
    response = connection.getresponse()
    received = bytearray()
    try:
        while block := response.read1(65536):
            received += block
    except http.client.IncompleteRead as exc:
        received += exc.partial
    except (ConnectionError, http.client.HTTPException):
        pass  # the server gave up mid-body: what arrived is the capture
    connection.close()
    return response.status, dict(response.getheaders()), bytes(received)


def capture(out: Path, say: Callable[[str], None] = print) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with LlamaServer() as server:
        for name, (method, path, body) in cases().items():
            status, headers, received = request(server.port, method, path, body)
            (out / f"{name}.sse").write_bytes(received)
            record = {"method": method, "path": path, "request": body, "status": status, "headers": headers}
            (out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
            say(f"{name}: HTTP {status}, {len(received)} bytes")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m buildsys.testing.capture OUT_DIR", file=sys.stderr)
        return 2
    install()
    capture(Path(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
