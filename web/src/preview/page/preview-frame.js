// The preview frame's life on the app's side: each reload builds the page's bundle, puts a fresh
// opaque-origin iframe in place of the last one (web/sandbox/preview.html) and hands it, over a
// MessageChannel, the frame's runtime as text (dist/preview-frame-runtime.js, web/src/preview/frame/) and
// the bundle. The frame reports its state, its console lines, its storage and link clicks back.
// Where the frame shares the app's thread (thread.js), the page's loops are guarded (loop-guard.js) and a
// page with a script the guard could not parse runs only when `approve` says so.
import { bootFrame, firstLoad, makeSandboxedFrame } from "../../frames/page/frame-port.js";
import { buildBundle, pathOf } from "./page-bundle.js";
import { WS, lexerReady } from "../common/resolve.js";

const INSPECT_TIMEOUT_MS = 3_000;
const SHOT_TIMEOUT_MS = 10_000; // a screenshot that takes longer is given up (the report still returns)
const SHOT_MODULE = "preview-screenshot.js"; // handed to the frame only when a screenshot is asked
const HANDS_MODULE = "preview-hands.js"; // handed to the frame when the agent first snapshots or acts
const RUNTIME = "preview-frame-runtime.js"; // handed to the frame with each page: the frame fetches nothing
const LOAD_TIMEOUT_MS = 15_000; // a page whose load event never comes stays "loading"

/**
 * What the frame sends over the port (web/src/preview/frame/).
 * @typedef {{type?: string, level?: unknown, text?: unknown, uncaught?: unknown, state?: string,
 *   message?: string, area?: string, items?: Record<string, string>, path?: unknown, id?: number,
 *   title?: unknown, result?: unknown, error?: string, method?: unknown, url?: unknown, status?: unknown}} FrameMessage
 * @typedef {{localStorage: Record<string, string>, sessionStorage: Record<string, string>}} Storage
 * @typedef {import("./page-html.js").Guard} Guard
 * @typedef {import("./workspace-files.js").Transpiler} Transpiler
 */

export class PreviewFrame {
  /**
   * slot: the element that holds the iframe; files: a WorkspaceFiles; baseUrl: dist/ (holds sandbox/);
   * guard: whether to guard the page's loops.
   * @param {{slot: Element, files: import("./workspace-files.js").WorkspaceFiles, baseUrl: string | URL,
   *   guard?: boolean,
   *   onLog?: (level: string, text: string, uncaught: boolean) => void,
   *   onState?: (state: {entry: string, state: string, revision: number, message?: string}) => void,
   *   onNavigate?: (path: string) => void,
   *   onRequest?: (request: {method: string, url: string, status: number}) => void}} options
   */
  constructor(options) {
    const {
      slot,
      files,
      baseUrl,
      guard = false,
      onLog = () => {},
      onState = () => {},
      onNavigate = () => {},
    } = options;
    this.onRequest = options.onRequest || (() => {});
    this.slot = slot;
    this.guard = guard;
    /** @type {Promise<Guard> | null} */
    this.guardModule = null;
    this.files = files;
    this.baseUrl = new URL(baseUrl);
    this.onLog = onLog;
    this.onState = onState;
    this.onNavigate = onNavigate;
    /** @type {WeakMap<HTMLIFrameElement, Promise<void>>} iframe -> its first load */
    this.loaded = new WeakMap();
    /** @type {HTMLIFrameElement | null} */
    this.spare = null;
    this.revision = 0;
    /** @type {HTMLIFrameElement | null} */
    this.iframe = null;
    /** @type {MessagePort | null} */
    this.port = null;
    /** @type {Storage} */
    this.storage = { localStorage: {}, sessionStorage: {} };
    /** @type {Map<string, Promise<string>>} URL -> the text of a shipped file (vendor copies, the screenshot) */
    this.texts = new Map();
    /** @type {Promise<Transpiler> | null} */
    this.transpiler = null;
    /** @type {Map<number, (answer: FrameMessage | null) => void>} id -> the waiting caller of ask() */
    this.asked = new Map();
    this.nextAsk = 1;
    /** @type {Promise<void>} */
    this.ready = Promise.resolve();
    /** @type {Set<string>} */
    this.shown = new Set(); // the workspace paths the current page was handed
    this.loading = 0; // the revision being loaded, 0 when none is
  }

