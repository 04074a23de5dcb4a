// The pure rules of reading a PDF as text (docs/pdf.md): which bytes are refused before the reader sees
// them, how a page's text items become lines, where the text stops, and what a reader failure says.
// No platform here: tests run it under Node (tests/page/pdf_rules_runner.mjs).

/** @typedef {{maxBytes: number, maxPages: number, maxChars: number, timeoutMs: number}} PdfLimits */

/** Raised when a PDF cannot be read (corrupt, encrypted, too large, or the reader is missing). */
export class PdfError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "PdfError";
  }
}

/** @type {Readonly<PdfLimits>} */
export const PDF_LIMITS = Object.freeze({
  maxBytes: 64 * 1024 * 1024, // a bigger file is refused before it is parsed
  maxPages: 500, // pages read; the rest are named in the note
  maxChars: 2_000_000, // text kept over all pages
  timeoutMs: 60_000, // the whole read, after which the reader's worker is ended
});

const MAGIC = "%PDF-";
const MESSAGE_CHARS = 500; // of a failure's message: it comes from the reader's frame, which is not trusted
const TITLE_CHARS = 300;
const MAGIC_WITHIN = 1024; // PDF readers accept a header this far into the file

/**
 * Why these bytes are not read at all, or null when they may go to the reader.
 * @param {Uint8Array} bytes
 * @param {number} maxBytes
 * @returns {string | null}
 */
export function bytesProblem(bytes, maxBytes = PDF_LIMITS.maxBytes) {
  if (!(bytes instanceof Uint8Array)) return "no PDF bytes were given";
  if (bytes.length === 0) return "the file is empty (0 bytes)";
  if (bytes.length > maxBytes) {
    return `the PDF is too large (${megabytes(bytes.length)}; at most ${megabytes(maxBytes)} are read)`;
  }
  const head = String.fromCharCode(...bytes.subarray(0, MAGIC_WITHIN));
  return head.includes(MAGIC) ? null : "this is not a PDF: the file does not start with %PDF-";
}

/** @param {number} size */
function megabytes(size) {
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * @typedef {{str?: string, transform?: number[], width?: number, height?: number, hasEOL?: boolean}} TextItem
 */

/**
 * One page's text from the reader's text items: a new line where the reader marks one or the baseline
 * moves by more than half a line, a space where a gap separates two pieces on one line.
 * @param {readonly TextItem[]} items
 */
export function pageText(items) {
  let text = "";
  /** @type {{end: number, y: number, size: number} | null} */
  let last = null;
  for (const item of items) {
    if (!item || typeof item.str !== "string") continue; // marked-content markers carry no text
    const [, , c = 0, d = 0, x = 0, y = 0] = Array.isArray(item.transform) ? item.transform : [];
    const size = Math.abs(item.height || 0) || Math.hypot(c, d) || 1;
    if (last && item.str) {
      if (Math.abs(y - last.y) > Math.max(size, last.size) / 2) {
        if (!text.endsWith("\n")) text += "\n";
      } else if (x - last.end > size * 0.15 && !/\s$/.test(text) && !/^\s/.test(item.str)) {
        text += " ";
      }
    }
    text += item.str;
    if (item.hasEOL && !text.endsWith("\n")) text += "\n";
    if (item.str) last = { end: x + (Number(item.width) || 0), y, size };
  }
  return tidy(text);
}

/** Lines without trailing blanks, at most one empty line in a row, no blank start or end. @param {string} text */
export function tidy(text) {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.replace(/[ \t\u00a0]+$/, ""));
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The pages kept within the limits, and a note on what was left out (null when nothing was).
 * `total` is the PDF's page count; `pages` the texts read so far, in order.
 * @param {readonly string[]} pages
 * @param {number} total
 * @param {{maxPages: number, maxChars: number}} limits
 * @returns {{pages: string[], note: string | null}}
 */
export function withinLimits(pages, total, limits) {
  const kept = [];
  let used = 0;
  for (const text of pages.slice(0, limits.maxPages)) {
    if (used + text.length > limits.maxChars) {
      kept.push(cut(text, Math.max(0, limits.maxChars - used)));
      return { pages: kept, note: leftOut(kept.length, total, `${limits.maxChars} characters of text`) };
    }
    kept.push(text);
    used += text.length;
  }
  const note = total > kept.length ? leftOut(kept.length, total, `${limits.maxPages} pages`) : null;
  return { pages: kept, note };
}

/** The first `length` UTF-16 units of `text`, without half of a surrogate pair at the end. @param {string} text @param {number} length */
function cut(text, length) {
  const head = text.slice(0, length);
  return /[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head;
}

/** @param {number} read @param {number} total @param {string} limit */
function leftOut(read, total, limit) {
  return `[the text stops at page ${read} of ${total}: at most ${limit} are read]`;
}

/**
 * What the user and the model read when the reader fails on a PDF: its error's name decides.
 * @param {unknown} error
 */
export function failureText(error) {
  const name = error && typeof error === "object" && "name" in error ? String(error.name) : "";
  const said = error && typeof error === "object" && "message" in error ? error.message : error;
  const message = String(said).slice(0, MESSAGE_CHARS);
  if (name === "PasswordException") return "the PDF is encrypted with a password; it cannot be read";
  if (name === "InvalidPDFException" || name === "FormatError") {
    return `the PDF is damaged and cannot be read (${message})`;
  }
  return `the PDF could not be read: ${message}`;
}

// What the reader's frame answers is not trusted (a parser exploit would speak there): every answer is
// checked and cut to the limits here, on the page, whatever the frame sent.

/**
 * The text of a read from the frame's answer `{pages, title, pageCount}`, kept within `limits`; null
 * when the answer is not of that shape.
 * @param {unknown} answer
 * @param {{maxPages: number, maxChars: number}} limits
 * @returns {{pages: string[], title: string | null, note: string | null, pageCount: number} | null}
 */
export function textAnswer(answer, limits) {
  const { pages, title, pageCount } = /** @type {any} */ (answer ?? {});
  if (!Array.isArray(pages) || !pages.every((text) => typeof text === "string")) return null;
  if (!Number.isSafeInteger(pageCount) || pageCount < 0) return null;
  const kept = withinLimits(pages, Math.max(pageCount, pages.length), limits);
  const named = typeof title === "string" && title.trim() ? title.trim().slice(0, TITLE_CHARS) : null;
  return { ...kept, title: named, pageCount: Math.max(pageCount, pages.length) };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The width and height a PNG's header states, or null when the bytes are not a PNG.
 * @param {Uint8Array} bytes
 * @returns {{width: number, height: number} | null}
 */
export function pngSize(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length < 24) return null;
  if (!PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return null;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const MAP_NAME = /^[A-Za-z0-9][A-Za-z0-9_+-]{0,63}\.bcmap$/;

/**
 * Whether the frame may have this character map: a plain file name in dist/pdf/cmaps/, no path.
 * @param {unknown} name
 * @returns {name is string}
 */
export function isMapName(name) {
  return typeof name === "string" && MAP_NAME.test(name);
}
