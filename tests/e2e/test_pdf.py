"""PDFs read as text in the page (docs/pdf.md): the pinned pdf.js in a sandboxed frame of its own, loaded on
first use; page numbers in order; hostile and broken files refused with a clear message; read_file of a
workspace PDF through the agent; the reader kept offline; its parser reaches no storage, no network, and
compiles no code."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, Worker

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from buildsys.testing.pdf_sample import CJK_TEXT, cjk_pdf, page_lines, sample_pdf
from tests.e2e.conftest import send, wait_ready
from tests.e2e.scripted_support import start, tool_results, wait_idle
from tests.e2e.test_offline import Gone, first_visit  # noqa: F401 (a fixture)
from tests.e2e.test_ui_folder_disks import zip_of

REAL_PDF = Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf")
# One page of sample_pdf, encrypted by Ghostscript with the user password "secret".
ENCRYPTED = Path(__file__).parent.parent / "data" / "encrypted.pdf"
# Two lines in NimbusSans and NimbusRoman (Type 1 fonts), embedded as CFF subsets by Ghostscript's pdfwrite
# (`gs -sDEVICE=pdfwrite -dEmbedAllFonts=true -dSubsetFonts=true`): glyph programs a reader has to interpret.
EMBEDDED_FONTS = Path(__file__).parent.parent / "data" / "embedded-fonts.pdf"
# What a realm reaches: run inside the PDF parser's worker and inside its frame's document by the browser's
# own debugging protocol (no hook of the app's); [app, other] are URLs at the app's origin and another one.
REACH = """async ([app, other]) => {
  const tried = async (attempt) => {
    try { return `reached: ${await attempt()}`; } catch (err) { return `failed: ${err && err.name}`; }
  };
  const opened = () => new Promise((resolve, reject) => {
    const request = indexedDB.open("agentlite-pdf-probe");
    request.onsuccess = () => resolve("opened");
    request.onerror = () => reject(request.error);
  });
  return {
    origin: String(self.origin),
    indexedDB: await tried(opened),
    localStorage: await tried(() => ("localStorage" in self ? typeof localStorage.getItem("k") : "absent")),
    caches: await tried(() => caches.keys().then((keys) => keys.length)),
    fetchApp: await tried(() => fetch(app).then((response) => response.status)),
    fetchOther: await tried(() => fetch(other, { mode: "no-cors" }).then((response) => response.type)),
  };
}"""


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


def held_read(page: Page, data: bytes) -> tuple[list[Route], Any]:
    """Start reading `data` with the reader's character-map requests held (not answered): the read, and so
    its parser, stays alive until they are let go. Returns the held routes and a handle on the read."""
    held: list[Route] = []
    page.route("**/pdf/cmaps/**", lambda route: held.append(route))
    b64 = base64.b64encode(data).decode()
    handle = page.evaluate_handle("(b64) => ({ read: window.agentlite.pdf.read(b64) })", b64)
    for _ in range(1200):  # until the first map is asked for (the route's handler runs while we wait)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the reader asked for no character map"
    return held, handle


def pdf_workers(page: Page) -> list[Worker]:
    """The page's workers named "pdf": the PDF parser, wherever the reader starts it."""
    return [worker for worker in page.workers if worker.evaluate("self.name") == "pdf"]


def test_the_parser_reaches_no_storage_and_no_network(
    app: Page, origin: str, model_server: ModelServer
) -> None:
    asked: list[str] = []
    app.context.on("request", lambda request: asked.append(request.url))
    held, handle = held_read(app, cjk_pdf())
    workers = pdf_workers(app)
    realms = workers + [frame for frame in app.frames if frame.url.endswith("/sandbox/pdf.html")]
    urls = [f"{origin}/index.html?pdf-probe", f"{model_server.base_url}/pdf-probe"]
    reached = [realm.evaluate(REACH, urls) for realm in realms]
    for route in held:
        route.continue_()
    app.unroute("**/pdf/cmaps/**")
    result = handle.evaluate("(h) => h.read")
    # The parser's worker and the document of its frame (and those of a spare frame, if one is made).
    assert workers and len(realms) > len(workers), [realms, reached]
    for probe in reached:
        assert probe["origin"] == "null", probe
        tries = [value for key, value in probe.items() if key != "origin"]
        assert all(value.startswith(("failed", "reached: absent")) for value in tries), probe
    assert not [url for url in asked if "pdf-probe" in url]
    assert not [r for r in model_server.requests if "pdf-probe" in r.path]
    assert result["ok"] and result["doc"]["pages"] == [CJK_TEXT], result  # the held maps arrived after all


def test_a_pdf_with_embedded_fonts_compiles_no_code(app: Page) -> None:
    result = read(app, EMBEDDED_FONTS.read_bytes(), watch=True)
    assert result["ok"], result
    assert result["doc"]["pages"] == ["Drawn with an embedded Type 1 font\nand a second one, both as CFF"]
    # Each realm (the parser's worker, its frame's document) tried one `new Function` of its own before
    # pdf.js loaded, to prove the watch sees it: refused by the policy, counted once. pdf.js added none,
    # reading the text and drawing the page.
    canary = {"functions": 1, "evals": 0, "violations": 1}
    assert result["doc"]["compiled"] == {"parser": canary, "frame": canary}, result["doc"]


def test_each_document_is_read_in_a_frame_that_has_seen_no_other(app: Page) -> None:
    frames = "[...document.querySelectorAll('iframe[data-pdf-reader]')]"
    assert read(app, sample_pdf(1, lines=2))["ok"]
    # Left after a read: one spare frame, sandboxed, made after the read; the frame that read is gone.
    assert app.evaluate(f"{frames}.map((f) => f.getAttribute('sandbox'))") == ["allow-scripts"]
    app.evaluate(f"{frames}.forEach((f) => (f.dataset.before = 'yes'))")
    assert read(app, sample_pdf(2, lines=2))["ok"]
    assert app.evaluate(f"{frames}.map((f) => f.dataset.before ?? 'new')") == ["new"]
