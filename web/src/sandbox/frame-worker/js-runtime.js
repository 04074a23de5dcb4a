// The runtime of the "js" sandbox frame (browser_js_eval): evaluates model-written JavaScript and
// reports the value of the last expression, the console output by level, and any error.
// It runs in the opaque-origin frame's Worker only (frame-transport.js); the frame imports it there
// from text. The Worker has no DOM: js-document.js gives it one without layout.
import { parse } from "acorn";
import { installDocument } from "./js-document.js";
import { servePort } from "./runtime-port.js";
import { cap, STREAM_LIMIT_BYTES, utf8Length } from "../common/limits.js";
import { captureConsole } from "../../frames/in-frame/console-capture.js";
import { inspect, safely } from "../../frames/common/repr.js";
import { linkWorkspaceImports } from "./workspace-modules.js";

/** @import { EvalResult, LogLine } from "../../frames/common/sandbox-messages.js" */
/** @import { LogLevel } from "../../frames/common/levels.js" */

/** @type {{logs: LogLine[], size: number, full: boolean} | null} */
let current = null; // the console capture of the run in progress; runs are serialised by the host

/** @param {MessagePort} port */
export function start(port) {
  installDocument();
  // Console calls and uncaught errors go into the current run; output after a run has ended is dropped.
  captureConsole(record);
  addEventListener("error", (event) => record("error", `Uncaught ${event.message}`));
  addEventListener("unhandledrejection", (event) =>
    record("error", `Uncaught (in promise) ${safely(() => inspect(event.reason))}`),
  );
  servePort(port, { js: evaluate });
}

/**
 * @param {LogLevel} level
 * @param {string} text
 */
function record(level, text) {
  if (!current || current.full) return;
  current.size += utf8Length(text) + 1;
  if (current.size > STREAM_LIMIT_BYTES) {
    current.full = true;
    current.logs.push({ level: "info", text: "[console output truncated]" });
    return;
  }
  current.logs.push({ level, text });
}

/**
 * payload.files: {path: text} of the workspace's modules, for `import("/src/x.js")` in the code.
 * @param {Record<string, any>} payload
 * @returns {Promise<EvalResult>}
 */
async function evaluate({ code, files }) {
  if (typeof code !== "string") throw new Error("payload.code must be a string");
  current = { logs: [], size: 0, full: false };
  const capture = current;
  /** @type {{code: string, urls: string[]}} */
  let linked = { code, urls: [] };
  try {
    linked = linkWorkspaceImports(code, files);
    let value = compile(linked.code)();
    if (value && typeof value.then === "function") value = await value;
    return { value: cap(safely(() => inspect(value))), type: typeOf(value), logs: capture.logs, error: null };
  } catch (err) {
    return { value: null, type: null, logs: capture.logs, error: describeError(err) };
  } finally {
    current = null;
    for (const url of linked.urls) URL.revokeObjectURL(url);
  }
}

// Plain code goes through indirect eval, whose completion value is exactly "the value of the last
// expression" (and top-level var/function declarations stay global between runs, like a console).
// Code that needs top-level await is wrapped in an async function that returns its last expression.
/**
 * @param {string} code
 * @returns {() => any} the value of the model's code: anything
 */
function compile(code) {
  const plain = tryParse(code, false);
  if (plain.ast) return () => (0, eval)(code);
  const awaited = tryParse(code, true);
  if (!awaited.ast) return () => evalWithPosition(code, plain.error);
  const last = awaited.ast.body.at(-1);
  let body = code;
  if (last && last.type === "ExpressionStatement") {
    const expr = code.slice(last.expression.start, last.expression.end);
    body = `${code.slice(0, last.start)}return (${expr});${code.slice(last.end)}`;
  }
  return () => (0, eval)(`(async () => {${body}\n})()`);
}

// The engine's SyntaxError says what is wrong but not where; the parser knows where.
/**
 * @param {string} code
 * @param {any} parseError acorn's SyntaxError, with `loc`
 */
function evalWithPosition(code, parseError) {
  try {
    return (0, eval)(code);
  } catch (err) {
    if (err instanceof SyntaxError && parseError && parseError.loc) {
      /** @type {SyntaxError & {where?: string}} */ (err).where =
        `code:${parseError.loc.line}:${parseError.loc.column + 1}`;
    }
    throw err;
  }
}

/**
 * @param {string} code
 * @param {boolean} allowAwait
 * @returns {{ast: import("acorn").Program | null, error?: unknown}}
 */
function tryParse(code, allowAwait) {
  try {
    return { ast: parse(code, { ecmaVersion: "latest", allowAwaitOutsideFunction: allowAwait }) };
  } catch (error) {
    return { ast: null, error };
  }
}

/** @param {unknown} value */
function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * @param {unknown} err
 * @returns {EvalResult["error"]}
 */
function describeError(err) {
  if (!(err instanceof Error)) {
    return { name: "Error", message: `Uncaught ${safely(() => inspect(err))}`, line: null };
  }
  const line = /** @type {Error & {where?: string}} */ (err).where || whereInCode(String(err.stack || ""));
  return { name: err.name, message: cap(err.message, 4096), line };
}

// "code:3:7" for the innermost frame in the evaluated code (eval frames read "<anonymous>:3:7"),
// else the first stack frame as the engine wrote it.
/** @param {string} stack */
function whereInCode(stack) {
  const frames = stack.split("\n").filter((line) => /^\s+at /.test(line));
  for (const frame of frames) {
    const match = /<anonymous>:(\d+):(\d+)\)?$/.exec(frame);
    if (match) return `code:${match[1]}:${match[2]}`;
  }
  return frames.length ? frames[0].trim() : null;
}
