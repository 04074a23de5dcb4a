// The page's side of the PDF frame (web/sandbox/pdf.html, docs/pdf.md): one frame per document, in an
// opaque origin with no network, built with the frames' kit (frames/page/frame-port.js): the iframe, the
// boot handshake that hands it one end of a MessageChannel, then everything over that port. The frame
// gets its runtime and pdf.js as text (it can fetch nothing), then the job with the PDF's bytes; it may
// ask for character maps by file name, which the page fetches from dist/pdf/cmaps/ only. Removing the
// frame ends its parser whatever it is doing: that is how a read past its time is stopped. After a
// document, one spare frame is made ready (loaded, pdf.js started, no PDF seen) for the next one.
import { bootFrame, makeSandboxedFrame, onFrameLoads } from "../frames/page/frame-port.js";
import { PdfError, isMapName } from "./pdf-rules.js";

// The build's files, beside the bundles (buildsys/build/assemble.py, buildsys/build/pdf_vendor.py).
const FRAME = "sandbox/pdf.html";
const SOURCES = { runtime: "pdf-frame.js", library: "pdf/pdf.js", parser: "pdf/pdf.worker.js" };
const MAPS = "pdf/cmaps/";
const MAX_MAPS = 200; // of one document (168 are shipped): a parser asking for more is refused
/** @type {Map<string, Promise<string>>} url -> the file's text, fetched once per page */
const texts = new Map();

const SPARE_MS = 60_000; // a frame made ready for the next document is dropped after this long unused
/** @type {{base: string, frame: PdfFrame, timer: ReturnType<typeof setTimeout>} | null} */
let spare = null;
const AWAY = { type: "result", ok: false, error: { name: "PdfError", message: "the reader's frame navigated away" } };

/** One frame, loading and booting from the moment it is made; it takes one job, then it is removed. */
class PdfFrame {
  /** @param {URL} base @param {boolean} watch */
  constructor(base, watch) {
    this.iframe = hiddenFrame(new URL(FRAME, base).href);
    /** @type {any[]} messages that came before the job was handed over */
    this.inbox = [];
    /** @type {(data: any) => void} */
    this.deliver = (data) => this.inbox.push(data);
    /** @type {MessagePort | undefined} */
    this.port = undefined;
    const loaded = new Promise((resolve) =>
      onFrameLoads(
        this.iframe,
        () => resolve(undefined),
        () => this.deliver(AWAY),
      ),
    );
    document.body.append(this.iframe);
    this.ready = Promise.all([loadSources(base), loaded]).then(([sources]) => {
      this.port = bootFrame(this.iframe, { type: "agentlite-pdf-boot", ...sources, watch });
      this.port.onmessage = ({ data }) => this.deliver(data);
    });
    this.ready.catch(() => {}); // a spare's failure is met by the job it is given
  }

  /**
   * Hand the job over (its bytes move to the frame); every message from the frame goes to `receive`.
   * @param {{bytes: ArrayBuffer}} job
   * @param {(data: any) => void} receive
   */
  async start(job, receive) {
    await this.ready;
    this.deliver = receive;
    for (const data of this.inbox.splice(0)) receive(data);
    /** @type {MessagePort} */ (this.port).postMessage({ type: "job", job }, [job.bytes]);
  }

  end() {
    this.port?.close();
    this.iframe.remove(); // ends the parser, finished or not
  }
}

/**
 * Run one job in a frame of its own (the spare one when there is one: it has seen no PDF) and resolve with
 * the frame's answer (not yet checked: the caller checks it); past `timeoutMs` the frame is removed and the
 * job fails. Then a new spare is made for the next document, unless this one was watched.
 * @param {{kind: string, bytes: ArrayBuffer} & Record<string, unknown>} job
 * @param {{base: URL, timeoutMs: number, watch?: boolean}} options
 * @returns {Promise<unknown>}
 */
