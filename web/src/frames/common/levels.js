// The console's levels, as the sandbox and the preview report them: which level each console method
// is reported under, and the levels a frame's answer may carry (anything else is read as "log").
// Pure data: it runs on the page, in a frame's document and in its Worker alike.

/** @typedef {"log" | "info" | "warn" | "error" | "debug"} LogLevel */

/**
 * The levels a console line may have. (Plain literals, not frozen: a bundle that does not use a table
 * leaves it out.)
 * @type {readonly LogLevel[]}
 */
export const LOG_LEVELS = ["log", "info", "warn", "error", "debug"];

/**
 * console method -> the level its lines are reported under.
 * @type {Readonly<Record<string, LogLevel>>}
 */
export const CONSOLE_LEVELS = {
  log: "log",
  info: "info",
  warn: "warn",
  error: "error",
  debug: "debug",
  dir: "log",
  table: "log",
  trace: "debug",
};

/**
 * Whether `value` is one of the accepted levels.
 * @param {unknown} value
 * @returns {value is LogLevel}
 */
export function isLogLevel(value) {
  return LOG_LEVELS.some((level) => level === value);
}
