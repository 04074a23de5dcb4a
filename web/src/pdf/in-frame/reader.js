// The PDF frame's runtime (web/sandbox/pdf.html, docs/pdf.md): pdf.js reads one PDF here, in an opaque
// origin with no network, and only text, page counts and page pictures go back to the page.
//
// The frame's bootstrap imports this module from a blob: URL and calls `start` with the port to the page
// and the boot message, which carries pdf.js's two files as text (the frame can fetch nothing). The
// parser (pdf.worker.js) runs in a Worker this frame starts from a blob: URL, so it has the frame's
// origin and policy: no storage, no fetch, no code compiled from strings. The one job arrives over the
// port; character maps are asked of the page over the same port, by name. The page removes the frame
// when the job ends, which ends the parser too.
import { pageText } from "../pdf-rules.js";
import { parserBoot, watchRealm } from "./watch.js";

/** @typedef {{kind: "text", bytes: ArrayBuffer, maxPages: number, maxChars: number}} TextJob */
/** @typedef {{kind: "draw", bytes: ArrayBuffer, first: number, count: number, maxSide: number}} DrawJob */

const PAGES_AT_ONCE = 8;

/**
 * Load pdf.js and start the parser at once (a frame may be made before its PDF is there), then answer
 * the one job that comes over `port`.
 * @param {MessagePort} port
 * @param {{library: string, parser: string, watch?: boolean}} boot
 */
export function start(port, boot) {
  const frameCounts = boot.watch ? watchRealm(globalThis, document) : null;
  const prepared = Promise.all([
    import(/* webpackIgnore: true */ blobUrl(boot.library)),
    startParser(boot.parser, Boolean(boot.watch)),
  ]);
  prepared.catch(() => {}); // reported with the job
  /** @type {Map<number, {resolve: (bytes: Uint8Array) => void, reject: (error: Error) => void}>} */
  const asked = new Map();
  let nextId = 1;
  /** @param {string} name @returns {Promise<Uint8Array>} */
  const askMap = (name) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      asked.set(id, { resolve, reject });
      port.postMessage({ type: "cmap", id, name });
    });
  port.onmessage = ({ data }) => {
    if (data?.type === "cmap") {
      const waiter = asked.get(data.id);
      asked.delete(data.id);
      if (data.ok) waiter?.resolve(new Uint8Array(data.bytes));
      else waiter?.reject(new Error(String(data.error)));
    } else if (data?.type === "job") {
      prepared
        .then(([pdfjs, parser]) => run(data.job, pdfjs, parser, askMap, frameCounts))
        .then(
          ({ result, transfer }) => port.postMessage({ type: "result", ok: true, result }, transfer),
          (err) => port.postMessage({ type: "result", ok: false, error: { name: err?.name, message: err?.message } }),
        );
    }
  };
}

/**
 * @param {TextJob | DrawJob} job
 * @param {any} pdfjs
 * @param {Worker} parser
 * @param {(name: string) => Promise<Uint8Array>} askMap
 * @param {Record<string, number> | null} frameCounts
 */
