"""The MCP transport seam: the HTTP seam the model's requests use too (agentlite.transport), as it is.

An MCP exchange is an HTTP request with a JSON body (or none: a GET that opens a stream, a DELETE that
ends a session) and a streamed answer, which is exactly what the model transport carries: `send(request)
-> response` with `status`, `headers`, `chunks()` and `cancel()`; a connection that fails raises
`ModelError(network|timeout)`. The bearer token travels in the Authorization header and every body comes
back with it masked (`KeyMask`), as the model key does. Implementations: `ScriptedTransport` (the fake,
in agentlite.transport), `UrllibTransport` (CPython: tests and the conformance client), and a browser one
over the page's fetch (later). Response header names are lower-case. A request's body is JSON (a dict)
or a text sent as it is (the form of an OAuth token request, agentlite.mcp.oauth).
"""

from __future__ import annotations

from agentlite.transport import (
    HttpRequest,
    HttpResponse,
    HttpTransport,
    ScriptedResponse,
    ScriptedTransport,
)

__all__ = ["HttpRequest", "HttpResponse", "HttpTransport", "ScriptedResponse", "ScriptedTransport"]
