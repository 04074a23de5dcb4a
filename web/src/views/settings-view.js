// The settings dialog: provider presets, endpoint, key, model (listed by the endpoint when it can),
// dialect, limits and approvals, and a connection test that says what is wrong and how to fix it. The
// key field is a password field; the key is never written anywhere else in the DOM.
import { PRESETS, corsFix, presetFor } from "../settings/presets.js";
import { BOUNDS, normalize, originOf } from "../settings/settings.js";

const TEXT_FIELDS = [
  "base_url",
  "api_key",
  "model",
  "embedding_model",
  "dialect",
  "vision",
  "changes",
  "max_rounds",
  "context_window",
  "eval_timeout_s",
];
/** The page's settings as this dialog reads them (settings.js owns them).
 * @typedef {{base_url: string, auto_approve: string[], remember_key?: boolean, withheld_key_origin?: string | null,
 *   [name: string]: unknown}} Settings */
/** What a connection test found (`connection.test`).
 * @typedef {{outcome: string, message?: string, models?: string[], tools?: boolean | null}} Diagnosis */

/** @type {Record<string, string | undefined>} */
const OUTCOME_TITLE = {
  ok: "Connected",
  unreachable: "Unreachable",
  cors: "Blocked by CORS",
  auth: "Key refused",
  model_not_found: "Model not found",
  no_model_list: "Connected, no model list",
  error: "Error",
};

/** @param {ParentNode} root
 * @param {{getSettings: () => Settings, onSave: (settings: Settings) => unknown, onForgetKey: () => unknown,
 *   testConnection: (settings: Settings) => Promise<Diagnosis>}} actions */
