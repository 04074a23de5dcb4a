"""The page's OAuth client identity: `dist/oauth/client.json`, a Client ID Metadata Document.

An authorization server that takes such documents (`client_id_metadata_document_supported`) fetches the
client id, which is this document's own https URL, and learns from it where sign-in popups may return
(`oauth-callback.html`). The URL the site is served at cannot be known at build time for every
deployment: it comes from `AGENTLITE_SITE_URL` (the address of the folder dist/ is served from, e.g.
`https://tools.example.org/agentlite/`), and defaults to what `python build.py serve` serves.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from buildsys.common import BuildError

ENV = "AGENTLITE_SITE_URL"
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"
DOCUMENT = "oauth/client.json"
CALLBACK = "oauth-callback.html"


def site_url(environ: dict[str, str] | None = None) -> str:
    """The site's base URL from the environment, ending with `/`."""
    url = (environ if environ is not None else dict(os.environ)).get(ENV) or DEFAULT_SITE_URL
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or parts.fragment:
        raise BuildError(f"{ENV} must be an http(s) URL without query or fragment, not {url!r}")
    return url if url.endswith("/") else url + "/"


def document(base: str) -> dict[str, Any]:
    return {
        "client_id": urljoin(base, DOCUMENT),
        "client_name": "AgentLite",
        "client_uri": base,
        "redirect_uris": [urljoin(base, CALLBACK)],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }


def write(dist: Path, environ: dict[str, str] | None = None) -> Path:
    target = dist / DOCUMENT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(document(site_url(environ)), indent=2) + "\n")
    return target
