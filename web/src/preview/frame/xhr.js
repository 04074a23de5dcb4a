// The page's XMLHttpRequest, answered like its fetch() (fetch-shim.js): a workspace file (200, or 404 for
// a missing one) in the `responseType` asked for, blob: and data: URLs through the real fetch, anything
// else refused and logged.
import { keyOf, targetOf } from "../../frames/common/workspace-url.js";

/** @import { BundleFile } from "./page-writer.js" */
/** @import { NoteRequest, Post } from "./notices.js" */

const EVENTS = ["readystatechange", "loadstart", "progress", "load", "error", "abort", "timeout", "loadend"];
const STATES = ["UNSENT", "OPENED", "HEADERS_RECEIVED", "LOADING", "DONE"];

/**
 * `target.on<type> = f` hears the `type` events, as on a real XMLHttpRequest.
 * @param {EventTarget} target
 * @param {string} name
 * @param {string} type
 */
function handlerProperty(target, name, type) {
  const handlers = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (target));
  handlers[name] = null;
  target.addEventListener(type, (event) => {
    const handler = handlers[name];
    if (typeof handler === "function") handler.call(target, event);
  });
}

/** The state and events of a request, as XMLHttpRequest has them; `send` is the shim's. */
class PageRequest extends EventTarget {
  constructor() {
    super();
    this.readyState = 0;
    this.status = 0;
    this.statusText = "";
    /** @type {unknown} */
    this.response = "";
    this.responseURL = "";
    this.responseType = "";
    this.timeout = 0;
    this.withCredentials = false;
    this.upload = new EventTarget();
    this._text = "";
    /** @type {string | null} */
    this._type = null;
    /** @type {string | null} */
    this._mime = null;
    this._method = "";
    this._url = "";
    this._async = true;
    this._sent = false;
    this._aborted = false;
    for (const type of EVENTS) handlerProperty(this, `on${type}`, type);
  }
  get responseText() {
    if (this.responseType !== "" && this.responseType !== "text") {
      throw new DOMException("responseText needs responseType '' or 'text'", "InvalidStateError");
    }
    return this._text;
  }
  get responseXML() {
    return this.responseType === "document" ? this.response : null;
  }
  /** @param {string} method @param {string | URL} url @param {boolean} [async] */
  open(method, url, async) {
    this._method = String(method).toUpperCase();
    this._url = String(url);
    this._async = async !== false;
    this._sent = false;
    this._aborted = false;
    this.status = 0;
    this.statusText = "";
    this.response = this.responseType === "" || this.responseType === "text" ? "" : null;
    this._text = "";
    this._type = null;
    this._change(1);
  }
  setRequestHeader() {}
  /** @param {string} type */
  overrideMimeType(type) {
    this._mime = String(type);
  }
  /** @param {string} name */
  getResponseHeader(name) {
    return String(name).toLowerCase() === "content-type" && this.readyState >= 2 ? this._type : null;
  }
  getAllResponseHeaders() {
    return this._type && this.readyState >= 2 ? `content-type: ${this._type}\r\n` : "";
  }
  abort() {
    if (this._sent && this.readyState < 4) {
      this._aborted = true;
      this._change(4);
      this._fire("abort");
      this._fire("loadend");
    }
    this.readyState = 0;
  }
  _begin() {
    if (this.readyState !== 1 || this._sent) throw new DOMException("send() needs open() first", "InvalidStateError");
    this._sent = true;
    this._fire("loadstart");
  }
  /** `work` now (a synchronous request) or in a later task, unless aborted by then. @param {() => void} work */
  _later(work) {
    if (this._async) setTimeout(() => this._aborted || work(), 0);
    else work();
  }
  /** @param {string} path @param {BundleFile | undefined} file */
  _readFile(path, file) {
    if (this._method !== "GET" && this._method !== "HEAD") {
      this._later(() => this._answer(405, "Method Not Allowed", "text/plain", "a workspace file can only be read"));
      return;
    }
    this.responseURL = keyOf(path);
    if (file) this._later(() => this._answer(200, "OK", file.type, file.data));
    else this._later(() => this._answer(404, "Not Found", "text/plain", `not found: ${path}`));
  }
  /** @param {typeof fetch} realFetch @param {string} url */
  _fetchLocal(realFetch, url) {
    realFetch(url)
      .then((r) =>
        r.arrayBuffer().then((buffer) => {
          if (!this._aborted)
            this._answer(r.status, r.statusText, r.headers.get("content-type"), new Uint8Array(buffer));
        }),
      )
      .catch(() => this._aborted || this._fail());
  }
  /** A synchronous read of a blob: or data: URL, as text. @param {typeof XMLHttpRequest} Real @param {string} url */
  _readLocalNow(Real, url) {
    const real = new Real();
    real.open("GET", url, false);
    real.send();
    this._answer(real.status, real.statusText, real.getResponseHeader("content-type"), real.responseText);
  }
  /** @param {number} status @param {string} statusText @param {string | null} type @param {string | Uint8Array} data */
  _answer(status, statusText, type, data) {
    this.status = status;
    this.statusText = statusText;
    const kind = this._mime || type || "application/octet-stream";
    this._type = kind;
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    this._text = typeof data === "string" ? data : new TextDecoder().decode(data);
    this._change(2);
    this._change(3);
    this.response = this._responseOf(bytes, kind);
    this._fire("progress", bytes.length);
    this._change(4);
    this._fire("load", bytes.length);
    this._fire("loadend", bytes.length);
  }
  /** The `response` for the `responseType` asked for. @param {Uint8Array} bytes @param {string} type */
  _responseOf(bytes, type) {
    const kind = this.responseType;
    if (this._method === "HEAD") return kind === "" || kind === "text" ? "" : null;
    if (kind === "json") {
      try {
        return JSON.parse(this._text);
      } catch {
        return null;
      }
    }
    if (kind === "arraybuffer") return bytes.slice().buffer;
    if (kind === "blob") return new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)], { type });
    if (kind === "document") {
      return new DOMParser().parseFromString(this._text, /xml/.test(type) ? "application/xml" : "text/html");
    }
    return this._text;
  }
  _fail() {
    this.status = 0;
    this.response = null;
    this._change(4);
    this._fire("error");
    this._fire("loadend");
  }
  /** @param {number} state */
  _change(state) {
    this.readyState = state;
    this._fire("readystatechange");
  }
  /** @param {string} type @param {number} [size] */
  _fire(type, size) {
    const n = size || 0;
    const progress = type !== "readystatechange";
    this.dispatchEvent(
      progress ? new ProgressEvent(type, { lengthComputable: n > 0, loaded: n, total: n }) : new Event(type),
    );
  }
}

