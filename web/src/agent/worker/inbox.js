// The worker's inbox: page messages reach Python in the order they came, held back while Python is
// not ready, and from the first message of a turn on, while the tokenizer and the agent's deferred
// packages (pydantic and the tool modules, loaded after `ready`: docs/startup.md) load.
// The real tokenizer (tokens.js, a bundle of its own: 2.76 MB of ranks) is needed only to count a
// request, so it loads when the first message is sent, not on every start; that message and any after
// it wait for it, so the first request is already counted by the tokenizer. The promise is left on
// the worker's global as a test hook (only the app's own code runs in this worker).
import { MSG } from "../common/protocol.js";

/** @import { PyodideAPI } from "pyodide" */
/**
 * A message from the page, as far as the inbox looks into it.
 * @typedef {{ type: string, method?: string }} PageMessage
 */
/**
 * The agent's service, a Python object (agentlite.browser.host) seen through Pyodide.
 * @typedef {{ handle: (json: string) => void, packages_loaded: () => void }} AgentService
 */

// Calls that run or steer a turn: the tools (pydantic) and the tokenizer must be loaded before Python sees them.
/** @type {Set<string | undefined>} */
const TURN_CALLS = new Set(["chats.send", "chats.approve", "chats.decide"]);
/** @param {PageMessage} message */
export const isTurnCall = (message) => message.type === MSG.CALL && TURN_CALLS.has(message.method);

export class Inbox {
  constructor() {
    /** @type {PageMessage[]} */
    this.held = [];
    /** @type {AgentService | null} */
    this.service = null;
    /** @type {PyodideAPI | null} */
    this.pyodide = null;
    /** @type {Promise<unknown> | null} */
    this.deferred = null; // the deferred packages' promise
    /** @type {Promise<boolean> | null} */
    this.tokenizer = null; // the tokenizer's promise, once the first message was sent
  }

  /** Python is ready: deliver what was held; `deferred` settles when the deferred packages are in. */
  open(
    /** @type {AgentService} */ service,
    /** @type {PyodideAPI} */ pyodide,
    /** @type {Promise<unknown>} */ deferred,
  ) {
    this.service = service;
    this.pyodide = pyodide;
    this.deferred = deferred;
    this.flush();
  }

  receive(/** @type {PageMessage} */ message) {
    this.held.push(message);
    if (this.service) this.flush();
  }

  flush() {
    while (this.held.length) {
      const message = this.held[0];
      if (isTurnCall(message) && !this.tokenizer) this.prepareTurns();
      if (this.loading) return;
      this.held.shift();
      /** @type {AgentService} */ (this.service).handle(JSON.stringify(message));
    }
  }

  /** Loads the tokenizer and waits for it and the deferred packages; holds messages meanwhile. */
  prepareTurns() {
    /** @type {boolean} */
    this.loading = true;
    this.tokenizer = self.agentliteTokenizer = import("./worker-tokens.js")
      .then((module) => {
        /** @type {PyodideAPI} */ (this.pyodide).registerJsModule("agentlite_tokens", module);
        /** @type {PyodideAPI} */ (this.pyodide).pyimport("agentlite.browser.tokenizer").install();
        return true;
      })
      .catch((err) => {
        console.warn(`token counts stay estimates: the tokenizer did not load (${err.message})`);
        return false;
      });
    // A failed package load has already failed the page (worker.js): the turn then reports the error.
    Promise.allSettled([this.tokenizer, this.deferred]).finally(() => {
      this.loading = false;
      this.flush();
    });
  }
}
