"""`UrllibTransport`: the MCP transport seam on CPython, for the tests and the conformance client.

The standard library only (no dependency in the wheel): `urllib.request` in a worker thread, the body
read with `read1` so server-sent events arrive as they are sent. A socket timeout bounds the wait for
the headers and every silence between chunks; `cancel()` shuts the socket, which wakes a blocked read.
HTTP errors are answers like any other (status and body), only a failed connection raises. A redirect is
never followed: it raises `RedirectRefused` (which carries its target), as the browser's transport does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from http.client import HTTPException, HTTPResponse
from typing import Any

from agentlite.connection import origin
from agentlite.errors import ErrorType, ModelError
from agentlite.transport import HttpRequest, KeyMask, is_redirect, refuse_redirect

CHUNK = 65536


class UrllibResponse:
    def __init__(self, response: Any, key: str | None) -> None:
        self.status = int(response.status)
        self.headers = {name.lower(): value for name, value in response.headers.items()}
        self._response = response
        self._mask = KeyMask(key)
        self._cancelled = False

    async def chunks(self) -> AsyncIterator[bytes]:
        try:
            while not self._cancelled:
                chunk = await asyncio.to_thread(self._read)
                if not chunk:
                    break
                masked = self._mask.feed(chunk)
                if masked:
                    yield masked
            rest = self._mask.close()
            if rest and not self._cancelled:
                yield rest
        finally:
            self._close()

    def _read(self) -> bytes:
        try:
            data: bytes = self._response.read1(CHUNK)
            return data
        except TimeoutError as exc:
            if self._cancelled:
                return b""
            raise ModelError(ErrorType.TIMEOUT, "the server went silent mid-answer") from exc
        except (OSError, ValueError, AttributeError, HTTPException) as exc:  # reset, cut, or cancelled
            if self._cancelled:
                return b""
            raise ModelError(ErrorType.NETWORK, f"the connection dropped mid-answer ({exc})") from exc

    async def cancel(self) -> None:
        if self._cancelled:
            return
        self._cancelled = True
        _shutdown(self._response)
        self._close()

    def _close(self) -> None:
        # A stream stopped early may leave a read waiting in another thread on this connection: shut the
        # socket first, or close() waits, on the loop's thread, for that read's timeout.
        _shutdown(self._response)
        with contextlib.suppress(Exception):  # closing under another thread's read may complain: it is closed
            self._response.close()


def _shutdown(response: Any) -> None:
    """Shut the socket under a response so a read blocked in another thread returns now."""
    raw = getattr(getattr(response, "fp", None), "raw", None)
    sock = getattr(raw, "_sock", None)
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


class UrllibTransport:
    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout

    async def send(self, request: HttpRequest) -> UrllibResponse:
        body = request.body
        data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
        prepared = urllib.request.Request(
            request.url, data=data, headers=request.headers, method=request.method
        )
        response = await asyncio.to_thread(self._open, prepared, request.url)
        status = int(response.status or 0)
        if is_redirect(status):
            named = response.headers.get("Location")
            location = urllib.parse.urljoin(request.url, named) if named else ""
            _shutdown(response)
            response.close()
            raise refuse_redirect(request, origin(request.url), status, location)
        return UrllibResponse(response, request.api_key)

    def _open(self, prepared: urllib.request.Request, url: str) -> HTTPResponse | urllib.error.HTTPError:
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            response: HTTPResponse = opener.open(prepared, timeout=self.timeout)
            return response
        except urllib.error.HTTPError as answer:  # a status of 400 or more: still an answer
            return answer
        except TimeoutError as exc:
            raise ModelError(ErrorType.TIMEOUT, f"no answer from {origin(url)} in time") from exc
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ModelError(ErrorType.NETWORK, f"cannot reach {origin(url)}: {reason}") from exc


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is answered as it is: a browser's fetch would not carry the token to another origin."""

    def redirect_request(self, *_args: Any, **_kwargs: Any) -> None:
        return None
