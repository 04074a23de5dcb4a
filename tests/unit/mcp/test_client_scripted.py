"""The client's protocol logic against scripted servers (the transport seam's fake): negotiation, a
resumed stream, a forgotten session, input rounds, the server's own requests, timeouts."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from agentlite.errors import ErrorType, ModelError
from agentlite.mcp.client import McpClient
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.seam import HttpRequest, ScriptedResponse, ScriptedTransport

URL = "http://mcp.test/mcp"
SSE = {"content-type": "text/event-stream"}
JSON = {"content-type": "application/json"}
INIT = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "Fake"}}


def event(body: dict[str, Any] | None, ident: str | None = None, retry: int | None = None) -> bytes:
    lines = [f"id: {ident}"] if ident else []
    lines += [f"retry: {retry}"] if retry is not None else []
    lines.append("data: " + (json.dumps(body) if body is not None else ""))
    return ("\n".join(lines) + "\n\n").encode()


def answer(
    request: HttpRequest, result: dict[str, Any], headers: dict[str, str] | None = None
) -> ScriptedResponse:
    assert request.body is not None
    body = json.dumps({"jsonrpc": "2.0", "id": request.body["id"], "result": result}).encode()
    return ScriptedResponse(200, [body], {**JSON, **(headers or {})})


def error(request: HttpRequest, code: int, status: int = 400, data: Any = None) -> ScriptedResponse:
    assert request.body is not None
    failure = {"code": code, "message": "no", **({"data": data} if data is not None else {})}
    return ScriptedResponse(
        status, [json.dumps({"jsonrpc": "2.0", "id": request.body["id"], "error": failure}).encode()], JSON
    )


def method(request: HttpRequest) -> str | None:
    return None if request.body is None else request.body.get("method")


def legacy(request: HttpRequest) -> ScriptedResponse | None:
    """A session server's handshake: discover refused, initialize answered, initialized accepted."""
    if method(request) == "server/discover":
        return error(request, -32600)
    if method(request) == "initialize":
        return answer(request, INIT, {"mcp-session-id": "s-1"})
    if method(request) == "notifications/initialized":
        return ScriptedResponse(202)
    return None


async def no_sleep(_seconds: float) -> None:
    await asyncio.sleep(0)


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 10))


def test_a_dropped_stream_is_resumed_from_its_last_event_id() -> None:
    calls: list[HttpRequest] = []

    def respond(request: HttpRequest) -> ScriptedResponse:
        calls.append(request)
        found = legacy(request)
        if found is not None:
            return found
        if method(request) == "tools/call":
            progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}
            failure = ModelError(ErrorType.NETWORK, "reset")
            body = [event(None, "e-1", retry=5), event(progress, "e-2")]
            return ScriptedResponse(200, body, SSE, fail_after=2, failure=failure)
        assert request.method == "GET" and request.headers["Last-Event-ID"] == "e-2"
        call = next(c for c in calls if method(c) == "tools/call")
        assert call.body is not None
        done = {
            "jsonrpc": "2.0",
            "id": call.body["id"],
            "result": {"content": [{"type": "text", "text": "ok"}]},
        }
        return ScriptedResponse(200, [event(done, "e-3")], SSE)

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    mcp = McpClient(URL, ScriptedTransport(respond), sleep=sleep)
    result = run(mcp.call_tool("echo", {"text": "x"}))
    assert result["content"][0]["text"] == "ok"
    assert slept == [0.005]  # the stream's own retry time
    get = calls[-1]
    assert get.headers["Mcp-Session-Id"] == "s-1" and get.headers["MCP-Protocol-Version"] == "2025-11-25"


def test_a_stream_that_ends_without_ids_or_answer_is_a_network_failure() -> None:
    def respond(request: HttpRequest) -> ScriptedResponse:
        return legacy(request) or ScriptedResponse(200, [b": keep-alive\n\n"], SSE)

    mcp = McpClient(URL, ScriptedTransport(respond), sleep=no_sleep)
    with pytest.raises(McpFailure) as caught:
        run(mcp.call_tool("echo", {}))
    assert caught.value.kind is FailureKind.NETWORK


