// Runs the page's settings (web/src/settings/settings.js) under Node for tests/page/test_settings_changes.py:
// stdin is a JSON list of {stored, search}; prints one JSON line per case: the `changes` setting loaded.
import { register } from "node:module";
import { readFileSync } from "node:fs";

register("./json_hooks.mjs", import.meta.url);
const { load } = await import("../../web/src/settings/settings.js");

/** A Storage holding `stored` as the saved settings. */
const storage = (stored) => ({
  getItem: (name) => (name === "agentlite.settings" && stored ? JSON.stringify(stored) : null),
  setItem() {},
  removeItem() {},
});

for (const { stored, search } of JSON.parse(readFileSync(0, "utf8"))) {
  console.log(JSON.stringify({ changes: load(storage(stored), search).changes }));
}
