// Runs the preview frame's accessibility tree (web/src/preview/frame/aria-snapshot.js) and its actions
// (page-actions.js) on a DOM made by linkedom, for tests/page/test_aria_snapshot.py: stdin is a JSON list
// of cases {html, steps: [{ref, action, value}]}; prints one JSON line per case: the snapshot before the
// steps, after each, the events the page heard, and the error of a step that did not fit.
import { readFileSync } from "node:fs";
import { parseHTML } from "../../web/node_modules/linkedom/esm/index.js";

for (const { html, steps = [] } of JSON.parse(readFileSync(0, "utf8"))) {
  const { window, document } = parseHTML(html);
  for (const name of ["Event", "InputEvent", "KeyboardEvent", "MouseEvent", "document", "window"]) {
    globalThis[name] = name === "document" ? document : name === "window" ? window : window[name] || globalThis.Event;
  }
  globalThis.innerHeight = 600;
  const { Refs, snapshotLines } = await import("../../web/src/preview/frame/aria-snapshot.js");
  const { Hands } = await import("../../web/src/preview/frame/page-actions.js");
  const heard = [];
  for (const type of ["click", "input", "change", "keydown", "keypress", "keyup", "submit", "focus"]) {
    document.addEventListener(type, (event) => heard.push(`${type}:${event.target.id || event.target.tagName}`), true);
  }
  const refs = new Refs();
  const hands = new Hands();
  const snapshots = [snapshotLines(document.body, refs)];
  const errors = [];
  for (const { ref, action, value = "" } of steps) {
    const found = refs.find(ref);
    errors.push("error" in found ? found.error : hands.act(found.element, action, value));
    snapshots.push(snapshotLines(document.body, refs));
  }
  console.log(JSON.stringify({ snapshots, heard, errors }));
}