def test_a_forgotten_session_is_opened_anew_once() -> None:
    sessions = iter(["s-1", "s-2"])
    seen: list[str | None] = []

    def respond(request: HttpRequest) -> ScriptedResponse:
        if method(request) == "initialize":
            return answer(request, INIT, {"mcp-session-id": next(sessions)})
        found = legacy(request)
        if found is not None:
            return found
        seen.append(request.headers.get("Mcp-Session-Id"))
        if request.headers.get("Mcp-Session-Id") == "s-1":
            return ScriptedResponse(404, [b"gone"], JSON)
        return answer(request, {"tools": []})

    mcp = McpClient(URL, ScriptedTransport(respond))
    assert run(mcp.list_tools()) == []
    assert seen == ["s-1", "s-2"]


def test_discover_names_the_mutual_revision_and_the_client_asks_again() -> None:
    asked: list[str] = []

    def respond(request: HttpRequest) -> ScriptedResponse:
        assert request.body is not None
        asked.append(request.headers["MCP-Protocol-Version"])
        if request.headers["MCP-Protocol-Version"] != "2026-07-28":
            raise AssertionError("asked at an unknown revision")
        meta = request.body["params"]["_meta"]
        assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
        assert meta["io.modelcontextprotocol/clientInfo"]["name"] == "agentlite"
        return answer(request, {"supportedVersions": ["2026-07-28"], "capabilities": {}})

    mcp = McpClient(URL, ScriptedTransport(respond))
    run(mcp.connect())
    assert mcp.revision == "2026-07-28" and asked == ["2026-07-28"]


def test_a_modern_only_server_with_no_common_revision_fails_instead_of_falling_back() -> None:
    def respond(request: HttpRequest) -> ScriptedResponse:
        if method(request) == "initialize":
            raise AssertionError("fell back to a handshake the server cannot speak")
        return error(request, -32022, data={"supported": ["2030-01-01"], "requested": "2026-07-28"})

    with pytest.raises(McpFailure) as caught:
        run(McpClient(URL, ScriptedTransport(respond)).connect())
    assert caught.value.kind is FailureKind.PROTOCOL and "2030-01-01" in str(caught.value)


def old_revisions_only(request: HttpRequest) -> ScriptedResponse:
    return answer(request, {"supportedVersions": ["2025-11-25"]})


def lost_to_the_network(_request: HttpRequest) -> ScriptedResponse:
    """In a browser, a preflight refused for `Mcp-Method` reads as a network error."""
    raise ModelError(ErrorType.NETWORK, "Failed to fetch")


@pytest.mark.parametrize("discover", [old_revisions_only, lost_to_the_network])
def test_a_discover_that_finds_no_modern_revision_falls_back_to_the_handshake(
    discover: Callable[[HttpRequest], ScriptedResponse],
) -> None:
    """Only old revisions advertised, or no answer at all (the handshake sends no `Mcp-Method`): the
    session handshake still connects."""

    def respond(request: HttpRequest) -> ScriptedResponse:
        if method(request) == "server/discover":
            return discover(request)
        found = legacy(request)
        assert found is not None
        return found

    mcp = McpClient(URL, ScriptedTransport(respond))
    run(mcp.connect())
    assert mcp.revision == "2025-11-25" and mcp.session_id == "s-1"


def modern(request: HttpRequest) -> ScriptedResponse | None:
    if method(request) == "server/discover":
        return answer(request, {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}})
    return None


def test_input_rounds_carry_the_request_state_back() -> None:
    states: list[Any] = []

    def respond(request: HttpRequest) -> ScriptedResponse:
        found = modern(request)
        if found is not None:
            return found
        assert request.body is not None
        params = request.body["params"]
        assert request.headers["Mcp-Method"] == "tools/call" and request.headers["Mcp-Name"] == "wait"
        states.append(params.get("requestState"))
        if len(states) < 3:
            return answer(request, {"resultType": "input_required", "requestState": f"r{len(states)}"})
        return answer(request, {"resultType": "complete", "content": []})

    mcp = McpClient(URL, ScriptedTransport(respond), sleep=no_sleep)
    assert run(mcp.call_tool("wait", {}))["content"] == []
    assert states == [None, "r1", "r2"]


