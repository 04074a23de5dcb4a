// What the page's problem checkers are asked and answer (docs/problems.md): one job per exchange with a
// checker's worker. `files` are the texts that changed since the last job, `deleted` the paths gone,
// `check` the paths whose problems are wanted; `reset` drops everything held first. A change's job
// (`mode: "change"`) also answers `before`: the problems of the same files as they stood.

/** One problem: `[line, col, code, message]`, 1-based.
 * @typedef {[number, number, string, string]} ProblemRow */
/** @typedef {Record<string, ProblemRow[]>} ProblemMap */
/** @typedef {"sync" | "change" | "check"} CheckMode */
/** @typedef {{id: number, reset: boolean, mode: CheckMode, files: Record<string, string>, deleted: string[],
 *   check: string[], settings?: Record<string, unknown>}} CheckerJob */
/** @typedef {{id: number, ok: true, before: ProblemMap, problems: ProblemMap}
 *   | {id: number, ok: false, message: string}} CheckerAnswer */

export const TS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
export const TS_CONFIGS = ["/tsconfig.json", "/jsconfig.json"];
export const PY_EXTENSIONS = [".py", ".pyi"];

/** Whether TypeScript's checker reads `path` (a source or its project's config). @param {string} path */
export const forTypeScript = (path) => TS_EXTENSIONS.some((ext) => path.endsWith(ext)) || TS_CONFIGS.includes(path);

/** Whether Ruff reads `path`. @param {string} path */
export const forRuff = (path) => PY_EXTENSIONS.some((ext) => path.endsWith(ext));
