// Python files held in memory for the problems checker (docs/problems.md), checked one text at a time by
// Ruff's web build: its lint rules (the project's selection, from pyproject.toml or ruff.toml, mapped by
// the agent) and its parser's syntax errors. Results are kept by text (a content's problems do not change
// while the settings do not), so a change's "before" costs nothing. Takes Ruff's module as an argument:
// the worker passes the bundled one, the tests Node's.

import { forRuff } from "../common/checker-job.js";

/** @import { CheckerJob, ProblemMap, ProblemRow } from "../common/checker-job.js" */
/** @typedef {{Workspace: new (settings: unknown, encoding: number) => {check(text: string): unknown, free(): void},
 *   PositionEncoding: {Utf16: number}}} Ruff */

// Ruff's own defaults on the command line; the web build's are wider (import order and more).
const DEFAULT_SELECT = ["E4", "E7", "E9", "F"];
const KEPT = 4_000; // texts whose results are kept; the oldest go first
const MESSAGE_CHARS = 300;

export class RuffChecks {
  /** @param {Ruff} ruff */
  constructor(ruff) {
    this.ruff = ruff;
    /** @type {Map<string, string>} */
    this.files = new Map();
    this.settingsKey = "";
    this.workspace = new ruff.Workspace({}, ruff.PositionEncoding.Utf16);
    /** @type {Map<string, ProblemRow[]>} */
    this.results = new Map();
  }

  /** @param {CheckerJob} job @returns {{before: ProblemMap, problems: ProblemMap}} */
  run(job) {
    if (job.reset) this.files.clear();
    this.configure(job.settings ?? {});
    const check = job.check.filter(forRuff);
    const before = job.mode === "change" ? this.problemsOf([...check, ...job.deleted.filter(forRuff)]) : {};
    for (const path of job.deleted) this.files.delete(path);
    for (const [path, text] of Object.entries(job.files)) if (forRuff(path)) this.files.set(path, text);
    return { before, problems: job.mode === "sync" ? {} : this.problemsOf(check) };
  }

  /** A new Ruff workspace when the settings changed; a setting Ruff refuses leaves its defaults.
   * @param {Record<string, unknown>} settings */
  configure(settings) {
    const lint = /** @type {Record<string, unknown>} */ (settings.lint ?? {});
    settings = { ...settings, lint: { select: DEFAULT_SELECT, ...lint } };
    const key = JSON.stringify(settings);
    if (key === this.settingsKey) return;
    let next;
    try {
      next = new this.ruff.Workspace(settings, this.ruff.PositionEncoding.Utf16);
    } catch {
      next = new this.ruff.Workspace({ lint: { select: DEFAULT_SELECT } }, this.ruff.PositionEncoding.Utf16);
    }
    this.workspace.free();
    this.workspace = next;
    this.settingsKey = key;
    this.results.clear();
  }

  /** @param {string[]} paths */
  problemsOf(paths) {
    /** @type {ProblemMap} */
    const found = {};
    for (const path of paths) {
      const text = this.files.get(path);
      if (text !== undefined) found[path] = this.rows(text);
    }
    return found;
  }

  /** @param {string} text @returns {ProblemRow[]} */
  rows(text) {
    const kept = this.results.get(text);
    if (kept) return kept;
    const diagnostics =
      /** @type {{code: string | null, message: string, start_location: {row: number, column: number}}[]} */ (
        this.workspace.check(text)
      );
    /** @type {ProblemRow[]} */
    const rows = diagnostics.map((d) => [
      d.start_location.row,
      d.start_location.column,
      d.code ?? "invalid-syntax",
      String(d.message).slice(0, MESSAGE_CHARS),
    ]);
    rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    if (this.results.size >= KEPT) this.results.delete(/** @type {string} */ (this.results.keys().next().value));
    this.results.set(text, rows);
    return rows;
  }
}
