// Settings: defaults, what is remembered on this device, and the URL parameters that set them.
// The API key is kept in memory unless the user opts in to "remember on this device"; a URL never
// carries it.

const STORE = "agentlite.settings";
const KEY_STORE = "agentlite.apiKey";
export const DIALECTS = ["auto", "native", "json", "ndjson", "ndjson-text"];
const URL_KEYS = ["base_url", "model", "dialect"];

export function defaults() {
  return { base_url: "", api_key: "", model: "demo", dialect: "auto", remember_key: false };
}

function readStored(storage) {
  try {
    const saved = JSON.parse(storage.getItem(STORE) || "{}");
    const key = storage.getItem(KEY_STORE);
    return key ? { ...saved, api_key: key, remember_key: true } : saved;
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

export function load(storage, search) {
  const settings = { ...defaults(), ...readStored(storage), ...fromUrl(search) };
  if (!settings.base_url && !settings.model) settings.model = "demo";
  return settings;
}

export function save(storage, settings) {
  const { api_key, remember_key, ...rest } = settings;
  storage.setItem(STORE, JSON.stringify(rest));
  if (remember_key && api_key) storage.setItem(KEY_STORE, api_key);
  else storage.removeItem(KEY_STORE);
}