  // Show `entry` (a workspace path) afresh; resolves when the page has loaded (or failed to).
  /**
   * approve(unguarded): whether to run a page whose scripts are not all guarded.
   * @param {string} entry
   * @param {(unguarded: string[]) => Promise<boolean>} [approve]
   */
  show(entry, approve = async () => true) {
    const revision = ++this.revision;
    this.loading = revision;
    this.ready = this.load(entry, revision, approve)
      .catch((err) => {
        if (revision === this.revision) this.setState(entry, "error", err.message);
      })
      .finally(() => {
        if (this.loading === revision) this.loading = 0;
      });
    this.ready.then(() => {
      if (revision === this.revision && !this.spare) this.spare = this.blankFrame();
    });
    return this.ready;
  }

  /**
   * @param {string} entry
   * @param {number} revision
   * @param {(unguarded: string[]) => Promise<boolean>} approve
   */
  async load(entry, revision, approve) {
    const iframe = this.makeFrame(entry, revision);
    const runtime = this.text(RUNTIME);
    const files = await this.files.load();
    await lexerReady;
    const bundle = await buildBundle({
      entry,
      files,
      transpile: (path, code) => this.files.transpile(path, code, () => this.loadTranspiler()),
      vendor: (name) => this.vendor(name),
      guard: this.guard ? await this.loadGuard() : null,
    });
    if (revision !== this.revision) return;
    this.shown = new Set(bundle.files.map((file) => file.path));
    for (const { key } of bundle.modules) if (key.startsWith(WS)) this.shown.add(pathOf(key));
    if (bundle.unguarded.length && !(await approve(bundle.unguarded))) {
      const why = `not run: its loops could not be guarded (${bundle.unguarded.join("; ")})`;
      throw new Error(why); // shown as the frame's error; Reload runs it anyway
    }
    if (revision !== this.revision) return;
    await this.boot(iframe, await runtime, bundle, revision);
  }

  // Stop a load under way before it runs anything (its files may hold a change not to run by itself).
  halt() {
    if (!this.loading) return;
    this.loading = 0;
    this.revision++;
    const entry = this.iframe?.dataset.entry || "";
    this.setState(entry, "error", "not run: the agent changed the page while it loaded");
  }

  // The next reload's frame, loaded ahead while the page is idle: a reload then skips the frame's load.
  blankFrame() {
    // A controlled page lets the service worker sandbox the frame by header (offline, a frame sandboxed
    // by attribute could not load); the attribute follows once it has loaded (frames/page/frame-port.js).
    const iframe = makeSandboxedFrame(new URL("sandbox/preview.html", this.baseUrl).href);
    iframe.className = "preview-frame";
    iframe.hidden = true;
    this.loaded.set(iframe, firstLoad(iframe));
    this.slot.append(iframe);
    return iframe;
  }

  /**
   * @param {string} entry
   * @param {number} revision
   */
  makeFrame(entry, revision) {
    this.port?.close();
    for (const done of [...this.asked.values()]) done(null); // the old page will not answer
    const iframe = this.spare || this.blankFrame();
    this.spare = null;
    iframe.dataset.testid = "preview-frame";
    iframe.dataset.entry = entry;
    iframe.dataset.state = "loading";
    iframe.dataset.revision = String(revision);
    iframe.title = `Preview of ${entry}`;
    iframe.hidden = false;
    if (this.iframe && this.iframe !== iframe) this.iframe.remove();
    this.iframe = iframe;
    this.onState({ entry, state: "loading", revision });
    return iframe;
  }

