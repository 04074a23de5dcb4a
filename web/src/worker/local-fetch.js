// The agent worker's side of the model in the page (web/src/local-model/bridge.js): `localFetch(url, init)`
// answers a `local:` request like `fetch` would, with a Response whose body streams the page's answer, so
// Python's FetchTransport reads it unchanged (py/agentlite/browser/fetch_transport.py, LocalTransport).
// Aborting `init.signal` (the user stopped) tells the page to stop the engine.
const LOCAL = "local:";
let port = null;
let nextId = 1;
const open = new Map(); // id -> {resolve, stream controller}

/** The port the page handed over; requests before it came get a 503. */
export function adoptPort(given) {
  port = given;
  port.onmessage = ({ data }) => receive(data);
}

function receive({ id, status, text, end, failed }) {
  const request = open.get(id);
  if (!request) return;
  if (status !== undefined) request.resolve(respond(status, request.body));
  if (text) request.controller.enqueue(new TextEncoder().encode(text));
  if (failed) request.controller.error(new TypeError(`the model in this browser failed: ${failed}`));
  if (end) request.controller.close();
  if (end || failed) open.delete(id);
}

function respond(status, body) {
  return new Response(body, {
    status,
    headers: { "content-type": status === 200 ? "text/event-stream" : "application/json" },
  });
}

/** @param {string} url @param {{method?: string, body?: string, signal?: AbortSignal}} init */
export function localFetch(url, init = {}) {
  if (!port) {
    const error = { message: "the page has not connected the model in this browser yet", type: "local_model_error" };
    return Promise.resolve(respond(503, JSON.stringify({ error })));
  }
  const id = nextId++;
  const path = url.slice(LOCAL.length).replace(/^\/+/, "");
  return new Promise((resolve, reject) => {
    const request = { resolve, controller: null, body: null };
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
    port.postMessage({ id, path, method: init.method || "GET", body: init.body ?? null });
  });
}

function stop(id) {
  if (!open.delete(id)) return;
  port?.postMessage({ id, cancel: true });
}
