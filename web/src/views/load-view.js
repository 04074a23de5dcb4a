// Start-up: the progress bar while the worker loads, then `data-state` ready or failed (with the
// phase that failed and why — never a silent hang).

const PHASE_LABEL = {
  runtime: "Starting Python (Pyodide)…",
  packages: "Loading packages…",
  storage: "Opening the workspace…",
  agent: "Starting the agent…",
  ready: "Ready",
};

export function createLoadView(root) {
  const bar = root.querySelector("[data-testid=load-progress]");
  const fill = bar.querySelector(".load-bar");
  const label = bar.querySelector(".load-label");
  const status = root.querySelector("#status");

  return {
    phase({ phase, progress }) {
      const percent = Math.round((progress || 0) * 100);
      fill.style.width = `${percent}%`;
      bar.setAttribute("aria-valuenow", String(percent));
      label.textContent = PHASE_LABEL[phase] || phase;
      status.textContent = label.textContent;
    },
    ready() {
      root.dataset.state = "ready";
      bar.hidden = true;
      status.textContent = "Ready";
    },
    failed({ phase, message }) {
      root.dataset.state = "failed";
      root.dataset.failedPhase = phase;
      bar.classList.add("failed");
      label.textContent = `Failed while loading (${phase}): ${message}`;
      status.textContent = `Failed (${phase})`;
    },
  };
}
