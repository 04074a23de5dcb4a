"""No transport follows a redirect (agentlite.transport, `refuse_redirect`): on CPython the standard
library's transport answers a 3xx with `RedirectRefused` naming its target, the address it points to hears
nothing, an MCP exchange fails as a refused answer (not as an unreachable server) and the connection test
says what happened."""

from __future__ import annotations

import asyncio
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.connection import check
from agentlite.endpoint import Endpoint
from agentlite.errors import REDACTED
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.urllib_transport import UrllibTransport
from agentlite.mcp.wire import Wire
from agentlite.transport import MAX_LOCATION, HttpRequest, RedirectRefused, refuse_redirect

KEY = "sk-redirect-secret-1234"


class Listener:
    """A server on 127.0.0.1 that records each request and answers `status` with `location`."""

    def __init__(self, status: int = 200, location: str = "") -> None:
        self.requests: list[tuple[str, str]] = []
        self.status, self.location = status, location
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                listener.requests.append((self.command, self.path))
                self.send_response(listener.status)
                if listener.location:
                    self.send_header("Location", listener.location)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            do_GET = do_POST = do_DELETE = _answer

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def listeners() -> Iterator[tuple[Listener, Listener]]:
    target, source = Listener(), Listener()
    yield source, target
    source.close()
    target.close()


@pytest.fixture
def pair(listeners: tuple[Listener, Listener]) -> tuple[Listener, Listener]:
    """A redirecting server (a 307) and the one it points to, neither asked yet."""
    source, target = listeners
    source.status, source.location = 307, f"{target.url}/elsewhere"
    source.requests.clear()
    target.requests.clear()
    return source, target


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
def test_no_redirect_is_followed_and_its_target_hears_nothing(
    pair: tuple[Listener, Listener], status: int, method: str
) -> None:
    source, target = pair
    source.status = status
    body = {"arguments": "secret"} if method == "POST" else None
    request = HttpRequest(method, f"{source.url}/mcp", {"Authorization": f"Bearer {KEY}"}, body)
    with pytest.raises(RedirectRefused) as caught:
        asyncio.run(UrllibTransport(timeout=10).send(request))
    assert caught.value.status == status and caught.value.location == f"{target.url}/elsewhere"
    assert f"answered with a redirect to {target.url}/elsewhere; not followed" in caught.value.message
    assert source.requests == [(method, "/mcp")] and target.requests == []


def test_a_relative_location_is_named_in_full_and_a_missing_one_is_not_made_up(
    pair: tuple[Listener, Listener],
) -> None:
    source, _target = pair
    source.location = "/v2/mcp"
    with pytest.raises(RedirectRefused) as caught:
        asyncio.run(UrllibTransport(timeout=10).send(HttpRequest("GET", f"{source.url}/mcp")))
    assert caught.value.location == f"{source.url}/v2/mcp"
    source.location = ""
    with pytest.raises(RedirectRefused) as caught:
        asyncio.run(UrllibTransport(timeout=10).send(HttpRequest("GET", f"{source.url}/mcp")))
    assert caught.value.location == "" and "answered with a redirect; not followed" in caught.value.message


def test_an_mcp_post_that_is_redirected_fails_as_a_refused_answer(pair: tuple[Listener, Listener]) -> None:
    source, target = pair
    wire = Wire(f"{source.url}/mcp", UrllibTransport(timeout=10), token=KEY)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {"a": 1}}}
    with pytest.raises(McpFailure) as caught:
        asyncio.run(wire.post(ping, {}, resumable=False))
    assert caught.value.kind is FailureKind.HTTP and caught.value.status == 307
    assert "redirect" in caught.value.message and target.requests == []


def test_the_connection_test_says_the_endpoint_redirects(pair: tuple[Listener, Listener]) -> None:
    source, target = pair
    endpoint = Endpoint(f"{source.url}/v1", UrllibTransport(timeout=10), KEY)
    diagnosis = asyncio.run(check(endpoint, "test-model"))
    assert diagnosis.outcome == "error" and "redirect" in diagnosis.message
    assert target.requests == []


@settings(max_examples=200, deadline=None)
@given(st.integers(300, 399), st.text(max_size=600), st.booleans())
def test_a_refusal_names_at_most_a_bounded_target_and_never_the_key(
    status: int, location: str, keyed: bool
) -> None:
    target = f"{location}{KEY}{location}" if keyed else location
    request = HttpRequest("POST", "https://model.test/v1/chat", {"Authorization": f"Bearer {KEY}"})
    error = refuse_redirect(request, "https://model.test", status, target)
    assert KEY not in error.message and KEY not in str(error.to_dict()) and KEY not in error.location
    assert len(error.message) <= MAX_LOCATION + len(REDACTED) + 200
    assert error.type.value == "protocol" and error.status == status
