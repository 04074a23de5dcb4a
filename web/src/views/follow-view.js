// The editor follows the agent: when a tool starts writing a file, the editor panel shows the content
// streaming in (read-only, the same text as the card's live preview), then the diff of the change with
// "Undo this change" and a revert per hunk, above the normal editor holding the new file. A toggle turns
// it off (remembered on this device). The user's typing is never replaced: while they type in the
// editor the follow waits, says so, and catches up once they leave the editor (their text saved first).
import { frameWriter } from "./dom.js";
import { toolFacts } from "../agent/page/tools.js";
import { renderDiff } from "./diff-view.js";

/** @typedef {import("../agent/page/chat-events.js").ChatEvents} ChatEvents */
/** A file-writing call's status, with the result fields this view reads.
 * @typedef {ChatEvents["tool_status"] & {arguments?: {path?: string} | null, result?: {data?: {path?: string, version?: number}} | null}} WriteStatus */
/** The write the editor follows: streaming (its path and text so far) or done (the version it made).
 * @typedef {{id: string, name: string, path: string | null, text?: string, version?: number, phase: string}} Followed */
/** The files view, as far as following needs it.
 * @typedef {{openFile: (path: string) => Promise<unknown>, busy: () => boolean, flush: () => Promise<unknown>, path: () => string | null}} FilesView */

/** The facts of a tool that writes a file's content (which the editor can follow), or null.
 * @param {string} name */
const writer = (name) => {
  const facts = toolFacts(name);
  return facts?.kind === "write" && facts.content ? facts : null;
};
const STORE_KEY = "agentlite.followAgent";

/** `call(method, args)` reaches the workspace; `files` is the files view (openFile, busy, flush); `staged()`
 * says that the agent's changes wait on a stage (docs/review.md): the editor then shows the proposed file
 * (marked so) and the review its diff, so the follow's own diff and undo give way.
 * @param {ParentNode} root
 * @param {{call: (method: import("../agent/page/agent-client.js").CallMethod, args?: Record<string, unknown>) => Promise<unknown>,
 *   files: FilesView, storage?: Storage, staged?: () => boolean}} actions */
