"""Pixels before bytes (docs/attachments.md): a tiny PNG that declares 40,000 × 40,000 pixels is refused
with a clear reason wherever it comes in — `read_file` on a workspace file, an attachment in the
composer, an imported chat — and is never an <img> on the page, never stored, never sent to the model."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from playwright.sync_api import Page, expect

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import open_app, send
from tests.e2e.scripted_support import WAIT_MS, tool_results, wait_idle
from tests.e2e.test_tool_images import chat_file, import_chat
from tests.e2e.test_ui_folder_disks import zip_of

SIDE = 40_000
REASON = "it is 40,000 × 40,000 pixels: at most 16,384 on a side and 50 megapixels are taken"
COUNT_ORIGINALS = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("agentlite-attachments", 1);
  request.onupgradeneeded = () => request.result.createObjectStore("files");
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const counted = request.result.transaction("files").objectStore("files").count();
    counted.onsuccess = () => { resolve(counted.result); request.result.close(); };
  };
})"""


def huge_png() -> bytes:
    """A whole, valid 1-bit grey PNG of 40,000 × 40,000 pixels: a few hundred KB, 1.6 gigapixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    squeeze = zlib.compressobj(9)
    row = bytes(1 + SIDE // 8)  # filter byte 0, then 5,000 bytes of black
    stream = b"".join(squeeze.compress(row) for _ in range(SIDE)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", SIDE, SIDE, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")


HUGE = huge_png()
HUGE_B64 = base64.b64encode(HUGE).decode()


def sent_images(server: ModelServer) -> list[str]:
    """Every image URL any request to the model carried."""
    return [
        part["image_url"]["url"]
        for request in server.completions()
        for message in request.body["messages"]
        if isinstance(message.get("content"), list)
        for part in message["content"]
        if part.get("type") == "image_url"
    ]


def no_huge_img(page: Page) -> None:
    shown = page.locator("img").evaluate_all("(all) => all.map((img) => img.src.slice(0, 200))")
    assert not [src for src in shown if src.startswith("data:image/png;base64,") and HUGE_B64[:150] in src]


def test_read_file_refuses_a_png_of_absurd_pixel_size(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("read_file", {"path": "/huge.png"}))),
        Scripted(chunks=text_chunks("Noted.")),
    )
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="yes")
    page.evaluate("(b64) => window.agentlite.vfs.importZip(b64)", zip_of({"huge.png": HUGE}))
    send(page, "look at /huge.png")
    wait_idle(page)
    [result] = tool_results(model_server)
    assert REASON in result, result
    assert sent_images(model_server) == []
    card = page.locator("[data-testid=tool-card][data-tool=read_file]")
    expect(card.locator("[data-testid=tool-images] img")).to_have_count(0)
    no_huge_img(page)


def test_an_attachment_of_absurd_pixel_size_is_refused_before_it_is_decoded(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="yes")
    picked = tmp_path / "huge.png"
    picked.write_bytes(HUGE)
    page.set_input_files("[data-testid=chat-attach]", str(picked))
    expect(page.locator("[data-testid=attach-notice]")).to_have_text(
        f"huge.png was not attached: {REASON}.", timeout=WAIT_MS
    )
    expect(page.locator(".attachment-tray [data-testid=attachment]")).to_have_count(0)
    assert page.evaluate(COUNT_ORIGINALS) == 0, "the original was stored"
    no_huge_img(page)


def test_an_imported_chat_leaves_out_images_of_absurd_pixel_size(
    page: Page, origin: str, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.script(Scripted(chunks=text_chunks("Nothing to see.")))
    open_app(page, origin, base_url=model_server.base_url, model="test-model", dialect="native", vision="yes")
    image = {"mime": "image/png", "data": HUGE_B64}
    attached = {"kind": "image", "name": "huge.png", **image, "width": SIDE, "height": SIDE}
    import_chat(page, chat_file(tmp_path, images=[image], attachments=[attached]))
    note = page.locator(".chat-export-note")
    expect(note).to_contain_text(f"huge.png: a image/png image was left out: {REASON}", timeout=WAIT_MS)
    expect(note).to_contain_text(f"snap's result: a image/png image was left out: {REASON}")
    expect(page.locator("[data-testid=message][data-role=assistant]").last).to_contain_text("Here it is.")
    no_huge_img(page)
    send(page, "and now?")
    wait_idle(page)
    assert sent_images(model_server) == []
    no_huge_img(page)
