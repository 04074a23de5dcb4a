// The page's console, read by the app: every console method also posts its line (console-levels.js
// decides the level), and alert() becomes an info line (a frame of the preview shows no dialog).

/** @import { Post } from "./notices.js" */

const LEVELS = {
  log: "log",
  info: "info",
  warn: "warn",
  error: "error",
  debug: "log",
  trace: "log",
  dir: "log",
  table: "log",
};

/** @param {Post} post */
export function installConsole(post) {
  const methods = /** @type {Record<string, (...args: unknown[]) => void>} */ (/** @type {unknown} */ (console));
  for (const [method, level] of Object.entries(LEVELS)) {
    const original = methods[method];
    methods[method] = (...args) => {
      post(level, format(args));
      if (original) original.apply(console, args);
    };
  }
  window.alert = (message) => post("info", `alert: ${message}`);
}

/**
 * An error as Chromium prints its stack: Firefox's and WebKit's stack lists only the frames.
 * @param {Error} error
 */
export function errorText(error) {
  const head = `${error.name}: ${error.message}`;
  const stack = String(error.stack || "");
  return stack.startsWith(head) ? stack : stack ? `${head}\n${stack}` : head;
}

/** @param {unknown[]} args */
export function format(args) {
  return args
    .map((value) => {
      if (typeof value === "string") return value;
      if (value instanceof Error) return errorText(value);
      try {
        const text = JSON.stringify(value);
        return text === undefined ? String(value) : text;
      } catch {
        return String(value);
      }
    })
    .join(" ");
}
