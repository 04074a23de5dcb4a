// Wiring only: the agent client, the views, the settings and the testing API.
import "./browser/frame-guard.js"; // first: a framed page stops here, before any other module runs
import { AgentClient } from "./agent/page/agent-client.js";
import { createEditorContext } from "./agent/page/editor-context.js";
import { MSG } from "./agent/common/protocol.js";
import * as persistence from "./browser/persistence.js";
import * as settingsStore from "./settings/settings.js";
import { createChatExport } from "./views/chat-export.js";
import { createChatView } from "./views/chat-view.js";
import { modeFromUrl } from "./settings/chat-mode.js";
import { askEndpoint } from "./views/endpoint-question.js";
import { createCodeActions } from "./views/code-actions.js";
import { createFilesView } from "./views/files-view.js";
import { createFolderOpenView } from "./views/folder-open-view.js";
import { createFollowView } from "./views/follow-view.js";
import { createLoadView } from "./views/load-view.js";
import { createMcpTokens } from "./mcp/page/mcp-tokens.js";
import { createMcpView } from "./views/mcp-view.js";
import { createMemoryView } from "./views/memory-view.js";
import { createPanelSwitcher } from "./views/panel-switcher.js";
import { createPreviewView } from "./views/preview-view.js";
import { createProposal } from "./views/proposal.js";
import { createReviewView } from "./views/review-view.js";
import { createSettingsView } from "./views/settings-view.js";
import { createSkillCommand } from "./views/skill-command.js";
import { createSkillsView } from "./views/skills-view.js";
import { createStorageNotice } from "./views/storage-notice.js";
import { createUpdateNotice } from "./views/update-notice.js";
import { createWorkerNotice } from "./views/worker-notice.js";
import { startOffline } from "./browser/offline.js";
import { peekFiles } from "./agent/page/workspace-peek.js";
import { currentProject } from "./projects/current.js";
import { wireProjects } from "./views/projects-panel.js";
import { createRegistry } from "./projects/registry.js";
import { createWelcomeView } from "./views/welcome-view.js";
import { SandboxHost } from "./sandbox/page/host.js";
import { createLocalModelView, openButton } from "./views/local-model-view.js";
import { LocalModel } from "./local-model/local-model.js";
import { serveWorker } from "./local-model/bridge.js";
import { followLocalModel, withLocalModel } from "./local-model/local-choice.js";
import { installTestingApi } from "./agent/page/testing-api.js";
import { saveAttachment } from "./attachments/attachment-store.js";
import { loadPdfReader } from "./pdf/pdf-loader.js";
import { ProblemsHost } from "./problems/page/problems-host.js";

/** @import { CallMethod, ChatEvent, WorkspaceChange } from "./agent/page/agent-client.js" */
/** @import { CallArgs } from "./generated/call-types" */
/** @import { PageMessage } from "./generated/protocol-types" */
/** @import { ServerView } from "./views/mcp-view.js" */
/** @import { Settings } from "./settings/settings.js" */
/** The worker asks the page for a job (MSG.PAGE_JOB): a sandbox run, a preview, a PDF read.
 * @typedef {{id: number, kind: string, payload: Record<string, unknown>, timeout_ms: number}} PageJob */

const root = /** @type {HTMLElement} */ (document.querySelector("[data-testid=app]"));
const project = currentProject(); // docs/projects.md
const projects = createRegistry();
const client = new AgentClient(new URL("./worker.js", import.meta.url), project.worker);
// A link that names another endpoint than the saved one waits for the user's answer (askEndpoint below).
const linked = settingsStore.linkedEndpoint(localStorage, location.search);
let settings = settingsStore.load(
  localStorage,
  linked ? settingsStore.withoutEndpoint(location.search) : location.search,
  projects.overrides(project.id),
);

const load = createLoadView(root);
client.on("phase", (message) => load.phase(message));
client.on("failed", (/** @type {{phase: string, message: string}} */ failure) => load.failed(failure));

