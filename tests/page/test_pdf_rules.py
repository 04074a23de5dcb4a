"""The PDF reader's pure rules (web/src/pdf/pdf-rules.js, docs/pdf.md) under Node: text items become
lines, the bytes refused before parsing, the limits and their note, the failure messages, the prompt."""

from __future__ import annotations

import base64
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from buildsys.common import ROOT
from tests.node_json import run_node

RUNNER = ROOT / "tests" / "page" / "pdf_rules_runner.mjs"


def values(*cases: dict[str, Any]) -> list[Any]:
    return [line["value"] for line in run_node(RUNNER, list(cases))]


def item(
    text: str, x: float, y: float, width: float = 0, size: float = 12, eol: bool = False
) -> dict[str, Any]:
    return {"str": text, "transform": [size, 0, 0, size, x, y], "width": width, "height": size, "hasEOL": eol}


def text_of(items: list[dict[str, Any]]) -> str:
    return str(values({"op": "pageText", "items": items})[0])


def test_lines_break_where_the_baseline_moves_and_where_the_reader_marks_an_end() -> None:
    items = [item("Title", 72, 700, 30), item("first line", 72, 680, 50), item("", 122, 680, eol=True)]
    items += [item("second", 72, 666, 40), {"type": "beginMarkedContent"}, item("third", 72, 652, 30)]
    assert text_of(items) == "Title\nfirst line\nsecond\nthird"


def test_pieces_on_one_line_join_with_a_space_only_across_a_gap() -> None:
    items = [item("Hel", 72, 700, 18), item("lo", 90, 700, 12), item("world", 110, 700, 30)]
    items += [item(" again", 140, 700, 30)]
    assert text_of(items) == "Hello world again"


def test_blank_runs_and_trailing_spaces_are_tidied() -> None:
    items = [item("a   ", 72, 700, eol=True), item("", 0, 0, eol=True), item("", 0, 0, eol=True)]
    items += [item("b \n\n\n\nc\t", 72, 600)]
    assert text_of(items) == "a\nb\n\nc"


def test_items_without_text_or_position_do_not_break_the_page() -> None:
    assert text_of([{}, {"str": 3}, {"str": "x"}, {"str": "y", "transform": "no"}]) == "xy"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_bytes_refused_before_the_reader_sees_them() -> None:
    cases = [
        {"op": "bytesProblem", "base64": b64(b""), "maxBytes": 100},
        {"op": "bytesProblem", "base64": b64(b"%PDF-1.4" + b"x" * 200), "maxBytes": 100},
        {"op": "bytesProblem", "base64": b64(b"PK\x03\x04 a zip"), "maxBytes": 100},
        {"op": "bytesProblem", "base64": b64(b"\n" * 500 + b"%PDF-1.7\n"), "maxBytes": 10_000},
        {"op": "bytesProblem", "base64": b64(b"\n" * 1100 + b"%PDF-1.7\n"), "maxBytes": 10_000},
    ]
    empty, big, zip_file, late_header, too_late = values(*cases)
    assert empty == "the file is empty (0 bytes)"
    assert big.startswith("the PDF is too large")
    assert zip_file == too_late == "this is not a PDF: the file does not start with %PDF-"
    assert late_header is None


def test_limits_keep_whole_pages_then_cut_and_say_what_was_left_out() -> None:
    limits = {"maxPages": 3, "maxChars": 10}
    cases = [
        {"op": "withinLimits", "pages": ["abc", "def"], "total": 2, "limits": limits},
        {"op": "withinLimits", "pages": ["abc", "def", "ghi"], "total": 7, "limits": limits},
        {"op": "withinLimits", "pages": ["abcdef", "ghijkl", "x"], "total": 3, "limits": limits},
    ]
    whole, by_pages, by_chars = values(*cases)
    assert whole == {"pages": ["abc", "def"], "note": None}
    assert by_pages["pages"] == ["abc", "def", "ghi"]
    assert by_pages["note"] == "[the text stops at page 3 of 7: at most 3 pages are read]"
    assert by_chars["pages"] == ["abcdef", "ghij"]
    assert by_chars["note"] == "[the text stops at page 2 of 3: at most 10 characters of text are read]"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=12), st.integers(1, 6), st.integers(0, 80))
def test_limits_never_pass_their_bounds(pages: list[str], max_pages: int, max_chars: int) -> None:
    case = {
        "op": "withinLimits",
        "pages": pages,
        "total": len(pages),
        "limits": {"maxPages": max_pages, "maxChars": max_chars},
    }
    kept = values(case)[0]
    assert len(kept["pages"]) <= max_pages and sum(len(p) for p in kept["pages"]) <= max_chars
    assert "".join(kept["pages"]) == "".join(pages)[: len("".join(kept["pages"]))]
    assert (kept["note"] is None) == (kept["pages"] == pages)


