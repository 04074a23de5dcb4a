// Runs the problems checker's TypeScript project (web/src/problems/worker/ts-project.js) under Node for
// tests/page/test_ts_project.py, with the pinned TypeScript library: stdin is a JSON list of jobs run one
// after another on one project; prints each answer as one JSON line.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { TsProject } from "../../web/src/problems/worker/ts-project.js";

const require = createRequire(new URL("../../web/package.json", import.meta.url));
const ts = require("typescript-lib");
const dir = new URL("../../web/node_modules/typescript-lib/lib/", import.meta.url);
const libs = Object.fromEntries(
  readdirSync(dir)
    .filter((name) => name.startsWith("lib.") && name.endsWith(".d.ts"))
    .map((name) => [name, readFileSync(new URL(name, dir), "utf8")]),
);
const project = new TsProject(ts, libs);
for (const job of JSON.parse(readFileSync(0, "utf8"))) {
  console.log(JSON.stringify(project.run({ reset: false, files: {}, deleted: [], check: [], ...job })));
}
