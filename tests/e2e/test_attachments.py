"""Images and PDFs attached in the composer (docs/attachments.md): picked with `chat-attach`, pasted,
dropped; chips in the composer and in the sent message; the image in the user message of the request;
kept across a reload; a text-only model asks before sending without images; a server's refusal offers
"Retry without images"; a PDF the reader cannot read says so on its chip."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks
from buildsys.testing.pdf_sample import page_lines, sample_pdf
from tests.e2e.conftest import open_app, send, wait_ready
from tests.e2e.scripted_support import WAIT_MS, wait_idle

DOCS = Path(__file__).resolve().parents[2] / "docs"

TRAY = ".attachment-tray [data-testid=attachment]"
SENT = "[data-testid=message][data-role=user] [data-testid=attachment]"
LLAMA_CPP_REFUSAL = (
    '{"error":{"code":500,"message":"image input is not supported - hint: if this is unexpected, you may '
    'need to provide the mmproj","type":"server_error"}}'
)


def png(width: int = 8, height: int = 6) -> bytes:
    """A real, decodable RGB PNG (a gradient), made here so the test needs no image library."""
    rows = b"".join(
        b"\0" + b"".join(bytes((x * 30 % 256, y * 40 % 256, 128)) for x in range(width))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


PASTE = """([name, data]) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, { type: "image/png" }));
  const input = document.querySelector("[data-testid=chat-input]");
  const init = { clipboardData: transfer, bubbles: true, cancelable: true };
  input.dispatchEvent(new ClipboardEvent("paste", init));
}"""
DROP = """([name, data]) => {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, { type: "image/png" }));
  const input = document.querySelector("[data-testid=chat-input]");
  for (const type of ["dragenter", "dragover", "drop"])
    input.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
}"""


def attach_three(page: Page, tmp_path: Path) -> None:
    picked = tmp_path / "picked.png"
    picked.write_bytes(png(10, 4))
    page.set_input_files("[data-testid=chat-attach]", str(picked))
    encoded = base64.b64encode(png(6, 6)).decode()
    page.evaluate(PASTE, ["pasted.png", encoded])
    page.evaluate(DROP, ["dropped.png", encoded])
    chips = page.locator(TRAY)
    expect(chips).to_have_count(3, timeout=WAIT_MS)
    expect(page.locator(f"{TRAY}[data-state=ready]")).to_have_count(3, timeout=WAIT_MS)


def image_urls(body: dict) -> list[str]:
    content = body["messages"][-1]["content"]
    return (
        [p["image_url"]["url"] for p in content if p["type"] == "image_url"]
        if isinstance(content, list)
        else []
    )


def test_picked_pasted_and_dropped_images_reach_the_model_and_stay_after_a_reload(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.script(Scripted(chunks=text_chunks("Three small gradients.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="yes")
    attach_three(page, tmp_path)
    names = page.locator(TRAY).evaluate_all("(chips) => chips.map((c) => [c.dataset.kind, c.dataset.name])")
    assert sorted(names) == [["image", "dropped.png"], ["image", "pasted.png"], ["image", "picked.png"]]
    expect(page.get_by_role("button", name="Remove pasted.png")).to_be_visible()
    send(page, "What are these?")
    wait_idle(page)
    expect(page.locator(TRAY)).to_have_count(0)
    expect(page.locator(SENT)).to_have_count(3)
    page.screenshot(path=str(DOCS / "screenshot-image.png"))  # the README's image picture
    body = model_server.completions()[-1].body
    assert body["messages"][-1]["content"][0] == {"type": "text", "text": "What are these?"}
    urls = image_urls(body)
    assert len(urls) == 3 and all(url.startswith("data:image/png;base64,iVBORw0KGgo") for url in urls)
    page.reload()
    wait_ready(page)
    expect(page.locator(SENT)).to_have_count(3, timeout=WAIT_MS)
    page.locator(f"{SENT} img").first.click()
    original = page.locator("[data-testid=attachment-view] img")
    expect(original).to_be_visible(timeout=WAIT_MS)
    assert (original.get_attribute("src") or "").startswith("blob:")  # the original, from the page's store


def test_a_text_only_model_asks_before_it_sends_without_the_images(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.script(Scripted(chunks=text_chunks("I cannot see images.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="no")
    picked = tmp_path / "photo.png"
    picked.write_bytes(png())
    page.set_input_files("[data-testid=chat-attach]", str(picked))
    expect(page.locator("[data-testid=attach-without-images]")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("[data-testid=attach-notice]")).to_contain_text("does not take images")
    send(page, "Describe it")
    assert model_server.completions() == []  # nothing left: the user has not chosen yet
    page.click("[data-testid=attach-without-images]")
    wait_idle(page)
    content = model_server.completions()[-1].body["messages"][-1]["content"]
    assert isinstance(content, str) and "photo.png, was attached but not sent" in content
    expect(page.locator(f"{SENT}[data-name='photo.png']")).to_contain_text("not sent")


def test_a_server_that_refuses_images_offers_retry_without_images(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    refusal = Scripted(
        status=500, chunks=[LLAMA_CPP_REFUSAL.encode()], headers={"Content-Type": "application/json"}
    )
    model_server.script(refusal, Scripted(chunks=text_chunks("Answered in text.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="yes")
    picked = tmp_path / "photo.png"
    picked.write_bytes(png())
    page.set_input_files("[data-testid=chat-attach]", str(picked))
    expect(page.locator(f"{TRAY}[data-state=ready]")).to_have_count(1, timeout=WAIT_MS)
    send(page, "Describe it")
    banner = page.locator("[data-testid=error-banner]")
    expect(banner).to_have_attribute("data-error-type", "protocol", timeout=WAIT_MS)
    expect(banner).to_contain_text("image input is not supported")
    assert len(model_server.completions()) == 1  # not retried on its own
    page.click("[data-testid=decision-without_images]")
    expect(page.locator("[data-testid=message][data-role=assistant]").last).to_contain_text(
        "Answered in text.", timeout=WAIT_MS
    )
    first, second = (r.body for r in model_server.completions())
    assert len(image_urls(first)) == 1 and image_urls(second) == []
    assert "photo.png, was attached but not sent" in second["messages"][-1]["content"]


def test_a_pdf_chip_says_when_it_cannot_be_read_and_a_file_of_another_kind_is_refused(
    page: Page, origin: str, tmp_path: Path
) -> None:
    open_app(page, origin)
    paper, script = tmp_path / "paper.pdf", tmp_path / "page.svg"
    paper.write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
    script.write_text("<svg xmlns='http://www.w3.org/2000/svg' onload='window.__pwned=1'/>")
    page.set_input_files("[data-testid=chat-attach]", [str(paper), str(script)])
    chip = page.locator(f"{TRAY}[data-kind=pdf][data-name='paper.pdf']")
    expect(chip).to_have_attribute("data-state", "error", timeout=WAIT_MS)
    expect(chip.get_by_role("alert")).to_contain_text("could not be read")
    expect(page.locator("[data-testid=attach-notice]")).to_contain_text("page.svg was not attached")
    assert page.locator(TRAY).count() == 1
    assert page.evaluate("window.__pwned") is None


def test_save_to_workspace_writes_the_original_as_a_user_change(
    page: Page, origin: str, tmp_path: Path
) -> None:
    open_app(page, origin)
    picked = tmp_path / "my photo.png"
    original = png(12, 9)
    picked.write_bytes(original)
    page.set_input_files("[data-testid=chat-attach]", str(picked))
    page.get_by_role("button", name="Save my photo.png to the workspace").click(timeout=WAIT_MS)
    expect(page.locator("[data-testid=attach-notice]")).to_contain_text("Saved as /attachments/my_photo.png")
    saved = page.evaluate("(path) => window.agentlite.vfs.history(path)", "/attachments/my_photo.png")
    assert len(saved) == 1 and saved[0]["size"] == len(original)


def test_an_attached_pdf_goes_to_the_model_as_its_text_page_by_page(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.script(Scripted(chunks=text_chunks("Two pages read.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native")
    paper = tmp_path / "spec.pdf"
    paper.write_bytes(sample_pdf(2, lines=3))
    page.set_input_files("[data-testid=chat-attach]", str(paper))
    chip = page.locator(f"{TRAY}[data-kind=pdf][data-name='spec.pdf']")
    expect(chip).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    send(page, "Summarise the spec")
    wait_idle(page)
    expect(page.locator(f"{SENT}[data-kind=pdf][data-name='spec.pdf']")).to_have_count(1)
    content = model_server.completions()[-1].body["messages"][-1]["content"]
    text = content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)
    assert "[PDF spec.pdf" in text and "2 page(s)]" in text
    assert text.index("--- page 1 ---") < text.index(page_lines(1, 3)[0]) < text.index("--- page 2 ---")
    assert page_lines(2, 3)[-1] in text