def test_failure_messages_name_the_cause() -> None:
    cases = [
        {"op": "failureText", "name": "PasswordException", "message": "No password given"},
        {"op": "failureText", "name": "InvalidPDFException", "message": "Invalid PDF structure."},
        {"op": "failureText", "name": "TypeError", "message": "boom"},
    ]
    assert values(*cases) == [
        "the PDF is encrypted with a password; it cannot be read",
        "the PDF is damaged and cannot be read (Invalid PDF structure.)",
        "the PDF could not be read: boom",
    ]


def test_prompt_text_numbers_the_pages_and_ends_with_the_note() -> None:
    doc = {"pages": ["one\n", "two"], "title": "T", "note": "[cut]", "pageCount": 9}
    plain = {"pages": ["x"], "title": None}
    assert values(
        {"op": "prompt", "name": "a.pdf", "doc": doc}, {"op": "prompt", "name": "b.pdf", "doc": plain}
    ) == [
        "[PDF a.pdf — T, 9 page(s)]\n--- page 1 ---\none\n--- page 2 ---\ntwo\n[cut]",
        "[PDF b.pdf, 1 page(s)]\n--- page 1 ---\nx",
    ]


# What the reader's frame answers is not trusted: a parser exploit would speak there.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
ANSWERS = (
    st.fixed_dictionaries(
        {},
        optional={
            "pages": st.lists(st.text(max_size=60), max_size=12) | JSON_VALUES,
            "title": st.text(max_size=400) | JSON_VALUES,
            "pageCount": st.integers(-3, 10**6) | JSON_VALUES,
        },
    )
    | JSON_VALUES
)


@settings(max_examples=60, deadline=None)
@given(ANSWERS, st.integers(1, 6), st.integers(0, 120))
def test_any_answer_of_the_frame_is_refused_or_kept_within_the_limits(
    answer: Any, max_pages: int, max_chars: int
) -> None:
    case = {"op": "textAnswer", "answer": answer, "limits": {"maxPages": max_pages, "maxChars": max_chars}}
    doc = values(case)[0]
    if doc is None:
        return
    assert len(doc["pages"]) <= max_pages and sum(len(p) for p in doc["pages"]) <= max_chars
    assert all(isinstance(p, str) for p in doc["pages"])
    assert doc["title"] is None or (isinstance(doc["title"], str) and 0 < len(doc["title"]) <= 300)
    assert isinstance(doc["pageCount"], int) and doc["pageCount"] >= len(doc["pages"])
    if doc["note"] is None:  # nothing is dropped without a note
        assert doc["pages"] == answer["pages"]


def test_a_well_formed_answer_keeps_its_text_and_names_what_was_cut() -> None:
    limits = {"maxPages": 2, "maxChars": 100}
    answer = {"pages": ["one", "two", "three"], "title": "  Report  ", "pageCount": 7}
    assert values({"op": "textAnswer", "answer": answer, "limits": limits})[0] == {
        "pages": ["one", "two"],
        "note": "[the text stops at page 2 of 7: at most 2 pages are read]",
        "title": "Report",
        "pageCount": 7,
    }


def png_header(width: int, height: int) -> bytes:
    return (
        b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + width.to_bytes(4, "big") + height.to_bytes(4, "big")
    )


def test_a_picture_is_measured_by_its_png_header() -> None:
    cases = [png_header(300, 400) + b"\x08\x06\x00\x00\x00", png_header(40000, 1), b"GIF89a" + b"\x00" * 30]
    cases += [png_header(1, 1)[:20], b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDX" + b"\x00" * 8]
    sizes = values(*({"op": "pngSize", "base64": b64(data)} for data in cases))
    assert sizes == [{"width": 300, "height": 400}, {"width": 40000, "height": 1}, None, None, None]


def test_the_frame_gets_only_character_maps_by_plain_file_name() -> None:
    shipped = sorted(p.name for p in (ROOT / "web" / "node_modules" / "pdfjs-dist" / "cmaps").glob("*.bcmap"))
    assert len(shipped) > 100
    refused = ["../index.html", "../pdf.bcmap", "a/b.bcmap", ".bcmap", "x.bcmap?y", "x.json", "x.bcmap/", 3]
    refused += ["%2e%2e.bcmap", "a" * 70 + ".bcmap", "x.bcmap\n"]
    answers = values(*({"op": "isMapName", "name": name} for name in shipped + refused))
    assert answers == [True] * len(shipped) + [False] * len(refused)


def test_a_failure_from_the_frame_is_named_and_cut() -> None:
    cases = [
        {"op": "failureOf", "error": {"name": "PasswordException", "message": "x"}},
        {"op": "failureOf", "error": {"name": "Error", "message": "y" * 5000}},
        {"op": "failureOf", "error": "plain"},
    ]
    password, long, plain = values(*cases)
    assert password == "the PDF is encrypted with a password; it cannot be read"
    assert long == "the PDF could not be read: " + "y" * 500
    assert plain == "the PDF could not be read: plain"


def test_the_watch_counts_the_canary_and_every_function_made_after_it() -> None:
    assert values({"op": "watched", "calls": 3, "evals": 2}) == [
        {"functions": 4, "evals": 2, "violations": 0, "made": "function"}
    ]
    assert values({"op": "bootParses"}) == [True]
