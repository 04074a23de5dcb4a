// A PDF as text for the model (docs/attachments.md): the one door the composer and read_file use.
// `readPdf` and `renderPdfPages` run the pinned PDF library off the page's thread; `pdfAsPromptText`
// is pure and writes what the model reads, with page numbers.

/** Raised when a PDF cannot be read (corrupt, encrypted, too large, or the reader is missing). */
export class PdfError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "PdfError";
  }
}

/**
 * The text of each page of a PDF.
 * @param {Uint8Array} _bytes
 * @returns {Promise<{pages: string[], title: string | null}>}
 */
export async function readPdf(_bytes) {
  throw new PdfError("This build cannot read PDFs yet.");
}

/**
 * PNG pictures of pages, for models that take images.
 * @param {Uint8Array} _bytes
 * @param {{first?: number, count?: number, maxSide?: number}} [_options]
 * @returns {Promise<Blob[]>}
 */
export async function renderPdfPages(_bytes, _options) {
  throw new PdfError("This build cannot draw PDF pages yet.");
}

/**
 * What the model reads for a PDF: its name, page count, then each page under its number.
 * @param {string} name
 * @param {{pages: string[], title: string | null}} doc
 */
export function pdfAsPromptText(name, doc) {
  const head = `[PDF ${name}${doc.title ? ` — ${doc.title}` : ""}, ${doc.pages.length} page(s)]`;
  const pages = doc.pages.map((text, i) => `--- page ${i + 1} ---\n${text.trim()}`);
  return [head, ...pages].join("\n");
}
