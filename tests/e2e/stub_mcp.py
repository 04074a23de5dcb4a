"""A small MCP server for end-to-end tests, in the test's own process: it reports the name it is given,
lists the tools it is given (each answers "done"), and counts the calls it received, per tool.

The stateless revision (2026-07-28) only, with CORS open to any page: the handler of
tests/mcp_hostile_app.py with its own methods. Its listening stream stays open and silent.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from typing import Any

from tests.mcp_hostile_app import VERSION, Handler


class StubServer:
    def __init__(self, name: str, tools: list[str]) -> None:
        self.name, self.tools, self.calls = name, tools, Counter[str]()
        stub = self

        class Bound(_Handler):
            server_stub = stub

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Bound)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/mcp"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def result(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method == "server/discover":
            meta = {"io.modelcontextprotocol/serverInfo": {"name": self.name, "version": "1"}}
            return {"supportedVersions": [VERSION], "capabilities": {"tools": {}}, "_meta": meta}
        if method == "tools/list":
            listed = [
                {"name": t, "description": f"{t} it.", "inputSchema": {"type": "object"}} for t in self.tools
            ]
            return {"tools": listed}
        if method == "tools/call":
            self.calls[str(params.get("name"))] += 1
            return {"content": [{"type": "text", "text": "done"}]}
        return None


class _Handler(Handler):
    """The hostile server's handler (CORS, OPTIONS, answers) with this stub's methods."""

    server_stub: StubServer

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            return self.answer(None, 202)
        if method == "subscriptions/listen":
            return self.listen()
        result = self.server_stub.result(str(method), message.get("params") or {})
        if result is None:
            error = {"code": -32601, "message": "no such method"}
            return self.answer({"jsonrpc": "2.0", "id": ident, "error": error})
        return self.answer({"jsonrpc": "2.0", "id": ident, "result": result})

    def listen(self) -> None:
        self.send_response(200)
        self.cors()
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        time.sleep(120)  # open and silent; a daemon thread, gone with the test process


@contextmanager
def stub_servers(*servers: tuple[str, list[str]]) -> Iterator[list[StubServer]]:
    running = [StubServer(name, tools) for name, tools in servers]
    try:
        yield running
    finally:
        for server in running:
            server.http.shutdown()
            server.http.server_close()
