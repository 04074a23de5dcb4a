// Every event a chat sends to the page ({type: "event", chat, event}): kind -> the names of its fields.
// py/agentlite/engine/chat_events.py defines them (one dataclass per kind); buildsys/build/page_facts.py writes
// them to web/src/generated/chat-events.json, the page's only copy. Optional fields (state.round,
// context.stubbed, tool_status.result, ...) may be absent; see the Python docstrings for what each means.
import { events } from "../../generated/chat-events.json";

/** Each event kind's fields and their types (generated beside the table, read by the type check only).
 * @typedef {import("../../generated/chat-event-types").ChatEvents} ChatEvents */
/** An event kind the engine sends; the type check fails on a kind it does not.
 * @typedef {keyof ChatEvents} ChatEventKind */

export const CHAT_EVENTS = Object.freeze(events);

/**
 * Whether `event` is one the engine sends (unknown kinds are ignored by the views).
 * @param {{ kind?: unknown } | null | undefined} event
 */
export const isChatEvent = (event) => Object.hasOwn(CHAT_EVENTS, /** @type {PropertyKey} */ (event?.kind));
