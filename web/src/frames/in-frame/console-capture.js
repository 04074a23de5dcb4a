// The console of a frame's realm (its document or its Worker), turned into (level, text) lines for
// the page: each console method reports under its level (frames/common/levels.js), its arguments
// formatted as a console prints them (frames/common/repr.js). It touches only `console`, which both
// a document and a Worker have.
import { CONSOLE_LEVELS } from "../common/levels.js";
import { consoleText, safely } from "../common/repr.js";

/** @import { LogLevel } from "../common/levels.js" */

/**
 * Where a captured console line goes.
 * @callback ConsoleSink
 * @param {LogLevel} level
 * @param {string} text
 * @returns {void}
 */

/**
 * @typedef {object} CaptureOptions
 * @property {Readonly<Record<string, LogLevel>>} [levels] console method -> level; the methods
 *   captured (default CONSOLE_LEVELS)
 * @property {boolean} [passthrough] also call the console's own method (default false: the line goes
 *   to the sink only)
 * @property {(args: readonly unknown[]) => string} [format] the text of one call's arguments
 *   (default consoleText)
 */

/**
 * Patch this realm's console methods to hand each call to `post` as (level, text); a formatter that
 * throws gives an "[unprintable: ...]" line, never an exception in the caller.
 * @param {ConsoleSink} post
 * @param {CaptureOptions} [options]
 * @returns {() => void} puts the console's own methods back
 */
export function captureConsole(post, { levels = CONSOLE_LEVELS, passthrough = false, format = consoleText } = {}) {
  /** @type {Record<string, unknown>} */
  const own = {};
  for (const [method, level] of Object.entries(levels)) {
    const original = Reflect.get(console, method);
    own[method] = original;
    Reflect.set(console, method, (/** @type {unknown[]} */ ...args) => {
      post(
        level,
        safely(() => format(args)),
      );
      if (passthrough) original?.apply(console, args);
    });
  }
  return () => Object.assign(console, own);
}
