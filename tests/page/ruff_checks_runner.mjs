// Runs the problems checker's Python side (web/src/problems/worker/ruff-checks.js) under Node for
// tests/page/test_ruff_checks.py, with the pinned Ruff web build: stdin is a JSON list of jobs run one
// after another; prints each answer as one JSON line.
import { readFileSync } from "node:fs";
import * as ruff from "../../web/node_modules/@astral-sh/ruff-wasm-web/ruff_wasm.js";
import { RuffChecks } from "../../web/src/problems/worker/ruff-checks.js";

ruff.initSync({ module: readFileSync(new URL("../../web/node_modules/@astral-sh/ruff-wasm-web/ruff_wasm_bg.wasm", import.meta.url)) });
const checks = new RuffChecks(ruff);
for (const job of JSON.parse(readFileSync(0, "utf8"))) {
  console.log(JSON.stringify(checks.run({ reset: false, files: {}, deleted: [], check: [], ...job })));
}
