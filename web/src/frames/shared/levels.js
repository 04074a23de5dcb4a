// The console's levels, as the sandbox and the preview report them: which level each console method
// is reported under, and the levels a frame's answer may carry (anything else is read as "log").
// Pure data: it runs on the page, in a frame's document and in its Worker alike.

/** @typedef {"log" | "info" | "warn" | "error" | "debug"} LogLevel */

/** The levels a console line may have, in order of weight. */
export const LOG_LEVELS = /** @type {readonly LogLevel[]} */ (Object.freeze(["log", "info", "warn", "error", "debug"]));

/** console method -> the level its lines are reported under. */
export const CONSOLE_LEVELS = /** @type {Readonly<Record<string, LogLevel>>} */ (
  Object.freeze({
    log: "log",
    info: "info",
    warn: "warn",
    error: "error",
    debug: "debug",
    dir: "log",
    table: "log",
    trace: "debug",
  })
);

/**
 * Whether `value` is one of the accepted levels.
 * @param {unknown} value
 * @returns {value is LogLevel}
 */
export function isLogLevel(value) {
  return /** @type {readonly unknown[]} */ (LOG_LEVELS).includes(value);
}
