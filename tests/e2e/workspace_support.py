"""Helpers for the workspace end-to-end tests: the testing API from Python, scripted agent turns that
write files, and the consistency checks every "nothing lost" test ends with."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from playwright.sync_api import Page

from buildsys.testing.model_server import Scripted, sse, text_chunks

CALL_TIMEOUT_MS = 60_000


def vfs(page: Page, method: str, *args: Any) -> Any:
    """`await window.agentlite.vfs[method](...args)` in the page."""
    return page.evaluate("([method, args]) => window.agentlite.vfs[method](...args)", [method, list(args)])


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tool_round(*calls: tuple[str, dict[str, Any]], chunk_delay: float = 0.0) -> Scripted:
    """One model reply that calls the given tools (OpenAI native `tool_calls`, one call per chunk)."""
    deltas = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": index,
                                "id": f"call_{index}",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(arguments)},
                            }
                        ]
                    },
                    "finish_reason": None,
                }
            ]
        }
        for index, (name, arguments) in enumerate(calls)
    ]
    deltas.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return Scripted(chunks=sse(*deltas), delay=chunk_delay)


def final_reply(text: str) -> Scripted:
    return Scripted(chunks=text_chunks(text))


def wait_for_reply(page: Page, text: str) -> None:
    page.locator("[data-testid=message][data-role=assistant][data-state=done]", has_text=text).wait_for(
        timeout=CALL_TIMEOUT_MS
    )


def assert_consistent(page: Page, paths: list[str]) -> None:
    """The stored history is sound, and each file's head version hashes to the content read back."""
    assert vfs(page, "check") == []
    for path in paths:
        text = vfs(page, "readText", path)
        history = vfs(page, "history", path)
        if text is None:
            assert not history or history[-1]["op"] == "delete", f"{path}: gone, but its head is live"
        else:
            assert history[-1]["sha256"] == sha256(text), f"{path}: the head does not match the content"
