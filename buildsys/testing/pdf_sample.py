"""Small valid PDFs written from scratch, the same bytes every time: the PDF bench's input and the tests'.

Each page holds `lines` lines of text in Helvetica (a standard font: nothing embedded), one text object
per line, so a reader has to find the line breaks from the positions. The first line of page N is
`Page N`; the others say which page and line they are.
"""

from __future__ import annotations


def page_lines(page: int, lines: int) -> list[str]:
    """The text lines of page `page` (1-based) as the sample writes them."""
    return [f"Page {page}"] + [f"Line {n} of page {page}: the quick brown fox." for n in range(2, lines + 1)]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(page: int, lines: int) -> bytes:
    parts = ["BT /F1 12 Tf 14 TL 72 760 Td"]
    for number, line in enumerate(page_lines(page, lines)):
        parts.append(f"({_escape(line)}) Tj" if number == 0 else f"T* ({_escape(line)}) Tj")
    parts.append("ET")
    return "\n".join(parts).encode("latin-1")


def sample_pdf(pages: int, lines: int = 40, title: str = "AgentLite sample") -> bytes:
    """A PDF of `pages` pages of `lines` lines each, with an information dictionary naming `title`."""
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(pages))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for page in range(1, pages + 1):
        stream = _content(page, lines)
        content_id = 5 + 2 * (page - 1)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {content_id} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(f"<< /Title ({_escape(title)}) /Producer (AgentLite) >>".encode("latin-1"))
    return _assemble(objects)


def _assemble(objects: list[bytes]) -> bytes:
    """Header, numbered objects, the cross-reference table and the trailer (the last object is /Info)."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer = f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {len(objects)} 0 R >>\n"
    out += trailer.encode() + b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


CJK_TEXT = "あいう"  # hiragana a, i, u: three UCS-2 codes under the UniJIS-UCS2-H character map


def cjk_pdf() -> bytes:
    """One page of Japanese text in a font the PDF does not embed, whose encoding is a predefined character
    map (UniJIS-UCS2-H): a reader has to load that map (and Adobe-Japan1-UCS2 for Unicode) to read it."""
    codes = CJK_TEXT.encode("utf-16-be").hex().upper()
    stream = f"BT /F1 24 Tf 72 700 Td <{codes}> Tj ET".encode()
    cid_system = "<< /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >>"
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H "
        b"/DescendantFonts [6 0 R] >>",
        f"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo {cid_system} "
        "/FontDescriptor 7 0 R /DW 1000 >>".encode(),
        b"<< /Type /FontDescriptor /FontName /HeiseiMin-W3 /Flags 6 /FontBBox [0 -141 1000 859] "
        b"/ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 709 /StemV 69 >>",
        b"<< /Title (CJK sample) /Producer (AgentLite) >>",
    ]
    return _assemble(objects)
