"""The page's Client ID Metadata Document (buildsys/build/oauth_client.py) and its sign-in callback page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from buildsys.build import assemble, oauth_client
from buildsys.common import ROOT, BuildError


def test_the_document_names_itself_and_the_callback_for_the_default_site(tmp_path: Path) -> None:
    written = json.loads(oauth_client.write(tmp_path, {}).read_text())
    assert written == {
        "client_id": "http://127.0.0.1:8000/oauth/client.json",
        "client_name": "AgentLite",
        "client_uri": "http://127.0.0.1:8000/",
        "redirect_uris": ["http://127.0.0.1:8000/oauth-callback.html"],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }


def test_the_site_url_comes_from_the_environment() -> None:
    base = oauth_client.site_url({oauth_client.ENV: "https://tools.example.org/agentlite"})
    document = oauth_client.document(base)
    assert document["client_id"] == "https://tools.example.org/agentlite/oauth/client.json"
    assert document["redirect_uris"] == ["https://tools.example.org/agentlite/oauth-callback.html"]
    for bad in ("ftp://x.org/", "https://x.org/?a=1", "not a url"):
        with pytest.raises(BuildError):
            oauth_client.site_url({oauth_client.ENV: bad})


def test_the_callback_page_is_built_and_runs_no_inline_script() -> None:
    assert assemble.STATIC["oauth-callback.html"] == "oauth-callback.html"
    assert assemble.BUNDLES["src/mcp/page/oauth-callback.js"] == "oauth-callback.js"
    page = (ROOT / "web" / "oauth-callback.html").read_text()
    assert "script-src 'self'" in page and "default-src 'none'" in page
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts == [(' type="module" src="oauth-callback.js"', "")]
