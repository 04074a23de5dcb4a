"""FetchTransport against a fake `js` (fetch, AbortController, a body reader): the API key never reaches an
error message, and a reply stopped before its headers aborts the fetch."""

from __future__ import annotations

import asyncio
import importlib
import itertools
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlite.engine.reply import stream_reply
from agentlite.errors import REDACTED, ModelError
from agentlite.stream.decoder import StreamDecoder
from agentlite.transport import HttpRequest, KeyMask, RedirectRefused

KEY = "sk-proj-Zx81secretKEY"
ECHO = (
    b'{"error": {"message": "Incorrect API key provided: ' + KEY.encode() + b'.", "code": "invalid_api_key"}}'
)


class FakeJsException(Exception):
    pass


@dataclass
class Controller:
    aborted: bool = False
    signal: object = field(default_factory=object)

    def abort(self) -> None:
        self.aborted = True


@dataclass
class Chunk:
    data: bytes

    def to_py(self) -> bytes:
        return self.data


@dataclass
class ReadResult:
    done: bool
    value: Chunk | None = None


class Reader:
    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = list(chunks)

    async def read(self) -> ReadResult:
        if not self._chunks:
            return ReadResult(True)
        return ReadResult(False, Chunk(self._chunks.pop(0)))


class Body:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def getReader(self) -> Reader:  # the DOM's name
        return Reader(self.chunks)


@dataclass
class Response:
    status: int
    body: Body
    headers: dict[str, str] = field(default_factory=dict)
    type: str = "cors"  # what a fetch answered: "opaqueredirect" for a redirect under redirect: "manual"


class Browser:
    """The parts of `js` the transport uses; `answer` is what fetch resolves to (None: never)."""

    def __init__(self) -> None:
        self.controllers: list[Controller] = []
        self.answer: Response | None = None
        self.fetching = asyncio.Event()
        self.sent: list[Any] = []  # the options of each fetch
        self.AbortController = types.SimpleNamespace(new=self._controller)
        self.Object = types.SimpleNamespace(fromEntries=dict)

    def _controller(self) -> Controller:
        self.controllers.append(Controller())
        return self.controllers[-1]

    async def fetch(self, _url: str, options: Any) -> Response:
        self.sent.append(options)
        self.fetching.set()
        if self.answer is None:
            await asyncio.Event().wait()  # headers that never come
        assert self.answer is not None
        return self.answer


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    fake = Browser()
    ffi = types.SimpleNamespace(JsException=FakeJsException, to_js=lambda value, **_: value)
    monkeypatch.setitem(sys.modules, "js", fake)
    monkeypatch.setitem(sys.modules, "pyodide", types.SimpleNamespace(ffi=ffi))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.delitem(sys.modules, "agentlite.browser.fetch_transport", raising=False)
    yield fake
    sys.modules.pop("agentlite.browser.fetch_transport", None)


def transport() -> Any:
    return importlib.import_module("agentlite.browser.fetch_transport").FetchTransport()


def request() -> HttpRequest:
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    return HttpRequest("POST", "http://127.0.0.1:9/v1/chat/completions", headers, {"stream": True})


def in_pieces(body: bytes, size: int = 7) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


async def reply_of(browser: Browser) -> Any:
    sending = transport()
    return await stream_reply(lambda: sending.send(request()), StreamDecoder("native"), lambda _event: None)


def test_http_error_that_echoes_the_key_is_masked(browser: Browser) -> None:
    browser.answer = Response(401, Body(in_pieces(ECHO)))
    with pytest.raises(ModelError) as caught:
        asyncio.run(reply_of(browser))
    error = caught.value
    assert error.status == 401 and error.type.value == "auth"
    assert error.message == f"Incorrect API key provided: {REDACTED}."
    assert KEY not in str(error.to_dict()) and KEY not in str(error)