def test_a_name_that_is_not_plain_ascii_travels_wrapped() -> None:
    names: list[str] = []

    def respond(request: HttpRequest) -> ScriptedResponse:
        names.append(request.headers.get("Mcp-Name", ""))
        return modern(request) or answer(request, {"content": []})

    run(McpClient(URL, ScriptedTransport(respond)).call_tool("wäit", {}))
    assert names[-1] == "=?base64?d8OkaXQ=?="


def test_an_input_request_this_client_cannot_answer_fails_the_call() -> None:
    def respond(request: HttpRequest) -> ScriptedResponse:
        ask = {"resultType": "input_required", "inputRequests": {"k": {"method": "elicitation/create"}}}
        return modern(request) or answer(request, ask)

    with pytest.raises(McpFailure) as caught:
        run(McpClient(URL, ScriptedTransport(respond)).call_tool("ask", {}))
    assert caught.value.kind is FailureKind.INPUT and "elicitation/create" in str(caught.value)


def test_endless_input_rounds_end() -> None:
    def respond(request: HttpRequest) -> ScriptedResponse:
        return modern(request) or answer(request, {"resultType": "input_required", "requestState": "again"})

    with pytest.raises(McpFailure) as caught:
        run(McpClient(URL, ScriptedTransport(respond), sleep=no_sleep).call_tool("loop", {}))
    assert caught.value.kind is FailureKind.PROTOCOL


def test_the_servers_ping_is_answered_and_other_requests_are_refused() -> None:
    posted: list[dict[str, Any]] = []

    def respond(request: HttpRequest) -> ScriptedResponse:
        found = legacy(request)
        if found is not None:
            return found
        assert request.body is not None
        if "method" not in request.body:
            assert request.headers["Mcp-Session-Id"] == "s-1"  # the reply belongs to the session
            posted.append(request.body)
            return ScriptedResponse(202)
        ping = {"jsonrpc": "2.0", "id": "p", "method": "ping"}
        sample = {"jsonrpc": "2.0", "id": "q", "method": "sampling/createMessage", "params": {}}
        done = {"jsonrpc": "2.0", "id": request.body["id"], "result": {"content": []}}
        return ScriptedResponse(200, [event(ping), event(sample), event(done)], SSE)

    run(McpClient(URL, ScriptedTransport(respond)).call_tool("t", {}))
    assert posted[0] == {"jsonrpc": "2.0", "id": "p", "result": {}}
    assert posted[1]["id"] == "q" and posted[1]["error"]["code"] == -32601


def test_a_silent_server_times_out() -> None:
    def respond(request: HttpRequest) -> ScriptedResponse:
        found = legacy(request)
        if found is not None or method(request) == "notifications/cancelled":
            return found or ScriptedResponse(202)
        return ScriptedResponse(200, [b": wait\n\n"] * 100, SSE, delay=0.05)

    mcp = McpClient(URL, ScriptedTransport(respond), timeout=0.3)
    run(mcp.connect())
    with pytest.raises(McpFailure) as caught:
        run(mcp.call_tool("slow", {}))
    assert caught.value.kind is FailureKind.TIMEOUT


def test_a_broken_answer_is_a_protocol_failure_not_a_crash() -> None:
    def respond(request: HttpRequest) -> ScriptedResponse:
        return legacy(request) or ScriptedResponse(200, [b"data: {not json\n\n"], SSE)

    with pytest.raises(McpFailure) as caught:
        run(McpClient(URL, ScriptedTransport(respond)).call_tool("t", {}))
    assert caught.value.kind is FailureKind.PROTOCOL


def test_a_server_that_answers_nothing_is_unreachable_after_one_handshake() -> None:
    asked: list[str | None] = []

    async def respond(request: HttpRequest) -> ScriptedResponse:
        asked.append(method(request))
        raise ModelError(ErrorType.NETWORK, f"Failed to fetch {method(request)}")

    with pytest.raises(McpFailure) as caught:
        run(McpClient(URL, ScriptedTransport(respond)).connect())
    assert caught.value.kind is FailureKind.NETWORK and "server/discover" in str(caught.value)
    assert asked == ["server/discover", "initialize"]
