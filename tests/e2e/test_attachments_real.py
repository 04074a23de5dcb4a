"""An attached image against the real server of the tests (llama-cpp-python with SmolLM2, which has no
vision projector; buildsys/testing/llama_server.py), with `vision=yes` forcing the image to be sent.

That server does not refuse images: it drops the parts its chat template cannot show and answers (the
refusal path, with llama.cpp's own words, runs against the scripted server in test_attachments.py;
docs/attachments.md). This test holds the app to the real server's side of it: the request carries the
image as an `image_url` part of the user message, the server accepts it, and the turn ends clearly."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from buildsys.testing.llama_server import PLAIN, LlamaServer
from tests.e2e.conftest import open_app, send
from tests.e2e.test_attachments import TRAY, png
from tests.e2e.test_real_server import SERVER_WAIT_MS, assert_clear_end, chat_mode, llama, settle, watch

__all__ = ["llama"]
pytestmark = pytest.mark.timeout(900)


def test_a_real_server_gets_the_image_in_the_user_message_and_answers(
    page: Page, origin: str, llama: LlamaServer, tmp_path: object
) -> None:
    exchanges = watch(page)
    open_app(page, origin, base_url=llama.base_url, model=PLAIN.alias, dialect="auto", vision="yes")
    chat_mode(page)
    picked = tmp_path / "square.png"  # type: ignore[operator]
    picked.write_bytes(png(16, 16))
    page.set_input_files("[data-testid=chat-attach]", str(picked))
    expect(page.locator(f"{TRAY}[data-state=ready]")).to_have_count(1, timeout=60_000)
    send(page, "Say one word.")
    assert settle(page) == "idle"
    assert_clear_end(page)
    body = exchanges.bodies()[0]
    content = body["messages"][-1]["content"]
    assert content[0] == {"type": "text", "text": "Say one word."}
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert exchanges.status(0) == 200
    expect(page.locator("[data-testid=message][data-role=user] [data-testid=attachment]")).to_have_count(
        1, timeout=SERVER_WAIT_MS
    )