export function createSettingsView(root, { getSettings, onSave, onForgetKey, testConnection }) {
  const dialog = /** @type {HTMLDialogElement} */ (root.querySelector("dialog.settings"));
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
  /** A field of the form by name (an input; the selects are read and set through `value` alike). */
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  const preset = /** @type {HTMLSelectElement} */ (/** @type {Element} */ (field("preset")));
  const models = /** @type {HTMLDataListElement} */ (dialog.querySelector("#settings-models"));
  const result = /** @type {HTMLElement} */ (dialog.querySelector("[data-testid=settings-test-result]"));
  const keyNote = /** @type {HTMLElement} */ (dialog.querySelector("[data-testid=settings-key-note]"));
  /** @type {string | null} */
  let withheldKeyOrigin = null;
  let modelsAsked = 0; // only the newest model listing is shown

  preset.append(new Option("Custom endpoint", "custom"), ...PRESETS.map((p) => new Option(p.label, p.id)));
  for (const [name, { low, high }] of Object.entries(BOUNDS)) Object.assign(field(name), { min: low, max: high });

  /** @param {Settings} settings */
  function fill(settings) {
    for (const name of TEXT_FIELDS) field(name).value = /** @type {string} */ (settings[name] ?? "");
    field("remember_key").checked = Boolean(settings.remember_key);
    for (const box of form.querySelectorAll(/** @type {"input"} */ ("input[name=auto_approve]")))
      box.checked = settings.auto_approve.includes(box.value);
    preset.value = presetFor(settings.base_url)?.id || "custom";
    showKeyNote(settings);
    showResult(null);
  }

  /** Why the key field is empty although a key is remembered: it belongs to another endpoint. */
  /** @param {{base_url?: string, withheld_key_origin?: string | null}} settings */
  function showKeyNote(settings) {
    withheldKeyOrigin = settings.withheld_key_origin ?? null;
    keyNote.hidden = withheldKeyOrigin === null;
    if (keyNote.hidden) return keyNote.replaceChildren();
    const owner = withheldKeyOrigin || "the demo model (no base URL)";
    const here = originOf(settings.base_url) || "the demo model";
    keyNote.textContent =
      `The saved key belongs to ${owner}, so it is not sent to ${here}. ` +
      "Enter a key for this endpoint, or open AgentLite without base_url in its address to use the saved one.";
  }

  /** @returns {Settings} */
  function read() {
    return normalize({
      base_url: field("base_url").value.trim().replace(/\/+$/, ""),
      api_key: field("api_key").value,
      model: field("model").value.trim(),
      embedding_model: field("embedding_model").value,
      dialect: field("dialect").value,
      vision: field("vision").value,
      changes: field("changes").value,
      remember_key: field("remember_key").checked,
      max_rounds: field("max_rounds").value,
      context_window: field("context_window").value,
      eval_timeout_s: field("eval_timeout_s").value,
      auto_approve: [...form.querySelectorAll(/** @type {"input"} */ ("input[name=auto_approve]:checked"))].map(
        (box) => box.value,
      ),
      // a remembered key of another endpoint stays remembered unless a new key replaces it
      withheld_key_origin: field("api_key").value ? null : withheldKeyOrigin,
    });
  }

  /** The provider follows a URL that is a known provider's; another URL keeps the chosen provider, since
   * a local server (Ollama, vLLM, ...) may run on another host or port. */
  function followBaseUrl() {
    const known = presetFor(field("base_url").value);
    if (known) preset.value = known.id;
    else if (preset.value === "demo") preset.value = "custom";
  }

  function applyPreset() {
    const chosen = PRESETS.find((p) => p.id === preset.value);
    if (!chosen) return;
    field("base_url").value = chosen.base_url;
    field("model").value = chosen.model;
    field("api_key").placeholder = chosen.key ? "required by this provider; kept in memory only" : "not needed";
    showResult(null);
  }

  async function runTest() {
    const values = read();
    showResult({ outcome: "testing", message: "Testing…" });
    try {
      const diagnosis = await testConnection(values);
      modelsAsked++;
      listModels(diagnosis.models || []);
      showResult(diagnosis, values.base_url);
    } catch (err) {
      showResult({ outcome: "error", message: String(/** @type {Error} */ (err).message || err) });
    }
  }

  /** @param {string[]} names */
  function listModels(names) {
    models.replaceChildren(...names.map((name) => new Option(name, name)));
  }

  /** Offer the models the saved endpoint lists; a failure shows nothing until the user tests. */
  /** @param {Settings} settings */
  async function refreshModels(settings) {
    if (!settings.base_url) return listModels([]);
    const asked = ++modelsAsked;
    const diagnosis = await testConnection(settings).catch(() => null);
    if (asked === modelsAsked && diagnosis?.models?.length) listModels(diagnosis.models);
  }

  /** @param {Diagnosis | null} diagnosis @param {string} [baseUrl] */
  function showResult(diagnosis, baseUrl = "") {
    result.replaceChildren();
    result.dataset.outcome = diagnosis?.outcome || "";
    if (!diagnosis) return;
    const title = OUTCOME_TITLE[diagnosis.outcome];
    result.append(Object.assign(document.createElement("strong"), { textContent: title ? `${title}: ` : "" }));
    result.append(diagnosis.message || "");
    const extra = detail(diagnosis, baseUrl);
    if (extra)
      result.append(Object.assign(document.createElement("p"), { className: "connection-fix", textContent: extra }));
  }

  /** @param {Diagnosis} diagnosis @param {string} baseUrl */
  function detail(diagnosis, baseUrl) {
    if (diagnosis.outcome === "cors") return `Fix: ${corsFix(baseUrl, location.origin, preset.value)}`;
    if (diagnosis.outcome === "auth") return "Check the API key for this provider.";
    if (diagnosis.outcome === "model_not_found")
      return `Available: ${(diagnosis.models || []).slice(0, 12).join(", ")}`;
    if (diagnosis.outcome !== "ok" || diagnosis.tools == null) return "";
    return diagnosis.tools
      ? "The model calls tools natively; auto uses native tool calls."
      : "The model does not call tools natively; auto uses the JSON prompt protocol.";
  }

  /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=settings-open]")).addEventListener("click", () => {
    const settings = getSettings();
    fill(settings);
    dialog.showModal();
    refreshModels(settings);
  });
  preset.addEventListener("change", applyPreset);
  field("base_url").addEventListener("change", followBaseUrl);
  /** @type {HTMLButtonElement} */ (dialog.querySelector("[data-testid=settings-test]")).addEventListener(
    "click",
    runTest,
  );
  /** @type {HTMLButtonElement} */ (dialog.querySelector("[data-testid=settings-forget-key]")).addEventListener(
    "click",
    () => {
      field("api_key").value = "";
      field("remember_key").checked = false;
      showKeyNote({});
      onForgetKey();
    },
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSave(read());
    dialog.close();
  });
  /** @type {HTMLButtonElement} */ (form.querySelector("button[value=cancel]")).addEventListener("click", () =>
    dialog.close(),
  );

  fill(getSettings());
}
