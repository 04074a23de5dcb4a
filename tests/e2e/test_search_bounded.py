"""A search the model sends can never hang the agent worker: `(a+)+b` over a line of 40 `a`s (2^40
steps for a backtracking regex) comes back at once as a tool error with a hint, and the app goes on
answering: the next call of the same turn reads the file, and the page's own calls still work."""

from __future__ import annotations

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, vfs

A40 = "a" * 40 + "\n"


def test_an_exponential_regex_is_a_tool_error_and_the_app_still_answers(page: Page, origin: str) -> None:
    with ModelServer() as server:
        server.script(
            Scripted(chunks=tool_call_chunks(("search", {"query": "(a+)+b", "regex": True}))),
            Scripted(chunks=tool_call_chunks(("read_file", {"path": "/a.txt"}))),
            Scripted(chunks=text_chunks("The regex was refused; the file holds a line of a.")),
        )
        start(page, origin, server)
        vfs(page, "writeText", "/a.txt", A40)
        send(page, "search the file with (a+)+b")
        assert approve_through(page, card(page, "search")) == "failed"
        assert approve_through(page, card(page, "read_file")) == "completed"
        wait_idle(page)
        results = tool_results(server)
    assert "exponential" in results[0] and "a+" in results[0]
    assert "a" * 40 in results[1]
    assert vfs(page, "readText", "/a.txt") == A40
