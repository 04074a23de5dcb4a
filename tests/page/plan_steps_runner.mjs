// Runs the page's plan text and chat modes (web/src/views/plan-steps.js, web/src/settings/chat-mode.js)
// under Node for tests/page/test_plan_steps.py: stdin is {edited: [text], searches: [search], modes: [mode]};
// prints one JSON line: {steps: [[step]], approved: [text], fromUrl: [mode | null], next: [mode], labels: [label]}.
import { readFileSync } from "node:fs";
import { approvedPlan, stepsOf } from "../../web/src/views/plan-steps.js";
import { modeFromUrl, modeLabel, nextMode } from "../../web/src/settings/chat-mode.js";

const { edited, searches, modes } = JSON.parse(readFileSync(0, "utf8"));
const steps = edited.map(stepsOf);
console.log(
  JSON.stringify({
    steps,
    approved: steps.map(approvedPlan),
    fromUrl: searches.map(modeFromUrl),
    next: modes.map(nextMode),
    labels: modes.map(modeLabel),
  }),
);
