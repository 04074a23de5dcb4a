// Runs the page's .gitignore rules (web/src/folders/folder-rules.js, web/src/folders/gitignore.js) under Node for
// tests/page/test_gitignore.py: stdin is a JSON list of cases {gitignores: {folder: text}, paths:
// [[path, isFolder]]}; prints one JSON line per case: {ignored: [bool per path], steps}.
import { readFileSync } from "node:fs";
import { SkipRules } from "../../web/src/folders/folder-rules.js";

for (const { gitignores, paths } of JSON.parse(readFileSync(0, "utf8"))) {
  const rules = new SkipRules();
  for (const [folder, text] of Object.entries(gitignores)) rules.add(folder, text);
  const ignored = paths.map(([path, isFolder]) => rules.reason(path, isFolder) === "ignored");
  console.log(JSON.stringify({ ignored, steps: rules.counter?.steps ?? null }));
}
