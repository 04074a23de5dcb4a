"""Real MCP servers (tests/mcp_server_app.py, the official SDK) on loopback, as pytest fixtures.

Each runs in its own process on a free port, is waited for (bounded), and is stopped when the tests
that use it are done. `mcp_server(kind)` starts one a test may stop itself (a server that goes away).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

APP = Path(__file__).with_name("mcp_server_app.py")
HOSTILE = Path(__file__).with_name("mcp_hostile_app.py")
START_TIMEOUT = 30.0


@dataclass
class RunningServer:
    kind: str
    url: str
    process: subprocess.Popen[bytes]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(kind: str, app: Path = APP) -> RunningServer:
    if app == APP:
        pytest.importorskip("mcp.server.mcpserver", reason="the test extras (mcp, uvicorn) are not installed")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(app), kind, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    server = RunningServer(kind, f"http://127.0.0.1:{port}/mcp", process)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            error = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise RuntimeError(f"the {kind} MCP server did not start: {error[-1500:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"the {kind} MCP server did not listen within {START_TIMEOUT:.0f} s")


def _served(kind: str) -> Iterator[RunningServer]:
    server = start(kind)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def stateful_server() -> Iterator[RunningServer]:
    yield from _served("stateful")


@pytest.fixture(scope="session")
def stateless_server() -> Iterator[RunningServer]:
    yield from _served("stateless")


@pytest.fixture(scope="session")
def nocors_server() -> Iterator[RunningServer]:
    yield from _served("nocors")


@pytest.fixture(scope="session")
def auth_server() -> Iterator[RunningServer]:
    yield from _served("auth")


@pytest.fixture(scope="session")
def oauth_server() -> Iterator[RunningServer]:
    """Protected by OAuth (the SDK's auth, tests/mcp_oauth_provider.py), its authorization server on its
    own origin."""
    yield from _served("oauth")


@pytest.fixture
def hostile_server() -> Iterator[Callable[[str], RunningServer]]:
    """Start a hostile server (tests/mcp_hostile_app.py) of the given kind for this test alone."""
    started: list[RunningServer] = []

    def make(kind: str) -> RunningServer:
        started.append(start(kind, HOSTILE))
        return started[-1]

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def mcp_server() -> Iterator[Callable[[str], RunningServer]]:
    """Start a server of the given kind for this test alone (it may stop it)."""
    started: list[RunningServer] = []

    def make(kind: str) -> RunningServer:
        started.append(start(kind))
        return started[-1]

    yield make
    for server in started:
        server.stop()