async function run(job, pdfjs, parser, askMap, frameCounts) {
  const task = pdfjs.getDocument({
    data: new Uint8Array(job.bytes),
    worker: new pdfjs.PDFWorker({ port: parser }),
    BinaryDataFactory: mapsFrom(askMap),
    useWorkerFetch: false, // the parser asks this frame for character maps, and this frame asks the page
    cMapUrl: "cmaps/",
    cMapPacked: true,
    disableFontFace: true, // the PDF's fonts are never installed, not even in this frame
    isEvalSupported: false, // gone from pdf.js 6, which compiles nothing; the policy refuses it anyway
    enableXfa: false,
    useSystemFonts: false,
    useWasm: false, // not shipped: images in JPX/JBIG2 are decoded in JavaScript or left out
    disableWorkerRendering: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  const outcome = job.kind === "draw" ? await draw(doc, pdfjs, job) : await read(doc, pdfjs, job, Boolean(frameCounts));
  if (frameCounts) {
    outcome.result.compiled = { parser: await parserCounts(parser), frame: { ...frameCounts } };
  }
  return outcome;
}

/**
 * The parser's Worker, started from a blob: URL and resolved once pdf.js inside it says it is ready.
 * @param {string} source pdf.worker.js
 * @param {boolean} watch
 * @returns {Promise<Worker>}
 */
function startParser(source, watch) {
  const worker = new Worker(blobUrl(parserBoot()), { name: "pdf" });
  return new Promise((resolve, reject) => {
    worker.addEventListener(
      "message",
      ({ data }) =>
        data?.bootFailed ? reject(new Error(`the PDF parser did not start: ${data.bootFailed}`)) : resolve(worker),
      { once: true },
    );
    worker.postMessage({ source, watch });
  });
}

/** @param {Worker} parser @returns {Promise<Record<string, number>>} */
function parserCounts(parser) {
  return new Promise((resolve) => {
    const answer = (/** @type {MessageEvent} */ { data }) => {
      if (!data?.watched) return;
      parser.removeEventListener("message", answer);
      resolve(data.watched);
    };
    parser.addEventListener("message", answer);
    parser.postMessage({ watch: true });
  });
}

/**
 * The text of each page up to `maxPages`, stopping once `maxChars` are passed (the page cuts exactly).
 * Watched (a test of what is compiled), each page is drawn as well, so glyphs are built too.
 * @param {any} doc @param {any} pdfjs @param {TextJob} job @param {boolean | undefined} watch
 */
async function read(doc, pdfjs, job, watch) {
  const total = doc.numPages;
  const last = Math.min(total, job.maxPages);
  const title = titleOf(doc);
  /** @type {string[]} */
  const pages = [];
  let used = 0;
  // A few pages asked for at once: the parser parses the next while this frame joins the last.
  for (let first = 1; first <= last && used <= job.maxChars; first += PAGES_AT_ONCE) {
    const numbers = Array.from({ length: Math.min(PAGES_AT_ONCE, last - first + 1) }, (_, i) => first + i);
    for (const text of await Promise.all(numbers.map((n) => textOfPage(doc, n)))) {
      pages.push(text);
      used += text.length;
    }
    if (watch) for (const number of numbers) await drawPage(doc, pdfjs, number, 200);
  }
  return {
    result: /** @type {Record<string, unknown>} */ ({ pages, title: await title, pageCount: total }),
    transfer: [],
  };
}

/** @param {any} doc @param {number} number */
async function textOfPage(doc, number) {
  const page = await doc.getPage(number);
  const text = pageText((await page.getTextContent()).items);
  page.cleanup();
  return text;
}

/** @param {any} doc @returns {Promise<string | null>} */
async function titleOf(doc) {
  try {
    const title = (await doc.getMetadata())?.info?.Title;
    return typeof title === "string" ? title : null;
  } catch {
    return null; // a broken information dictionary does not make the text unreadable
  }
}

/** PNG pictures of pages `first`.. (at most `count`), each at most `maxSide` pixels on its longer side.
 * @param {any} doc @param {any} pdfjs @param {DrawJob} job */
async function draw(doc, pdfjs, job) {
  const last = Math.min(doc.numPages, job.first + job.count - 1);
  /** @type {ArrayBuffer[]} */
  const pictures = [];
  for (let number = Math.max(1, job.first); number <= last; number++) {
    pictures.push(await drawPage(doc, pdfjs, number, job.maxSide));
  }
  return { result: /** @type {Record<string, unknown>} */ ({ pictures }), transfer: pictures };
}

/** @param {any} doc @param {any} pdfjs @param {number} number @param {number} maxSide */
async function drawPage(doc, pdfjs, number, maxSide) {
  const page = await doc.getPage(number);
  const plain = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: maxSide / Math.max(plain.width, plain.height, 1) });
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  // "print": pdf.js paces display drawing by animation frames, which a hidden frame is never given.
  const intent = "print";
  await page.render({ canvas, viewport, intent, annotationMode: pdfjs.AnnotationMode.DISABLE }).promise;
  page.cleanup();
  /** @type {Blob | null} */
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("a page could not be drawn");
  return blob.arrayBuffer();
}

/**
 * pdf.js's binary data factory, answered by the page: character maps only, by file name.
 * @param {(name: string) => Promise<Uint8Array>} askMap
 */
function mapsFrom(askMap) {
  return class PageMaps {
    /** @param {{kind: string, filename: string}} request */
    fetch({ kind, filename }) {
      if (kind !== "cMapUrl") return Promise.reject(new Error(`no ${kind} data in this reader`));
      return askMap(filename);
    }
  };
}

/** @param {string} text */
function blobUrl(text) {
  return URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
}
