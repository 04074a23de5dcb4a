// Provider presets for the settings form: the OpenAI-compatible base URL, a model to start from,
// whether a key is needed, and how to let this page through CORS when the provider runs locally.
import { originOf } from "./settings.js";

const LOCAL_CORS = "Allow this page's origin in the server's CORS settings.";

export const PRESETS = Object.freeze([
  { id: "demo", label: "Demo model (offline)", base_url: "", model: "demo", key: false },
  { id: "openai", label: "OpenAI", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini", key: true },
  { id: "deepseek", label: "DeepSeek", base_url: "https://api.deepseek.com/v1", model: "deepseek-chat", key: true },
  {
    id: "openrouter",
    label: "OpenRouter",
    base_url: "https://openrouter.ai/api/v1",
    model: "openai/gpt-4o-mini",
    key: true,
  },
  {
    id: "ollama",
    label: "Ollama",
    base_url: "http://127.0.0.1:11434/v1",
    model: "qwen3",
    key: false,
    cors: "Start Ollama with this page's origin allowed: OLLAMA_ORIGINS={origin} ollama serve",
  },
  {
    id: "lmstudio",
    label: "LM Studio",
    base_url: "http://127.0.0.1:1234/v1",
    model: "",
    key: false,
    cors: "In LM Studio's Developer tab, turn on “Enable CORS” for the local server (or: lms server start --cors).",
  },
  {
    id: "llamacpp",
    label: "llama.cpp server",
    base_url: "http://127.0.0.1:8080/v1",
    model: "",
    key: false,
    cors: "llama-server allows any origin by default; if it runs behind a proxy, let the proxy send Access-Control-Allow-Origin: {origin}.",
  },
  {
    id: "vllm",
    label: "vLLM",
    base_url: "http://127.0.0.1:8000/v1",
    model: "",
    key: false,
    cors: "Start vLLM with this page's origin allowed: vllm serve MODEL --allowed-origins '[\"{origin}\"]'",
  },
]);

/** The preset whose base URL this is (same scheme, host and port), or undefined.
 * @param {string | null | undefined} baseUrl */
export function presetFor(baseUrl) {
  if (!baseUrl) return PRESETS[0];
  const origin = originOf(baseUrl);
  return PRESETS.find((preset) => preset.base_url && originOf(preset.base_url) === origin);
}

/** How to fix a CORS block for a page served from `pageOrigin`: the fix of the provider at this base URL,
 * else of the provider the user chose (`presetId`: the same server may run on another host or port).
 * @param {string | null | undefined} baseUrl @param {string} pageOrigin @param {string} [presetId] */
export function corsFix(baseUrl, pageOrigin, presetId = "") {
  const chosen = PRESETS.find((preset) => preset.id === presetId);
  const hint = presetFor(baseUrl)?.cors || chosen?.cors || LOCAL_CORS;
  return hint.replaceAll("{origin}", pageOrigin);
}
