"""The MCP connection doctor (web/src/mcp/page/mcp-doctor.js, docs/mcp.md) in Chromium, from the app's own
page, against real MCP servers built with the official SDK (tests/mcp_server_app.py), each getting CORS wrong
one way, and a port where nothing listens: each gets its state and names the failing step or header."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.mcp_server_app import TOKEN
from tests.mcp_servers import RunningServer, free_port, start

# kind, token, state, words the diagnosis must contain, words the fix must contain
CASES: list[tuple[str, str, str, list[str], list[str]]] = [
    ("stateful", "", "connected", ["initialize answered (protocol 2025-11-25) with a session"], []),
    ("stateless", "", "connected", ["server/discover answered"], []),
    ("auth", TOKEN, "connected", ["server/discover answered"], []),
    ("auth", "", "needs-auth", ["asks for a token", "HTTP 401", 'Bearer realm="mcp"'], ["bearer token"]),
    ("auth", "wrong-token", "needs-auth", ["refuses the token", "HTTP 401"], ["valid bearer token"]),
    (
        "authhidden",
        "",
        "needs-auth",
        ["Access-Control-Expose-Headers lacks www-authenticate"],
        ["add www-authenticate"],
    ),
    (
        "nocors",
        "",
        "cors-blocked",
        ["Access-Control-Allow-Headers lacks mcp-protocol-version, mcp-session-id"],
        ["add mcp-protocol-version"],
    ),
    (
        "noorigin",
        "",
        "cors-blocked",
        ["without Access-Control-Allow-Origin"],
        ["Access-Control-Allow-Origin"],
    ),
    (
        "noexpose",
        "",
        "cors-blocked",
        ["Access-Control-Expose-Headers lacks mcp-session-id"],
        ["add mcp-session-id to Access-Control-Expose-Headers"],
    ),
    (
        "options401",
        TOKEN,
        "cors-blocked",
        ["asks for sign-in on the preflight (OPTIONS answers 401)"],
        ["answer OPTIONS before"],
    ),
]


def diagnose(page: Page, url: str, token: str = "") -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate(
        "([url, token]) => window.agentlite.mcp.diagnose(url, { token })", [url, token]
    )
    return answer


def test_the_doctor_names_what_each_real_server_gets_wrong(app: Page) -> None:
    servers: dict[str, RunningServer] = {}
    wrong = []
    try:
        for kind, token, state, said, fix in CASES:
            server = servers.get(kind) or servers.setdefault(kind, start(kind))
            answer = diagnose(app, server.url, token)
            print(kind, bool(token), answer)
            words = [(w, answer["diagnosis"]) for w in said] + [(w, answer["fix"]) for w in fix]
            if answer["state"] != state or not all(w in text for w, text in words):
                wrong.append((kind, token, answer))
    finally:
        for server in servers.values():
            server.stop()
    assert wrong == []


def test_the_doctor_tells_a_closed_port_from_a_cors_refusal(app: Page) -> None:
    answer = diagnose(app, f"http://127.0.0.1:{free_port()}/mcp")
    assert answer["state"] == "unreachable"
    assert "nothing answers at 127.0.0.1:" in answer["diagnosis"]
    assert "start the server" in answer["fix"]


def test_the_doctor_judges_a_bad_url_before_any_request(app: Page) -> None:
    assert diagnose(app, "not a url")["state"] == "error"
    assert diagnose(app, "ftp://example.test/mcp")["state"] == "error"


def test_the_doctor_sends_the_token_only_to_the_server_and_only_on_mcp_requests(app: Page) -> None:
    server = start("auth")
    seen: list[tuple[str, str, str | None]] = []
    app.context.on("request", lambda r: seen.append((r.method, r.url, r.headers.get("authorization"))))
    try:
        answer = diagnose(app, server.url, TOKEN)
    finally:
        server.stop()
    assert answer["state"] == "connected"
    carrying = [(method, url) for method, url, auth in seen if auth and TOKEN in auth]
    assert carrying and all(url == server.url and method == "POST" for method, url in carrying)
    probes = [auth for method, url, auth in seen if url == server.url and auth and TOKEN not in auth]
    assert set(probes) <= {"Bearer doctor-probe"}
