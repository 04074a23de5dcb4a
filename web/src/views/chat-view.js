// The chat panel: tabs, the messages of the active chat, the composer, and everything a turn shows
// (tool cards, approvals, the error banner with its decisions, retries, why the engine stopped, the
// plan, a proposed plan to edit and approve, and the context meter). It renders conversation events, shows restored chats again after a
// reload, and reports intents to its callbacks.
import { isChatEvent } from "../agent/page/chat-events.js";
import { button, el } from "./dom.js";
import { createBranchControls } from "./branch-controls.js";
import { chatRecord } from "./chat-record.js";
import { replayMessages } from "./chat-history.js";
import { createTabStrip } from "./chat-tabs.js";
import { sentAttachments } from "./attachment-chips.js";
import { createAttachmentTray } from "./composer-attachments.js";
import { createComposer } from "./composer.js";
import { modeLabel, nextMode } from "../settings/chat-mode.js";
import { PlanCard } from "./plan-card.js";
import { approvedPlan } from "./plan-steps.js";
import { warmUp } from "./markdown.js";
import { MessageView } from "./message-view.js";
import { RetryNotices } from "./retry-notice.js";
import { ToolCard } from "./tool-card.js";

/** @typedef {import("./chat-record.js").ChatRecord} ChatRecord */
/** @typedef {import("../agent/page/chat-events.js").ChatEventKind} ChatEventKind */
/** @typedef {import("../agent/page/chat-events.js").ChatEvents} ChatEvents */

/** What the chat view asks of the page: the worker's chat calls and the workspace look-ups it needs.
 * @typedef {object} ChatActions
 * @property {(id: string, text: string, mode: string, extra?: Record<string, unknown>) => unknown} onSend
 * @property {(id: string) => unknown} onStop
 * @property {(id: string, call: string, approved: boolean, batch: boolean, ask?: string) => unknown} onApprove
 * @property {(id: string, choice: string) => unknown} onDecide
 * @property {(chatId: string, turn: string) => Promise<unknown>} onRestoreTurn
 * @property {(order: string[], active: string | null) => unknown} [onTabs]
 * @property {(id: string) => unknown} [onClose]
 * @property {(id: string, title: string) => unknown} [onRename]
 * @property {(id: string, mode: string) => unknown} [onMode]
 * @property {string | null} [startMode] the mode of the chat open when the page starts (the URL's `mode=`)
 * @property {(id: string, node: string, index: number) => Promise<ChatSnapshot | null | undefined | void>} onSwitch
 * @property {(id: string) => Promise<ChatSnapshot | null | undefined | void>} snapshot
 * @property {(id: string, message: string) => Promise<string | null>} restorePoint
 * @property {() => Promise<unknown>} listFiles
 * @property {(path: string, version: number) => Promise<unknown>} loadDiff
 * @property {(path: string, text: string) => Promise<import("./approval-view.js").WriteStat>} previewWrite
 * @property {(name: string, server: boolean) => Promise<unknown>} allowRemote
 * @property {() => Promise<boolean>} takesImages
 * @property {(name: string, id: string) => Promise<string>} saveAttachment
 */

/** @type {Record<string, string | undefined>} */
const DECISION_LABEL = {
  retry: "Retry",
  alternative: "Try an alternative",
  skip: "Skip",
  cancel: "Cancel",
  without_images: "Retry without images",
};

