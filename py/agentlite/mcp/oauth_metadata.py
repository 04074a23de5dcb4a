"""Where to sign in to a protected MCP server: its `WWW-Authenticate` challenge, its protected resource
metadata (RFC 9728) and its authorization server's metadata (RFC 8414 / OpenID discovery), read in the
order the MCP authorization spec (2025-11-25) gives, into one `AuthPlan`.

- Resource metadata: the challenge's `resource_metadata` URL, else `/.well-known/oauth-protected-resource`
  with the server's path, else at the root. Its `resource` must name this server (same origin, a prefix of
  its path): metadata that names another resource is refused, so a token is never asked for elsewhere.
- Authorization server metadata: for an issuer with a path, `/.well-known/oauth-authorization-server/<path>`,
  `/.well-known/openid-configuration/<path>`, `<path>/.well-known/openid-configuration`; without one,
  the first two at the root.
- A server with no resource metadata is taken the 2025-03-26 way: its origin is the authorization server,
  and without metadata there either, `/authorize`, `/token` and `/register` at the origin.
- Every authorization server URL is https (http only on loopback), and its metadata's `issuer` is the
  one the resource named (RFC 8414 §3.3); without resource metadata, one of the server's own origin.
- PKCE: metadata that does not list `S256` in `code_challenge_methods_supported` is refused (the spec:
  absent means no PKCE).
- Scope: the challenge's `scope`, else the resource's `scopes_supported`, else none; joined to the scope
  already held (step-up), plus `offline_access` when the authorization server lists it (a refresh token).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from agentlite.errors import ModelError
from agentlite.mcp.failure import FailureKind, McpFailure
from agentlite.mcp.seam import HttpRequest, HttpTransport

MAX_METADATA_BYTES = 256 * 1024
PRM = "/.well-known/oauth-protected-resource"
OAUTH_AS = "/.well-known/oauth-authorization-server"
OPENID = "/.well-known/openid-configuration"
LOOPBACK = ("localhost", "127.0.0.1", "::1")
_PARAM = re.compile(r'([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]*)')


@dataclass(frozen=True)
class AuthPlan:
    """Everything a sign-in needs to know about one server, none of it secret."""

    server_url: str
    resource: str  # sent as RFC 8707 `resource` with every authorization and token request
    authorization_endpoint: str
    token_endpoint: str
    registration_endpoint: str | None
    scope: str | None  # None: the authorization request carries no scope
    metadata_document_supported: bool  # the AS takes an https URL as client_id (CIMD)
    issuer: str | None = None
    issuer_in_response: bool = False  # RFC 9207: the redirect carries `iss`, which must be `issuer`

    def client_route(self, *, has_client_id: bool = False) -> str:
        """How to get a client id: `metadata_document`, `pre_registered`, `registration`, or `none`."""
        if self.metadata_document_supported:
            return "metadata_document"
        if has_client_id:
            return "pre_registered"
        return "registration" if self.registration_endpoint else "none"


def parse_challenge(header: str | None) -> dict[str, str]:
    """The parameters of the `Bearer` challenge in a `WWW-Authenticate` value (lower-case names)."""
    if not header:
        return {}
    found = re.search(r"(?i)(?:^|[\s,])bearer(?:\s+|$)", header)
    if found is None:
        return {}
    params: dict[str, str] = {}
    rest = header[found.end() :]
    position = 0
    while True:
        match = _PARAM.match(rest, position)
        if match is None:
            break
        value = match.group(2)
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        params.setdefault(match.group(1).lower(), value)
        position = match.end()
        comma = re.match(r"\s*,\s*", rest[position:])
        if comma is None:
            break
        position += comma.end()
    return params


def canonical(url: str) -> str:
    """The server's URL as a resource identifier: lower-case scheme and host, no fragment."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path, parts.query, ""))


def names_server(resource: str, server_url: str) -> bool:
    """True when `resource` is this server: same origin, and its path a prefix of the server's."""
    want, have = urlsplit(canonical(server_url)), urlsplit(canonical(resource))
    if (want.scheme, want.netloc) != (have.scheme, have.netloc):
        return False
    prefix = have.path.rstrip("/") + "/"
    return (want.path.rstrip("/") + "/").startswith(prefix)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def resource_metadata_urls(server_url: str, challenge: dict[str, str]) -> list[str]:
    path = urlsplit(server_url).path.rstrip("/")
    urls = [challenge["resource_metadata"]] if challenge.get("resource_metadata") else []
    if path:
        urls.append(_origin(server_url) + PRM + path)
    urls.append(_origin(server_url) + PRM)
    return list(dict.fromkeys(urls))


def authorization_metadata_urls(issuer: str) -> list[str]:
    path = urlsplit(issuer).path.rstrip("/")
    base = _origin(issuer)
    if not path:
        return [base + OAUTH_AS, base + OPENID]
    return [base + OAUTH_AS + path, base + OPENID + path, base + path + OPENID]


async def get_json(transport: HttpTransport, url: str) -> dict[str, Any] | None:
    """A metadata document, or None when this URL has none (an error status, or no answer: in a browser
    a well-known URL without CORS looks like a failed connection)."""
    try:
        response = await transport.send(HttpRequest("GET", url, {"Accept": "application/json"}))
    except ModelError:
        return None
    body = bytearray()
    try:
        async for chunk in response.chunks():
            body += chunk
            if len(body) > MAX_METADATA_BYTES:
                return None
    except ModelError:
        return None
    finally:
        await response.cancel()
    if response.status != 200:
        return None
    try:
        document = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def _auth_failure(text: str) -> McpFailure:
    return McpFailure(FailureKind.AUTH, text)


