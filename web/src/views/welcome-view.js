// The first screen of an empty chat: what AgentLite is, which model it talks to (with "Connect a model"),
// one-click examples that the demo model really runs (its own scenario list, asked from the worker), and
// where files live. It shows whenever the active chat has no messages, so it goes once a conversation
// starts and comes back in a new tab: it watches the message lists instead of being told.
import { el } from "./dom.js";
import { modelKind } from "../settings/settings.js";
import { icon } from "./icons.js";

const ABOUT =
  "AgentLite is an AI agent that works on files right here in your browser: it reads, writes and runs code " +
  "in a sandbox, and talks to no one but the model you choose.";
const FILES =
  "Your files live in this browser's storage, not on a server. Every change — the agent's or yours — is " +
  "recorded, so anything can be undone from a file's history or with “Restore files to before this turn”.";

/** A demo scenario as `demo.examples` lists it. @typedef {{prompt: string, detail: string}} Example */

/** Who the settings talk to, in words: the demo model, or the model at the endpoint's host.
 * @param {{base_url?: string, model?: string} | null | undefined} settings */
export function describeModel(settings) {
  const base = (settings?.base_url || "").trim();
  const model = (settings?.model || "").trim();
  const kind = modelKind(settings);
  if (kind === "demo") return { demo: true, text: "the built-in demo model (offline, no key needed)" };
  if (kind === "in-page") return { demo: false, text: "the model running in this browser" };
  let host = base;
  try {
    host = new URL(base).host;
  } catch {
    // shown as typed
  }
  return { demo: false, text: `${model || "the default model"} at ${host}` };
}

/** `loadExamples()` resolves to [{prompt, detail}]; `onExample(prompt)` sends it; `onConnect()` opens
 * the settings; `onLocal()` the dialog of the model in the page.
 * @param {HTMLElement} messages
 * @param {{loadExamples: () => Promise<unknown>, onExample: (prompt: string) => unknown, onConnect: () => unknown,
 *   onLocal: () => unknown}} actions */
export function createWelcomeView(messages, { loadExamples, onExample, onConnect, onLocal }) {
  const panel = el("section", "welcome");
  panel.dataset.testid = "welcome";
  panel.setAttribute("aria-label", "Welcome");
  const title = el("h2", "welcome-title", "Welcome to AgentLite");
  const model = el("p", "welcome-model");
  const modelText = el("span");
  const connect = el("button", "welcome-connect", "Connect a model");
  Object.assign(connect, { type: "button" });
  connect.dataset.testid = "connect-model";
  connect.addEventListener("click", () => onConnect());
  const local = el("button", "welcome-connect", "Run a model in this browser");
  Object.assign(local, { type: "button" });
  local.dataset.testid = "local-model-open";
  local.addEventListener("click", () => onLocal());
  model.append(icon("model"), modelText, connect, local);
  const list = el("ul", "welcome-examples");
  list.setAttribute("aria-label", "Examples to try");
  panel.append(
    title,
    el("p", "welcome-about", ABOUT),
    model,
    el("h3", "", "Try"),
    list,
    el("p", "welcome-files", FILES),
  );
  messages.prepend(panel);

  /** @param {Example} example */
  function example({ prompt, detail }) {
    const item = el("li");
    const button = el("button", "welcome-example");
    Object.assign(button, { type: "button" });
    button.dataset.testid = "welcome-example";
    button.dataset.prompt = prompt;
    button.append(el("span", "welcome-prompt", prompt), el("span", "welcome-detail", detail));
    button.addEventListener("click", () => onExample(prompt));
    item.append(button);
    return item;
  }

  function update() {
    const active = messages.querySelector(".message-list:not([hidden])");
    const hidden = !active || active.childElementCount > 0;
    if (panel.hidden !== hidden) panel.hidden = hidden; // an unchanged write would wake the observer again
  }

  loadExamples().then(
    (found) => list.replaceChildren(.../** @type {Example[]} */ (found).map(example)),
    (err) => console.warn("agentlite: examples", err),
  );
  new MutationObserver(update).observe(messages, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["hidden"],
  });
  update();

  return {
    /** Name the model the settings talk to. */
    /** @param {Parameters<typeof describeModel>[0]} settings */
    model(settings) {
      const { demo, text } = describeModel(settings);
      modelText.textContent = `Talking to ${text}.`;
      connect.textContent = demo ? "Connect a model" : "Change the model";
    },
  };
}
