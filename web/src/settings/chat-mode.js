// A chat's mode: Agent (changes the files), Chat (no tools) or Plan (reads, then proposes a plan the
// user edits and approves; docs/plan-mode.md). The mode button goes through them in this order, and the
// URL's `mode=` chooses the mode of the chat open when the page starts.

/** @type {readonly string[]} */
export const MODES = ["agent", "chat", "plan"];

/** @type {Record<string, string>} */
const LABELS = { agent: "Agent", chat: "Chat", plan: "Plan" };

/** The mode after `mode` (the button's next click). @param {string} mode */
export function nextMode(mode) {
  return MODES[(MODES.indexOf(mode) + 1) % MODES.length];
}

/** How the button names a mode. @param {string} mode */
export function modeLabel(mode) {
  return LABELS[mode] ?? LABELS.agent;
}

/** The mode a URL's `mode=` asks for, or null (absent or unknown). @param {string} search */
export function modeFromUrl(search) {
  const wanted = new URLSearchParams(search).get("mode");
  return wanted !== null && MODES.includes(wanted) ? wanted : null;
}
