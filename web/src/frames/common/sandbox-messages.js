// The messages between the page (web/src/sandbox/page/frame-transport.js) and a sandbox frame's
// Worker (web/src/sandbox/frame-worker/runtime-port.js), as types both sides import. Types only: the
// page still checks every answer, since the frame runs model-written code (sandbox/page/results.js).

/**
 * Page -> the frame's window, once, with the port: the runtime's module text, which the frame's Worker
 * imports from a blob: URL (web/sandbox/frame.html).
 * @typedef {{type: "agentlite-sandbox-boot", runtime: string}} SandboxBoot
 */

/**
 * Page -> Worker: run one piece of code. `timeout_ms` is the run's time; `python_deadline` asks Python
 * to stop itself at a deadline of its own (engines that cannot end a Worker inside WebAssembly).
 * @typedef {{type: "run", id: number, kind: string, payload: Record<string, unknown>,
 *   timeout_ms: number, python_deadline: boolean}} RunRequest
 */

/**
 * Page -> Worker: the answer to an AssetRequest, the bytes transferred.
 * @typedef {{type: "asset", id: number, ok: true, bytes: ArrayBuffer, error?: undefined}
 *   | {type: "asset", id: number, ok: false, error: string, bytes?: undefined}} AssetAnswer
 */

/** @typedef {RunRequest | AssetAnswer} ToRuntime */

/**
 * Why a run failed: "timeout" when it stopped itself at its deadline, else "failed".
 * @typedef {{type: "timeout" | "failed", message: string}} RunFailure
 */

/**
 * Worker -> page: the answer to one RunRequest (`result` is the kind's result, unchecked).
 * @typedef {{type: "result", id: number, ok: true, result: unknown, error?: undefined}
 *   | {type: "result", id: number, ok: false, error: RunFailure, result?: undefined}} RunAnswer
 */

/**
 * Worker -> page: the bytes of one runtime file, by name (the page hands out only a fixed list).
 * @typedef {{type: "asset", id: number, name: string}} AssetRequest
 */

/**
 * Worker -> page: the runtime is ready for runs; it could not start; a heavy runtime (Pyodide) starts
 * loading / has loaded inside run `id` (the watchdog does not count its start-up).
 * @typedef {{type: "ready"} | {type: "boot_failed", message: string} | {type: "loading", id: number}
 *   | {type: "loaded", id: number}} RuntimeState
 */

/** @typedef {RunAnswer | AssetRequest | RuntimeState} FromRuntime */

/**
 * One console line of a browser_js_eval run.
 * @typedef {{level: import("./levels.js").LogLevel, text: string}} LogLine
 */

/**
 * browser_js_eval's result: the last expression's text and type, the console lines, the error if any.
 * @typedef {{value: string | null, type: string | null, logs: LogLine[],
 *   error: {name: string, message: string, line: string | null} | null}} EvalResult
 */

/**
 * shell_exec's and Python's result: output, exit code, and what the command did to the given files.
 * @typedef {{stdout: string, stderr: string, exit_code: number, changed: Record<string, string>,
 *   deleted: string[], created_dirs: string[], deleted_dirs: string[]}} ProcessResult
 */

export {};