export function createFollowView(root, { call, files, storage = localStorage, staged = () => false }) {
  const panel = /** @type {HTMLElement} */ (root.querySelector(".panel.editor"));
  const toggle = /** @type {HTMLButtonElement} */ (root.querySelector("[data-testid=follow-agent]"));
  const box = /** @type {HTMLElement} */ (root.querySelector("[data-testid=follow-view]"));
  const title = /** @type {HTMLElement} */ (box.querySelector(".follow-title"));
  const live = /** @type {HTMLElement} */ (box.querySelector(".follow-live"));
  const diff = /** @type {HTMLElement} */ (box.querySelector(".diff"));
  const undo = /** @type {HTMLButtonElement} */ (box.querySelector("[data-testid=follow-undo]"));
  const close = /** @type {HTMLButtonElement} */ (box.querySelector("[data-testid=follow-close]"));
  const waiting = /** @type {HTMLElement} */ (root.querySelector("[data-testid=follow-waiting]"));
  const editorHost = /** @type {HTMLElement} */ (root.querySelector("#file-editor"));
  /** @type {Map<string, import("../agent/page/tools.js").ToolFacts>} call id -> the writer's facts, for the writers of this round */
  const calls = new Map();
  let on = storage.getItem(STORE_KEY) !== "false";
  /** @type {Followed | null} */
  let followed = null;
  /** @type {string | null} */
  let shownPhase = null;
  let held = false; // the user was typing when the agent wrote: wait until they leave the editor

  /** @param {boolean} value */
  function setOn(value) {
    on = value;
    toggle.setAttribute("aria-pressed", String(on));
    toggle.title = on
      ? "The editor shows what the agent writes (click to stop)"
      : "Click to show what the agent writes";
    storage.setItem(STORE_KEY, String(on));
    if (!on) hide();
  }

  function hide() {
    followed = null;
    held = false;
    shownPhase = null;
    box.hidden = true;
    waiting.hidden = true;
    delete panel.dataset.follow;
  }

  // Once per frame, and only the tail of a long file: laying the text out on every chunk freezes the page.
  const liveWriter = frameWriter(live);

  const typing = () => files.busy() && document.activeElement === editorHost;

  /** Show the followed write, unless the user is typing: then say so and wait for them to leave. */
  async function render() {
    if (!followed) return;
    if (held || files.busy()) {
      if (held || typing()) {
        held = true;
        waiting.hidden = false;
        /** @type {HTMLElement} */ (waiting.querySelector("span")).textContent =
          `Not following while you type in ${files.path()}: the agent is writing ${followed.path || "a file"}.`;
        return;
      }
      await files.flush(); // typing the user already left: saved before anything is shown over it
    }
    waiting.hidden = true;
    box.hidden = false;
    panel.dataset.follow = followed.phase;
    title.textContent =
      followed.phase === "streaming"
        ? `The agent is writing ${followed.path || "a file"}…`
        : `The agent changed ${followed.path}`;
    if (followed.phase === "streaming") {
      liveWriter.write(/** @type {string} */ (followed.text));
    } else if (shownPhase !== "done") await showDone();
    shownPhase = followed?.phase ?? null;
  }

  async function showDone() {
    const { path, version } = /** @type {{path: string, version: number}} */ (followed);
    await files.openFile(path);
    const text = staged() ? null : await call("vfs.diff", { path, new: version }).catch(() => null);
    if (followed?.version !== version) return;
    if (text === null) return hide(); // a proposal: the editor shows it marked, the review holds its diff
    renderDiff(diff, /** @type {string} */ (text), (/** @type {number} */ hunk) =>
      act(() => call("vfs.revertHunk", { path, version, hunk }), `Reverted hunk ${hunk + 1}`),
    );
    undo.disabled = false;
  }

  /** @param {() => Promise<unknown>} work @param {string} said */
  async function act(work, said) {
    try {
      await work();
      title.textContent = `${said}: ${followed?.path || ""}`;
    } catch (err) {
      title.textContent = `That did not work: ${/** @type {Error} */ (err).message}`;
    }
  }

  /** A streamed field of a writer: its path (named once, whole, before the content) or its content. */
  /** @param {ChatEvents["tool_preview"]} event */
  function preview(event) {
    const facts = calls.get(event.id);
    if (!facts || !(event.field === facts.content || event.field === facts.path)) return;
    if (followed?.id !== event.id) {
      followed = { id: event.id, name: facts.name, path: null, text: "", phase: "streaming" };
      diff.replaceChildren();
    }
    if (event.field === facts.path) followed.path = event.text.startsWith("/") ? event.text : `/${event.text}`;
    else followed.text = event.text;
    render();
  }

  /** @param {WriteStatus} event */
  function status(event) {
    if (!calls.has(event.id)) return;
    if (event.arguments?.path && followed?.id === event.id) followed.path = event.arguments.path;
    if (event.status === "completed" && event.result?.data?.path && Number.isInteger(event.result.data.version)) {
      const { path, version } = event.result.data;
      followed = { id: event.id, name: event.name, path, version, phase: "done" };
      shownPhase = null;
      return render();
    }
    if ((event.status === "failed" || event.status === "rejected") && followed?.id === event.id) return hide();
    if (followed?.id === event.id) render();
  }

  /** @param {ChatEvents[keyof ChatEvents]} event */
  function handle(event) {
    if (!on) return;
    const started = event.kind === "tool_started" && writer(event.name);
    if (started) calls.set(/** @type {ChatEvents["tool_started"]} */ (event).id, started);
    else if (event.kind === "message_start") calls.clear();
    else if (event.kind === "tool_preview") preview(event);
    else if (event.kind === "tool_status") status(/** @type {WriteStatus} */ (event));
  }

  toggle.addEventListener("click", () => setOn(!on));
  close.addEventListener("click", () => hide());
  undo.addEventListener("click", async () => {
    if (!followed?.path) return;
    const { path, version } = followed;
    const newest = /** @type {{version: number}[]} */ (await call("vfs.history", { path })).at(-1)?.version;
    if (newest !== version) {
      title.textContent = `${path} changed since: undo it from its history.`;
      return;
    }
    undo.disabled = true;
    await act(() => call("vfs.undo", { path }), "Undone");
  });
  // Leaving the editor (for the "Show it now" button, say) is when a waiting follow catches up.
  const catchUp = () => {
    if (!followed || !held) return;
    held = false;
    return files.flush().then(render);
  };
  editorHost.addEventListener("focusout", catchUp);
  /** @type {HTMLButtonElement} */ (waiting.querySelector("button")).addEventListener("click", catchUp);

  /** The editor now shows `path`: a finished follow of another file, on screen, gives way to it. */
  /** @param {string | null} path */
  function fileShown(path) {
    if (!held && shownPhase === "done" && path !== followed?.path) hide();
  }

  setOn(on);
  return { handle, hide, fileShown };
}
