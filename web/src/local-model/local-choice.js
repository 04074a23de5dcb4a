// Which model the chat uses, as the model in the page changes (docs/local-model.md): a model the user
// chose now becomes the chat's model once its engine is ready; removing the model the chat uses gives the
// chat back the demo model; a stored model the settings name is started on the page's start.
import { LOCAL_BASE, modelKind } from "../settings/settings.js";
import { LOCAL_MODEL_ID } from "./bridge.js";

/** @import { Settings } from "../settings/settings.js" */
/** @import { LocalModel } from "./local-model.js" */

const LOCAL_SETTINGS = { base_url: LOCAL_BASE, model: LOCAL_MODEL_ID, api_key: "", remember_key: false };

/** `settings` with the model in the page as the chat's model. @param {Settings} settings @returns {Settings} */
export function withLocalModel(settings) {
  return { ...settings, ...LOCAL_SETTINGS };
}

/** Whether `settings` name the model in the page. @param {Settings} settings */
export function usesLocalModel(settings) {
  return modelKind(settings) === "in-page";
}

/** Follow `local`'s state into the settings (`current()` reads them, `apply(next)` changes them), then
 * restore the model stored on an earlier visit.
 * @param {LocalModel} local @param {{current: () => Settings, apply: (next: Settings) => void}} settings */
export function followLocalModel(local, { current, apply }) {
  let chosen = false; // a model the user chose now becomes the chat's model once it is ready
  local.on(({ state, facts }) => {
    if (state === "loading") chosen = true;
    if (state === "ready" && chosen && !usesLocalModel(current())) apply(withLocalModel(current()));
    if (state === "none" && !facts && usesLocalModel(current())) apply({ ...current(), base_url: "", model: "demo" });
  });
  local.restore(usesLocalModel(current())).catch((err) => console.warn("agentlite: stored local model", err));
}
