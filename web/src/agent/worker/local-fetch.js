// The agent worker's side of the model in the page (web/src/local-model/bridge.js): `localFetch(url, init)`
// answers a `local:` request like `fetch` would, with a Response whose body streams the page's answer, so
// Python's FetchTransport reads it unchanged (py/agentlite/browser/fetch_transport.py, LocalTransport).
// Aborting `init.signal` (the user stopped) tells the page to stop the engine.
/** A request waiting for its answer: `resolve` settles localFetch's promise with the Response whose `body`
 * streams what `controller` is given.
 * @typedef {{resolve: (response: Response) => void, controller: ReadableStreamDefaultController<Uint8Array>,
 *   body: ReadableStream<Uint8Array>}} OpenRequest */
/** @type {MessagePort | null} */
let port = null;
let nextId = 1;
/** @type {Map<number, OpenRequest>} */
const open = new Map(); // id -> {resolve, stream controller}

/** The port the page handed over; requests before it came get a 503. @param {MessagePort} given */
export function adoptPort(given) {
  port = given;
  port.onmessage = (/** @type {MessageEvent<LocalPortAnswer>} */ { data }) => receive(data);
}

/** @param {LocalPortAnswer} answer */
function receive({ id, status, text, end, failed }) {
  const request = open.get(id);
  if (!request) return;
  if (status !== undefined) request.resolve(respond(status, request.body));
  if (text) request.controller.enqueue(new TextEncoder().encode(text));
  if (failed) request.controller.error(new TypeError(`the model in this browser failed: ${failed}`));
  if (end) request.controller.close();
  if (end || failed) open.delete(id);
}

/** @param {number} status @param {BodyInit | null} body */
function respond(status, body) {
  return new Response(body, {
    status,
    headers: { "content-type": status === 200 ? "text/event-stream" : "application/json" },
  });
}

/** @param {string} url @param {{method?: string, body?: string, signal?: AbortSignal}} init
 * @returns {Promise<Response>} */
export function localFetch(url, init = {}) {
  if (!port) {
    const error = { message: "the page has not connected the model in this browser yet", type: "local_model_error" };
    return Promise.resolve(respond(503, JSON.stringify({ error })));
  }
  const id = nextId++;
  const path = url.slice(url.indexOf(":") + 1).replace(/^\/+/, ""); // what follows `local:`
  return new Promise((resolve, reject) => {
    // Both filled in at once below: the stream's `start` runs inside its constructor.
    const request = /** @type {OpenRequest} */ (/** @type {unknown} */ ({ resolve, controller: null, body: null }));
    request.body = new ReadableStream({
      start: (controller) => {
        request.controller = controller;
      },
      cancel: () => stop(id),
    });
    open.set(id, request);
    init.signal?.addEventListener("abort", () => {
      if (!open.has(id)) return; // the answer had ended
      stop(id);
      const aborted = new DOMException("the request was stopped", "AbortError");
      reject(aborted);
      request.controller.error(aborted);
    });
    /** @type {MessagePort} */ (port).postMessage({ id, path, method: init.method || "GET", body: init.body ?? null });
  });
}

/** @param {number} id */
function stop(id) {
  if (!open.delete(id)) return;
  port?.postMessage({ id, cancel: true });
}