/** @param {ParentNode} root @param {ChatActions} actions */
export function createChatView(root, actions) {
  let startMode = actions.startMode ?? null;
  const tabList = /** @type {HTMLElement} */ (root.querySelector(".tab-list"));
  const newTab = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=chat-tab-new]"));
  const messagesEl = /** @type {HTMLElement} */ (root.querySelector(".messages"));
  const input = /** @type {HTMLTextAreaElement} */ (root.querySelector("[data-testid=chat-input]"));
  const stop = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=chat-stop]"));
  const mode = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=mode-toggle]"));
  const meter = /** @type {HTMLElement} */ (root.querySelector("#context-meter"));
  const status = /** @type {HTMLElement} */ (root.querySelector("#status"));
  const form = /** @type {HTMLFormElement} */ (root.querySelector(".composer"));
  const composer = createComposer(form, { listFiles: actions.listFiles });
  const tray = createAttachmentTray(form, {
    takesImages: actions.takesImages,
    send: () => submit(),
    saveToWorkspace: actions.saveAttachment,
  });
  const branches = createBranchControls(root, {
    onRegenerate: (chat) => {
      setBusy(chat, true);
      actions.onSend(chat.id, "", chat.mode, { regenerate: true });
    },
    restorePoint: (chat, message) => (message ? actions.restorePoint(chat.id, message) : Promise.resolve(null)),
    branchFrom: (chat, el) => {
      while (el.nextSibling) el.nextSibling.remove();
      if (chat.planEl && !chat.planEl.isConnected) chat.planEl = null;
      if (chat.planCard && !chat.planCard.el.isConnected) chat.planCard = null;
      if (chat.lastAssistant && !chat.lastAssistant.el.isConnected) chat.lastAssistant = null;
      chat.banner = null;
      chat.branching = true;
    },
    onSwitch: (chat, node, index) =>
      actions.onSwitch(chat.id, node, index).then((snapshot) => snapshot && fill(chat, snapshot)),
  });
  /** @type {Map<string, ChatRecord>} */
  const chats = new Map();
  /** @type {Set<string>} */
  const closed = new Set(); // chats the user closed: late events of their turns are dropped
  /** @type {string | null} */
  let active = null;
  let counter = 0;
  let restored = false; // the saved tab layout is only written once the saved tabs are back
  const tabs = createTabStrip(tabList, {
    onActivate: (id) => activate(id),
    onClose: (id) => closeChat(id),
    onRename: (id, title) => actions.onRename?.(id, title),
  });

  function newChatId() {
    return `chat-${Date.now().toString(36)}-${++counter}`;
  }

  function addChat(id = newChatId(), title = `Chat ${chats.size + 1}`, chatMode = "agent") {
    tabs.add(id, title);
    const list = document.createElement("div");
    list.className = "message-list";
    list.setAttribute("role", "tabpanel");
    messagesEl.append(list);
    chats.set(id, chatRecord(id, list, chatMode, new RetryNotices()));
    activate(id);
    return id;
  }

  /** @param {string} id */
  function activate(id) {
    if (id !== active) branches.cancelEdit();
    active = id;
    tabs.select(id);
    for (const chat of chats.values()) chat.list.hidden = chat.id !== id;
    const chat = /** @type {ChatRecord} */ (chats.get(id));
    showMode(chat.mode);
    stop.hidden = !chat.busy;
    showMeter(chat.context);
    saveTabs();
  }

  function saveTabs() {
    if (restored) actions.onTabs?.(tabs.order(), active);
  }

  /** @param {string} id */
  function closeChat(id) {
    const chat = chats.get(id);
    if (!chat) return;
    const order = tabs.order();
    const neighbour = order[order.indexOf(id) + 1] ?? order[order.indexOf(id) - 1];
    tabs.remove(id);
    chat.list.remove();
    chats.delete(id);
    closed.add(id);
    if (chat.busy) actions.onStop(id);
    actions.onClose?.(id);
    if (neighbour) activate(neighbour);
    else openNewChat();
  }

  function openNewChat() {
    const id = addChat();
    actions.onMode?.(id, /** @type {ChatRecord} */ (chats.get(id)).mode); // saved at once, so an empty tab survives a reload too
    return id;
  }

  /** @param {SavedChats} [saved] */
  function restore({ chats: saved = [], active: savedActive = null } = {}) {
    restored = true;
    if (!saved.length) return saveTabs();
    restored = false;
    const keep = [...chats.values()].filter((chat) => chat.used || chat.busy).map((chat) => chat.id);
    for (const chat of [...chats.values()]) if (!keep.includes(chat.id)) dropChat(chat.id);
    for (const snapshot of saved) if (!chats.has(snapshot.id)) restoreChat(snapshot);
    restored = true;
    const wanted = /** @type {string} */ (
      keep.at(-1) ?? (chats.has(/** @type {string} */ (savedActive)) ? savedActive : saved[0].id)
    );
    if (!chats.has(wanted)) return;
    if (startMode && !keep.length) /** @type {ChatRecord} */ (chats.get(wanted)).mode = startMode;
    startMode = null;
    activate(wanted);
  }

  /** @param {string} id */
  function dropChat(id) {
    tabs.remove(id);
    /** @type {ChatRecord} */ (chats.get(id)).list.remove();
    chats.delete(id);
  }

  /** @param {ChatSnapshot} snapshot */
  function restoreChat(snapshot) {
    const title = snapshot.title || `Chat ${chats.size + 1}`;
    fill(
      /** @type {ChatRecord} */ (chats.get(addChat(snapshot.id, title, snapshot.settings?.mode || "agent"))),
      snapshot,
    );
  }

  /** Show a chat's messages from its snapshot (after a reload, or on a new active branch). */
  /** @param {ChatRecord} chat @param {ChatSnapshot} snapshot */
  function fill(chat, snapshot) {
    branches.cancelEdit(chat);
    chat.list.replaceChildren();
    chat.planEl = chat.banner = chat.lastAssistant = chat.planCard = null;
    replayMessages(snapshot.messages, {
      user: (message, turn, data) => {
        withAttachments(message, data?.attachments);
        chat.list.append(message.el);
        if (turn) addRestoreButton(chat, message, turn);
        branches.user(chat, message, data);
      },
      assistant: (message, data) => {
        chat.list.append(message.el);
        chat.lastAssistant = message;
        branches.assistant(chat, message, data);
      },
      card: (message, id, name) => {
        const shown = new ToolCard(id, name, { onApprove: () => {}, loadDiff: actions.loadDiff });
        message.el.insertBefore(shown.el, message.el.querySelector(":scope > .message-actions"));
        return shown;
      },
    });
    if (snapshot.plan?.proposed) propose(chat, snapshot.plan);
    else if (snapshot.plan) plan(chat, snapshot.plan);
    chat.cards = new Map();
    branches.lastAnswer(chat);
  }

  /** An imported chat: a new tab, shown at once. */
  /** @param {ChatSnapshot} snapshot */
  function open(snapshot) {
    restoreChat(snapshot);
    /** @type {ChatRecord} */ (chats.get(snapshot.id)).used = true;
  }

  /** @param {string} value */
  function showMode(value) {
    mode.dataset.mode = value;
    mode.textContent = modeLabel(value);
    mode.setAttribute("aria-label", `Mode: ${mode.textContent} (click for ${modeLabel(nextMode(value))})`);
    composer.allowTools(value === "agent");
  }

  /** @param {MessageView} message @param {unknown} attachments */
  function withAttachments(message, attachments) {
    const row = sentAttachments(attachments);
    if (row) message.el.append(row);
  }

  /** @param {ChatRecord} chat @param {boolean} busy */
  function setBusy(chat, busy) {
    chat.busy = busy;
    chat.list.dataset.busy = String(busy);
    if (chat.id === active) stop.hidden = !busy;
  }

  function submit() {
    const text = input.value.trim();
    if (!text && !tray.has()) return;
    if (!tray.ready()) return;
    const chat = /** @type {ChatRecord} */ (chats.get(/** @type {string} */ (active)));
    const attachments = tray.take();
    const extra = { ...composer.takeTurnOptions(text), ...(attachments.length && { attachments }) };
    const edit = branches.takeEdit(chat);
    input.value = "";
    withAttachments(shownUser(chat, text), attachments);
    if (!edit) return actions.onSend(chat.id, text, chat.mode, extra);
    const send = () => actions.onSend(chat.id, text, chat.mode, { ...extra, edit: edit.edit });
    if (edit.restoreTurn) actions.onRestoreTurn(chat.id, edit.restoreTurn).finally(send);
    else send();
    scroll(chat);
  }

  /** The user's message shown at once, until its turn starts. @param {ChatRecord} chat @param {string} text */
  function shownUser(chat, text) {
    const message = new MessageView("user", text);
    chat.list.append(message.el);
    chat.pendingUser = message;
    chat.used = true;
    setBusy(chat, true);
    return message;
  }

  /** "Approve plan": the chat switches to Agent mode and carries the steps out, sent as its next message.
   * @param {ChatRecord} chat @param {string[]} steps */
  function approve(chat, steps) {
    setMode(chat, "agent");
    const text = approvedPlan(steps);
    shownUser(chat, text);
    actions.onSend(chat.id, text, chat.mode);
    scroll(chat);
  }

  /** @param {ChatRecord} chat @param {string} value */
  function setMode(chat, value) {
    chat.mode = value;
    chat.used = true;
    if (chat.id === active) showMode(value);
    actions.onMode?.(chat.id, value);
  }

  /** Keep the newest output in view: once per animation frame, as reading scrollHeight after every
   * streamed chunk would lay the page out again each time. */
  let scrolling = 0;
  function scroll(/** @type {ChatRecord} */ chat) {
    if (chat.id !== active || scrolling) return;
    scrolling = requestAnimationFrame(() => {
      scrolling = 0;
      messagesEl.scrollTop = messagesEl.scrollHeight;
    });
  }

  /** @param {ChatRecord} chat @param {string} className @param {string} text */
  function notice(chat, className, text) {
    const box = el("div", `notice ${className}`, text);
    chat.list.append(box);
    return box;
  }

  /** @param {ChatRecord} chat @param {{message: string, error_type: string}} event */
  function banner(chat, event) {
    const box = el("div", "error-banner", event.message, { testid: "error-banner", role: "alert" });
    box.dataset.errorType = event.error_type;
    chat.list.append(box);
    chat.banner = box;
  }

  /** @param {ChatRecord} chat @param {ChatEvents["decision"]} event */
  function decision(chat, event) {
    const box = document.createElement("div");
    box.className = "decisions";
    if (event.advice) box.append(Object.assign(document.createElement("p"), { textContent: event.advice }));
    for (const option of event.options || []) {
      // after a loop stop, "retry" lets the agent go on with the same calls
      const label = event.reason === "loop" && option === "retry" ? "Let it go on" : DECISION_LABEL[option] || option;
      box.append(button(label, `decision-${option}`, () => actions.onDecide(chat.id, option)));
    }
    if (event.settings)
      box.append(
        button("Open settings", "", () =>
          /** @type {HTMLElement} */ (root.querySelector("[data-testid=settings-open]")).click(),
        ),
      );
    (chat.banner || chat.list).append(box);
    chat.decisions = box;
  }

  /** The call's card, made on its first event. @param {ChatRecord} chat @param {string} id @param {string} [name] */
  function card(chat, id, name) {
    let found = chat.cards.get(id);
    if (!found) {
      found = new ToolCard(id, /** @type {string} */ (name), {
        onApprove: (callId, ok, batch, ask) => actions.onApprove(chat.id, callId, ok, batch, ask),
        loadDiff: actions.loadDiff,
        previewWrite: actions.previewWrite,
        allowRemote: actions.allowRemote,
      });
      chat.cards.set(id, found);
      (chat.current || chat.lastAssistant)?.el.append(found.el);
      if (chat.toolThinking?.has(id)) found.thinking(/** @type {string} */ (chat.toolThinking.get(id)));
      chat.toolThinking?.delete(id);
    } else if (name && found.el.dataset.tool !== name) found.rename(name);
    return found;
  }

  /** @param {ChatRecord} chat @param {ChatEvents["turn_start"]} event */
  function turnStart(chat, event) {
    chat.planCard?.finish("superseded");
    const user = chat.pendingUser;
    chat.pendingUser = null;
    if (user && event.turn) addRestoreButton(chat, user, event.turn);
    if (user) branches.user(chat, user, { id: event.id, turn: event.turn });
  }

  /** A turn ended: the newest answer can be regenerated; after a new branch the page shows the
   * engine's view of it (with its version switchers). */
  function turnEnded(/** @type {ChatRecord} */ chat) {
    setBusy(chat, false);
    chat.banner = null;
    if (!chat.branching) return branches.lastAnswer(chat);
    chat.branching = false;
    actions.snapshot(chat.id).then((snapshot) => snapshot && !chat.busy && fill(chat, snapshot));
  }

  /** The agent worker was restarted: every running turn ended there. Each shows it ended with an error:
   * its answer so far marked error, its unfinished calls failed, a banner that says why. */
  /** @param {string} message */
  function agentLost(message) {
    for (const chat of chats.values()) {
      if (!chat.busy) continue;
      for (const shown of chat.cards.values()) {
        if (!["completed", "failed", "rejected"].includes(/** @type {string} */ (shown.el.dataset.status))) {
          const reason = "not finished: the agent was restarted";
          shown.status({
            kind: "tool_status",
            id: shown.id,
            name: /** @type {string} */ (shown.el.dataset.tool),
            status: "failed",
            reason,
          });
        }
      }
      if (chat.current) chat.current.state = "error";
      chat.current = null;
      chat.pendingUser = null;
      chat.decisions?.remove();
      banner(chat, { message, error_type: "timeout" });
      turnEnded(chat);
    }
  }

  /** The agent refused a message (it could not take it, or was restarted meanwhile): the chat says
   * so and is free again, instead of waiting for a turn that never starts. A turn already ended by a
   * restart has said why (`agentLost`). @param {string} id @param {string} reason */
  function sendFailed(id, reason) {
    const chat = chats.get(id);
    if (!chat?.busy || chat.current) return;
    chat.pendingUser = null;
    banner(chat, { message: `The message did not reach the agent: ${reason}`, error_type: "send" });
    turnEnded(chat);
  }

  /** @param {ChatRecord} chat @param {MessageView} user @param {string} turn */
  function addRestoreButton(chat, user, turn) {
    const restore = button("Restore files to before this turn", "restore-turn", () =>
      actions.onRestoreTurn(chat.id, turn),
    );
    restore.dataset.turn = turn;
    restore.className = "restore-turn";
    user.el.append(restore);
  }

  /** @param {ChatRecord} chat @param {{steps: Record<string, unknown>[]}} event */
  function plan(chat, event) {
    if (!chat.planEl) {
      chat.planEl = notice(chat, "plan", "");
      chat.planEl.dataset.testid = "plan";
      chat.planEl.setAttribute("aria-label", "Plan");
    }
    const list = document.createElement("ul");
    for (const step of event.steps) {
      const item = document.createElement("li");
      item.textContent = `${step.done ? "☑" : "☐"} ${step.text}`;
      item.dataset.done = String(Boolean(step.done));
      list.append(item);
    }
    chat.planEl.replaceChildren(Object.assign(document.createElement("strong"), { textContent: "Plan" }), list);
  }

  /** The plan a Plan-mode turn ended with, on that turn's answer (when it is the newest one shown).
   * @param {ChatRecord} chat @param {{turn: string, steps: Record<string, unknown>[]}} event */
  function propose(chat, event) {
    const answer = chat.lastAssistant;
    if (!answer || answer.el.dataset.turn !== event.turn) return;
    chat.planCard?.el.remove();
    const steps = event.steps.map((step) => String(step.text ?? "")).filter(Boolean);
    const card = new PlanCard(event.turn, steps, (chosen) => approve(chat, chosen));
    answer.el.insertBefore(card.el, answer.el.querySelector(":scope > .message-actions"));
    chat.planCard = card;
  }

  /** Thinking: the message's own, or (ndjson) a tool's, which may come before its call: kept until then. */
  /** @param {ChatRecord} chat @param {ChatEvents["thinking"]} event */
  function toolThinking(chat, event) {
    if (!event.tool_id) return chat.current?.appendThinking(event.text);
    const shown = chat.cards.get(event.tool_id);
    if (shown) return shown.thinking(event.text);
    chat.toolThinking ??= new Map();
    chat.toolThinking.set(event.tool_id, (chat.toolThinking.get(event.tool_id) || "") + event.text);
  }

  /** Each event kind's handler, which gets that kind's fields (the type check reads them from the engine's events).
   * @type {{[K in ChatEventKind]?: (chat: ChatRecord, e: import("../agent/page/chat-events.js").ChatEvents[K]) => unknown}} */
  const HANDLERS = {
    turn_start: turnStart,
    title: (chat, e) => tabs.setTitle(chat.id, e.title),
    state: (chat, e) => {
      if (chat.id === active) status.textContent = `State: ${e.state}`;
    },
    message_start: (chat, e) => {
      chat.current = new MessageView(e.role);
      chat.lastAssistant = chat.current;
      chat.cards = new Map(); // call ids are only unique within one round
      chat.toolThinking = new Map();
      if (e.turn) chat.current.el.dataset.turn = e.turn;
      chat.list.append(chat.current.el);
    },
    text: (chat, e) => chat.current?.appendText(e.text),
    thinking: toolThinking,
    tool_started: (chat, e) => card(chat, e.id, e.name),
    tool_preview: (chat, e) => card(chat, e.id).preview(e.field, e.text),
    tool_status: (chat, e) => card(chat, e.id, e.name).status(e),
    approval: (chat, e) => card(chat, e.id, e.name).askApproval(e),
    message_end: (chat, e) => {
      const message = chat.current;
      chat.current = null;
      if (!message) return;
      message.state = e.state;
      // A round that failed before any output leaves nothing to show: the banner says what happened.
      if (e.state === "error" && !message.text && !message.thinkingText && chat.cards.size === 0) message.el.remove();
    },
    retry: (chat, e) => chat.retries.add(notice(chat, "retry", ""), e),
    turn_error: banner,
    decision,
    decision_made: (chat) => chat.decisions?.remove(),
    stopped: (chat, e) => {
      const box = notice(chat, "stopped", e.message);
      box.dataset.testid = "stopped-reason";
      box.dataset.reason = e.reason || "";
    },
    notice: (chat, e) => notice(chat, `note ${e.level || ""}`, e.message),
    dialect: (chat, e) => notice(chat, "note", `Tool-call dialect: ${e.dialect} (${e.reason})`),
    plan: (chat, e) => (e.proposed ? propose(chat, e) : plan(chat, e)),
    context: (chat, e) => {
      chat.context = e;
      if (chat.id === active) showMeter(e);
    },
    turn_end: turnEnded,
  };

  /** @param {ChatEvents["context"] | null} context */
  function showMeter(context) {
    const agents = context?.instructions ? ` · AGENTS.md ${context.instructions.toLocaleString()}` : "";
    const rules = agents + (context?.skills ? ` · skills ${context.skills.toLocaleString()}` : "");
    meter.textContent = context
      ? `context ${context.used.toLocaleString()} / ${context.window.toLocaleString()}${rules}`
      : "";
    meter.dataset.instructions = context?.instructions ? String(context.instructions) : "";
    meter.dataset.used = context ? String(context.used) : "";
    meter.dataset.window = context ? String(context.window) : "";
  }

  /** An event the worker sent (checked here: unknown kinds are dropped).
   * @param {string} chatId @param {ChatEvents[ChatEventKind]} event */
  function handle(chatId, event) {
    if (closed.has(chatId) || !isChatEvent(event)) return;
    const chat = /** @type {ChatRecord} */ (chats.get(chatId) || chats.get(addChat(chatId)));
    chat.retries.see(event);
    /** @type {((chat: ChatRecord, e: ChatEvents[ChatEventKind]) => unknown) | undefined} */ (HANDLERS[event.kind])?.(
      chat,
      event,
    );
    scroll(chat);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  // Esc stops the running turn only where the user is working with the chat: not in the settings dialog
  // or the editor (where Esc means something else), nor while editing a memory.
  /** @type {HTMLElement} */ (root.querySelector(".panel.chat")).addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || /** @type {Element} */ (event.target).closest(".memory-panel")) return;
    if (chats.get(/** @type {string} */ (active))?.busy) actions.onStop(/** @type {string} */ (active));
  });
  stop.addEventListener("click", () => actions.onStop(/** @type {string} */ (active)));
  newTab.addEventListener("click", () => openNewChat());
  mode.addEventListener("click", () => {
    const chat = /** @type {ChatRecord} */ (chats.get(/** @type {string} */ (active)));
    setMode(chat, nextMode(chat.mode));
  });

  addChat(undefined, undefined, startMode ?? "agent");
  (window.requestIdleCallback ?? setTimeout).call(window, () => warmUp());
  /** Send `text` from the composer, as if the user typed it (the first screen's examples). */
  /** @param {string} text */
  function send(text) {
    input.value = text;
    submit();
  }

  return {
    handle,
    restore,
    open,
    send,
    agentLost,
    sendFailed,
    activeChat: () => active,
    visionChanged: tray.visionChanged,
  };
}
