"""The MCP connection doctor's judgement (web/src/mcp/common/mcp-doctor-verdict.js) under Node: every branch,
from probe outcomes as the doctor's worker reports them to the state, the diagnosis naming the failing step or
header, and the fix (tests/e2e/test_mcp_doctor.py runs the probes against real servers)."""

from __future__ import annotations

from typing import Any

import pytest

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "mcp_doctor_runner.mjs"
HEADERS = [
    "content-type",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "last-event-id",
]
ALL_PASS = dict.fromkeys(HEADERS, True)
BASE: dict[str, Any] = {"host": "mcp.test:8000", "origin": "https://app.test", "token": False, "reach": "ok"}
SIMPLE = {"ok": True, "status": 405, "wwwAuthenticate": None}


def judged(cases: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    return [line["answer"] for line in run_node(RUNNER, cases)]


def found(**changes: Any) -> dict[str, Any]:
    return {"found": {**BASE, "simple": SIMPLE, "preflight": ALL_PASS, **changes}}


def rpc(status: int, answer: str, **more: Any) -> dict[str, Any]:
    return {
        "ok": True,
        "status": status,
        "answer": answer,
        "wwwAuthenticate": None,
        "sessionId": None,
        **more,
    }


CASES: list[tuple[str, dict[str, Any], str, str, str]] = [
    (
        "nothing listens",
        {"found": {**BASE, "reach": "network"}},
        "unreachable",
        "nothing answers at mcp.test:8000",
        "start the server",
    ),
    (
        "silent",
        {"found": {**BASE, "reach": "timeout"}},
        "unreachable",
        "did not answer in time",
        "is running",
    ),
    (
        "no ACAO",
        found(simple={"ok": False, "error": "network"}),
        "cors-blocked",
        "without Access-Control-Allow-Origin for https://app.test",
        "Access-Control-Allow-Origin: https://app.test",
    ),
    (
        "redirect",
        found(simple={"ok": True, "status": 0, "redirected": True}),
        "error",
        "redirect",
        "redirects to",
    ),
    (
        "one header",
        found(preflight={**ALL_PASS, "mcp-protocol-version": False}),
        "cors-blocked",
        "Access-Control-Allow-Headers lacks mcp-protocol-version",
        "add mcp-protocol-version to Access-Control-Allow-Headers",
    ),
    (
        "two headers",
        found(preflight={**ALL_PASS, "mcp-method": False, "mcp-name": False}),
        "cors-blocked",
        "lacks mcp-method, mcp-name",
        "add mcp-method, mcp-name to",
    ),
    (
        "authorization with a token",
        found(token=True, preflight={**ALL_PASS, "authorization": False}),
        "cors-blocked",
        "Access-Control-Allow-Headers lacks authorization",
        "add authorization to",
    ),
    (
        "OPTIONS 401",
        found(simple={**SIMPLE, "status": 401}, preflight=dict.fromkeys(HEADERS, False)),
        "cors-blocked",
        "the server asks for sign-in on the preflight (OPTIONS answers 401); preflights must be answered"
        " without credentials",
        "answer OPTIONS before the authentication check",
    ),
    (
        "OPTIONS refused",
        found(preflight=dict.fromkeys(HEADERS, False)),
        "cors-blocked",
        "every preflight fails, even for Content-Type: application/json",
        "answer OPTIONS with Access-Control-Allow-Origin",
    ),
    (
        "discover",
        found(discover=rpc(200, "result", version="2026-07-28")),
        "connected",
        "server/discover answered",
        "",
    ),
    (
        "session",
        found(
            discover=rpc(400, "error"), initialize=rpc(200, "result", version="2025-11-25", sessionId="s1")
        ),
        "connected",
        "initialize answered (protocol 2025-11-25) with a session",
        "",
    ),
    (
        "no session",
        found(discover=rpc(404, "none"), initialize=rpc(200, "result"), followUp=rpc(200, "result")),
        "connected",
        "initialize answered without a session",
        "",
    ),
    (
        "session id hidden",
        found(discover=rpc(400, "error"), initialize=rpc(200, "result"), followUp=rpc(400, "error")),
        "cors-blocked",
        "Access-Control-Expose-Headers lacks mcp-session-id",
        "add mcp-session-id to Access-Control-Expose-Headers",
    ),
    (
        "401",
        found(discover=rpc(401, "none", wwwAuthenticate='Bearer realm="x"')),
        "needs-auth",
        'asks for a token (HTTP 401, WWW-Authenticate: Bearer realm="x")',
        "give a bearer token",
    ),
    (
        "403 with a token",
        found(
            token=True,
            preflight={**ALL_PASS, "authorization": True},
            discover=rpc(403, "none", wwwAuthenticate="Bearer"),
        ),
        "needs-auth",
        "refuses the token (HTTP 403",
        "valid bearer token",
    ),
    (
        "401 hidden",
        found(discover=rpc(401, "none")),
        "needs-auth",
        "Access-Control-Expose-Headers lacks www-authenticate",
        "add www-authenticate to Access-Control-Expose-Headers",
    ),
    (
        "rpc error",
        found(discover=rpc(400, "error"), initialize=rpc(400, "error")),
        "error",
        "answered initialize with a JSON-RPC error (HTTP 400)",
        "speaks MCP",
    ),
    (
        "not MCP",
        found(discover=rpc(404, "none"), initialize=rpc(404, "none")),
        "error",
        "HTTP 404 and no JSON-RPC answer",
        "MCP endpoint",
    ),
    (
        "POST failed",
        found(discover={"ok": False, "error": "network"}, initialize={"ok": False, "error": "timeout"}),
        "error",
        "failed after its preflight passed (timeout)",
        "server's log",
    ),
]


@pytest.mark.parametrize(("case", "state", "said", "fix"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_finding_gets_its_state_diagnosis_and_fix(
    case: dict[str, Any], state: str, said: str, fix: str
) -> None:
    [answer] = judged([case])
    assert answer is not None
    assert (answer["state"], said in answer["diagnosis"], fix in answer["fix"]) == (state, True, True), answer


def test_the_authorization_preflight_counts_only_with_a_token() -> None:
    [answer] = judged([found(preflight={**ALL_PASS, "authorization": False}, discover=rpc(200, "result"))])
    assert answer is not None and answer["state"] == "connected"


def test_a_stateless_server_needs_no_session_header_a_session_server_does() -> None:
    session_only = {**ALL_PASS, "mcp-session-id": False, "last-event-id": False}
    stateless, session = judged(
        [
            found(preflight=session_only, discover=rpc(200, "result")),
            found(
                preflight=session_only,
                discover=rpc(400, "error"),
                initialize=rpc(200, "result", sessionId="s"),
            ),
        ]
    )
    assert stateless is not None and stateless["state"] == "connected"
    assert session is not None and session["state"] == "cors-blocked"
    assert "lacks mcp-session-id, last-event-id" in session["diagnosis"]


def test_a_url_is_judged_before_any_request() -> None:
    answers = judged(
        [
            {"before": ["not a url", "https:"]},
            {"before": ["ftp://mcp.test/x", "https:"]},
            {"before": ["http://mcp.test/mcp", "https:"]},
            {"before": ["http://127.0.0.1:9/mcp", "https:"]},
            {"before": ["http://localhost:9/mcp", "https:"]},
            {"before": ["http://[::1]:9/mcp", "https:"]},
            {"before": ["http://mcp.test/mcp", "http:"]},
            {"before": ["https://mcp.test/mcp", "https:"]},
        ]
    )
    assert [a and a["state"] for a in answers] == [
        "error",
        "error",
        "unreachable",
        None,
        None,
        None,
        None,
        None,
    ]
    mixed = answers[2]
    assert mixed is not None and "mixed content" in mixed["diagnosis"] and "https:" in mixed["fix"]
