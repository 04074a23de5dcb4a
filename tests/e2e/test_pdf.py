"""PDFs read as text in the page (docs/pdf.md): the pinned pdf.js in a worker of its own, loaded on first
use; page numbers in order; hostile and broken files refused with a clear message; read_file of a
workspace PDF through the agent; the reader kept offline."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from buildsys.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from buildsys.pdf_sample import page_lines, sample_pdf
from tests.e2e.conftest import send, wait_ready
from tests.e2e.scripted_support import start, tool_results, wait_idle
from tests.e2e.test_offline import Gone, first_visit  # noqa: F401 (a fixture)
from tests.e2e.test_ui_folder_disks import zip_of

REAL_PDF = Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf")
# One page of sample_pdf, encrypted by Ghostscript with the user password "secret".
ENCRYPTED = Path(__file__).parent.parent / "data" / "encrypted.pdf"


def read(page: Page, data: bytes, **options: Any) -> dict[str, Any]:
    """`window.agentlite.pdf.read` on `data`: {ok, doc, text} or {ok: false, name, message}."""
    b64 = base64.b64encode(data).decode()
    return page.evaluate("([b64, options]) => window.agentlite.pdf.read(b64, options)", [b64, options])


def pdf_requests(page: Page) -> list[str]:
    """The reader's files the page has fetched: its front (pdf-text.js) and pdf.js (pdf/)."""
    names = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    return [name for name in names if "/pdf/" in name or name.endswith("/pdf-text.js")]


def test_the_reader_loads_on_first_use_and_gives_each_page_under_its_number(app: Page) -> None:
    assert pdf_requests(app) == []  # not part of the start
    result = read(app, sample_pdf(12, lines=6))
    assert result["ok"], result
    doc = result["doc"]
    assert doc["title"] == "AgentLite sample" and doc["pageCount"] == 12 and doc["note"] is None
    assert [text.splitlines() for text in doc["pages"]] == [page_lines(n, 6) for n in range(1, 13)]
    text = result["text"]
    markers = [line for line in text.splitlines() if line.startswith("--- page ")]
    assert markers == [f"--- page {n} ---" for n in range(1, 13)]
    assert text.index("Line 6 of page 11") < text.index("--- page 12 ---")
    assert any(name.endswith("/pdf/pdf.worker.js") for name in pdf_requests(app))


def test_a_real_world_pdf_reads_in_order(app: Page) -> None:
    if not REAL_PDF.exists():
        pytest.skip(f"{REAL_PDF} is not on this machine")
    result = read(app, REAL_PDF.read_bytes())
    assert result["ok"], result
    pages = result["doc"]["pages"]
    assert len(pages) == result["doc"]["pageCount"] > 1
    assert "Shared MIME-info Database" in pages[0]
    assert sum(len(p) for p in pages) > 10_000


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "the file is empty"),
        (b"<html>not a pdf</html>" * 10, "not a PDF"),
        (b"%PDF-1.7\n" + b"\x00garbage" * 200, "damaged"),
        (sample_pdf(2)[:300], "damaged"),
        (ENCRYPTED.read_bytes(), "encrypted with a password"),
    ],
    ids=["zero-bytes", "not-a-pdf", "garbage", "cut-short", "encrypted"],
)
def test_broken_files_fail_with_a_clear_message(app: Page, data: bytes, expected: str) -> None:
    result = read(app, data)
    assert not result["ok"] and result["name"] == "PdfError", result
    assert expected in result["message"]


def test_limits_on_size_pages_text_and_time(app: Page) -> None:
    big = read(app, sample_pdf(3), maxBytes=1000)
    assert not big["ok"] and "too large" in big["message"]
    few = read(app, sample_pdf(9, lines=3), maxPages=4)
    assert few["ok"] and len(few["doc"]["pages"]) == 4
    assert "stops at page 4 of 9" in few["doc"]["note"] and few["text"].endswith(few["doc"]["note"])
    short = read(app, sample_pdf(9, lines=3), maxChars=100)
    assert short["ok"] and sum(len(p) for p in short["doc"]["pages"]) == 100
    late = read(app, sample_pdf(300), timeoutMs=1)
    assert not late["ok"] and "took too long" in late["message"]
    again = read(app, sample_pdf(2, lines=2))  # a worker ended at its deadline leaves the next read alone
    assert again["ok"] and again["doc"]["pages"][1] == "Page 2\nLine 2 of page 2: the quick brown fox."


def test_read_file_of_a_workspace_pdf_gives_the_model_its_text_by_page(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("read_file", {"path": "/docs/report.pdf"}))),
        Scripted(chunks=tool_call_chunks(("read_file", {"path": "/docs/broken.pdf"}))),
        Scripted(chunks=text_chunks("Read it.")),
    )
    start(page, origin, model_server)
    report = sample_pdf(3, lines=4, title="Quarterly report")
    files = {"docs/report.pdf": report, "docs/broken.pdf": b"%PDF-1.7\n" + b"\x00junk" * 50}
    page.evaluate("(b64) => window.agentlite.vfs.importZip(b64)", zip_of(files))
    send(page, "read the report")
    wait_idle(page)
    read, broken = tool_results(model_server)
    assert "[PDF /docs/report.pdf — Quarterly report, 3 page(s), text only]" in read
    positions = [read.index(f"--- page {n} ---") for n in (1, 2, 3)]
    assert positions == sorted(positions)
    assert "Line 4 of page 3: the quick brown fox." in read and "(end of file)" in read
    assert "/docs/broken.pdf: the PDF is damaged and cannot be read" in broken


def test_the_reader_works_offline_after_one_visit(first_visit: tuple[Page, str]) -> None:  # noqa: F811
    page, origin = first_visit
    gone = Gone(page.context, origin)
    page.reload()
    wait_ready(page)
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    result = read(page, sample_pdf(2, lines=2))
    assert result["ok"], result
    assert result["doc"]["pages"] == [f"Page {n}\nLine 2 of page {n}: the quick brown fox." for n in (1, 2)]
    assert gone.aborted == [], f"requests that needed the app's server: {gone.aborted}"


def test_pages_are_drawn_as_png_pictures_within_the_size_asked(app: Page) -> None:
    b64 = base64.b64encode(sample_pdf(4, lines=3)).decode()
    options = {"first": 2, "count": 2, "maxSide": 400}
    pictures = app.evaluate("([b64, options]) => window.agentlite.pdf.render(b64, options)", [b64, options])
    assert [p["type"] for p in pictures] == ["image/png", "image/png"]
    assert all(p["height"] == 400 and 300 < p["width"] < 320 for p in pictures), pictures  # 612 x 792 pt
