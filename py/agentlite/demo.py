"""The offline demo model: a deterministic `ScriptedTransport` responder that streams real
OpenAI-style SSE, token by token, through the same decoders a network model goes through.

It is a fake used for real: the app works with no key and no network.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentlite.transport import ModelRequest, ScriptedResponse, ScriptedTransport

TOKEN_DELAY = 0.02  # seconds between streamed tokens: fast, but visibly streaming

GREETING = (
    "Hello! I'm the **AgentLite demo model**. I run entirely in your browser, offline, so you can try "
    "the workspace without a key or a network.\n\n"
    "To use a real model, open **Settings** and enter an OpenAI-compatible base URL "
    "(for example `http://127.0.0.1:11434/v1` for Ollama), a model name and, if needed, an API key."
)


def sse_event(payload: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n".encode()


def tokens(text: str) -> list[str]:
    """Split text the way a model streams it: words with their leading whitespace."""
    return re.findall(r"\s*\S+|\s+$", text) or [text]


def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return sse_event({"id": "demo", "object": "chat.completion.chunk", "model": "demo", "choices": [choice]})


def text_reply(text: str) -> list[bytes]:
    body = [chunk({"role": "assistant", "content": ""})]
    body += [chunk({"content": piece}) for piece in tokens(text)]
    body += [chunk({}, finish="stop"), b"data: [DONE]\n\n"]
    return body


def last_user_text(request: ModelRequest) -> str:
    messages = (request.body or {}).get("messages") or []
    for message in reversed(messages):
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return str(message["content"])
    return ""


class DemoModel:
    """Chooses the scripted reply for a request."""

    def __init__(self, delay: float = TOKEN_DELAY) -> None:
        self.delay = delay

    def __call__(self, request: ModelRequest) -> ScriptedResponse:
        text = last_user_text(request)
        reply = GREETING if text else "Say something and I'll answer."
        return ScriptedResponse(status=200, body=text_reply(reply), delay=self.delay)


def demo_transport(delay: float = TOKEN_DELAY) -> ScriptedTransport:
    return ScriptedTransport(DemoModel(delay))
