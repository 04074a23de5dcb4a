// Every event a chat sends to the page ({type: "event", chat, event}): kind -> the names of its fields.
// py/agentlite/engine/chat_events.py defines them (one dataclass per kind); tests/unit/test_chat_events.py
// keeps the two in step. Optional fields (state.round, context.stubbed, tool_status.result, ...) may be
// absent; see the Python docstrings for what each field means.

export const CHAT_EVENTS = Object.freeze({
  // turn and state
  turn_start: ["turn", "id", "text", "mode", "dialect", "regenerate"],
  state: ["state", "previous", "round"],
  turn_end: ["turn", "state", "rounds"],
  title: ["title"],
  // assistant messages
  message_start: ["id", "role", "turn", "round"],
  message_end: ["id", "state"],
  // tool calls
  tool_status: ["id", "name", "status", "arguments", "reason", "result", "duration_ms"],
  approval: ["id", "name", "arguments", "reason", "batch"],
  // errors, retries and decisions
  retry: ["attempt", "of", "wait_s", "error_type", "message"],
  turn_error: ["error_type", "message", "status", "code", "provider_type", "retry_after", "final"],
  decision: ["error_type", "reason", "message", "advice", "options", "settings"],
  decision_made: ["choice"],
  dialect: ["dialect", "reason"],
  stopped: ["reason", "message"],
  notice: ["level", "message"],
  // context, plan and memory
  context: ["used", "window", "limit", "source", "stubbed", "summarized", "instructions"],
  summary: ["covered", "source", "text"],
  plan: ["turn", "steps"],
  memory: ["action", "memory"],
  // forwarded from the stream decoder
  text: ["text"],
  thinking: ["text", "tool_id"],
  tool_started: ["id", "name"],
  tool_preview: ["id", "field", "text"],
  tool_ready: ["id", "name", "arguments", "note"],
  tool_invalid: ["id", "reason", "name"],
  protocol_note: ["message"],
  usage: ["prompt_tokens", "completion_tokens", "total_tokens"],
  finish: ["reason"],
});

/** Whether `event` is one the engine sends (unknown kinds are ignored by the views). */
export const isChatEvent = (event) => Object.hasOwn(CHAT_EVENTS, event?.kind);
