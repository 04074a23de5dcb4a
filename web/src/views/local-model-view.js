// "Run a model in this browser": a dialog to choose a GGUF file (or a URL to one), with the model's state
// (`data-state` none | loading | ready | error, `data-name`), its facts and size, load progress in bytes,
// the live speed while it answers, and Remove. The buttons that open it sit in the settings and on the
// first screen (`openButton`). docs/local-model.md.
import { button, el } from "./dom.js";

/** @import { ModelFacts } from "../local-model/gguf-header.js" */
/** @import { LocalModel } from "../local-model/local-model.js" */
/** @import { ResultTimings } from "@wllama/wllama" */

const FIRST_LINE =
  "Runs a GGUF model (llama.cpp in WebAssembly) inside this page: no server, no key, and nothing leaves this " +
  "browser. Small models (up to about 1–2 GB) fit a tab's memory; they are slow on a CPU.";

/** `local` is the LocalModel; `onUse()` makes it the chat's model.
 * @param {HTMLElement} root @param {LocalModel} local @param {{onUse: () => void}} actions */
export function createLocalModelView(root, local, { onUse }) {
  const dialog = el("dialog", "local-model-dialog", null, { "aria-labelledby": "local-model-title" });
  const panel = el("section", "local-model", null, { testid: "local-model", "aria-live": "polite" });
  const status = el("p", "local-model-status");
  const facts = el("p", "local-model-facts");
  const speed = el("p", "local-model-speed");
  const input = el("input", "", null, { type: "file", accept: ".gguf", testid: "local-model-input" });
  const url = el("input", "", null, { type: "url", testid: "local-model-url", placeholder: "https://…/model.gguf" });
  const fromUrl = button("Load from URL", "local-model-url-load", () => url.value && local.fromUrl(url.value));
  const use = button("Use this model", "local-model-use", () => onUse());
  const remove = button("Remove", "local-model-remove", () => local.remove());
  const close = button("Close", "local-model-close", () => dialog.close());
  const fileLabel = el("label", "local-model-file", "Model file (.gguf) ");
  fileLabel.append(input);
  const urlLabel = el("label", "local-model-url-label", "or its URL ");
  urlLabel.append(url, fromUrl);
  panel.append(status, facts, speed, fileLabel, urlLabel, el("div", "local-model-actions"));
  panel.lastElementChild?.append(use, remove, close);
  dialog.append(
    el("h2", "", "Run a model in this browser", { id: "local-model-title" }),
    el("p", "", FIRST_LINE),
    panel,
  );
  root.append(dialog);
  input.addEventListener("change", () => input.files?.[0] && local.fromFile(input.files[0]));

  function render() {
    panel.dataset.state = local.state;
    panel.dataset.name = local.facts?.name || "";
    const what = local.facts ? `${local.facts.name}` : "No model in this browser yet.";
    status.textContent = local.detail
      ? `${what} — ${local.detail}`
      : `${what}${local.state === "ready" ? " — ready" : ""}`;
    facts.textContent = local.facts ? describeFacts(local.facts) : "";
    remove.disabled = !local.facts;
    use.disabled = local.state !== "ready";
  }
  local.on(render);
  render();

  return {
    open: () => dialog.open || dialog.showModal(),
    /** The live answer speed in tokens per second; with `timings`, the figures of the answer just over
     * (`data-prompt` = "new+cached" prompt tokens).
     * @param {number} perSecond @param {ResultTimings} [timings] */
    speed: (perSecond, timings) => {
      speed.textContent = timings ? answerFigures(timings) : `${perSecond.toFixed(1)} tokens/s`;
      if (timings) speed.dataset.prompt = `${timings.prompt_n || 0}+${timings.cache_n || 0}`;
    },
  };
}

/** What the engine did for the last answer: the prompt it read (and took from its cache), what it wrote.
 * @param {ResultTimings} t */
export function answerFigures(t) {
  const rate = (/** @type {number} */ n) => `${(n || 0).toFixed(1)} tokens/s`;
  return (
    `Last answer: read ${t.prompt_n || 0} new prompt tokens (${t.cache_n || 0} from the cache) at ` +
    `${rate(t.prompt_per_second)}, wrote ${t.predicted_n || 0} at ${rate(t.predicted_per_second)}.`
  );
}

/** "llama · 135M · Q4_1 · 8192-token window · 98.4 MB" */
/** @param {ModelFacts} facts */
export function describeFacts(facts) {
  const parts = [facts.architecture, facts.parameters, facts.quantisation];
  if (facts.contextLength) parts.push(`${facts.contextLength}-token window`);
  if (facts.size) parts.push(`${(facts.size / 1e6).toFixed(1)} MB`);
  if (!facts.tools) parts.push("no tool template (tools through the JSON dialect)");
  return parts.filter(Boolean).join(" · ");
}

/** A "Run a model in this browser" button (test id `local-model-open`). @param {() => void} onOpen */
export function openButton(onOpen) {
  return button("Run a model in this browser", "local-model-open", onOpen);
}
