"""A model endpoint or an MCP server that answers with a redirect (a 307, which a browser that follows
re-sends with its body) is refused: the address it points to never hears from the app, and the user
reads why (py/agentlite/transport.py, `refuse_redirect`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, start
from tests.e2e.test_mcp_servers import add_server, wait_state


@pytest.fixture
def elsewhere() -> Iterator[ModelServer]:
    """The address the redirects point to: it records every request that reaches it."""
    with ModelServer() as server:
        yield server


def redirect_to(url: str) -> Scripted:
    return Scripted(status=307, headers={"Location": url})


def test_a_model_endpoint_that_redirects_is_refused_and_its_target_hears_nothing(
    page: Page, origin: str, model_server: ModelServer, elsewhere: ModelServer
) -> None:
    model_server.script(redirect_to(f"{elsewhere.base_url}/chat/completions"))
    start(page, origin, model_server)
    send(page, "My secret plan: hello")
    banner = page.locator("[data-testid=error-banner]")
    expect(banner).to_have_attribute("data-error-type", "protocol", timeout=WAIT_MS)
    expect(banner).to_contain_text(f"{model_server.base_url.removesuffix('/v1')} answered with a redirect")
    expect(banner).to_contain_text("not followed")
    assert len(model_server.completions()) == 1  # asked once, not retried on its own
    assert elsewhere.requests == []


def test_an_mcp_server_that_redirects_is_refused_and_its_target_hears_nothing(
    page: Page, origin: str, model_server: ModelServer, elsewhere: ModelServer
) -> None:
    redirecting = ModelServer()  # answers every POST with the redirect
    redirecting.script(redirect_to(elsewhere.base_url))
    with redirecting:
        start(page, origin, model_server)
        url = redirecting.base_url
        add_server(page, url)
        item = wait_state(page, url, "error")
        expect(item.locator("[data-testid=mcp-diagnosis]")).to_contain_text("redirect")
        assert [r.method for r in redirecting.requests if r.method == "POST"], "the server was asked"
    assert elsewhere.requests == []