def test_in_stream_error_that_echoes_the_key_is_masked(browser: Browser) -> None:
    body = b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: ' + ECHO + b"\n\n"
    browser.answer = Response(200, Body(in_pieces(body, 5)))
    reply = asyncio.run(reply_of(browser))
    assert reply.content == "Hi"
    assert reply.failure is not None
    assert reply.failure.message == f"Incorrect API key provided: {REDACTED}."


def test_stop_before_the_headers_aborts_the_fetch(browser: Browser) -> None:
    async def stop_while_waiting() -> None:
        task = asyncio.create_task(reply_of(browser))
        await browser.fetching.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(stop_while_waiting())
    assert [c.aborted for c in browser.controllers] == [True]


def test_a_complete_reply_is_not_aborted_early_and_keeps_its_text(browser: Browser) -> None:
    body = b'data: {"choices":[{"index":0,"delta":{"content":"sk-proj ok"},"finish_reason":"stop"}]}\n\n'
    browser.answer = Response(200, Body([body[:-40], body[-40:]]))
    reply = asyncio.run(reply_of(browser))
    assert (reply.content, reply.finish, reply.failure) == ("sk-proj ok", "stop", None)


def test_request_api_key_is_the_bearer_token() -> None:
    assert request().api_key == KEY
    assert HttpRequest("GET", "u", {"Authorization": "Basic abc"}).api_key is None
    assert HttpRequest("GET", "u").api_key is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([KEY.encode(), KEY.encode()[:5], b"sk-", b"s", b"text ", b'"', b"\n"]), max_size=12
    ),
    st.lists(st.integers(0, 400), max_size=8),
)
def test_key_mask_any_split(parts: list[bytes], cuts: list[int]) -> None:
    body = b"".join(parts)
    edges = [0, *sorted(min(c, len(body)) for c in cuts), len(body)]
    mask = KeyMask(KEY)
    out = b"".join(mask.feed(body[a:b]) for a, b in itertools.pairwise(edges)) + mask.close()
    assert out == body.replace(KEY.encode(), REDACTED.encode())
    assert KEY.encode() not in out


def test_a_short_key_is_not_masked() -> None:
    assert KeyMask("none").feed(b"none of it") == b"none of it"


def test_a_text_body_is_sent_as_it_is_and_a_dict_as_json(browser: Browser) -> None:
    """An OAuth token request is a form, not JSON (agentlite.mcp.oauth)."""
    browser.answer = Response(200, Body([b"{}"]))
    form = "grant_type=authorization_code&code=abc"
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    asyncio.run(transport().send(HttpRequest("POST", "http://127.0.0.1:9/token", headers, form)))
    asyncio.run(transport().send(request()))
    assert [sent["body"] for sent in browser.sent] == [form, '{"stream": true}']


def test_every_fetch_refuses_to_follow_redirects(browser: Browser) -> None:
    """The browser then hands back a redirect as it is: the body is never sent on (a 307 would re-send it)."""
    browser.answer = Response(200, Body([b"{}"]))
    asyncio.run(transport().send(request()))
    asyncio.run(transport().send(HttpRequest("DELETE", "http://127.0.0.1:9/mcp")))
    assert [sent["redirect"] for sent in browser.sent] == ["manual", "manual"]


@pytest.mark.parametrize(
    ("status", "kind"), [(0, "opaqueredirect"), (307, "cors"), (302, "cors"), (304, "cors")]
)
def test_a_redirect_answer_is_refused_unread_with_a_clear_error(
    browser: Browser, status: int, kind: str
) -> None:
    browser.answer = Response(status, Body([b"data: never read\n\n"]), type=kind)
    with pytest.raises(RedirectRefused) as caught:
        asyncio.run(reply_of(browser))
    error = caught.value
    assert error.type.value == "protocol" and error.status == (status or None)
    assert "http://127.0.0.1:9 answered with a redirect; not followed" in error.message
    assert [c.aborted for c in browser.controllers] == [True]
