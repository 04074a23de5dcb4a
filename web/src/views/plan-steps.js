// The text of a plan on the page: the steps the user edits (one a line) and the message that carries an
// approved plan out. The message is a Markdown checklist, which the agent reads as the plan its turn
// ticks (py/agentlite/engine/task_plan.py, `read_checklist`).

export const APPROVED = "Carry out this approved plan:";
const CONTROL = /\p{Cc}/gu; // a tab, or a character the agent would read as another line break
const MARKER = /^\s*(?:[-*+•]|\d+[.)])\s+(?:\[[ xX]\]\s*)?/;
export const MAX_STEP = 500; // characters a step keeps: a plan is read at a glance

/** The steps of the text the user edited: one a line, without a list marker or box typed before it.
 * @param {string} text @returns {string[]} */
export function stepsOf(text) {
  return String(text)
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => line.replace(CONTROL, " ").replace(MARKER, "").trim().slice(0, MAX_STEP))
    .filter(Boolean);
}

/** The message that carries the approved steps out. @param {string[]} steps */
export function approvedPlan(steps) {
  return `${APPROVED}\n${steps.map((step) => `- [ ] ${step}`).join("\n")}`;
}
