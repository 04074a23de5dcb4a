// A PDF as text for the model (docs/pdf.md, docs/attachments.md): the one door the composer and read_file
// use. `readPdf` and `renderPdfPages` run the pinned PDF library (pdf.js, copied into dist/pdf/ by the
// build) in a frame of its own per document, in an opaque origin with no network (pdf-frame.js), loaded
// on first use only; `pdfAsPromptText` is pure and writes what the model reads, with page numbers. A PDF
// is hostile data: the bytes are checked before the library sees them, its parser cannot reach the app's
// storage or network, whatever the frame answers is checked here, and a read past its time ends the frame.
import { bytesProblem, failureText, PDF_LIMITS, PdfError, pngSize, textAnswer } from "./pdf-rules.js";
import { runInFrame } from "./pdf-frame.js";
import { fromBase64 } from "../bytes.js";

export { PdfError };

/** @typedef {{pages: string[], title: string | null, note?: string | null, pageCount?: number, compiled?: unknown}} PdfText */
/** @typedef {Partial<import("./pdf-rules.js").PdfLimits> & {baseUrl?: string | URL, watch?: boolean}} PdfOptions */

const MAX_SIDE = 4096; // of a page picture, whatever is asked

/**
 * The text of each page of a PDF, at most `maxPages` pages and `maxChars` characters (`note` says what
 * was left out); `title` from the document's information. `watch` (tests): each realm of the frame
 * counts the code it compiles, reported as `compiled`.
 * @param {Uint8Array} bytes
 * @param {PdfOptions} [options]
 * @returns {Promise<PdfText>}
 */
export async function readPdf(bytes, options = {}) {
  const limits = { ...PDF_LIMITS, ...options };
  const job = { kind: "text", maxPages: limits.maxPages, maxChars: limits.maxChars };
  const answer = await inFrame(bytes, limits, job);
  const doc = textAnswer(answer, limits);
  if (!doc) throw new PdfError("the PDF reader gave an answer of the wrong shape");
  return options.watch ? { ...doc, compiled: /** @type {any} */ (answer).compiled ?? null } : doc;
}

/**
 * PNG pictures of pages, for models that take images; each at most `maxSide` pixels on its longer side.
 * @param {Uint8Array} bytes
 * @param {PdfOptions & {first?: number, count?: number, maxSide?: number}} [options]
 * @returns {Promise<Blob[]>}
 */
export async function renderPdfPages(bytes, options = {}) {
  const limits = { ...PDF_LIMITS, ...options };
  const first = Math.max(1, Math.floor(Number(options.first) || 1));
  const count = Math.max(0, Math.min(Math.floor(Number(options.count ?? 1)) || 0, limits.maxPages));
  const maxSide = Math.max(1, Math.min(Math.floor(Number(options.maxSide) || 1024), MAX_SIDE));
  const answer = /** @type {any} */ (await inFrame(bytes, limits, { kind: "draw", first, count, maxSide }));
  const pictures = Array.isArray(answer?.pictures) ? answer.pictures.slice(0, count) : null;
  if (!pictures) throw new PdfError("the PDF reader gave an answer of the wrong shape");
  return pictures.map((/** @type {unknown} */ picture) => {
    const png = picture instanceof ArrayBuffer ? new Uint8Array(picture) : null;
    const size = png && pngSize(png);
    if (!size || Math.max(size.width, size.height) > maxSide + 1) {
      throw new PdfError("the PDF reader drew a picture that is not a PNG within the size asked");
    }
    return new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (png)], { type: "image/png" });
  });
}

/**
 * Check the bytes, then run `job` on a copy of them in a PDF frame of its own; every failure a PdfError.
 * @param {Uint8Array} bytes
 * @param {import("./pdf-rules.js").PdfLimits & PdfOptions} limits
 * @param {{kind: string} & Record<string, unknown>} job
 */
async function inFrame(bytes, limits, job) {
  const problem = bytesProblem(bytes, limits.maxBytes);
  if (problem) throw new PdfError(problem);
  const base = new URL(limits.baseUrl || new URL("./", import.meta.url));
  const copy = bytes.slice().buffer; // handed over to the frame: the caller keeps its own
  try {
    return await runInFrame({ ...job, bytes: copy }, { base, timeoutMs: limits.timeoutMs, watch: limits.watch });
  } catch (err) {
    throw err instanceof PdfError ? err : new PdfError(failureText(err));
  }
}

/**
 * What the model reads for a PDF: its name, page count, then each page under its number, then what
 * was left out.
 * @param {string} name
 * @param {PdfText} doc
 */
export function pdfAsPromptText(name, doc) {
  const count = doc.pageCount ?? doc.pages.length;
  const head = `[PDF ${name}${doc.title ? ` — ${doc.title}` : ""}, ${count} page(s)]`;
  const pages = doc.pages.map((text, i) => `--- page ${i + 1} ---\n${text.trim()}`);
  return [head, ...pages, ...(doc.note ? [doc.note] : [])].join("\n");
}

/**
 * The page's answer to the agent's `pdf` job (read_file on a workspace PDF, docs/pdf.md): payload
 * `{data}` (the file in base64) -> `{pages, title, note, page_count}`. A PDF that cannot be read
 * fails with an error of type `pdf` whose message the model reads.
 * @param {{data?: unknown}} payload
 * @param {number} timeoutMs
 */
export async function answerPdfJob(payload, timeoutMs) {
  try {
    const doc = await readPdf(base64Bytes(payload?.data), { timeoutMs });
    return { pages: doc.pages, title: doc.title, note: doc.note ?? null, page_count: doc.pageCount };
  } catch (err) {
    throw err instanceof PdfError ? Object.assign(err, { type: "pdf" }) : err;
  }
}

/** @param {unknown} data */
function base64Bytes(data) {
  try {
    return fromBase64(typeof data === "string" ? data : "");
  } catch {
    throw new PdfError("the PDF's bytes did not arrive intact (not base64)");
  }
}
