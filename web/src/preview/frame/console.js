// The page's console, read by the app: every console method also posts its line, under the level and in
// the text the sandbox uses too (frames/in-frame/console-capture.js, frames/common/levels.js and repr.js),
// and alert() becomes an info line (a frame of the preview shows no dialog).
import { captureConsole } from "../../frames/in-frame/console-capture.js";
import { consoleText, safely } from "../../frames/common/repr.js";

/** @import { Post } from "./notices.js" */

/** @param {Post} post */
export function installConsole(post) {
  captureConsole((level, text) => post(level, text), { passthrough: true, format: consoleLine });
  window.alert = (message) => post("info", `alert: ${message}`);
}

/**
 * The text of one console call: its values as repr.js writes them, an Error with its stack.
 * @param {readonly unknown[]} args
 */
export function consoleLine(args) {
  return consoleText(args.map((value) => (value instanceof Error ? errorText(value) : value)));
}

/**
 * The text of a rejection's reason: an error's stack, else the value as console.log writes it.
 * @param {unknown} reason
 */
export function reasonText(reason) {
  const stack = /** @type {{stack?: unknown} | null | undefined} */ (reason)?.stack;
  return stack ? errorText(/** @type {Error} */ (reason)) : safely(() => consoleLine([reason]));
}

/**
 * An error as Chromium prints its stack: Firefox's and WebKit's stack lists only the frames.
 * @param {Error} error
 */
function errorText(error) {
  const head = `${error.name}: ${error.message}`;
  const stack = String(error.stack || "");
  return stack.startsWith(head) ? stack : stack ? `${head}\n${stack}` : head;
}
