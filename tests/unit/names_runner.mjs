// Runs the page's name rules (web/src/folders/names.js) under Node for tests/unit/workspace/test_names.py:
// stdin is a JSON list of names; prints one JSON line per name: {git, invisible, windows}.
import { readFileSync } from "node:fs";
import { invisibleIn, isGitDirName, windowsRefuses } from "../../web/src/folders/names.js";

for (const name of JSON.parse(readFileSync(0, "utf8"))) {
  console.log(JSON.stringify({ git: isGitDirName(name), invisible: invisibleIn(name), windows: windowsRefuses(name) }));
}
