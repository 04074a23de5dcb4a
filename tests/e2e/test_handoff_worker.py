"""The hand-off file's worker calls in the app: a file written on CPython is inspected and opened into a
freshly started app (whose start-up records count as empty), its files are there after the reload, its
MCP server waits in the `held` state until the user's Connect, and a changed file is refused by name."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import io
import zipfile

from playwright.sync_api import Page

from agentlite.handoff import write_handoff
from agentlite.mcp.server_book import ServerBook
from agentlite.workspace import Workspace
from agentlite.workspace.storage import MemoryStorage
from tests.e2e.conftest import open_app, wait_ready
from tests.e2e.test_mcp_servers import wait_state
from tests.mcp_servers import RunningServer, stateless_server

__all__ = ["stateless_server"]


def handoff_file(server_url: str) -> bytes:
    """Written on CPython, in a thread of its own (Playwright's loop runs in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, written(server_url)).result()


async def written(server_url: str) -> bytes:
    storage = MemoryStorage()
    ws = await Workspace.open(storage)
    await ws.write_text("/AGENTS.md", "Answer in French.\n", turn="t1", author="agent")
    await ws.write_text("/notes.md", "one\n", turn="t1", author="agent")
    await ws.write_text("/notes.md", "one\ntwo\n", turn="t2", author="user")
    book = ServerBook(storage)
    book.add(server_url)
    await book.save()
    return await write_handoff(storage, "Handed over", {}, {"model": "m"})


def test_a_handoff_opens_into_a_fresh_app_and_its_server_waits_for_connect(
    page: Page, origin: str, stateless_server: RunningServer
) -> None:
    data = base64.b64encode(handoff_file(stateless_server.url)).decode()
    open_app(page, origin)
    summary = page.evaluate("data => window.agentlite.handoff.inspect(data)", data)
    assert summary["instructions"] == ["/AGENTS.md"] and summary["files"] == 2
    assert summary["servers"] == [{"url": stateless_server.url, "name": ""}]
    opened = page.evaluate("data => window.agentlite.handoff.open(data)", data)
    assert opened["settings"] == {"model": "m"}
    page.reload()
    wait_ready(page)
    assert page.evaluate("() => window.agentlite.vfs.readText('/notes.md')") == "one\ntwo\n"
    assert [v["version"] for v in page.evaluate("() => window.agentlite.vfs.history('/notes.md')")] == [1, 2]
    page.click("[data-testid=mcp-open]")
    item = wait_state(page, stateless_server.url, "held")
    item.locator("[data-testid=mcp-connect]").click()
    wait_state(page, stateless_server.url, "connected")


def test_a_changed_file_is_refused_naming_the_member(page: Page, origin: str) -> None:
    raw = handoff_file("https://mcp.example.com/mcp")
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        files = {info.filename: archive.read(info) for info in archive.infolist()}
    files["stores/versions.jsonl"] = files["stores/versions.jsonl"].replace(b"t2", b"t9")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    open_app(page, origin)
    message = page.evaluate(
        "data => window.agentlite.handoff.open(data).then(() => 'opened', (error) => error.message)",
        base64.b64encode(buffer.getvalue()).decode(),
    )
    assert "stores/versions.jsonl differs from its manifest digest" in message
    assert page.evaluate("() => window.agentlite.vfs.list('/')") == []
