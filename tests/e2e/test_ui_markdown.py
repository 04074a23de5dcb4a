"""Streaming markdown from a model: an XSS payload executes nothing, code is highlighted with a copy
button, links say where they go and open without referrer, and a remote image makes no request until
the user clicks it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, Route, expect

from buildsys.testing.model_server import Scripted, text_chunks
from tests.e2e.conftest import open_app, send

WAIT_MS = 60_000
PAYLOAD = """Here you go.

<img src=x onerror="window.__pwned='img'">
<script>window.__pwned='script'</script>
[click me](javascript:window.__pwned='link')
<svg onload="window.__pwned='svg'"><circle r=1></circle></svg>
<a href="javascript:window.__pwned='a'">raw link</a>

![tracker](PIXEL)

Read [the docs](https://docs.example.com/guide) first.

```js
const answer = 42; // the answer
```
"""


def pieces(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def test_streamed_markdown_is_inert_and_images_wait_for_a_click(
    page: Page, origin: str, model_server: Any
) -> None:
    pixel = model_server.base_url.replace("/v1", "/pixel.png")
    pixel_requests: list[str] = []
    dialogs: list[str] = []
    page.context.on("request", lambda r: r.url == pixel and pixel_requests.append(r.url))
    page.context.route(pixel, lambda route: fulfill_pixel(route))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    model_server.script(Scripted(chunks=text_chunks(*pieces(PAYLOAD.replace("PIXEL", pixel))), delay=0.005))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "show me")

    reply = page.locator("[data-testid=message][data-role=assistant]")
    expect(reply).to_have_attribute("data-state", "done", timeout=WAIT_MS)
    body = reply.locator(".message-body")
    expect(body).to_contain_text("Read the docs")
    assert page.evaluate("window.__pwned") is None
    assert dialogs == []
    for tag in ("img", "script", "svg", "iframe", "object"):
        assert body.locator(tag).count() == 0, f"a <{tag}> from the model reached the DOM"
    assert body.locator("a[href^='javascript' i]").count() == 0
    assert body.locator("[onerror], [onload]").count() == 0
    assert "onerror" in body.inner_text(), "the raw HTML should show as text"

    link = body.locator("a", has_text="the docs")
    assert link.get_attribute("href") == "https://docs.example.com/guide"
    assert link.get_attribute("target") == "_blank"
    assert link.get_attribute("rel") == "noopener noreferrer"
    expect(body.locator(".link-target")).to_contain_text("docs.example.com/guide")

    code = body.locator("pre code")
    expect(code.locator(".hljs-keyword").first).to_have_text("const")
    expect(body.locator("pre .copy-code")).to_have_count(1)

    assert pixel_requests == [], "the remote image was loaded before any click"
    with page.expect_popup() as popup:
        body.locator(".remote-image").click()
    popup.value.wait_for_load_state()
    assert pixel_requests == [pixel]


def fulfill_pixel(route: Route) -> None:
    route.fulfill(status=200, content_type="image/gif", body=b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")


def test_copy_button_copies_the_code(page: Page, origin: str, model_server: Any) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    model_server.script(Scripted(chunks=text_chunks("```python\n", "print('hi')\n", "```\n")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "code please")
    reply = page.locator("[data-testid=message][data-role=assistant][data-state=done]")
    reply.wait_for(timeout=WAIT_MS)
    reply.locator(".copy-code").click()
    expect(reply.locator(".copy-code")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == "print('hi')\n"


# Blocks that change after they first appear: the paragraph's reference link is only defined at the end,
# the list and the table grow row by row, the fence stays open over a blank line.
GROWING = """Intro with [a reference][docs] that resolves late.

- one
- two
- three

| a | b |
|---|---|
| 1 | 2 |
| 3 | 4 |

```python
def f():

    return 1
```

Closing words.

[docs]: https://docs.example.com/late
"""

STORED_ANSWER = """
async (marker) => {
  const stored = await (READ_CHATS)();
  return Object.entries(stored).some(([key, value]) => key.startsWith("chat:") && value.includes(marker));
}
"""


def test_an_answer_streamed_in_pieces_renders_as_the_same_answer_rendered_whole(
    page: Page, origin: str, model_server: Any
) -> None:
    from tests.e2e.test_ui_chat import READ_CHATS

    model_server.script(Scripted(chunks=text_chunks(*pieces(GROWING, 3)), delay=0.002))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    send(page, "markdown please")
    reply = page.locator("[data-testid=message][data-role=assistant]")
    expect(reply).to_have_attribute("data-state", "done", timeout=WAIT_MS)
    body = reply.locator(".message-body")
    assert body.locator("a", has_text="a reference").get_attribute("href") == "https://docs.example.com/late"
    assert [
        body.locator(tag).count() for tag in ("p", "ul", "li", "table", "tbody tr", "pre", ".copy-code")
    ] == [
        2,
        1,
        3,
        1,
        2,
        1,
        1,
    ]
    assert body.locator("pre code").inner_text() == "def f():\n\n    return 1\n"
    expect(body.locator("[data-testid=code-save]")).to_have_count(1)
    streamed = body.inner_html()

    page.wait_for_function(STORED_ANSWER.replace("READ_CHATS", READ_CHATS.strip()), arg="Closing words")
    page.reload()
    restored = page.locator("[data-testid=message][data-role=assistant] .message-body")
    expect(restored.locator("[data-testid=code-save]")).to_have_count(1, timeout=WAIT_MS)
    assert restored.inner_html() == streamed