const panels = createPanelSwitcher(root);
const proposal = createProposal(); // the active chat's staged files, as the editor and the preview show them
// A narrow window shows one panel: the Editor's tab counts the files of the active chat's proposal.
proposal.onChange(() => panels.badge("editor", proposal.count(), "files to review"));
const files = createFilesView(root, {
  proposal,
  dropped: (path) => client.call("stage.dropped", { path }),
  call: (/** @type {string} */ method, /** @type {object | undefined} */ args) =>
    client.call(/** @type {CallMethod} */ (`vfs.${method}`), args),
  onChoose: () => panels.show("editor"),
  onShown: (/** @type {string | null} */ path) => {
    codeActions.setOpenFile(path);
    follow.fileShown(path);
    editorContext.shown();
  },
  onSelect: () => editorContext.selected(),
});
const editorContext = createEditorContext({
  current: () => files.current(),
  report: (state) =>
    client
      .call("editor.changed", /** @type {CallArgs<"editor.changed">} */ (state))
      .catch((err) => console.warn("agentlite: editor", err)),
});
const follow = createFollowView(root, {
  call: (/** @type {CallMethod} */ method, /** @type {object | undefined} */ args) => client.call(method, args),
  files,
  staged: () => settings.changes === "review",
});
client.on("event", (/** @type {string} */ _chatId, /** @type {ChatEvent} */ event) => follow.handle(event));
const codeActions = createCodeActions(/** @type {HTMLElement} */ (root.querySelector(".messages")), {
  call: (/** @type {CallMethod} */ method, /** @type {object | undefined} */ args) => client.call(method, args),
  editor: () => files.current(),
  flush: () => files.flush(),
});
const refreshFiles = () =>
  files.refresh().catch((/** @type {unknown} */ err) => console.warn("agentlite: file tree", err));
peekFiles(project.names.database).then((entries) => entries && files.preview(entries)); // before Python: straight from IndexedDB
client.on("ready", () => {
  load.ready();
  refreshFiles();
});
const storageNotice = createStorageNotice(root, {
  onExport: () =>
    client
      .call("vfs.exportZip", { history: true })
      .then((zip) => persistence.saveZip("agentlite-workspace.zip", zip))
      .catch((/** @type {unknown} */ err) => console.warn("agentlite: export", err)),
  onDismiss: () => persistence.dismissWarning(),
  onReload: () => location.reload(),
});
// A "closed" change: another tab upgraded the database; anything else: the workspace changed.
client.on("change", (/** @type {WorkspaceChange} */ change) =>
  change?.type === "closed" ? storageNotice.closed(/** @type {string} */ (change.message)) : refreshFiles(),
);
const preview = createPreviewView(root, {
  call: (/** @type {CallMethod} */ method, /** @type {object | undefined} */ args) => client.call(method, args),
  baseUrl: new URL("./", import.meta.url),
  onOpen: () => panels.show("editor"),
  agentMayRun: () => settings.auto_approve.includes("js"), // every chat's auto-approval (settings.apply)
  proposal,
});
client.on("change", (/** @type {WorkspaceChange} */ change) => change?.type !== "closed" && preview.changed(change));
const folder = createFolderOpenView(root, {
  call: (/** @type {string} */ method, /** @type {object | undefined} */ args) =>
    client.call(/** @type {CallMethod} */ (`vfs.${method}`), args),
  say: (/** @type {string} */ text, /** @type {boolean | undefined} */ failed) => files.say(text, failed),
});
client.on("change", (/** @type {WorkspaceChange} */ change) => folder.changed(change));
// Agent Skills: the files panel's list, read again after each workspace change, and `/name` in the composer.
const listSkills = () => client.call("skills.list");
const skills = createSkillsView(root, {
  list: listSkills,
  onOpen: (/** @type {string} */ path) => {
    panels.show("editor");
    files.openFile(path).catch((/** @type {Error} */ err) => files.say(`Opening ${path} failed: ${err.message}`, true));
  },
});
client.on("ready", () => skills.refresh());
client.on("change", (/** @type {WorkspaceChange} */ change) => change?.type !== "closed" && skills.refresh());
createSkillCommand(/** @type {HTMLFormElement} */ (root.querySelector(".composer")), { listSkills });
client.ready.then(() => folder.restore()).catch((err) => console.warn("agentlite: open folder", err));
persistence.requestPersistence().then((kept) => storageNotice.persistence(kept, persistence.warningDismissed()));

