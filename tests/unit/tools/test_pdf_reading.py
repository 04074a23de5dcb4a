"""read_file on a workspace PDF over a fake page (agentlite.page_jobs.ScriptedSandbox): the `pdf` job it
asks for, the text with page numbers it shows, paging, and the page's refusals as tool errors."""

from __future__ import annotations

import base64
from typing import Any

from agentlite.page_jobs import SandboxError, SandboxNoAnswerError, ScriptedSandbox
from agentlite.tools.result import ToolErrorType
from tests.unit.tools.conftest import call, context_with

PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n...the rest of a PDF..."
ANSWER = {"pages": ["Page 1\nhello", "Page 2\nworld  "], "title": "Report", "note": None, "page_count": 2}


def page_answering(answer: Any, seen: list[tuple[str, dict[str, Any], int]]) -> ScriptedSandbox:
    def handler(kind: str, payload: dict[str, Any], timeout_ms: int) -> dict[str, Any]:
        seen.append((kind, payload, timeout_ms))
        if isinstance(answer, Exception):
            raise answer
        return dict(answer)

    return ScriptedSandbox(handler)


async def test_a_pdf_is_read_by_the_page_and_shown_with_page_numbers() -> None:
    seen: list[tuple[str, dict[str, Any], int]] = []
    context = await context_with({"docs/report.PDF": PDF}, sandbox=page_answering(ANSWER, seen))
    result = await call(context, "read_file", path="docs/report.PDF")
    assert result.ok, result.message
    assert [(kind, base64.b64decode(payload["data"])) for kind, payload, _ in seen] == [("pdf", PDF)]
    lines = result.message.splitlines()
    assert lines[0] == "/docs/report.PDF: lines 1-7 of 7"
    shown = [line.split("\t", 1)[1] for line in lines[1:-1]]
    assert shown == [
        "[PDF /docs/report.PDF — Report, 2 page(s), text only]",
        "--- page 1 ---",
        "Page 1",
        "hello",
        "--- page 2 ---",
        "Page 2",
        "world",
    ]
    assert lines[-1] == "(end of file)"
    assert result.data["eof"] is True


async def test_a_long_pdf_pages_like_a_text_file_and_is_parsed_once_per_turn() -> None:
    seen: list[tuple[str, dict[str, Any], int]] = []
    answer = {"pages": [f"text of page {n}" for n in range(1, 31)], "title": None, "page_count": 40}
    answer["note"] = "[the text stops at page 30 of 40: at most 30 pages are read]"
    context = await context_with({"big.pdf": PDF}, sandbox=page_answering(answer, seen))
    first = await call(context, "read_file", path="/big.pdf", max_lines=20)
    assert first.ok and first.data["next_start_line"] == 21 and "40 page(s)" in first.message
    rest = await call(context, "read_file", path="/big.pdf", start_line=21, max_lines=200)
    assert rest.ok and rest.data["eof"] and "--- page 30 ---" in rest.message
    assert "stops at page 30 of 40" in rest.message
    assert len(seen) == 1


async def test_what_the_page_refuses_becomes_a_tool_error_naming_the_file() -> None:
    refused = SandboxError("pdf", "the PDF is encrypted with a password; it cannot be read")
    context = await context_with({"secret.pdf": PDF}, sandbox=page_answering(refused, []))
    result = await call(context, "read_file", path="secret.pdf")
    assert not result.ok and result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "/secret.pdf: the PDF is encrypted with a password" in result.message


async def test_a_page_that_does_not_answer_or_no_page_at_all_is_a_sandbox_error() -> None:
    silent = SandboxNoAnswerError("no_answer", "the page did not answer within 215000 ms")
    context = await context_with({"a.pdf": PDF}, sandbox=page_answering(silent, []))
    result = await call(context, "read_file", path="a.pdf")
    assert not result.ok and result.error_type == ToolErrorType.SANDBOX and "did not answer" in result.message
    alone = await context_with({"a.pdf": PDF})
    result = await call(alone, "read_file", path="a.pdf")
    assert not result.ok and result.error_type == ToolErrorType.SANDBOX and "PDF reader" in result.message


async def test_missing_pdfs_and_folders_named_pdf_read_as_before() -> None:
    seen: list[tuple[str, dict[str, Any], int]] = []
    context = await context_with({"shelf.pdf/": "", "notes.txt": "x"}, sandbox=page_answering(ANSWER, seen))
    missing = await call(context, "read_file", path="nothere.pdf")
    assert not missing.ok and missing.error_type == ToolErrorType.NOT_FOUND
    folder = await call(context, "read_file", path="shelf.pdf")
    assert not folder.ok
    assert seen == []


async def test_a_pdf_over_the_readers_limit_is_refused_by_its_size_before_it_is_sent(
    monkeypatch: Any,
) -> None:
    from agentlite.tools import pdf_text

    monkeypatch.setattr(pdf_text, "PDF_MAX_BYTES", len(PDF) - 1)
    seen: list[tuple[str, dict[str, Any], int]] = []
    context = await context_with({"big.pdf": PDF}, sandbox=page_answering(ANSWER, seen))
    result = await call(context, "read_file", path="big.pdf")
    assert not result.ok and result.error_type == ToolErrorType.INVALID_ARGUMENT
    assert "/big.pdf" in result.message and "bytes, over the" in result.message
    assert seen == []  # nothing went to the page