async def _resource_metadata(
    transport: HttpTransport, server_url: str, challenge: dict[str, str]
) -> dict[str, Any] | None:
    for url in resource_metadata_urls(server_url, challenge):
        document = await get_json(transport, url)
        if document is None:
            continue
        resource = document.get("resource")
        if isinstance(resource, str) and not names_server(resource, server_url):
            raise _auth_failure(
                f"the server's sign-in metadata is for another resource ({resource[:200]}): not signing in"
            )
        return document
    return None


def secure(url: str) -> bool:
    """https, or http on this machine's loopback (local servers, tests): the spec asks HTTPS of every
    authorization server endpoint, and a popup is never pointed at another scheme."""
    parts = urlsplit(url)
    return parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK)


def _endpoint(metadata: dict[str, Any], name: str) -> str | None:
    value = metadata.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not secure(value):
        raise _auth_failure(f"the authorization server's {name} is not an https URL")
    return value


def _check_pkce(metadata: dict[str, Any]) -> None:
    methods = metadata.get("code_challenge_methods_supported")
    if not isinstance(methods, list) or "S256" not in methods:
        raise _auth_failure(
            "the server's authorization server does not offer PKCE with S256, which sign-in requires"
        )


def _same_origin(one: str, other: str) -> bool:
    try:
        first, second = urlsplit(canonical(one)), urlsplit(canonical(other))
    except ValueError:
        return False
    return (first.scheme, first.netloc) == (second.scheme, second.netloc)


def _stated_issuer(metadata: dict[str, Any], issuer: str, named: bool) -> str:
    """The issuer as the metadata states it, what RFC 9207's `iss` is compared with. It must be the one
    it was read for (RFC 8414 §3.3) when resource metadata `named` it; read the 2025-03-26 way at a
    server's origin, it must be of that origin (a path is allowed there): never another server's name,
    whose answers would then pass for this one's."""
    stated = metadata.get("issuer")
    if not isinstance(stated, str):
        return issuer
    same = stated.rstrip("/") == issuer.rstrip("/") if named else _same_origin(stated, issuer)
    if not same:
        raise _auth_failure(f"the authorization server's metadata names another issuer ({stated[:200]})")
    return stated


def _scope(
    challenge: dict[str, str], prm: dict[str, Any] | None, metadata: dict[str, Any], held: str | None
) -> str | None:
    words: list[str] = (held or "").split()
    supported = prm.get("scopes_supported") if prm else None
    if challenge.get("scope"):
        words += challenge["scope"].split()
    elif isinstance(supported, list):
        words += [item for item in supported if isinstance(item, str)]
    offered = metadata.get("scopes_supported")
    if words and isinstance(offered, list) and "offline_access" in offered:
        words.append("offline_access")
    return " ".join(dict.fromkeys(words)) or None


async def discover(
    transport: HttpTransport,
    server_url: str,
    www_authenticate: str | None = None,
    *,
    held_scope: str | None = None,
) -> AuthPlan:
    """Read where and how to sign in to `server_url` (see the module's docstring). `www_authenticate`
    is the header of the server's 401/403 (`McpFailure.challenge`); `held_scope` the scope of the token
    the server found too narrow (step-up)."""
    challenge = parse_challenge(www_authenticate)
    prm = await _resource_metadata(transport, server_url, challenge)
    servers = prm.get("authorization_servers") if prm else None
    if prm is not None and not (isinstance(servers, list) and servers and isinstance(servers[0], str)):
        raise _auth_failure("the server's sign-in metadata names no authorization server")
    issuer = servers[0] if isinstance(servers, list) else _origin(server_url)
    if not secure(issuer):
        raise _auth_failure(f"the authorization server {issuer[:200]} is not an https URL")
    metadata: dict[str, Any] | None = None
    for url in authorization_metadata_urls(issuer):
        metadata = await get_json(transport, url)
        if metadata is not None:
            break
    resource = prm.get("resource") if prm else None
    plan_resource = resource if isinstance(resource, str) else canonical(server_url)
    if metadata is None:
        if prm is not None:
            raise _auth_failure(f"the authorization server {issuer[:200]} publishes no metadata")
        base = _origin(server_url)  # the 2025-03-26 fallback: default endpoints at the server's origin
        return AuthPlan(
            server_url, plan_resource, base + "/authorize", base + "/token", base + "/register",
            _scope(challenge, None, {}, held_scope), False, base,
        )  # fmt: skip
    _check_pkce(metadata)
    stated = _stated_issuer(metadata, issuer, named=prm is not None)
    authorize, token = _endpoint(metadata, "authorization_endpoint"), _endpoint(metadata, "token_endpoint")
    if authorize is None or token is None:
        raise _auth_failure("the authorization server's metadata lacks its authorization or token endpoint")
    return AuthPlan(
        server_url=server_url,
        resource=plan_resource,
        authorization_endpoint=authorize,
        token_endpoint=token,
        registration_endpoint=_endpoint(metadata, "registration_endpoint"),
        scope=_scope(challenge, prm, metadata, held_scope),
        metadata_document_supported=metadata.get("client_id_metadata_document_supported") is True,
        issuer=stated,
        issuer_in_response=metadata.get("authorization_response_iss_parameter_supported") is True,
    )
