// Wiring only: the agent client, the views, the settings and the testing API.
import { AgentClient } from "./agent-client.js";
import { MSG } from "./protocol.js";
import * as settingsStore from "./settings.js";
import { createChatView } from "./views/chat-view.js";
import { createFilesView } from "./views/files-view.js";
import { createLoadView } from "./views/load-view.js";
import { createSettingsView } from "./views/settings-view.js";
import { SandboxHost } from "./sandbox/host.js";
import { installTestingApi } from "./testing-api.js";

const root = document.querySelector("[data-testid=app]");
const client = new AgentClient(new URL("./worker.js", import.meta.url));
let settings = settingsStore.load(localStorage, location.search);

const load = createLoadView(root);
client.on("phase", (message) => load.phase(message));
client.on("failed", (failure) => load.failed(failure));

const files = createFilesView(root, {
  listFiles: () => client.call("vfs.list", { dir: "/", recursive: true }),
  readFile: (path) => client.call("vfs.readText", { path }),
});
const refreshFiles = () => files.refresh().catch((err) => console.warn("agentlite: file tree", err));
client.on("ready", () => {
  load.ready();
  refreshFiles();
});
client.on("change", refreshFiles);

const chat = createChatView(root, {
  onSend: (chatId, text, mode) => client.post({ type: MSG.SEND, chat: chatId, text, mode }),
  onStop: (chatId) => client.post({ type: MSG.STOP, chat: chatId }),
  onApprove: (chatId, id, approved, batch) => client.post({ type: MSG.APPROVE, chat: chatId, id, approved, batch }),
  onDecide: (chatId, choice) => client.post({ type: MSG.DECIDE, chat: chatId, choice }),
  onRestoreTurn: (_chatId, turn) =>
    client.call("vfs.restoreBefore", { turn }).catch((err) => console.warn("agentlite: restore", err)),
});
client.on("event", (chatId, event) => chat.handle(chatId, event));

createSettingsView(root, {
  getSettings: () => settings,
  onSave: (next) => {
    settings = next;
    settingsStore.save(localStorage, settings);
    client.post({ type: MSG.SETTINGS, settings });
  },
});
// Model-written code runs only in sandbox frames; the worker asks, the page's host runs and answers.
const sandbox = new SandboxHost();
client.on("sandbox_run", ({ id, kind, payload, timeout_ms }) =>
  sandbox.run(kind, payload, timeout_ms).then(
    (result) => client.post({ type: MSG.SANDBOX_RESULT, id, ok: true, result }),
    (err) =>
      client.post({
        type: MSG.SANDBOX_RESULT,
        id,
        ok: false,
        error: { type: err.type || "failed", message: err.message },
      }),
  ),
);

client.post({ type: MSG.SETTINGS, settings });
installTestingApi(client);
