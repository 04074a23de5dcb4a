// Runs the page's problems host (web/src/problems/page/problems-host.js) under Node for
// tests/page/test_problems_host.py, with fake checker Workers that report one problem per file they hold
// (TypeScript's for .ts, Ruff's for .py) and record every job: stdin is a JSON list of payloads answered in
// turn; prints {answer | error, started, jobs, shown} per payload.
import { readFileSync } from "node:fs";

/** @type {Record<string, object[]>} */
const jobs = { ts: [], ruff: [] };
const held = { ts: new Map(), ruff: new Map() };
let started = [];
globalThis.Worker = class {
  constructor(url) {
    this.name = String(url).includes("problems-ts") ? "ts" : "ruff";
    started.push(this.name);
  }
  postMessage(job) {
    jobs[this.name].push(job);
    const files = held[this.name];
    if (job.reset) files.clear();
    const rows = (path) => (files.has(path) ? [[1, 1, this.name === "ts" ? "TS1" : "F1", files.get(path)]] : []);
    const before = Object.fromEntries(job.check.map((path) => [path, rows(path)]));
    for (const path of job.deleted) files.delete(path);
    for (const [path, text] of Object.entries(job.files)) files.set(path, text);
    const problems = Object.fromEntries(job.check.map((path) => [path, rows(path)]));
    queueMicrotask(() => this.onmessage({ data: { id: job.id, ok: true, before, problems } }));
  }
  terminate() {}
};
const { ProblemsHost } = await import("../../web/src/problems/page/problems-host.js");
let shown = null;
const host = new ProblemsHost((map) => {
  shown = Object.fromEntries(map);
});
for (const payload of JSON.parse(readFileSync(0, "utf8"))) {
  if (payload.session === "$") payload.session = host.session;
  started = [];
  jobs.ts.length = jobs.ruff.length = 0;
  const out = { started, jobs: { ts: jobs.ts.length, ruff: jobs.ruff.length } };
  try {
    out.answer = await host.answer(payload, 5000);
    out.answer.session = out.answer.session === host.session ? "$" : out.answer.session;
  } catch (err) {
    out.error = { type: err.type, message: err.message };
  }
  out.jobs = { ts: jobs.ts.map((j) => ({ ...j, id: 0 })), ruff: jobs.ruff.map((j) => ({ ...j, id: 0 })) };
  out.shown = shown;
  console.log(JSON.stringify(out));
}
