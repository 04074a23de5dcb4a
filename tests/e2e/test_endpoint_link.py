"""A link cannot switch the endpoint silently: when its `base_url` is not the saved endpoint, the page
asks first, and until the user answers nothing (no turn, no model list) reaches the link's server."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from tests.e2e.conftest import open_app, send, wait_ready
from tests.e2e.scripted_support import start
from tests.e2e.test_demo_scenarios import wait_reply

QUESTION = "[data-testid=endpoint-question]"


def saved_then_linked(page: Page, origin: str, saved: ModelServer, linked: ModelServer) -> None:
    """The user saved `saved` as their endpoint; then they open a link that names `linked`."""
    saved.script(Scripted(chunks=text_chunks("Hello from mine.")))
    start(page, origin, saved)
    page.click("[data-testid=settings-open]")
    page.click("[data-testid=settings-save]")
    open_app(page, origin, base_url=linked.base_url, model="test-model", dialect="native")


def test_a_link_to_another_endpoint_asks_before_any_request_goes_there(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    with ModelServer() as other:
        other.script(Scripted(chunks=text_chunks("Hello from the link.")))
        saved_then_linked(page, origin, model_server, other)
        question = page.locator(QUESTION)
        expect(question).to_be_visible()
        link_origin = other.base_url.removesuffix("/v1")
        expect(question).to_contain_text(link_origin)
        assert question.get_attribute("data-origin") == link_origin
        send(page, "hello")  # while the question waits, the saved endpoint answers
        wait_reply(page, "Hello from mine.")
        assert other.requests == [], "a request reached the link's server before the user agreed"

        page.click("[data-testid=endpoint-use]")
        expect(question).to_have_count(0)
        page.click("[data-testid=chat-tab-new]")
        send(page, "hello again")
        wait_reply(page, "Hello from the link.")
        assert len(other.completions()) == 1


def test_keeping_the_saved_endpoint_sends_nothing_to_the_link(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    with ModelServer() as other:
        saved_then_linked(page, origin, model_server, other)
        page.click("[data-testid=endpoint-keep]")
        expect(page.locator(QUESTION)).to_have_count(0)
        assert "base_url" not in page.url, "the link's endpoint stays out of the address"
        send(page, "hello")
        wait_reply(page, "Hello from mine.")
        page.reload()
        wait_ready(page)
        expect(page.locator(QUESTION)).to_have_count(0)
        assert other.requests == []


def test_a_link_sets_the_first_endpoint_without_asking(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(Scripted(chunks=text_chunks("Hello.")))
    start(page, origin, model_server)
    expect(page.locator(QUESTION)).to_have_count(0)
    send(page, "hello")
    wait_reply(page, "Hello.")
    page.reload()  # the same link again, the endpoint now saved or not: nothing to ask
    wait_ready(page)
    expect(page.locator(QUESTION)).to_have_count(0)
