// A restored chat shown again after a reload: its user and assistant messages as they ended (text,
// thinking, state) and each tool call as a card with its final status and result. Tool results follow
// the assistant message that made the calls; call ids are unique only within that message.
import { MessageView } from "./message-view.js";

export function replayMessages(messages, { user, assistant, card }) {
  let calls = new Map();
  for (const message of messages || []) {
    if (message.role === "user") user(new MessageView("user", message.content || ""), message.turn, message);
    else if (message.role === "assistant") calls = showAssistant(message, assistant, card);
    else if (message.role === "tool") finishCall(calls.get(message.tool_call_id), message);
  }
}

function showAssistant(message, assistant, card) {
  const view = new MessageView("assistant", message.content || "");
  if (message.thinking) {
    view.appendThinking(message.thinking);
    view.thinking.open = false;
  }
  if (message.turn) view.el.dataset.turn = message.turn;
  view.state = message.state || "done";
  assistant(view, message);
  const calls = new Map();
  for (const call of message.tool_calls || []) {
    const shown = card(view, call.id, call.name);
    shown.status({ status: "pending", arguments: call.arguments });
    calls.set(call.id, shown);
  }
  return calls;
}

function finishCall(shown, message) {
  if (!shown) return;
  const status = message.status || (message.ok ? "completed" : "failed");
  shown.status({ status, result: message.result || { message: message.content || "", code: message.ok ? 0 : 1 } });
}
