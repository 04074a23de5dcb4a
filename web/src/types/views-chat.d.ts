// Shapes the chat views read from the worker's answers (chats.snapshot, chats.restore, chats.import):
// what py/agentlite keeps of a chat, as far as the page reads it.

/** One call of an assistant message, as stored. */
interface SavedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One stored message of a chat (user, assistant or tool), with where it sits in the chat tree. */
interface SavedMessage {
  role: string;
  content?: string | null;
  id?: string;
  turn?: string;
  node?: string;
  branch?: number;
  branches?: number;
  thinking?: string | null;
  state?: string;
  tool_calls?: SavedToolCall[] | null;
  tool_call_id?: string;
  status?: string;
  ok?: boolean;
  result?: Record<string, unknown> | null;
  attachments?: unknown[];
}

/** A chat as the engine hands it to the page. */
interface ChatSnapshot {
  id: string;
  title?: string;
  settings?: { mode?: string } | null;
  messages: SavedMessage[];
  plan?: import("../generated/chat-event-types").ChatEvents["plan"] | null;
  notes?: unknown;
}

/** The saved tabs (chats.restore). */
interface SavedChats {
  chats?: ChatSnapshot[];
  active?: string | null;
}