  /**
   * @param {HTMLIFrameElement} iframe
   * @param {string} runtime the text of the frame's runtime
   * @param {import("./page-bundle.js").Bundle} bundle
   * @param {number} revision
   */
  async boot(iframe, runtime, bundle, revision) {
    await this.loaded.get(iframe);
    if (revision !== this.revision) return;
    const storage = { local: this.storage.localStorage, session: this.storage.sessionStorage };
    const port = bootFrame(iframe, { type: "agentlite-preview-boot", runtime, bundle, storage });
    this.port = port;
    /** @type {Promise<void>} */
    const done = new Promise((resolve) => {
      port.onmessage = (event) => this.receive(event.data, bundle.entry, revision, resolve);
    });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, LOAD_TIMEOUT_MS)));
    await Promise.race([done, late]).finally(() => clearTimeout(timer));
  }

  /**
   * @param {FrameMessage} message
   * @param {string} entry
   * @param {number} revision
   * @param {() => void} resolve
   */
  receive(message, entry, revision, resolve) {
    if (!message || typeof message !== "object" || revision !== this.revision) return;
    if (message.type === "log") this.onLog(String(message.level), String(message.text), message.uncaught === true);
    else if (message.type === "state") {
      this.setState(entry, message.state === "ready" ? "ready" : "error", message.message || "");
      resolve();
    } else if (message.type === "storage" && (message.area === "localStorage" || message.area === "sessionStorage")) {
      this.storage[message.area] = message.items || {};
    } else if (message.type === "navigate" && typeof message.path === "string") this.onNavigate(message.path);
    else if (message.type === "request") {
      const status = Math.max(Number(message.status) || 0, 0); // 0: refused or failed
      this.onRequest({ method: String(message.method), url: String(message.url), status });
    } else if (message.type === "inspected" || message.type === "module-result")
      this.asked.get(/** @type {number} */ (message.id))?.(message);
  }

  /**
   * @param {string} entry
   * @param {string} state
   * @param {string} [message]
   */
  setState(entry, state, message) {
    if (this.iframe) this.iframe.dataset.state = state;
    this.onState({ entry, state, revision: this.revision, message });
  }

  // {title, text} of the page as shown now.
  async inspect() {
    const answer = (await this.ask({ type: "inspect" }, INSPECT_TIMEOUT_MS)) || {};
    return { title: String(answer.title || ""), text: String(answer.text || "") };
  }

  // A picture of the page as shown now (docs/preview.md, "Screenshots"): what the frame's screenshot
  // module answered ({result} or {error}), or {error} when it could not run or did not answer in time.
  /** @param {{maxWidth: number, maxHeight: number}} limits */
  async shoot(limits) {
    let code;
    try {
      code = await this.text(SHOT_MODULE);
    } catch (err) {
      return { error: `the screenshot module could not be loaded: ${/** @type {Error} */ (err).message}` };
    }
    const answer = await this.ask({ type: "run-module", code, args: limits }, SHOT_TIMEOUT_MS);
    return answer || { error: `the page did not give a picture within ${SHOT_TIMEOUT_MS / 1000} s` };
  }

  // The agent's hands on the page as shown now (web/src/preview/frame/hands.js): what they answered
  // ({result} or {error}), or {error} when they could not run or the page did not answer in time.
  /**
   * @param {object} ask
   * @param {number} timeoutMs
   */
  async hands(ask, timeoutMs) {
    let code;
    try {
      code = await this.text(HANDS_MODULE);
    } catch (err) {
      return { error: `the preview's hands could not be loaded: ${/** @type {Error} */ (err).message}` };
    }
    const answer = await this.ask({ type: "run-module", code, args: ask }, timeoutMs);
    return answer || { error: "the page did not answer: it went away (it navigated or reloaded) or is busy" };
  }

  // Send the current page `message` with a fresh id; its answer, or null when there is no page or it
  // did not answer within `timeoutMs`.
  /**
   * @param {{type: string, [key: string]: unknown}} message
   * @param {number} timeoutMs
   * @returns {Promise<FrameMessage | null>}
   */
  ask(message, timeoutMs) {
    const id = this.nextAsk++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (/** @type {FrameMessage | null} */ answer) => {
        clearTimeout(timer);
        this.asked.delete(id);
        resolve(answer);
      };
      this.asked.set(id, done);
      if (this.port) this.port.postMessage({ ...message, id });
      else done(null);
    });
  }

  loadGuard() {
    if (!this.guardModule) {
      this.guardModule = import(/* the lazily loaded bundle */ new URL("preview-guard.js", this.baseUrl).href);
      this.guardModule.catch(() => (this.guardModule = null));
    }
    return this.guardModule;
  }

  loadTranspiler() {
    if (!this.transpiler) {
      this.transpiler = import(/* the lazily loaded bundle */ new URL("preview-transpiler.js", this.baseUrl).href);
      this.transpiler.catch(() => (this.transpiler = null));
    }
    return this.transpiler;
  }

  /** @param {string} name */
  vendor(name) {
    if (!/^[\w.-]+\.js$/.test(name)) return Promise.reject(new Error(`not a shipped module: ${name}`));
    return this.text(`preview/vendor/${name}`);
  }

  /**
   * The text of a file shipped with the app (under dist/), fetched once.
   * @param {string} path
   * @returns {Promise<string>}
   */
  text(path) {
    const url = new URL(path, this.baseUrl).href;
    if (!this.texts.has(url)) {
      const text = fetch(url).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${url}: HTTP ${r.status}`))));
      text.catch(() => this.texts.delete(url));
      this.texts.set(url, text);
    }
    return /** @type {Promise<string>} */ (this.texts.get(url));
  }
}
