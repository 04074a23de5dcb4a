"""Sign-in against hostile servers, in Chromium through the Servers panel (tests/oauth_stubs.py).

- The mix-up: a hostile server's authorization endpoint forwards the user, with the app's `state` and
  PKCE challenge, to an honest authorization server. Whatever the two say about RFC 9207 `iss`, the
  honest server's code and the verifier never reach the hostile token endpoint; the refusal is a
  sentence in the panel, before any popup when the hostile metadata already tells.
- The popup: its authorization page finds no `window.opener`, and cannot move the app's tab.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer
from tests.e2e.scripted_support import WAIT_MS, start
from tests.e2e.test_mcp_servers import add_server, wait_state
from tests.oauth_stubs import Authority, Options

TABNAB = """<!doctype html><title>Sign in</title><script>
const had = window.opener !== null;
try { window.opener.location = "/hijacked"; } catch (error) { /* no opener: nothing to move */ }
fetch("/seen?opener=" + had);
</script>"""


@pytest.fixture
def authorities() -> Iterator[list[Authority]]:
    made: list[Authority] = []
    yield made
    for authority in made:
        authority.stop()


def serve(authorities: list[Authority], options: Options) -> Authority:
    authorities.append(Authority(options))
    return authorities[-1]


def sign_in(page: Page, origin: str, model_server: ModelServer, server: Authority) -> None:
    start(page, origin, model_server)
    item = add_server(page, server.url)
    wait_state(page, server.url, "needs-auth")
    item.locator("[data-testid=mcp-signin]").click()


HOSTILE = {
    "the honest server sends no iss, the hostile promises none": (Options(), Options()),
    "the hostile metadata claims the honest issuer": (
        Options(advertises_iss=True, sends_iss=True),
        Options(prm=False, advertises_iss=True),
    ),
    "the hostile promises iss, the honest server sends none": (Options(), Options(advertises_iss=True)),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_code_never_reaches_the_token_endpoint_of_a_server_that_did_not_issue_it(
    page: Page, origin: str, model_server: ModelServer, authorities: list[Authority], case: str
) -> None:
    honest_options, hostile_options = HOSTILE[case]
    honest = serve(authorities, honest_options)
    claimed = None if hostile_options.prm else honest.issuer
    forwarding = replace(hostile_options, forward_to=f"{honest.origin}/authorize", issuer=claimed)
    hostile = serve(authorities, forwarding)
    sign_in(page, origin, model_server, hostile)
    expect(page.locator(".mcp-message")).to_contain_text(f"Sign-in to {hostile.url} failed", timeout=WAIT_MS)
    assert hostile.to("/token") == []
    assert honest.to("/token") == []


def test_a_refused_authorization_server_is_named_before_any_popup(
    page: Page, origin: str, model_server: ModelServer, authorities: list[Authority]
) -> None:
    hostile = serve(authorities, Options())
    sign_in(page, origin, model_server, hostile)
    message = page.locator(".mcp-message")
    expect(message).to_contain_text(f"Sign-in to {hostile.url} failed", timeout=WAIT_MS)
    assert hostile.origin in message.inner_text() and "iss" in message.inner_text()
    assert hostile.to("/authorize") == [] and len(page.context.pages) == 1


def test_the_authorization_page_cannot_reach_or_move_the_app_tab(
    page: Page, origin: str, model_server: ModelServer, authorities: list[Authority]
) -> None:
    server = serve(authorities, Options(advertises_iss=True, sends_iss=True, page=TABNAB))
    sign_in(page, origin, model_server, server)
    seen = server.wait_for("/seen")
    assert [item.path for item in seen] == ["/seen?opener=false"]
    page.locator("[data-testid=mcp-panel]").wait_for(timeout=WAIT_MS)
    assert page.url.startswith(origin) and server.to("/hijacked") == []
