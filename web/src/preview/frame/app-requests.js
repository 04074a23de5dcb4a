// The app's requests over the port once the page runs: `inspect` (the page's title and visible text) and
// `run-module`, a module the app hands over when it needs one (the screenshot, docs/preview.md): imported
// from a blob: URL of its text (allowed by both policies), its `run(args)` answered under the same id.
// Nothing is loaded into the frame until asked. It runs as the page's own code does, with no more reach.
// A module is imported once per page and kept: the agent's hands (hands.js) keep their refs in it.

const TEXT_LIMIT = 8000;
const makeUrl = URL.createObjectURL.bind(URL); // taken before the page runs: the page cannot swap it
/** @type {Map<string, Promise<{run: (args: unknown) => unknown}>>} the module of each text handed over */
const modules = new Map();

/**
 * @typedef {{type?: string, id?: number, code?: string, args?: unknown}} AppRequest
 */

/** @param {MessagePort} port */
export function installAppRequests(port) {
  port.onmessage = (event) => {
    const message = /** @type {AppRequest} */ (event.data || {});
    if (message.type === "inspect") {
      port.postMessage({ type: "inspected", id: message.id, title: document.title, text: visibleText() });
    } else if (message.type === "run-module") runModule(message, port);
  };
}

/**
 * @param {AppRequest} message
 * @param {MessagePort} port
 */
function runModule(message, port) {
  /** @param {{result?: unknown, error?: string}} reply */
  const answer = (reply) => {
    try {
      port.postMessage({ ...reply, type: "module-result", id: message.id });
    } catch (e) {
      port.postMessage({ type: "module-result", id: message.id, error: String(e) });
    }
  };
  const code = String(message.code);
  if (!modules.has(code)) modules.set(code, import(makeUrl(new Blob([code], { type: "text/javascript" }))));
  /** @type {Promise<{run: (args: unknown) => unknown}>} */ (modules.get(code))
    .then((module) => module.run(message.args))
    .then(
      (result) => answer({ result }),
      (err) => answer({ error: String(err?.message || err) }),
    );
}

function visibleText() {
  const body = document.body;
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (rendered), as the model sees it
  return body ? String(body.innerText || body.textContent || "").slice(0, TEXT_LIMIT) : "";
}