/**
 * @param {Record<string, BundleFile>} files the bundle's files by workspace path
 * @param {string} entry the page's workspace path
 * @param {typeof fetch} realFetch
 * @param {Post} post
 * @param {NoteRequest} note tells the app of each request and its status
 */
export function installXhr(files, entry, realFetch, post, note) {
  const Real = window.XMLHttpRequest;
  /** What a request the page sends gets: from here on, a shim of its own. */
  class XMLHttpRequest extends PageRequest {
    send() {
      this._begin();
      this.addEventListener("loadend", () => note(this._method, this._url, this.status), { once: true });
      const target = targetOf(this._url, entry, location.href);
      if (target.path) this._readFile(target.path, files[target.path]);
      else if (target.local && this._async) this._fetchLocal(realFetch, target.local);
      else if (target.local) this._readLocalNow(Real, target.local);
      else {
        post("error", `Blocked: XMLHttpRequest(${this._url}): the preview has no network`);
        this._later(() => this._fail());
        if (!this._async) throw new DOMException("the preview has no network", "NetworkError");
      }
    }
  }
  STATES.forEach((name, value) => {
    Object.defineProperty(XMLHttpRequest, name, { value });
    Object.defineProperty(XMLHttpRequest.prototype, name, { value });
  });
  /** @type {{XMLHttpRequest: unknown}} */ (/** @type {unknown} */ (window)).XMLHttpRequest = XMLHttpRequest;
}
