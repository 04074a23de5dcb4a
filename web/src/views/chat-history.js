// A restored chat shown again after a reload: its user and assistant messages as they ended (text,
// thinking, state) and each tool call as a card with its final status and result. Tool results follow
// the assistant message that made the calls; call ids are unique only within that message.
import { MessageView } from "./message-view.js";

/** @typedef {import("./tool-card.js").ToolCard} ToolCard */
/** What to do with each message shown: a user message (with its turn), an assistant one, and the card of
 * one of its calls (the caller puts it in the message).
 * @typedef {{user: (message: MessageView, turn: string | undefined, data: SavedMessage) => void,
 *   assistant: (message: MessageView, data: SavedMessage) => void,
 *   card: (message: MessageView, id: string, name: string) => ToolCard}} Replay */

/** @param {SavedMessage[] | undefined} messages @param {Replay} replay */
export function replayMessages(messages, { user, assistant, card }) {
  /** @type {Map<string, ToolCard>} */
  let calls = new Map();
  for (const message of messages || []) {
    if (message.role === "user") user(new MessageView("user", message.content || ""), message.turn, message);
    else if (message.role === "assistant") calls = showAssistant(message, assistant, card);
    else if (message.role === "tool") finishCall(calls.get(/** @type {string} */ (message.tool_call_id)), message);
  }
}

/** @param {SavedMessage} message @param {Replay["assistant"]} assistant @param {Replay["card"]} card */
function showAssistant(message, assistant, card) {
  const view = new MessageView("assistant", message.content || "");
  if (message.thinking) {
    view.appendThinking(message.thinking);
    /** @type {HTMLDetailsElement} */ (view.thinking).open = false;
  }
  if (message.turn) view.el.dataset.turn = message.turn;
  view.state = message.state || "done";
  assistant(view, message);
  /** @type {Map<string, ToolCard>} */
  const calls = new Map();
  for (const call of message.tool_calls || []) {
    const shown = card(view, call.id, call.name);
    shown.status({ status: "pending", arguments: call.arguments });
    calls.set(call.id, shown);
  }
  return calls;
}

/** @param {ToolCard | undefined} shown @param {SavedMessage} message */
function finishCall(shown, message) {
  if (!shown) return;
  const status = message.status || (message.ok ? "completed" : "failed");
  shown.status({ status, result: message.result || { message: message.content || "", code: message.ok ? 0 : 1 } });
}