/** A chat's call to the agent; a refusal is logged, or handed to `refused` when the user must see it.
 * @param {CallMethod} method @param {object} [args] @param {(reason: string) => void} [refused] */
const chatCall = (method, args, refused) =>
  client.call(method, args).catch((err) => {
    console.warn(`agentlite: ${method} failed: ${err?.message}`, err);
    refused?.(String(err?.message));
  });
const chat = createChatView(root, {
  startMode: modeFromUrl(location.search), // the URL's `mode=`: the mode of the chat open at start
  onSend: (/** @type {string} */ id, /** @type {string} */ text, /** @type {string} */ mode, extra = {}) =>
    chatCall("chats.send", { id, text, mode, ...extra, ...editorContext.forMessage() }, (reason) =>
      chat.sendFailed(id, reason),
    ),
  onStop: (/** @type {string} */ id) => chatCall("chats.stop", { id }),
  onApprove: (
    /** @type {string} */ id,
    /** @type {string} */ call,
    /** @type {boolean} */ approved,
    /** @type {boolean} */ batch,
    /** @type {string | undefined} */ ask,
  ) => chatCall("chats.approve", { id, call, approved, batch, ask }),
  onDecide: (/** @type {string} */ id, /** @type {string} */ choice) => chatCall("chats.decide", { id, choice }),
  onRestoreTurn: (/** @type {string} */ _chatId, /** @type {string} */ turn) =>
    client.call("vfs.restoreBefore", { turn }).catch((err) => console.warn("agentlite: restore", err)),
  onTabs: (/** @type {string[]} */ order, /** @type {string | null} */ active) => {
    review.refresh();
    return chatCall("chats.tabs", { order, active });
  },
  onClose: (/** @type {string} */ id) => chatCall("chats.close", { id }),
  onRename: (/** @type {string} */ id, /** @type {string} */ title) => chatCall("chats.rename", { id, title }),
  onMode: (/** @type {string} */ id, /** @type {string} */ mode) =>
    chatCall("chats.settings", { id, settings: { mode } }),
  onSwitch: (/** @type {string} */ id, /** @type {string} */ message, /** @type {number} */ index) =>
    chatCall("chats.switch", { id, message, index }),
  snapshot: (/** @type {string} */ id) => chatCall("chats.snapshot", { id }),
  restorePoint: (/** @type {string} */ id, /** @type {string} */ message) =>
    chatCall("chats.restorePoint", { id, message }),
  listFiles: () => client.call("vfs.list", { dir: "/", recursive: true }),
  // a card of the active chat: a staged write's version is on that chat's stage (docs/stage.md)
  loadDiff: (/** @type {string} */ path, /** @type {number} */ version) =>
    client.call("vfs.diff", { path, new: version, chat: chat.activeChat() ?? undefined }),
  previewWrite: (/** @type {string} */ path, /** @type {string} */ text) => client.call("vfs.diffText", { path, text }),
  allowRemote: (/** @type {string} */ name, /** @type {unknown} */ server) => servers.allow(name, server),
  takesImages: () => client.call("settings.takesImages", { settings }),
  saveAttachment: (/** @type {string} */ name, /** @type {string} */ id) =>
    saveAttachment(name, id, (data) => client.call("vfs.saveAttachment", { name, data })),
});
createChatExport(root, {
  activeChat: () => chat.activeChat(),
  exportChat: (/** @type {string | null} */ id, /** @type {string} */ format) =>
    client.call("chats.export", { id: /** @type {string} */ (id), format }), // the view asks only with a chat open
  importChat: (/** @type {string} */ text) =>
    client.call("chats.import", { text }).then((snapshot) => {
      chat.open(snapshot);
      return snapshot.notes;
    }),
});
client.on("event", (/** @type {string} */ chatId, /** @type {ChatEvent} */ event) => chat.handle(chatId, event));
// The review of the active chat's staged changes (docs/review.md), above the editor.
const review = createReviewView(/** @type {HTMLElement} */ (root.querySelector("#panel-editor .editor-head")), {
  call: (method, args) => client.call(/** @type {CallMethod} */ (method), args),
  activeChat: () => chat.activeChat(),
  proposal,
  onRequest: (text) => chat.send(text),
  onEdit: (path) => {
    panels.show("editor");
    files.openFile(path).catch((/** @type {Error} */ err) => files.say(`Opening ${path} failed: ${err.message}`, true));
  },
  onClosed: () => /** @type {HTMLElement} */ (root.querySelector("[data-testid=chat-input]")).focus(),
});
client.on("change", (/** @type {WorkspaceChange} */ change) => change?.type !== "closed" && review.workspaceChanged());
client.on("event", (/** @type {string} */ chatId, /** @type {{kind: string}} */ event) => {
  review.handle(chatId, event);
  if (event.kind === "stage_changed" && chatId === chat.activeChat()) preview.stageChanged();
});
const openSettings = () => /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=settings-open]")).click();
const welcome = createWelcomeView(/** @type {HTMLElement} */ (root.querySelector(".messages")), {
  loadExamples: () => client.call("demo.examples"),
  onExample: (/** @type {string} */ prompt) => chat.send(prompt),
  onConnect: openSettings,
  onLocal: () => localView.open(),
});
welcome.model(settings);
const memory = createMemoryView(root, {
  list: () => client.call("memory.list"),
  update: (/** @type {string} */ id, /** @type {string} */ text) => client.call("memory.update", { id, text }),
  remove: (/** @type {string} */ id) => client.call("memory.delete", { id }),
  add: (/** @type {string} */ text) => client.call("memory.add", { text }),
});
client.on(
  "event",
  (/** @type {string} */ _chatId, /** @type {ChatEvent} */ event) => event.kind === "memory" && memory.refresh(),
);
// Remote MCP servers: connected by the worker in the background once it is ready (never before).
const servers = createMcpView(root, {
  call: (/** @type {string} */ method, /** @type {object | undefined} */ args) =>
    client.call(/** @type {CallMethod} */ (method), args),
  tokens: createMcpTokens(localStorage),
});
client.on("mcp", (view) => servers.update(/** @type {ServerView} */ (view)));
client.ready.then(() => servers.start()).catch(() => {});
// Asked first, so the saved tabs are read before anything the user does can change them.
client
  .call("chats.restore")
  .then(chat.restore, (err) => {
    console.warn("agentlite: saved chats", err);
    chat.restore();
  })
  .then(() => review.refresh());

