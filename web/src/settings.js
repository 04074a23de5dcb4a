// Settings: defaults, what is remembered on this device, and the URL parameters that set them.
// The API key is kept in memory unless the user opts in to "remember on this device"; a URL never
// carries it.

const STORE = "agentlite.settings";
const KEY_STORE = "agentlite.apiKey";
export const DIALECTS = ["auto", "native", "json", "ndjson", "ndjson-text"];
export const APPROVAL_KINDS = ["delete", "overwrite", "shell", "js", "batch"];
const URL_KEYS = ["base_url", "model", "dialect"];
const LIMITS = { max_rounds: [1, 50], context_window: [0, 2_000_000], eval_timeout_s: [1, 300] };

export function defaults() {
  return {
    base_url: "",
    api_key: "",
    model: "demo",
    dialect: "auto",
    remember_key: false,
    max_rounds: 8,
    context_window: 0, // 0: what the engine assumes for an unknown model
    eval_timeout_s: 10,
    auto_approve: [], // approval kinds that do not ask (APPROVAL_KINDS)
  };
}

function readStored(storage) {
  try {
    const saved = JSON.parse(storage.getItem(STORE) || "{}");
    delete saved.api_key; // only ever under KEY_STORE, and only when remembered
    const key = storage.getItem(KEY_STORE);
    return key ? { ...saved, api_key: key, remember_key: true } : { ...saved, remember_key: false };
  } catch {
    return {};
  }
}

function fromUrl(search) {
  const params = new URLSearchParams(search);
  const found = {};
  for (const key of URL_KEYS) if (params.has(key)) found[key] = params.get(key);
  if (found.dialect && !DIALECTS.includes(found.dialect)) delete found.dialect;
  if (found.base_url && !found.model) found.model = "";
  return found;
}

/** Numbers within their limits, known approval kinds only: stored values may be old or edited. */
export function normalize(settings) {
  const clean = { ...defaults(), ...settings };
  for (const [name, [low, high]] of Object.entries(LIMITS)) {
    const value = Math.round(Number(clean[name]));
    clean[name] = Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : defaults()[name];
  }
  clean.auto_approve = (Array.isArray(clean.auto_approve) ? clean.auto_approve : []).filter((kind) =>
    APPROVAL_KINDS.includes(kind),
  );
  if (!DIALECTS.includes(clean.dialect)) clean.dialect = "auto";
  return clean;
}

export function load(storage, search) {
  const settings = normalize({ ...readStored(storage), ...fromUrl(search) });
  if (!settings.base_url && !settings.model) settings.model = "demo";
  return settings;
}

export function save(storage, settings) {
  const { api_key, remember_key, ...rest } = settings;
  storage.setItem(STORE, JSON.stringify(rest));
  if (remember_key && api_key) storage.setItem(KEY_STORE, api_key);
  else storage.removeItem(KEY_STORE);
}

/** What a turn carries to the engine from the settings (per-chat limits and approvals). */
export function turnOptions(settings) {
  return {
    max_rounds: settings.max_rounds,
    auto_approve: settings.auto_approve,
    context_window: settings.context_window || undefined,
  };
}
