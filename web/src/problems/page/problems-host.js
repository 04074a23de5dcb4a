// The page's problem checkers (docs/problems.md): answers the agent's `problems` jobs with TypeScript's
// language service and Ruff, each in a Worker of its own, started on the first job that has files for it
// (never on a first visit: their files are kept offline only once used). The agent sends the texts that
// changed since its last job under this host's `session`; a job under another session (this page was
// reloaded, or a checker failed) is answered `resync`, and the agent sends everything again. The newest
// problems of every file go to `onProblems`, for the editor and the file tree.
import { forRuff, forTypeScript } from "../common/checker-job.js";

/** @import { CheckerAnswer, CheckerJob, CheckMode, ProblemMap, ProblemRow } from "../common/checker-job.js" */
/** @typedef {{worker: Worker, waiting: Map<number, (answer: CheckerAnswer) => void>}} Checker */

const MODES = ["sync", "change", "check"];
const WORKERS = { ts: "./problems-ts.js", ruff: "./problems-ruff.js" };

/** @param {unknown} value @returns {value is string[]} */
const strings = (value) => Array.isArray(value) && value.every((item) => typeof item === "string");

export class ProblemsHost {
  /** @param {(problems: Map<string, ProblemRow[]>) => void} onProblems */
  constructor(onProblems) {
    this.onProblems = onProblems;
    this.session = crypto.randomUUID();
    /** @type {Record<string, Checker | null>} */
    this.checkers = { ts: null, ruff: null };
    this.ids = 0;
    /** @type {Map<string, ProblemRow[]>} */
    this.known = new Map();
  }

  /** One `problems` job: `{session, mode, files, deleted, check, ruff}` -> `{session, before, problems}`.
   * @param {Record<string, unknown>} payload @param {number} timeoutMs */
  async answer(payload, timeoutMs) {
    const { session, mode, files, deleted, check, ruff } = payload;
    const textsOnly = files && typeof files === "object" && Object.values(files).every((t) => typeof t === "string");
    if (!MODES.includes(String(mode)) || !textsOnly || !strings(deleted) || !strings(check)) {
      throw Object.assign(new Error("a problems job needs mode, files, deleted and check"), { type: "bad_request" });
    }
    if (session !== null && session !== this.session) return { session: this.session, resync: true };
    const reset = session === null;
    if (reset) this.known.clear();
    const job = {
      reset,
      mode: /** @type {CheckMode} */ (mode),
      files: /** @type {Record<string, string>} */ (files),
      deleted,
      check,
    };
    const settings = ruff && typeof ruff === "object" ? /** @type {Record<string, unknown>} */ (ruff) : {};
    try {
      const answers = await Promise.all([
        this.ask("ts", forTypeScript, job, timeoutMs),
        this.ask("ruff", forRuff, { ...job, settings }, timeoutMs),
      ]);
      return this.merge(answers, deleted);
    } catch (err) {
      this.session = crypto.randomUUID(); // what the checkers hold is unknown now: the agent sends it all again
      throw err;
    }
  }

  /** The part of `job` for one checker, asked of its worker; nothing when it has no file for it and was
   * never started. @param {"ts" | "ruff"} name @param {(path: string) => boolean} takes
   * @param {Omit<CheckerJob, "id">} job @param {number} timeoutMs @returns {Promise<{before: ProblemMap, problems: ProblemMap}>} */
  async ask(name, takes, job, timeoutMs) {
    const files = Object.fromEntries(Object.entries(job.files).filter(([path]) => takes(path)));
    const part = { ...job, files, deleted: job.deleted.filter(takes), check: job.check.filter(takes) };
    const idle = !Object.keys(files).length && !part.deleted.length && !part.check.length;
    if (idle && (this.checkers[name] === null || !job.reset)) return { before: {}, problems: {} };
    const checker = this.checker(name);
    const id = ++this.ids;
    const answer = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(name);
        reject(Object.assign(new Error(`the ${name} checker did not answer in ${timeoutMs} ms`), { type: "timeout" }));
      }, timeoutMs);
      checker.waiting.set(id, (/** @type {CheckerAnswer} */ message) => {
        clearTimeout(timer);
        resolve(message);
      });
      checker.worker.postMessage({ ...part, id });
    });
    if (!answer.ok) throw Object.assign(new Error(answer.message), { type: "failed" });
    return { before: answer.before, problems: answer.problems };
  }

  /** @param {"ts" | "ruff"} name @returns {Checker} */
  checker(name) {
    const running = this.checkers[name];
    if (running) return running;
    const url = name === "ts" ? new URL(WORKERS.ts, import.meta.url) : new URL(WORKERS.ruff, import.meta.url);
    const worker = new Worker(url, { type: "module", name: `problems-${name}` });
    /** @type {Checker} */
    const checker = { worker, waiting: new Map() };
    worker.onmessage = ({ data }) => {
      checker.waiting.get(data.id)?.(data);
      checker.waiting.delete(data.id);
    };
    worker.onerror = (event) => {
      for (const done of checker.waiting.values())
        done({ id: 0, ok: false, message: event.message || "the checker stopped" });
      this.stop(name);
    };
    this.checkers[name] = checker;
    return checker;
  }

  /** @param {"ts" | "ruff"} name */
  stop(name) {
    this.checkers[name]?.worker.terminate();
    this.checkers[name] = null;
    this.session = crypto.randomUUID();
  }

  /** Both checkers' answers as one, and the newest problems of every file to the page's views.
   * @param {{before: ProblemMap, problems: ProblemMap}[]} answers @param {string[]} deleted */
  merge(answers, deleted) {
    /** @type {ProblemMap} */
    const before = {};
    /** @type {ProblemMap} */
    const problems = {};
    for (const answer of answers) {
      Object.assign(before, answer.before);
      Object.assign(problems, answer.problems);
    }
    for (const path of deleted) this.known.delete(path);
    for (const [path, rows] of Object.entries(problems)) this.known.set(path, rows);
    this.onProblems(new Map(this.known));
    return { session: this.session, before, problems };
  }
}
