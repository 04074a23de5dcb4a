// A PDF as text for the model (docs/pdf.md, docs/attachments.md): the one door the composer and read_file
// use. `readPdf` and `renderPdfPages` run the pinned PDF library (pdf.js, copied into dist/pdf/ by the
// build) in a Worker of its own per document, loaded on first use only; `pdfAsPromptText` is pure and
// writes what the model reads, with page numbers. A PDF is hostile data: the bytes are checked before the
// library sees them, its parser runs off the page's thread, and a read that overstays its time ends the
// worker.
import { bytesProblem, failureText, PDF_LIMITS, pageText, withinLimits } from "./pdf-rules.js";
import { fromBase64 } from "../bytes.js";

/** Raised when a PDF cannot be read (corrupt, encrypted, too large, or the reader is missing). */
export class PdfError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "PdfError";
  }
}

/** @typedef {{pages: string[], title: string | null, note?: string | null, pageCount?: number}} PdfText */
/** @typedef {Partial<import("./pdf-rules.js").PdfLimits> & {baseUrl?: string | URL}} PdfOptions */

// The build's copy of the library, beside the bundles (buildsys/pdf_vendor.py).
const LIBRARY = "pdf/pdf.js";
const WORKER = "pdf/pdf.worker.js";
const CMAPS = "pdf/cmaps/";
const PAGES_AT_ONCE = 8;
/** @type {Map<string, Promise<any>>} */
const libraries = new Map();

/** @param {string | URL} [baseUrl] */
function library(baseUrl = new URL("./", import.meta.url)) {
  const url = new URL(LIBRARY, baseUrl).href;
  if (!libraries.has(url)) {
    const loading = import(/* webpackIgnore: true */ url);
    loading.catch(() => libraries.delete(url)); // a failed load is tried again next time
    libraries.set(url, loading);
  }
  return /** @type {Promise<any>} */ (libraries.get(url));
}

/**
 * The text of each page of a PDF, at most `maxPages` pages and `maxChars` characters (`note` says what
 * was left out); `title` from the document's information.
 * @param {Uint8Array} bytes
 * @param {PdfOptions} [options]
 * @returns {Promise<PdfText>}
 */
export async function readPdf(bytes, options = {}) {
  const limits = { ...PDF_LIMITS, ...options };
  return withDocument(bytes, limits, async (doc) => {
    const total = doc.numPages;
    const last = Math.min(total, limits.maxPages);
    const title = titleOf(doc);
    /** @type {string[]} */
    const texts = [];
    let used = 0;
    // A few pages asked for at once: the worker parses the next while the page joins the last.
    for (let first = 1; first <= last && used <= limits.maxChars; first += PAGES_AT_ONCE) {
      const numbers = Array.from({ length: Math.min(PAGES_AT_ONCE, last - first + 1) }, (_, i) => first + i);
      for (const text of await Promise.all(numbers.map((n) => textOfPage(doc, n)))) {
        texts.push(text);
        used += text.length;
      }
    }
    const { pages, note } = withinLimits(texts, total, limits);
    return { pages, title: await title, note, pageCount: total };
  });
}

/** @param {any} doc @param {number} number */
async function textOfPage(doc, number) {
  const page = await doc.getPage(number);
  const text = pageText((await page.getTextContent()).items);
  page.cleanup();
  return text;
}

/**
 * PNG pictures of pages, for models that take images; each at most `maxSide` pixels on its longer side.
 * @param {Uint8Array} bytes
 * @param {PdfOptions & {first?: number, count?: number, maxSide?: number}} [options]
 * @returns {Promise<Blob[]>}
 */
export async function renderPdfPages(bytes, options = {}) {
  const { first = 1, count = 1, maxSide = 1024 } = options;
  const limits = { ...PDF_LIMITS, ...options };
  return withDocument(bytes, limits, async (doc, pdfjs) => {
    const last = Math.min(doc.numPages, first + Math.min(count, limits.maxPages) - 1);
    const blobs = [];
    for (let number = Math.max(1, first); number <= last; number++) {
      const page = await doc.getPage(number);
      const plain = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: maxSide / Math.max(plain.width, plain.height, 1) });
      const canvas = document.createElement("canvas");
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      const task = page.render({ canvas, viewport, annotationMode: pdfjs.AnnotationMode.DISABLE });
      await task.promise;
      page.cleanup();
      blobs.push(await pngOf(canvas));
    }
    return blobs;
  });
}

/** @param {HTMLCanvasElement} canvas @returns {Promise<Blob>} */
function pngOf(canvas) {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new PdfError("a page could not be drawn"))), "image/png"),
  );
}

/**
 * Open the PDF in a worker of its own, hand it to `use`, and end the worker however `use` ends;
 * past `timeoutMs` the worker is ended at once and the read fails.
 * @template T
 * @param {Uint8Array} bytes
 * @param {import("./pdf-rules.js").PdfLimits & {baseUrl?: string | URL}} limits
 * @param {(doc: any, pdfjs: any) => Promise<T>} use
 * @returns {Promise<T>}
 */
async function withDocument(bytes, limits, use) {
  const problem = bytesProblem(bytes, limits.maxBytes);
  if (problem) throw new PdfError(problem);
  const base = limits.baseUrl || new URL("./", import.meta.url);
  let pdfjs;
  try {
    pdfjs = await library(base);
  } catch (err) {
    throw new PdfError(`the PDF reader could not be loaded: ${err instanceof Error ? err.message : err}`);
  }
  const port = new Worker(new URL(WORKER, base), { type: "module", name: "pdf" });
  const task = pdfjs.getDocument({
    data: bytes.slice(), // the library takes the buffer over: the caller keeps its own
    worker: new pdfjs.PDFWorker({ port }),
    cMapUrl: new URL(CMAPS, base).href,
    cMapPacked: true,
    disableFontFace: true, // the PDF's fonts are never installed into the page
    enableXfa: false,
    useSystemFonts: false,
    useWasm: false, // not shipped: images in JPX/JBIG2 are decoded in JavaScript or left out
    disableWorkerRendering: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    const seconds = Math.round(limits.timeoutMs / 100) / 10;
    timer = setTimeout(
      () => reject(new PdfError(`reading the PDF took too long (over ${seconds} s)`)),
      limits.timeoutMs,
    );
  });
  try {
    return await Promise.race([task.promise.then((/** @type {any} */ doc) => use(doc, pdfjs)), late]);
  } catch (err) {
    throw err instanceof PdfError ? err : new PdfError(failureText(err));
  } finally {
    clearTimeout(timer);
    task.destroy().catch(() => {});
    port.terminate(); // ends whatever the parser is doing, finished or not
  }
}

/** @param {any} doc @returns {Promise<string | null>} */
async function titleOf(doc) {
  try {
    const title = (await doc.getMetadata())?.info?.Title;
    return typeof title === "string" && title.trim() ? title.trim().slice(0, 300) : null;
  } catch {
    return null; // a broken information dictionary does not make the text unreadable
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
