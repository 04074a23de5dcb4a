// Settings: defaults, what is remembered on this device, and the URL parameters that set them.
// The API key is kept in memory unless the user opts in to "remember on this device"; a URL never
// carries it. A remembered key is bound to the origin of the base URL it was saved with, so a link that
// sets another `base_url` cannot make the page send the key to that host. A link whose `base_url` is not
// the saved endpoint is not applied until the user agrees (`linkedEndpoint`, views/endpoint-question.js).
// Dialects, approval kinds and the bounds of numbers come from limits.json, the page's copy
// of what the agent checks too (py/agentlite/limits.py; a unit test keeps the two equal). `vision` says
// whether the model takes images (auto: by its name, py/agentlite/profiles/vision.py); a link's `vision` goes with
// its endpoint like its model and dialect.

import shared from "../limits.json";
import { DEMO_MODEL, LOCAL_BASE } from "../agent/common/protocol.js";

const STORE = "agentlite.settings";
const KEY_STORE = "agentlite.apiKey";
const KEY_ORIGIN_STORE = "agentlite.apiKeyOrigin";
export const DIALECTS = shared.dialects;
export const APPROVAL_KINDS = shared.approval_kinds;
export const VISION_CHOICES = ["auto", "yes", "no"];
// How an agent turn's changes land: at once, or on the chat's stage until the user keeps them (docs/review.md).
export const CHANGES_CHOICES = ["apply", "review"];
/** @type {(keyof UrlSettings)[]} */
const URL_KEYS = ["base_url", "model", "dialect", "vision"];
// The model in the page (docs/local-model.md): `model=local` selects it; its requests never leave the page.
export { LOCAL_BASE };

/** The kind of model `settings` name, by the agent's own rule (`py/agentlite/profiles/choice.py`, whose
 * names the page reads generated): the page's one test of a base URL or a model's name.
 * @param {{base_url?: string, model?: string} | null | undefined} settings
 * @returns {"demo" | "in-page" | "remote"} */
export function modelKind(settings) {
  const base = (settings?.base_url || "").trim();
  if (!base || (settings?.model || "").trim() === DEMO_MODEL) return "demo";
  return base === LOCAL_BASE ? "in-page" : "remote";
}
export const BOUNDS = shared.bounds; // {name: {low, high, default}} of the number settings

/**
 * The page's settings, as the settings view edits them and the worker is configured with.
 * @typedef {object} Settings
 * @property {string} base_url
 * @property {string} api_key
 * @property {string} model
 * @property {string} dialect
 * @property {string} vision
 * @property {boolean} remember_key
 * @property {number} max_rounds
 * @property {number} context_window
 * @property {number} eval_timeout_s
 * @property {string[]} auto_approve
 * @property {string} embedding_model
 * @property {string} changes
 * @property {string | null} withheld_key_origin
 */
/** What a link may set. @typedef {Partial<Pick<Settings, "base_url" | "model" | "dialect" | "vision" | "changes">>} UrlSettings */
/** What was stored, with the origin a remembered key was saved for.
 * @typedef {Partial<Settings> & {key_origin?: string}} StoredSettings */
/** @typedef {keyof typeof BOUNDS} NumberSetting */

/** @returns {Settings} */
export function defaults() {
  return {
    base_url: "",
    api_key: "",
    model: "demo",
    dialect: "auto",
    vision: "auto", // whether the model takes images: auto (by its name), yes, no
    remember_key: false,
    max_rounds: BOUNDS.max_rounds.default,
    context_window: BOUNDS.context_window.default, // 0: what the engine assumes for an unknown model
    eval_timeout_s: BOUNDS.eval_timeout_s.default,
    auto_approve: [], // approval kinds that do not ask (APPROVAL_KINDS)
    embedding_model: "", // empty: memory search without embeddings
    changes: "apply", // "review": an agent turn's changes wait on the chat's stage (CHANGES_CHOICES)
    withheld_key_origin: null, // not stored: the origin ("" for none) of a remembered key not used here
  };
}

/** The scheme, host and port of a URL ("" for none or a malformed one). @param {string | null | undefined} url */
export function originOf(url) {
  try {
    return url ? new URL(url).origin : "";
  } catch {
    return "";
  }
}

/** @param {Storage} storage @returns {StoredSettings} */
function readStored(storage) {
  try {
    const saved = JSON.parse(storage.getItem(STORE) || "{}");
    delete saved.api_key; // only ever under KEY_STORE, and only when remembered
    delete saved.withheld_key_origin;
    const key = rememberedSecret(storage, KEY_STORE);
    if (!key) return { ...saved, remember_key: false };
    // A key remembered before keys were bound to an origin belongs to the base URL saved with it.
    const keyOrigin = storage.getItem(KEY_ORIGIN_STORE) ?? originOf(saved.base_url);
    return { ...saved, api_key: key, remember_key: true, key_origin: keyOrigin };
  } catch {
    return {};
  }
}

