"""read_file on a workspace PDF: its text, each page under its number (docs/pdf.md).

The agent worker never parses a PDF itself: the bytes are hostile, and the page holds the reader
(pdf.js in a Worker of its own per document, with limits on size, pages, text and time). A `pdf` job
goes to the page the way code runs do (`ToolContext.sandbox`, payload `{data}`: the file in base64);
the page answers `{pages, title, note, page_count}`, or fails with an error of type `pdf` whose
message says why (damaged, encrypted, not a PDF, too large, too slow). The text is kept per turn by
content hash, so reading a long PDF page after page parses it once.
"""

from __future__ import annotations

import base64
from typing import Any

from agentlite.page_jobs import SandboxError
from agentlite.tools.context import ToolContext
from agentlite.tools.result import ToolError, ToolErrorType

PDF_TIMEOUT_MS = 60_000
PDF_MAX_BYTES = 64 * 1024 * 1024  # the page's reader refuses more (web/src/pdf/pdf-rules.js, maxBytes)
CANNOT_READ_HINT = (
    "The file may be damaged, encrypted or not really a PDF. Ask the user for a text copy, "
    "or list_directory for another format of the same document."
)


def is_pdf(path: str) -> bool:
    return path.lower().endswith(".pdf")


async def pdf_text(context: ToolContext, path: str, sha256: str | None, size: int = 0) -> str:
    """The text the model reads for the PDF at `path` (its bytes come from the workspace). A file
    over the reader's limit is refused by its size, before its bytes are read and copied to the page."""
    if sha256 and sha256 in context.pdf_texts:
        return context.pdf_texts[sha256]
    if size > PDF_MAX_BYTES:
        raise ToolError(
            ToolErrorType.INVALID_ARGUMENT,
            f"{path}: {size:,} bytes, over the {PDF_MAX_BYTES // 2**20} MB a PDF may have to be read",
            CANNOT_READ_HINT,
        )
    data = await context.workspace.read_bytes(path)
    if data is None:
        raise ToolError(ToolErrorType.NOT_FOUND, f"{path} has no content to read")
    if context.sandbox is None:
        raise ToolError(
            ToolErrorType.SANDBOX, "PDFs cannot be read here: the page's PDF reader is not available"
        )
    payload = {"data": base64.b64encode(data).decode("ascii")}
    try:
        answer = await context.sandbox.run("pdf", payload, PDF_TIMEOUT_MS)
    except SandboxError as error:
        if error.type == "pdf":
            raise ToolError(
                ToolErrorType.INVALID_ARGUMENT, f"{path}: {error.message}", CANNOT_READ_HINT
            ) from error
        raise ToolError(ToolErrorType.SANDBOX, f"the PDF reader failed: {error.message}") from error
    text = prompt_text(path, answer)
    if sha256:
        context.pdf_texts[sha256] = text
    return text


def prompt_text(path: str, answer: dict[str, Any]) -> str:
    """The page's answer as the model reads it (the page's `pdfAsPromptText` writes the same for the
    composer): a head line, `--- page N ---` before each page, then the note on what was left out."""
    pages = [str(page).strip() for page in answer.get("pages") or [] if isinstance(page, str)]
    count = answer.get("page_count") if isinstance(answer.get("page_count"), int) else len(pages)
    title = answer.get("title") if isinstance(answer.get("title"), str) else ""
    head = f"[PDF {path}{f' — {title}' if title else ''}, {count} page(s), text only]"
    parts = [head] + [f"--- page {n} ---\n{text}" for n, text in enumerate(pages, start=1)]
    if isinstance(answer.get("note"), str) and answer["note"]:
        parts.append(str(answer["note"]))
    return "\n".join(parts) + "\n"
