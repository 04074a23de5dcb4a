"""Authorization servers for the sign-in tests, honest and hostile, in this process (standard library).

`Authority(options)` serves, on 127.0.0.1 and a free port, with CORS open to any page:
- `/mcp`: a server that needs sign-in (401 and a `Bearer` challenge, naming its resource metadata
  when it has some);
- `/.well-known/oauth-protected-resource[/mcp]`: its resource metadata (itself as its authorization
  server), or 404 when `prm` is off (the 2025-03-26 way: its origin is the authorization server);
- `/.well-known/oauth-authorization-server`: its metadata, stating `issuer` (its own origin unless told
  otherwise) and, when told, `authorization_response_iss_parameter_supported`;
- `/register`, `/authorize`, `/token`: registration for anyone; an authorization that approves at
  once (a redirect with a code, and `iss` when told), forwards the whole request to another
  authorization endpoint (the mix-up), or answers an HTML page; a token endpoint that checks PKCE.

Every request is kept in `requests` (method, path with query, body), so a test can say what reached
which server. `wait_for(path)` blocks until a request for that path came (bounded).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

RESOURCE_PATH = "/.well-known/oauth-protected-resource"
METADATA_PATH = "/.well-known/oauth-authorization-server"


@dataclass
class Options:
    prm: bool = True  # serves resource metadata naming itself as its authorization server
    issuer: str | None = None  # the issuer its metadata states (None: its own origin)
    advertises_iss: bool = False  # its metadata says `authorization_response_iss_parameter_supported`
    sends_iss: bool = False  # its redirect carries `iss` (its stated issuer)
    forward_to: str | None = None  # its authorization endpoint sends the user there, query and all
    page: str | None = None  # its authorization endpoint answers this HTML


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    body: str


class Authority:
    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        self.requests: list[Seen] = []
        self.codes: dict[str, str] = {}  # code -> its PKCE challenge
        self.arrived = threading.Condition()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = f"{self.origin}/mcp"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def issuer(self) -> str:
        return self.options.issuer or self.origin

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def to(self, path: str) -> list[Seen]:
        return [seen for seen in self.requests if urlsplit(seen.path).path == path]

    def wait_for(self, path: str, timeout: float = 60.0) -> list[Seen]:
        with self.arrived:
            self.arrived.wait_for(lambda: bool(self.to(path)), timeout)
        return self.to(path)

    def metadata(self) -> dict[str, Any]:
        document = {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.origin}/authorize",
            "token_endpoint": f"{self.origin}/token",
            "registration_endpoint": f"{self.origin}/register",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        }
        if self.options.advertises_iss:
            document["authorization_response_iss_parameter_supported"] = True
        return document

    def authorize(self, query: str) -> tuple[int, dict[str, str], bytes]:
        """The answer of the authorization endpoint to this query."""
        if self.options.forward_to:
            return 302, {"Location": f"{self.options.forward_to}?{query}"}, b""
        if self.options.page is not None:
            return 200, {"Content-Type": "text/html"}, self.options.page.encode()
        params = {key: values[0] for key, values in parse_qs(query).items()}
        code = secrets.token_urlsafe(12)
        self.codes[code] = params.get("code_challenge", "")
        answer = {"code": code, "state": params.get("state", "")}
        if self.options.sends_iss:
            answer["iss"] = self.issuer
        return 302, {"Location": f"{params.get('redirect_uri', '')}?{urlencode(answer)}"}, b""

    def token(self, body: str) -> tuple[int, dict[str, Any]]:
        form = {key: values[0] for key, values in parse_qs(body).items()}
        challenge = self.codes.pop(form.get("code", ""), None)
        verifier = form.get("code_verifier", "").encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier).digest()).rstrip(b"=").decode()
        if challenge is None or digest != challenge:
            return 400, {"error": "invalid_grant"}
        return 200, {"access_token": secrets.token_urlsafe(12), "token_type": "Bearer", "expires_in": 600}


def _handler(authority: Authority) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:
            pass

        def do_OPTIONS(self) -> None:
            asked = self.headers.get("Access-Control-Request-Headers", "*")
            allow = {"Access-Control-Allow-Methods": "GET, POST", "Access-Control-Allow-Headers": asked}
            self._answer(204, allow, b"")

        def do_GET(self) -> None:
            self._route("GET", "")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self._route("POST", self.rfile.read(length).decode("utf-8", "replace"))

        def _route(self, method: str, body: str) -> None:
            with authority.arrived:
                authority.requests.append(Seen(method, self.path, body))
                authority.arrived.notify_all()
            path, query = urlsplit(self.path).path, urlsplit(self.path).query
            if path == "/authorize":
                self._answer(*authority.authorize(query))
            elif path == "/token":
                status, document = authority.token(body)
                self._json(status, document)
            elif path == "/register":
                self._json(201, {"client_id": f"client-{secrets.token_hex(4)}"})
            elif path == METADATA_PATH:
                self._json(200, authority.metadata())
            elif path.startswith(RESOURCE_PATH) and authority.options.prm:
                self._json(200, {"resource": authority.url, "authorization_servers": [authority.origin]})
            elif path == "/mcp":
                challenge = f'Bearer resource_metadata="{authority.origin}{RESOURCE_PATH}/mcp"'
                if not authority.options.prm:
                    challenge = 'Bearer realm="mcp"'
                self._json(401, {"error": "invalid_token"}, {"WWW-Authenticate": challenge})
            else:
                self._json(404, {"error": "not_found"})

        def _json(self, status: int, document: Any, headers: dict[str, str] | None = None) -> None:
            self._answer(
                status, {"Content-Type": "application/json", **(headers or {})}, json.dumps(document).encode()
            )

        def _answer(self, status: int, headers: dict[str, str], body: bytes) -> None:
            self.send_response(status)
            cors = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate"}
            for name, value in {**cors, **headers, "Content-Length": str(len(body))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

    return Handler
