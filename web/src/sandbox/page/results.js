// Checks what a sandbox frame answers before it leaves the host: the frame runs model-written code,
// so its answer is untrusted data. Shapes are enforced, output is capped, paths are normalised.
import { isLogLevel } from "../../frames/common/levels.js";
import { CHANGED_LIMIT_BYTES, cap, STREAM_LIMIT_BYTES, utf8Length } from "../common/limits.js";

/** @import { EvalResult, LogLine, ProcessResult } from "../../frames/common/sandbox-messages.js" */

/** An untrusted object from the frame: any key, any value. @typedef {Record<string, any>} Untrusted */

export class InvalidResult extends Error {}

/**
 * @param {string} kind
 * @param {unknown} result
 * @returns {EvalResult | ProcessResult}
 */
export function checkResult(kind, result) {
  if (!isObject(result)) throw new InvalidResult("the sandbox answered with no result object");
  return kind === "js" ? checkEval(result) : checkProcess(result);
}

/**
 * @param {Untrusted} result
 * @returns {EvalResult}
 */
function checkEval(result) {
  const error = result.error;
  return {
    value: result.value == null ? null : cap(String(result.value)),
    type: result.type == null ? null : String(result.type).slice(0, 32),
    logs: checkLogs(result.logs),
    error: isObject(error)
      ? {
          name: String(error.name ?? "Error").slice(0, 200),
          message: cap(String(error.message ?? ""), 4096),
          line: error.line == null ? null : String(error.line).slice(0, 500),
        }
      : null,
  };
}

/**
 * @param {unknown} logs
 * @returns {LogLine[]}
 */
function checkLogs(logs) {
  if (!Array.isArray(logs)) return [];
  /** @type {LogLine[]} */
  const kept = [];
  let size = 0;
  for (const entry of logs) {
    if (!isObject(entry)) continue;
    const text = String(entry.text ?? "");
    size += utf8Length(text) + 1;
    if (size > STREAM_LIMIT_BYTES) {
      kept.push({ level: "info", text: "[console output truncated]" });
      break;
    }
    kept.push({ level: isLogLevel(entry.level) ? entry.level : "log", text });
  }
  return kept;
}

/**
 * @param {Untrusted} result
 * @returns {ProcessResult}
 */
function checkProcess(result) {
  const code = Number.isInteger(result.exit_code) ? result.exit_code : 1;
  return {
    stdout: cap(String(result.stdout ?? "")),
    stderr: cap(String(result.stderr ?? "")),
    exit_code: code,
    changed: checkChanged(result.changed),
    deleted: checkPaths(result.deleted),
    created_dirs: checkPaths(result.created_dirs),
    deleted_dirs: checkPaths(result.deleted_dirs),
  };
}

/**
 * @param {unknown} changed
 * @returns {Record<string, string>}
 */
function checkChanged(changed) {
  if (changed == null) return {};
  if (!isObject(changed)) throw new InvalidResult("changed must map paths to text");
  /** @type {Record<string, string>} */
  const out = {};
  let total = 0;
  for (const [path, text] of Object.entries(changed)) {
    if (typeof text !== "string") throw new InvalidResult(`changed file ${path} is not text`);
    total += utf8Length(text);
    if (total > CHANGED_LIMIT_BYTES) throw new InvalidResult("the changed files exceed the size limit");
    out[checkPath(path)] = text;
  }
  return out;
}

/**
 * @param {unknown} paths
 * @returns {string[]}
 */
function checkPaths(paths) {
  if (paths == null) return [];
  if (!Array.isArray(paths)) throw new InvalidResult("expected a list of paths");
  return paths.map(checkPath);
}

/**
 * Absolute, normalised, printable: "/src/a.ts". Anything else is refused, never repaired.
 * @param {unknown} path
 * @returns {string}
 */
export function checkPath(path) {
  const ok =
    typeof path === "string" &&
    path.startsWith("/") &&
    path.length > 1 &&
    path.length <= 4096 &&
    !path.endsWith("/") &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a path must not hold control characters
    !/[\u0000-\u001f]/.test(path) &&
    path
      .slice(1)
      .split("/")
      .every((part) => part !== "" && part !== "." && part !== "..");
  if (!ok) {
    const shown = JSON.stringify(String(path)).slice(0, 200);
    throw new InvalidResult(`not a normalised absolute path: ${shown}`);
  }
  return path;
}

/**
 * @param {unknown} value
 * @returns {value is Untrusted}
 */
function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
