// The chat panel: tabs, the messages of the active chat, the composer, and everything a turn shows
// (tool cards, approvals, the error banner with its decisions, retries, why the engine stopped, the
// plan and the context meter). It renders conversation events and reports intents to its callbacks.
import { MessageView } from "./message-view.js";
import { ToolCard, button } from "./tool-card.js";

const DECISION_LABEL = { retry: "Retry", alternative: "Try an alternative", skip: "Skip", cancel: "Cancel" };

export function createChatView(root, actions) {
  const tabsNav = root.querySelector(".tabs");
  const newTab = root.querySelector("[data-testid=chat-tab-new]");
  const messagesEl = root.querySelector(".messages");
  const input = root.querySelector("[data-testid=chat-input]");
  const stop = root.querySelector("[data-testid=chat-stop]");
  const mode = root.querySelector("[data-testid=mode-toggle]");
  const meter = root.querySelector("#context-meter");
  const status = root.querySelector("#status");
  const chats = new Map();
  let active = null;
  let counter = 0;

  function addChat(id = `chat-${++counter}`, title = `Chat ${chats.size + 1}`, chatMode = "agent") {
    const tab = document.createElement("button");
    Object.assign(tab, { type: "button", className: "tab", role: "tab", textContent: title });
    tab.dataset.testid = "chat-tab";
    tab.dataset.chat = id;
    tab.addEventListener("click", () => activate(id));
    tabsNav.insertBefore(tab, newTab);
    const list = document.createElement("div");
    list.className = "message-list";
    messagesEl.append(list);
    chats.set(id, { id, tab, list, current: null, lastAssistant: null, cards: new Map(), busy: false, mode: chatMode });
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
    stop.hidden = !chats.get(id).busy;
    actions.onTabs?.([...chats.keys()], active);
  }

  function showMode(value) {
    mode.dataset.mode = value;
    mode.textContent = value === "agent" ? "Agent" : "Chat";
    mode.setAttribute("aria-label", `Mode: ${mode.textContent} (click to switch)`);
  }

  function setBusy(chat, busy) {
    chat.busy = busy;
    if (chat.id === active) stop.hidden = !busy;
  }

  function submit() {
    const text = input.value.trim();
    if (!text) return;
    const chat = chats.get(active);
    input.value = "";
    const message = new MessageView("user", text);
    chat.list.append(message.el);
    chat.pendingUser = message;
    setBusy(chat, true);
    actions.onSend(chat.id, text, chat.mode);
    scroll(chat);
  }

  function scroll(chat) {
    if (chat.id === active) messagesEl.scrollTop = messagesEl.scrollHeight;
  }

  function notice(chat, className, text) {
    const el = document.createElement("div");
    el.className = `notice ${className}`;
    el.textContent = text;
    chat.list.append(el);
    return el;
  }

  function banner(chat, event) {
    const el = document.createElement("div");
    el.className = "error-banner";
    el.dataset.testid = "error-banner";
    el.dataset.errorType = event.error_type;
    el.setAttribute("role", "alert");
    el.textContent = event.message;
    chat.list.append(el);
    chat.banner = el;
  }

  function decision(chat, event) {
    const box = document.createElement("div");
    box.className = "decisions";
    if (event.advice) box.append(Object.assign(document.createElement("p"), { textContent: event.advice }));
    for (const option of event.options || []) {
      box.append(button(DECISION_LABEL[option] || option, `decision-${option}`, () => actions.onDecide(chat.id, option)));
    }
    if (event.settings) box.append(button("Open settings", "", () => root.querySelector("[data-testid=settings-open]").click()));
    (chat.banner || chat.list).append(box);
    chat.decisions = box;
  }

  function card(chat, id, name) {
    let found = chat.cards.get(id);
    if (!found) {
      found = new ToolCard(id, name, { onApprove: (callId, ok, batch) => actions.onApprove(chat.id, callId, ok, batch) });
      chat.cards.set(id, found);
      (chat.current || chat.lastAssistant)?.el.append(found.el);
    } else if (name && found.el.dataset.tool !== name) found.rename(name);
    return found;
  }

  function turnStart(chat, event) {
    const user = chat.pendingUser;
    chat.pendingUser = null;
    if (!user || !event.turn) return;
    const restore = button("Restore files to before this turn", "restore-turn", () => actions.onRestoreTurn(chat.id, event.turn));
    restore.dataset.turn = event.turn;
    restore.className = "restore-turn";
    user.el.append(restore);
  }

  function plan(chat, event) {
    chat.planEl ??= notice(chat, "plan", "");
    const list = document.createElement("ul");
    for (const step of event.steps) {
      const item = document.createElement("li");
      item.textContent = `${step.done ? "☑" : "☐"} ${step.text}`;
      list.append(item);
    }
    chat.planEl.replaceChildren(Object.assign(document.createElement("strong"), { textContent: "Plan" }), list);
  }

  const HANDLERS = {
    turn_start: turnStart,
    title: (chat, e) => (chat.tab.textContent = e.title),
    state: (chat, e) => chat.id === active && (status.textContent = `State: ${e.state}`),
    message_start: (chat, e) => {
      chat.current = new MessageView(e.role);
      chat.lastAssistant = chat.current;
      chat.cards = new Map(); // call ids are only unique within one round
      if (e.turn) chat.current.el.dataset.turn = e.turn;
      chat.list.append(chat.current.el);
    },
    text: (chat, e) => chat.current?.appendText(e.text),
    thinking: (chat, e) => (e.tool_id && chat.cards.get(e.tool_id) ? chat.cards.get(e.tool_id).thinking(e.text) : chat.current?.appendThinking(e.text)),
    tool_started: (chat, e) => card(chat, e.id, e.name),
    tool_preview: (chat, e) => card(chat, e.id).preview(e.field, e.text),
    tool_status: (chat, e) => card(chat, e.id, e.name).status(e),
    approval: (chat, e) => card(chat, e.id, e.name).askApproval(e),
    message_end: (chat, e) => {
      if (chat.current) chat.current.state = e.state;
      chat.current = null;
    },
    retry: (chat, e) => notice(chat, "retry", `Retrying (${e.attempt}/${e.of}) in ${Math.round(e.wait_s)} s: ${e.message}`),
    turn_error: banner,
    decision,
    decision_made: (chat) => chat.decisions?.remove(),
    stopped: (chat, e) => notice(chat, "stopped", e.message),
    notice: (chat, e) => notice(chat, `note ${e.level || ""}`, e.message),
    dialect: (chat, e) => notice(chat, "note", `Tool-call dialect: ${e.dialect} (${e.reason})`),
    plan,
    context: (chat, e) => {
      chat.context = e;
      if (chat.id === active && meter) meter.textContent = `context ${e.used.toLocaleString()} / ${e.window.toLocaleString()}`;
    },
    turn_end: (chat) => {
      setBusy(chat, false);
      chat.banner = null;
    },
  };

  function handle(chatId, event) {
    const chat = chats.get(chatId) || chats.get(addChat(chatId));
    HANDLERS[event.kind]?.(chat, event);
    scroll(chat);
  }

  root.querySelector(".composer").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && chats.get(active)?.busy) actions.onStop(active);
  });
  stop.addEventListener("click", () => actions.onStop(active));
  newTab.addEventListener("click", () => addChat());
  mode.addEventListener("click", () => {
    const chat = chats.get(active);
    chat.mode = chat.mode === "agent" ? "chat" : "agent";
    showMode(chat.mode);
  });

  addChat();
  return { handle, activeChat: () => active };
}
