// What the page keeps of one chat tab. The chat view (chat-view.js) owns it: it makes the record here
// with every field it will ever have, and it alone writes them; other views get it read-only and ask
// the chat view for changes (the type check refuses their writes).

/** @typedef {import("./message-view.js").MessageView} MessageView */
/** @typedef {import("./tool-card.js").ToolCard} ToolCard */

/**
 * @typedef {object} ChatRecord
 * @property {string} id
 * @property {HTMLElement} list the tab's message list
 * @property {MessageView | null} current the assistant message streaming now
 * @property {MessageView | null} lastAssistant the newest assistant message shown (tool cards of a round
 *   that has no message of its own go there)
 * @property {Map<string, ToolCard>} cards the tool cards of the current round, by call id
 * @property {Map<string, string> | null} toolThinking a tool's thinking that came before its call
 * @property {boolean} busy a turn is running
 * @property {string} mode "agent", "chat" or "plan"
 * @property {boolean} used the user sent something or changed the mode (a restore keeps the tab)
 * @property {import("./retry-notice.js").RetryNotices} retries
 * @property {MessageView | null} pendingUser the user's message until its turn starts
 * @property {HTMLElement | null} planEl the plan's box
 * @property {import("./plan-card.js").PlanCard | null} planCard the plan a Plan-mode turn proposed, on its answer
 * @property {HTMLElement | null} banner the error banner of the turn
 * @property {HTMLElement | null} decisions the decision buttons shown
 * @property {boolean} branching the running turn starts a new branch: redraw from the engine's snapshot
 * @property {import("../agent/page/chat-events.js").ChatEvents["context"] | null} context the newest context meter event
 */

/** A new chat's record: every field present from the start.
 * @param {string} id @param {HTMLElement} list @param {string} mode @param {import("./retry-notice.js").RetryNotices} retries
 * @returns {ChatRecord} */
export function chatRecord(id, list, mode, retries) {
  return {
    id,
    list,
    current: null,
    lastAssistant: null,
    cards: new Map(),
    toolThinking: null,
    busy: false,
    mode,
    used: false,
    retries,
    pendingUser: null,
    planEl: null,
    planCard: null,
    banner: null,
    decisions: null,
    branching: false,
    context: null,
  };
}
