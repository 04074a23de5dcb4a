"""`FetchTransport`: the model transport over the browser's fetch, read incrementally.

`response.body.getReader()` + `await reader.read()` delivers chunks as they arrive (pyfetch has no
streaming reader). Cancel through an AbortController; a connect timeout and an idle timeout between
chunks. The key travels only in the Authorization header and never appears in an error message: every
body is delivered with the key masked (transport.KeyMask), so neither an HTTP error nor an in-stream error
can repeat it. A task cancelled while the headers are awaited (the user stopped) aborts the fetch, so the
server sees the connection close instead of answering into the void.

Every fetch is `redirect: "manual"`: a redirect answer (which the browser shows only as an opaque one) is
refused with `RedirectRefused`, so the body (the chat, a tool's arguments, an OAuth code) is never sent on
to another address, whatever the status (a 307 or 308 would send it again as it is).

`LocalTransport` is the same transport for the model in the page: its `local:` requests go to the agent
worker's `agentliteLocalFetch` (web/src/agent/worker/local-fetch.js), which answers like `fetch` with the page
engine's stream, so every dialect reads it unchanged.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from agentlite.connection import origin
from agentlite.errors import ErrorType, ModelError, redact
from agentlite.transport import HttpRequest, KeyMask, is_redirect, refuse_redirect

CONNECT_TIMEOUT = 60.0  # seconds until response headers
MODEL_HEADERS = ("retry-after", "content-type", "x-request-id")
# What an MCP exchange reads back: the session, the server's demand for a token, the answer's type
MCP_HEADERS = ("mcp-session-id", "www-authenticate", "content-type", "retry-after")
IDLE_TIMEOUT = 120.0  # seconds of silence between chunks (reasoning models pause long)
LOCAL_CONNECT_TIMEOUT = 900.0  # seconds: the page's engine reads the whole prompt before the first chunk


async def _settle(promise: Any) -> Any:
    return await promise


class FetchResponse:
    def __init__(
        self,
        response: Any,
        controller: Any,
        idle_timeout: float,
        key: str | None = None,
        keep: tuple[str, ...] = MODEL_HEADERS,
    ) -> None:
        self.status = int(response.status)
        self.headers = {
            name: str(response.headers.get(name)) for name in keep if response.headers.get(name) is not None
        }
        self._response = response
        self._controller = controller
        self._idle_timeout = idle_timeout
        self._mask = KeyMask(key)
        self._done = False

    async def chunks(self) -> AsyncIterator[bytes]:
        if self._response.body is None:
            return
        reader = self._response.body.getReader()
        try:
            while not self._done:
                result = await self._read(reader)
                if result.done:
                    break
                chunk = self._mask.feed(bytes(result.value.to_py()))
                if chunk:
                    yield chunk
            rest = self._mask.close()
            if rest:
                yield rest
        finally:
            self._done = True

    async def _read(self, reader: Any) -> Any:
        try:
            return await asyncio.wait_for(_settle(reader.read()), self._idle_timeout)
        except TimeoutError as exc:
            self._controller.abort()
            raise ModelError(
                ErrorType.TIMEOUT, f"no data from the server for {self._idle_timeout:.0f} s"
            ) from exc
        except JsException as exc:
            if self._done:
                return _Done()
            raise ModelError(
                ErrorType.NETWORK, f"the connection dropped mid-stream ({_js_reason(exc)})"
            ) from exc

    async def cancel(self) -> None:
        if not self._done:
            self._done = True
            self._controller.abort()


class _Done:
    done = True


def _js_reason(exc: Exception) -> str:
    text = str(exc)
    return text.splitlines()[-1][:200] if text else type(exc).__name__


class FetchTransport:
    """`keep`: the response headers read back (the model's, or `MCP_HEADERS` for an MCP server: the
    same transport carries both, see agentlite.mcp.seam)."""

    def __init__(
        self,
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        keep: tuple[str, ...] = MODEL_HEADERS,
    ) -> None:
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        self.keep = keep

    async def send(self, request: HttpRequest) -> FetchResponse:
        controller = js.AbortController.new()
        init: dict[str, Any] = {
            "method": request.method,
            "headers": request.headers,
            "signal": controller.signal,
            "redirect": "manual",
        }
        if request.body is not None:
            body = request.body
            init["body"] = body if isinstance(body, str) else json.dumps(body)
        options = to_js(init, dict_converter=js.Object.fromEntries)
        try:
            response = await asyncio.wait_for(_settle(self.fetch(request.url, options)), self.connect_timeout)
        except TimeoutError as exc:
            controller.abort()
            raise ModelError(ErrorType.TIMEOUT, f"no answer from {origin(request.url)} in time") from exc
        except JsException as exc:
            reason = redact(_js_reason(exc), request.api_key)
            raise ModelError(
                ErrorType.NETWORK,
                f"cannot reach {origin(request.url)} (offline, wrong URL, or blocked by CORS): {reason}",
            ) from exc
        except BaseException:  # cancelled (the user stopped) before the headers came: drop the request
            controller.abort()
            raise
        if str(response.type) == "opaqueredirect" or is_redirect(int(response.status)):
            controller.abort()
            raise refuse_redirect(request, origin(request.url), int(response.status))
        return FetchResponse(response, controller, self.idle_timeout, request.api_key, self.keep)

    def fetch(self, url: str, options: Any) -> Any:
        return js.fetch(url, options)

    async def reachable(self, url: str) -> bool:
        """A `no-cors` GET (no headers, opaque answer): it succeeds when the server is up even if it
        sends no CORS headers, which tells a CORS block apart from an unreachable endpoint."""
        controller = js.AbortController.new()
        options = to_js(
            {"mode": "no-cors", "signal": controller.signal}, dict_converter=js.Object.fromEntries
        )
        try:
            await asyncio.wait_for(_settle(js.fetch(url, options)), self.connect_timeout)
        except (TimeoutError, JsException):
            controller.abort()
            return False
        return True


class LocalTransport(FetchTransport):
    """The model in the page: the same requests and streams, answered by the page's engine. Reading a
    long prompt takes a small engine minutes, so the wait for the first byte is long."""

    def __init__(self) -> None:
        super().__init__(connect_timeout=LOCAL_CONNECT_TIMEOUT, idle_timeout=LOCAL_CONNECT_TIMEOUT)

    def fetch(self, url: str, options: Any) -> Any:
        return js.agentliteLocalFetch(url, options)