export async function runInFrame(job, { base, timeoutMs, watch = false }) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    const seconds = Math.round(timeoutMs / 100) / 10;
    timer = setTimeout(() => reject(new PdfError(`reading the PDF took too long (over ${seconds} s)`)), timeoutMs);
  });
  const frame = takeSpare(base, watch) ?? new PdfFrame(base, watch);
  const work = new Promise((resolve, reject) => {
    /** @type {{resolve: (value: unknown) => void, reject: (error: Error) => void, maps?: number}} */
    const outcome = { resolve, reject };
    frame.start(job, (data) => answer(/** @type {MessagePort} */ (frame.port), data, base, outcome)).catch(reject);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    frame.end();
    if (!watch) keepSpare(base);
  }
}

/** The spare frame for `base`, taken (a watched job always gets a frame of its own). @param {URL} base @param {boolean} watch */
function takeSpare(base, watch) {
  if (watch || spare?.base !== base.href) return null;
  const { frame, timer } = spare;
  clearTimeout(timer);
  spare = null;
  return frame;
}

/** Make a frame ready for the next document, dropped after SPARE_MS unused. @param {URL} base */
function keepSpare(base) {
  if (spare) return;
  const frame = new PdfFrame(base, false);
  const timer = setTimeout(() => {
    if (spare?.frame !== frame) return;
    spare = null;
    frame.end();
  }, SPARE_MS);
  spare = { base: base.href, frame, timer };
}

/**
 * One message from the frame: a character map asked for, or the job's outcome.
 * @param {MessagePort} port
 * @param {any} data
 * @param {URL} base
 * @param {{resolve: (value: unknown) => void, reject: (error: Error) => void, maps?: number}} job
 */
function answer(port, data, base, job) {
  if (data?.type === "cmap") {
    job.maps = (job.maps ?? 0) + 1;
    serveMap(port, data.id, data.name, base, job.maps <= MAX_MAPS);
  } else if (data?.type === "result") {
    if (data.ok) job.resolve(data.result);
    else job.reject(Object.assign(new Error(String(data.error?.message)), { name: String(data.error?.name) }));
  }
}

/**
 * @param {MessagePort} port
 * @param {unknown} id
 * @param {unknown} name
 * @param {URL} base
 * @param {boolean} allowed
 */
async function serveMap(port, id, name, base, allowed) {
  try {
    if (!allowed || !isMapName(name))
      throw new Error(`not a character map of this reader: ${String(name).slice(0, 80)}`);
    const bytes = await (await fetchOk(new URL(MAPS + name, base).href)).arrayBuffer();
    port.postMessage({ type: "cmap", id, ok: true, bytes }, [bytes]);
  } catch (err) {
    port.postMessage({ type: "cmap", id, ok: false, error: /** @type {Error} */ (err).message });
  }
}

/**
 * The frame's runtime and pdf.js's two files, as text (fetched once per page; a failed fetch is retried).
 * @param {URL} base
 * @returns {Promise<{runtime: string, library: string, parser: string}>}
 */
async function loadSources(base) {
  const entries = Object.entries(SOURCES).map(async ([key, path]) => {
    const url = new URL(path, base).href;
    if (!texts.has(url)) {
      const text = fetchOk(url).then((response) => response.text());
      text.catch(() => texts.delete(url));
      texts.set(url, text);
    }
    return [key, await texts.get(url)];
  });
  try {
    return Object.fromEntries(await Promise.all(entries));
  } catch (err) {
    throw new PdfError(`the PDF reader could not be loaded: ${err instanceof Error ? err.message : err}`);
  }
}

/** @param {string} url */
async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

/**
 * Off screen and invisible: the frame draws pages on canvases of its own, never shown.
 * @param {string} src
 */
function hiddenFrame(src) {
  const iframe = makeSandboxedFrame(src);
  iframe.setAttribute("aria-hidden", "true");
  iframe.setAttribute("tabindex", "-1");
  iframe.title = "PDF reader";
  iframe.dataset.pdfReader = "";
  iframe.style.cssText = "position:fixed;left:-20000px;top:0;width:800px;height:600px;border:0;visibility:hidden";
  return iframe;
}