// The endpoint, the key, the model and the chats' limits reach the agent through this one call.
const applyToAgent = (/** @type {Settings} */ values) => chatCall("settings.apply", { settings: values });
const applySettings = (/** @type {Settings} */ next) => {
  settings = next;
  chat.visionChanged();
  welcome.model(settings);
  settingsStore.save(localStorage, settings);
  projects.setOverrides(project.id, settings); // the project keeps its own limits and approvals
  applyToAgent(settings);
};
createSettingsView(root, {
  getSettings: () => settings,
  onSave: /** @type {(settings: object) => void} */ (applySettings), // the dialog's values, normalized there
  onForgetKey: () => applySettings({ ...settings, api_key: "", remember_key: false, withheld_key_origin: null }),
  testConnection: (values) => client.call("connection.test", { settings: values }),
});
// The model in the page (docs/local-model.md): chosen in its dialog, served to the worker's `local:` requests.
const local = new LocalModel();
const localView = createLocalModelView(root, local, { onUse: () => applySettings(withLocalModel(settings)) });
root.querySelector("dialog.settings form h2")?.after(openButton(() => localView.open()));
serveWorker(client, local, localView.speed);
followLocalModel(local, { current: () => settings, apply: applySettings });
// Model-written code runs only in sandbox frames; the worker asks, the page's host runs and answers.
const sandbox = new SandboxHost();
// The problems of a change (docs/problems.md): the page's checkers answer, the editor and the tree show them.
const problems = new ProblemsHost((found) => files.showProblems(found));
// preview_page and the agent's hands on the page are answered by the Preview panel, a workspace PDF for read_file by the PDF reader (loaded on
// first use, docs/pdf.md), every other kind by a sandbox frame.
/** @param {string} kind @param {Record<string, unknown>} payload @param {number} timeoutMs */
const runKind = (kind, payload, timeoutMs) => {
  if (kind === "preview" && payload?.op) return preview.hands(payload);
  if (kind === "preview") {
    const stage = typeof payload?.chat === "string" ? payload.chat : null; // a staged turn's preview_page
    return preview.run(String(payload?.path || "/index.html"), payload?.screenshot === true, stage);
  }
  if (kind === "pdf") return loadPdfReader().then((reader) => reader.answerPdfJob(payload, timeoutMs));
  if (kind === "problems") return problems.answer(payload, timeoutMs);
  return sandbox.run(kind, payload, timeoutMs);
};
// An answer for a worker that was restarted meanwhile is dropped: the new one never asked (and its run ids
// start again at 1).
client.on("page_job", (/** @type {PageJob} */ { id, kind, payload, timeout_ms }) => {
  const generation = client.generation;
  const answer = (/** @type {object} */ message) =>
    generation === client.generation && client.post(/** @type {PageMessage} */ (message));
  runKind(kind, payload, timeout_ms).then(
    (/** @type {unknown} */ result) => answer({ type: MSG.PAGE_JOB_RESULT, id, ok: true, result }),
    (/** @type {Error & {type?: string}} */ err) =>
      answer({
        type: MSG.PAGE_JOB_RESULT,
        id,
        ok: false,
        error: { type: err.type || "failed", message: err.message },
      }),
  );
});

