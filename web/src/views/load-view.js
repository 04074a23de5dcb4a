// Start-up: the progress bar while the worker loads, then `data-state` ready or failed (with the
// phase that failed and why — never a silent hang). The bar also says which start path the worker
// took (`data-path` on the bar: snapshot, fresh, fallback or plain; docs/startup.md). A restart of the
// agent worker (its watchdog) shows the bar again, `data-state` back to loading until the new one is ready.

/** A start-up phase the worker reports: how far it got, the start path, and why a snapshot was not used.
 * @typedef {{phase: string, progress?: number, path?: string | null, detail?: string}} PhaseMessage */

/** @type {Record<string, string | undefined>} */
const PHASE_LABEL = {
  runtime: "Starting Python (Pyodide)…",
  packages: "Loading packages…",
  storage: "Opening the workspace…",
  agent: "Starting the agent…",
  ready: "Ready",
};

// What the runtime phase says about the path taken; `detail` is why a snapshot was not used.
/** @type {Record<string, ((detail: string) => string) | undefined>} */
const PATH_NOTE = {
  snapshot: () => "from this browser's snapshot",
  fresh: () => "first start of this version; saving a snapshot for the next",
  fallback: (detail) => `normal start: ${detail}; saving a new snapshot`,
  plain: (detail) => `normal start: ${detail}`,
};

/** @param {PhaseMessage} message */
function labelFor({ phase, path, detail }) {
  const label = PHASE_LABEL[phase] || phase;
  const note = path && PATH_NOTE[path];
  return note ? `${label} (${note(detail || "")})` : label;
}

/** @param {Element} root the page (an HTML element: its dataset holds the state) */
export function createLoadView(root) {
  const bar = /** @type {HTMLElement} */ (root.querySelector("[data-testid=load-progress]"));
  const fill = /** @type {HTMLElement} */ (bar.querySelector(".load-bar"));
  const label = /** @type {HTMLElement} */ (bar.querySelector(".load-label"));
  const status = /** @type {HTMLElement} */ (root.querySelector("#status"));

  return {
    /** @param {PhaseMessage} message */
    phase(message) {
      const percent = Math.round((message.progress || 0) * 100);
      fill.style.width = `${percent}%`;
      bar.setAttribute("aria-valuenow", String(percent));
      if (message.path) bar.dataset.path = message.path;
      label.textContent = labelFor(message);
      status.textContent = label.textContent;
    },
    ready() {
      /** @type {HTMLElement} */ (root).dataset.state = "ready";
      bar.hidden = true;
      status.textContent = "Ready";
    },
    /** The agent worker stopped answering and a new one starts: loading again, until its `ready`. */
    restarting() {
      /** @type {HTMLElement} */ (root).dataset.state = "loading";
      bar.hidden = false;
      fill.style.width = "0%";
      label.textContent = "Restarting the agent…";
      status.textContent = label.textContent;
    },
    /** @param {{phase: string, message: string}} failure */
    failed({ phase, message }) {
      /** @type {HTMLElement} */ (root).dataset.state = "failed";
      /** @type {HTMLElement} */ (root).dataset.failedPhase = phase;
      bar.hidden = false; // also after ready: pydantic loads then (docs/startup.md)
      bar.classList.add("failed");
      label.textContent = `Failed while loading (${phase}): ${message}`;
      status.textContent = `Failed (${phase})`;
    },
  };
}
