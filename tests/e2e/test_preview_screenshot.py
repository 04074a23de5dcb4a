"""preview_page with `screenshot=true` (docs/preview.md, "Screenshots"): the picture of the page the
preview frame draws, on the tool card always and in the next request for a model that takes images; the
page's colours and size are read back from the card's PNG. A page written to misuse the shot reaches
neither the network nor the app while it is taken. Also writes the README's preview screenshot
(docs/screenshot-preview.png), from the demo's web-page example."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, tool_results, wait_idle
from tests.e2e.test_demo_scenarios import card, wait_reply
from tests.e2e.test_preview import frame_of, write_files
from tests.e2e.test_preview_security import Listeners, listeners  # noqa: F401 (a fixture)

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLUE = (10, 120, 200, 255)
RED = (200, 30, 40, 255)
COLOURED = {
    "/index.html": (
        '<!doctype html><html><head><title>Colours</title><link rel="stylesheet" href="style.css"></head>'
        '<body><div id="box"></div><p>Blue page</p></body></html>'
    ),
    "/style.css": (
        "body { background: rgb(10, 120, 200); margin: 0; }\n"
        "#box { position: absolute; left: 20px; top: 30px; width: 100px; height: 50px;"
        " background: rgb(200, 30, 40); }\n"
    ),
}
# A page that tries, while the shot is taken, to reach a listener on 127.0.0.1 (resources the shot
# would embed, a fetch and a WebSocket on every DOM change and every 50 ms) and the app's window.
HOSTILE_JS = """
const tried = [];
const out = (what, run) => {
  try { run(); tried.push(what + ":ran"); } catch (err) { tried.push(what + ":" + err.name); }
};
const away = () => {
  fetch("http://127.0.0.1:TCP_PORT/fetch").catch(() => {});
  out("ws", () => new WebSocket("ws://127.0.0.1:TCP_PORT/ws"));
  out("parent", () => parent.document.title);
  out("top", () => top.agentlite.vfs);
  out("opener", () => window.open("http://127.0.0.1:TCP_PORT/open"));
};
new MutationObserver(away).observe(document, { subtree: true, childList: true, attributes: true });
setInterval(away, 50);
window.tried = tried;
"""
HOSTILE = {
    "/index.html": (
        '<!doctype html><html><head><title>Hostile</title><link rel="stylesheet" href="style.css">'
        '<script src="hostile.js"></script></head><body><p>Hostile page</p>'
        '<img src="http://127.0.0.1:TCP_PORT/img.png" width="20" height="20"></body></html>'
    ),
    "/style.css": (
        "@font-face { font-family: away; src: url(http://127.0.0.1:TCP_PORT/font.woff2); }\n"
        "body { background: rgb(10, 120, 200) url(http://127.0.0.1:TCP_PORT/bg.png); font-family: away; }\n"
    ),
    "/hostile.js": HOSTILE_JS,
}
# The card's picture, decoded in the app: its size and the colour at a few points.
PIXELS = """async ([selector, points]) => {
  const img = document.querySelector(selector);
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(img, 0, 0);
  const at = points.map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data));
  return { width: img.naturalWidth, height: img.naturalHeight, at };
}"""
SHOWN = "[data-testid=tool-card][data-tool=preview_page] [data-testid=tool-images] img"


def frame_size(page: Page) -> tuple[int, int]:
    """The size a shot of the previewed page has: the frame's width, the document's height (capped)."""
    size = frame_of(page).evaluate(
        "() => [document.documentElement.clientWidth,"
        " Math.max(document.documentElement.clientHeight, document.documentElement.scrollHeight,"
        " innerHeight)]"
    )
    return min(int(size[0]), 1280), min(int(size[1]), 2000)


def picture(page: Page, points: list[tuple[int, int]]) -> dict[str, Any]:
    page.wait_for_selector(SHOWN, timeout=WAIT_MS)
    return dict(page.evaluate(PIXELS, [SHOWN, points]))


def near(colour: list[int], wanted: tuple[int, int, int, int]) -> bool:
    return all(abs(a - b) <= 3 for a, b in zip(colour, wanted, strict=True))


def test_the_demo_previews_with_a_screenshot_on_the_card(app: Page) -> None:
    app.locator("[data-testid=welcome-example][data-prompt='make a small web page']").click()
    for index in range(3):
        assert approve_through(app, card(app, "write_file", index)) == "completed"
    assert approve_through(app, card(app, "preview_page")) == "completed"
    wait_reply(app, "Its picture is on the preview_page card.")
    shot = picture(app, [(2, 2)])
    assert (shot["width"], shot["height"]) == frame_size(app)
    assert near(shot["at"][0], (255, 255, 255, 255))  # the page sets no background: a browser's white
    text = app.locator("[data-testid=tool-card][data-tool=preview_page]").inner_text()
    assert "shown to the user on the tool card" in text  # the demo model takes no images
    app.locator("[data-testid=tool-card][data-tool=preview_page]").scroll_into_view_if_needed()
    app.screenshot(path=str(DOCS / "screenshot-preview.png"))


def test_a_vision_model_gets_the_picture_of_the_page_it_built(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/index.html", "screenshot": True}))),
        Scripted(chunks=text_chunks("A red box on blue.")),
    )
    base = model_server.base_url
    open_app(page, origin, base_url=base, model="test-model", dialect="native", vision="yes")
    write_files(page, COLOURED)
    send(page, "look at the page")
    assert approve_through(page, card(page, "preview_page")) == "completed"
    wait_idle(page)
    shot = picture(page, [(70, 55), (5, 5), (300, 200)])
    assert (shot["width"], shot["height"]) == frame_size(page)
    assert near(shot["at"][0], RED), shot
    assert near(shot["at"][1], BLUE) and near(shot["at"][2], BLUE), shot
    [result] = tool_results(model_server)
    assert f"screenshot: {shot['width']}x{shot['height']} PNG, attached" in result
    body = model_server.completions()[-1].body
    parts = [p for m in body["messages"] if isinstance(m.get("content"), list) for p in m["content"]]
    urls = [p["image_url"]["url"] for p in parts if p.get("type") == "image_url"]
    assert len(urls) == 1 and urls[0].startswith("data:image/png;base64,iVBORw0KGgo")
    src = page.get_attribute(SHOWN, "src")
    assert src == urls[0]  # the user sees what the model sees


def test_a_hostile_page_reaches_neither_the_network_nor_the_app_during_the_shot(
    page: Page,
    origin: str,
    model_server: ModelServer,
    listeners: Listeners,  # noqa: F811 (the fixture)
) -> None:
    port = str(listeners.tcp_port)
    model_server.script(
        Scripted(chunks=tool_call_chunks(("preview_page", {"path": "/index.html", "screenshot": True}))),
        Scripted(chunks=text_chunks("Seen.")),
    )
    start(page, origin, model_server)
    write_files(page, {path: text.replace("TCP_PORT", port) for path, text in HOSTILE.items()})
    send(page, "look at the page")
    assert approve_through(page, card(page, "preview_page")) == "completed"
    wait_idle(page)
    page.wait_for_timeout(1000)  # anything on its way to the listener has arrived by now
    [result] = tool_results(model_server)
    assert "screenshot: " in result and "not taken" not in result, result
    shot = picture(page, [(5, 5)])
    assert near(shot["at"][0], BLUE)
    tried = set(frame_of(page).evaluate("() => window.tried"))
    assert {"parent:SecurityError", "top:SecurityError"} <= tried, tried
    assert "parent:ran" not in tried and "top:ran" not in tried
    assert listeners.connections == [], listeners.connections
    assert page.evaluate("() => window.agentlite.vfs.list('/')") is not None  # the app is unharmed
