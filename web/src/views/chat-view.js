// The chat panel: tabs, the messages of the active chat, the composer, and the error banner.
// It renders conversation events and reports user intents (send, stop, new tab) to its callbacks.
import { MessageView } from "./message-view.js";

export function createChatView(root, { onSend, onStop, onModeChange }) {
  const tabsNav = root.querySelector(".tabs");
  const newTab = root.querySelector("[data-testid=chat-tab-new]");
  const messagesEl = root.querySelector(".messages");
  const input = root.querySelector("[data-testid=chat-input]");
  const send = root.querySelector("[data-testid=chat-send]");
  const stop = root.querySelector("[data-testid=chat-stop]");
  const mode = root.querySelector("[data-testid=mode-toggle]");
  const chats = new Map();
  let active = null;
  let counter = 0;

  function addChat() {
    const id = `chat-${++counter}`;
    const tab = document.createElement("button");
    tab.type = "button";
    tab.className = "tab";
    tab.role = "tab";
    tab.dataset.testid = "chat-tab";
    tab.dataset.chat = id;
    tab.textContent = `Chat ${counter}`;
    tab.addEventListener("click", () => activate(id));
    tabsNav.insertBefore(tab, newTab);
    const list = document.createElement("div");
    list.className = "message-list";
    messagesEl.append(list);
    chats.set(id, { id, tab, list, current: null, busy: false, mode: "agent" });
    activate(id);
    return id;
  }

  function activate(id) {
    active = id;
    for (const chat of chats.values()) {
      const on = chat.id === id;
      chat.tab.dataset.active = String(on);
      chat.tab.setAttribute("aria-selected", String(on));
      chat.list.hidden = !on;
    }
    showMode(chats.get(id).mode);
    showBusy();
  }

  function showMode(value) {
    mode.dataset.mode = value;
    mode.textContent = value === "agent" ? "Agent" : "Chat";
    mode.setAttribute("aria-label", `Mode: ${mode.textContent} (click to switch)`);
  }

  function showBusy() {
    const busy = chats.get(active).busy;
    stop.hidden = !busy;
  }

  function submit() {
    const text = input.value.trim();
    if (!text) return;
    const chat = chats.get(active);
    input.value = "";
    chat.list.querySelector(".error-banner")?.remove();
    const message = new MessageView("user", text);
    chat.list.append(message.el);
    chat.busy = true;
    showBusy();
    onSend(chat.id, text, chat.mode);
    messagesEl.scrollTop = messagesEl.scrollHeight;
  }

  root.querySelector(".composer").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    } else if (event.key === "Escape") onStop(active);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && chats.get(active).busy) onStop(active);
  });
  send.addEventListener("click", (event) => {
    event.preventDefault();
    submit();
  });
  stop.addEventListener("click", () => onStop(active));
  newTab.addEventListener("click", () => addChat());
  mode.addEventListener("click", () => {
    const chat = chats.get(active);
    chat.mode = chat.mode === "agent" ? "chat" : "agent";
    showMode(chat.mode);
    onModeChange?.(chat.id, chat.mode);
  });

  function banner(chat, { error_type, message }) {
    const el = document.createElement("div");
    el.className = "error-banner";
    el.dataset.testid = "error-banner";
    el.dataset.errorType = error_type;
    el.setAttribute("role", "alert");
    el.textContent = message;
    chat.list.append(el);
  }

  function handle(chatId, event) {
    const chat = chats.get(chatId);
    if (!chat) return;
    const current = chat.current;
    switch (event.kind) {
      case "message_start":
        chat.current = new MessageView(event.role);
        chat.list.append(chat.current.el);
        break;
      case "text":
        current?.appendText(event.text);
        break;
      case "thinking":
        current?.appendThinking(event.text);
        break;
      case "tool_started":
        current?.toolCard(event.id, event.name);
        break;
      case "tool_preview":
        current?.toolPreview(event.id, event.field, event.text);
        break;
      case "tool_status":
        current?.toolCard(event.id, event.name).setAttribute("data-status", event.status);
        break;
      case "message_end":
        if (current) current.state = event.state;
        chat.current = null;
        break;
      case "turn_error":
        banner(chat, event);
        break;
      case "turn_end":
        chat.busy = false;
        if (chatId === active) showBusy();
        break;
      default:
        break;
    }
    if (chatId === active) messagesEl.scrollTop = messagesEl.scrollHeight;
  }

  addChat();
  return { handle, activeChat: () => active };
}
