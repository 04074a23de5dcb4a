"""Images that tools return, through the page (docs/protocol.md "Images in requests", docs/mcp.md
"Image results"): the `vision` setting from a link and the settings form, a result's images in its tool
card (PNG shown with alt text, SVG never), and a model that takes images receiving them as tool output.

No built-in tool returns images (MCP tools do), so the image comes in a chat file the page imports; an
import checks the images the same way a tool's answer is checked."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from tests.e2e.conftest import open_app, send, wait_ready
from tests.e2e.scripted_support import WAIT_MS, wait_idle
from tests.image_samples import PNG_48

PNG = base64.b64encode(PNG_48).decode()
SVG = base64.b64encode(b"<svg xmlns='http://www.w3.org/2000/svg' onload='window.__pwned=1'/>").decode()


def chat_file(
    tmp_path: Path, images: list[dict] | None = None, attachments: list[dict] | None = None
) -> Path:
    """A chat whose one tool result carries `images` (a PNG and an SVG unless told), its question
    `attachments`."""
    if images is None:
        images = [{"mime": "image/png", "data": PNG}, {"mime": "image/svg+xml", "data": SVG}]
    document = {
        "format": "agentlite-chat",
        "title": "a picture",
        "messages": [
            {"id": "u", "role": "user", "content": "take a picture", "attachments": attachments or []},
            {"id": "a", "parent": "u", "role": "assistant", "tool_calls": [{"id": "c1", "name": "snap"}]},
            {
                "id": "t",
                "parent": "a",
                "role": "tool",
                "tool_call_id": "c1",
                "name": "snap",
                "content": "[image: image/png, 48 bytes]",
                "status": "completed",
                "result": {"code": 0, "message": "[image: image/png, 48 bytes]", "images": images},
                "images": images,
            },
            {"id": "r", "parent": "t", "role": "assistant", "content": "Here it is."},
        ],
    }
    path = tmp_path / "picture.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def import_chat(page: Page, path: Path) -> None:
    """Import the chat file at `path` with the export menu's Import."""
    with page.expect_file_chooser() as chooser:
        page.click("[data-testid=chat-import]")
    chooser.value.set_files(str(path))


def test_the_vision_link_parameter_shows_in_settings_and_a_saved_choice_stays(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    open_app(page, origin, base_url=model_server.base_url, model="test-model", vision="yes")
    page.click("[data-testid=settings-open]")
    select = page.get_by_label("Model takes images")
    assert select.get_attribute("data-testid") == "settings-vision"
    expect(select).to_have_value("yes")
    select.select_option("no")
    page.click("[data-testid=settings-save]")
    page.goto(f"{origin}/index.html")
    wait_ready(page)
    page.click("[data-testid=settings-open]")
    expect(page.locator("[data-testid=settings-vision]")).to_have_value("no")


def test_a_tool_image_is_shown_and_goes_to_a_model_that_takes_images(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.script(Scripted(chunks=text_chunks("A black square.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="yes")
    import_chat(page, chat_file(tmp_path))
    shown = page.locator(".message-list:not([hidden])")
    images = shown.locator("[data-testid=tool-card][data-tool=snap] [data-testid=tool-images] img")
    expect(images).to_have_count(1, timeout=WAIT_MS)
    assert images.get_attribute("src") == f"data:image/png;base64,{PNG}"
    assert images.get_attribute("alt") == "Image 1 of 1 returned by snap: image/png, 48 bytes"
    assert page.locator("img[src^='data:image/svg']").count() == 0

    send(page, "What is in the picture?")
    wait_idle(page)
    body = model_server.completions()[-1].body
    parts = next(m for m in body["messages"] if isinstance(m["content"], list))["content"]
    assert [p["image_url"]["url"] for p in parts[1:]] == [f"data:image/png;base64,{PNG}"]
    label = parts[0]["text"]
    assert label.startswith("[tool images] The 1 image(s) below were returned by the tool call(s) snap")
    assert "not the user's words" in label
    assert page.evaluate("window.__pwned") is None