applyToAgent(settings);
// The watchdog restarted the agent worker: say so, end the running turns with an error, and give the new
// worker what the page had given the old one (held in its inbox until it is ready); files reload on ready.
const workerNotice = createWorkerNotice(root);
client.on("restart", (/** @type {{reason: string, hangMs: number}} */ restart) => {
  workerNotice.restarting(restart);
  load.restarting();
  chat.agentLost(`The agent stopped answering and was restarted (${restart.reason}). This turn ended.`);
  applyToAgent(settings);
  editorContext.again();
  servers.start();
  client
    .call("chats.restore")
    .then(chat.restore, (err) => console.warn("agentlite: saved chats", err))
    .then(() => review.refresh());
});
client.on("ready", () => workerNotice.ready());
if (linked) {
  askEndpoint(root, {
    ...linked,
    onUse: () => {
      settings = settingsStore.load(localStorage, location.search); // for this visit, as a link always is
      welcome.model(settings);
      applyToAgent(settings);
    },
    onKeep: () =>
      history.replaceState(
        history.state,
        "",
        `${location.pathname}${settingsStore.withoutEndpoint(location.search)}${location.hash}`,
      ),
  });
}
installTestingApi(client, folder, loadPdfReader, () => chat.activeChat());
wireProjects(root, {
  call: (method, args) => client.call(method, args),
  ready: client.ready,
  registry: projects,
  open: project,
  settings: () => projects.overrides(project.id),
});
const updateNotice = createUpdateNotice(root);
// After the start: the service worker's precache of the whole build must not slow a first visit's boot.
const goOffline = () => startOffline({ onUpdate: (apply) => updateNotice.show(apply) });
client.ready.then(goOffline, goOffline);
