"""A page of another site that frames the app sees it refuse (docs/deploying.md, "Framing"): where the host
sends the deployment headers (web/_headers, as `python build.py serve` does) the browser refuses the frame
before any of the app loads; where it sends none, the page itself refuses to start. After one visit the
service worker serves the page from its cache with the same headers the host sent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from playwright.sync_api import Page, Request, expect

from buildsys.build.serve import ExtrasHandler, Handler, StaticServer
from buildsys.common import DIST
from tests.e2e.conftest import pipe_console, wait_ready
from tests.e2e.test_offline import SW_ALLOWED, Gone, offline_ready

FRAMED_MS = 30_000


class NoHeadersFile(Handler):
    """A host that reads no headers file: it sends none of the framing refusals."""

    reads_headers_file = False


class DeployerHeaders(Handler):
    """A host whose deployer added their own security headers to every answer."""

    ADDED: ClassVar[dict[str, str]] = {
        "Permissions-Policy": "geolocation=(), camera=()",
        "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
        "Strict-Transport-Security": "max-age=600",
    }

    def deployed_headers(self) -> dict[str, str]:
        return {**super().deployed_headers(), **self.ADDED}


def attacker(app_url: str) -> type[ExtrasHandler]:
    class Attacker(ExtrasHandler):
        pages: ClassVar[dict[str, bytes]] = {
            "/attack.html": f'<!doctype html><title>x</title><iframe src="{app_url}"></iframe>'.encode()
        }

    return Attacker


@pytest.fixture
def framing(tmp_path: Path) -> Iterator[Any]:
    """Opens a page of another origin that frames the app's URL; records every request the browser makes."""
    servers: list[StaticServer] = []

    def frame(page: Page, app_url: str) -> list[Request]:
        server = StaticServer(tmp_path, handler_class=attacker(app_url)).__enter__()
        servers.append(server)
        requests: list[Request] = []
        page.context.on("request", lambda request: requests.append(request))
        pipe_console(page)
        page.goto(server.origin.replace("127.0.0.1", "localhost") + "/attack.html")
        return requests

    yield frame
    for server in servers:
        server.__exit__(None, None, None)


def test_the_deployment_headers_refuse_a_frame_of_another_site(page: Page, origin: str, framing: Any) -> None:
    requests = framing(page, f"{origin}/index.html")
    page.locator("iframe").wait_for(state="attached")
    page.wait_for_function("document.querySelector('iframe').contentWindow !== null")
    page.wait_for_load_state("load")
    assert not [r.url for r in requests if r.url.startswith(origin) and not r.url.endswith("/index.html")]
    child = page.frames[1]
    assert not child.url.startswith(origin), "the app's document was shown in the frame"


def test_on_a_host_without_the_headers_the_page_refuses_to_start_in_a_frame(page: Page, framing: Any) -> None:
    with StaticServer(DIST, handler_class=NoHeadersFile) as app:
        requests = framing(page, f"{app.origin}/index.html")
        frame = page.frame_locator("iframe")
        expect(frame.locator("[data-testid=framed]")).to_be_visible(timeout=FRAMED_MS)
        expect(frame.locator("[data-testid=app]")).to_have_attribute("data-state", "framed")
        expect(frame.locator("[data-testid=framed] a")).to_have_attribute("target", "_blank")
    assert not [r.url for r in requests if r.url.endswith(("/worker.js", ".wasm"))], "the agent started"


def test_the_service_worker_serves_the_page_with_the_hosts_security_headers(context_factory: Any) -> None:
    page = context_factory(**SW_ALLOWED).new_page()
    pipe_console(page)
    with StaticServer(DIST, handler_class=DeployerHeaders) as server:
        first = page.goto(f"{server.origin}/index.html")
        assert first is not None and not first.from_service_worker
        wait_ready(page)
        offline_ready(page)
    Gone(page.context, server.origin)
    again = page.reload()
    wait_ready(page)
    assert again is not None and again.from_service_worker
    headers = again.headers
    for name, value in {
        **DeployerHeaders.ADDED,
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    }.items():
        assert headers.get(name.lower()) == value, (name, headers)
    assert "frame-ancestors 'none'" in headers.get("content-security-policy", "")
    frame = page.evaluate("""async () => Object.fromEntries((await fetch('sandbox/frame.html')).headers)""")
    assert "frame-ancestors 'self'" in frame["content-security-policy"], frame
    assert "sandbox allow-scripts" in frame["content-security-policy"], frame
    assert frame["permissions-policy"] == DeployerHeaders.ADDED["Permissions-Policy"]