/** Withhold a remembered key from any other origin than the one it was saved for.
 * @param {StoredSettings} settings @returns {Partial<Settings>} */
function bindKey(settings) {
  const { key_origin: keyOrigin, ...rest } = settings;
  if (keyOrigin === undefined || keyOrigin === originOf(rest.base_url)) return rest;
  return { ...rest, api_key: "", remember_key: false, withheld_key_origin: keyOrigin };
}

/** @param {string} search */
function fromUrl(search) {
  const params = new URLSearchParams(search);
  /** @type {UrlSettings} */
  const found = {};
  for (const key of URL_KEYS) if (params.has(key)) found[key] = /** @type {string} */ (params.get(key));
  if (found.dialect && !DIALECTS.includes(found.dialect)) delete found.dialect;
  if (found.vision && !VISION_CHOICES.includes(found.vision)) delete found.vision;
  if (found.base_url && !found.model) found.model = "";
  const changes = params.get("changes") ?? "";
  if (CHANGES_CHOICES.includes(changes)) found.changes = changes; // not the endpoint's: kept by withoutEndpoint
  return found;
}

/** @param {string} a @param {string} b */
const sameUrl = (a, b) => a.trim().replace(/\/+$/, "") === b.trim().replace(/\/+$/, "");

/** The base URL a link names when the user saved another endpoint: the page asks before using it. With
 * no saved endpoint the link applies at once (a link that sets up a first endpoint); the page then had
 * no endpoint of the user's to send anything to instead.
 * @param {Storage} storage @param {string} search */
export function linkedEndpoint(storage, search) {
  const linked = fromUrl(search).base_url;
  const saved = readStored(storage).base_url;
  if (!linked || typeof saved !== "string" || !saved || sameUrl(linked, saved)) return null;
  return { linked, saved };
}

/** `search` without the parameters that set the endpoint (the link's model and dialect go with its URL).
 * @param {string} search */
export function withoutEndpoint(search) {
  const params = new URLSearchParams(search);
  for (const key of URL_KEYS) params.delete(key);
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/** Numbers within their limits, known approval kinds only: stored values may be old or edited, and
 * numbers may come as text (the settings form).
 * @param {Omit<Partial<Settings>, NumberSetting> & {[K in NumberSetting]?: number | string}} settings
 * @returns {Settings} */
export function normalize(settings) {
  const clean = { ...defaults(), ...settings };
  for (const [name, { low, high }] of /** @type {[NumberSetting, {low: number, high: number}][]} */ (
    Object.entries(BOUNDS)
  )) {
    const value = Math.round(Number(clean[name]));
    clean[name] = Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : defaults()[name];
  }
  clean.auto_approve = (Array.isArray(clean.auto_approve) ? clean.auto_approve : []).filter((kind) =>
    APPROVAL_KINDS.includes(kind),
  );
  if (!DIALECTS.includes(clean.dialect)) clean.dialect = "auto";
  if (!VISION_CHOICES.includes(clean.vision)) clean.vision = "auto";
  if (!CHANGES_CHOICES.includes(clean.changes)) clean.changes = "apply";
  clean.embedding_model = String(clean.embedding_model || "").trim();
  return /** @type {Settings} */ (clean); // every number made one above
}

/** The settings: what is stored, then the open project's own (docs/projects.md), then the URL's.
 * @param {Storage} storage @param {string} search @param {Partial<Settings>} [project] @returns {Settings} */
export function load(storage, search, project = {}) {
  const settings = normalize(bindKey({ ...readStored(storage), ...project, ...fromUrl(search) }));
  if (!settings.base_url && !settings.model) settings.model = "demo";
  if (settings.model === "local") Object.assign(settings, { base_url: LOCAL_BASE, api_key: "", remember_key: false });
  return settings;
}

/** Remember the settings; the key only when the user opted in, bound to its base URL's origin. A key
 * withheld from this page stays remembered for its own origin until the user forgets it.
 * @param {Storage} storage @param {Settings} settings */
export function save(storage, settings) {
  const { api_key, remember_key, withheld_key_origin, ...rest } = settings;
  storage.setItem(STORE, JSON.stringify(rest));
  if (remember_key && api_key) {
    rememberSecret(storage, KEY_STORE, api_key);
    storage.setItem(KEY_ORIGIN_STORE, originOf(rest.base_url));
  } else if (withheld_key_origin == null) {
    rememberSecret(storage, KEY_STORE, "");
    storage.removeItem(KEY_ORIGIN_STORE);
  }
}

/** A secret (the model key, remote servers' tokens) on this device: written only when the user opted in
 * ("remember on this device") and `value` is not empty; otherwise any remembered copy is removed.
 * @param {Storage} storage @param {string} name @param {string} value */
export function rememberSecret(storage, name, value) {
  if (value) storage.setItem(name, value);
  else storage.removeItem(name);
}

/** A secret remembered on this device ("" for none). @param {Storage} storage @param {string} name */
export function rememberedSecret(storage, name) {
  return storage.getItem(name) || "";
}
