// "Open folder…" where the browser has the File System Access API: the workspace mirrors a folder on
// disk (web/src/folders/disk-mirror.js). It syncs after every workspace change (those paths), when the window
// gets the focus, when the folder changes (FileSystemObserver, where the browser has it) and on demand;
// after a reload it asks for permission again, and the sync then catches up on both sides.
import { DiskMirror } from "../folders/disk-mirror.js";
import { unsyncedText } from "../folders/folder-rules.js";
import { forgetFolder, loadFolder, saveFolder } from "../folders/folder-store.js";

/** @type {{ mode: "readwrite" }} */
const MODE = { mode: "readwrite" };

/** @import { Call } from "../folders/folder-import.js" */
/** @import { Conflict, Plan } from "../folders/disk-mirror.js" */
/** A recorded workspace change as the worker tells it.
 * @typedef {{ type: string, author?: string, paths?: string[] }} WorkspaceChange */

/**
 * @param {ParentNode} root
 * @param {{ call: Call, say: (text: string, failed?: boolean) => void }} options
 */
export function createFolderOpenView(root, { call, say }) {
  const openButton = /** @type {HTMLElement} */ (root.querySelector("[data-testid=folder-open]"));
  const bar = /** @type {HTMLElement} */ (root.querySelector("[data-testid=folder-status]"));
  const label = /** @type {HTMLElement} */ (bar.querySelector(".folder-name"));
  const skippedNote = /** @type {HTMLElement} */ (bar.querySelector("[data-testid=folder-skipped]"));
  const reconnect = /** @type {HTMLElement} */ (bar.querySelector("[data-action=folder-reconnect]"));
  const list = /** @type {HTMLElement} */ (root.querySelector("[data-testid=folder-conflicts]"));
  const problemList = /** @type {HTMLElement} */ (root.querySelector("[data-testid=folder-problems]"));
  /** @type {DiskMirror | null} */
  let mirror = null;
  let watching = false;
  /** @type {InstanceType<NonNullable<Window["FileSystemObserver"]>> | null} */
  let observer = null;

  openButton.hidden = typeof window.showDirectoryPicker !== "function";

  /** @param {Conflict[]} conflicts */
  function showConflicts(conflicts) {
    list.replaceChildren(...conflicts.map(conflictItem));
    list.hidden = conflicts.length === 0;
  }

  /** @param {Conflict & { disk?: unknown }} conflict */
  function conflictItem({ path, workspace, disk }) {
    const li = document.createElement("li");
    Object.assign(li.dataset, { testid: "folder-conflict", path });
    const what = !workspace
      ? "deleted here, changed on disk"
      : !disk
        ? "changed here, deleted on disk"
        : "changed here and on disk";
    li.append(`${path}: ${what}. Keep `);
    for (const [keep, text] of /** @type {["app" | "disk", string][]} */ ([
      ["app", "this app's"],
      ["disk", "the disk's"],
    ])) {
      const button = document.createElement("button");
      Object.assign(button, { type: "button", textContent: text });
      button.dataset.keep = keep;
      button.addEventListener("click", () => /** @type {DiskMirror} */ (mirror).resolve(path, keep).catch(failed));
      li.append(button, " ");
    }
    return li;
  }

  /** What the sync leaves alone on both sides, said beside the folder's name, and below it each single
   * file it could not bring across, with the reason.
   * @param {{ path: string, reason: string }[]} skipped
   * @param {{ path: string, why: string }[]} [problems] */
  function showSkipped(skipped, problems = []) {
    skippedNote.textContent = unsyncedText(skipped, problems.length);
    skippedNote.dataset.count = String(skipped.length + problems.length);
    problemList.replaceChildren(
      ...problems.map(({ path, why }) => {
        const li = document.createElement("li");
        Object.assign(li.dataset, { testid: "folder-problem", path });
        li.textContent = `${path}: ${why}`;
        return li;
      }),
    );
    problemList.hidden = problems.length === 0;
  }

  const failed = (/** @type {Error} */ err) => say(`Syncing the folder failed: ${err.message}`, true);

  /** Sync now (only `paths` when given); resolves to the plan it carried out.
   * @param {string[] | null} [paths]
   * @returns {Promise<Plan | null>} */
  function sync(paths = null) {
    if (!mirror || !watching) return Promise.resolve(null);
    return mirror.sync(paths).catch((/** @type {Error} */ err) => {
      failed(err);
      throw err;
    });
  }

  function watch() {
    watching = true;
    reconnect.hidden = true;
    label.textContent = `Open folder: ${/** @type {DiskMirror} */ (mirror).handle.name}`;
    bar.hidden = false;
    if (typeof window.FileSystemObserver === "function" && !observer) {
      observer = new window.FileSystemObserver(() => sync().catch(() => {}));
      observer.observe(/** @type {DiskMirror} */ (mirror).handle, { recursive: true }).catch(() => {});
    }
    return sync();
  }

  /** Mirror `handle` from now on; its files come in, the workspace's go out, differences are conflicts.
   * @param {FileSystemDirectoryHandle} handle */
  async function open(handle, { ask = true } = {}) {
    const files = (await call("list", { dir: "/", recursive: true })).filter(
      (/** @type {{ kind: string }} */ e) => e.kind === "file",
    );
    const question = `The workspace has ${files.length} files. Files the folder lacks are written into ${handle.name}; files that differ are shown as conflicts. Open it?`;
    if (ask && files.length && !window.confirm(question)) return null;
    await saveFolder(handle, {});
    observer?.disconnect();
    observer = null;
    mirror = new DiskMirror(handle, {}, { call, onConflicts: showConflicts, onSkipped: showSkipped });
    const plan = await watch();
    say(`Opened ${handle.name}: the workspace and the folder are kept in step.`);
    return plan;
  }

  /** After a reload: the remembered folder, synced at once when permission holds, else on "Reconnect". */
  async function restore() {
    const saved = await loadFolder().catch(() => undefined);
    if (!saved) return;
    const hooks = { onConflicts: showConflicts, onSkipped: showSkipped };
    mirror = new DiskMirror(saved.handle, saved.synced, { call, folders: saved.folders ?? [], ...hooks });
    label.textContent = `Folder ${saved.handle.name} needs your permission again`;
    bar.hidden = false;
    const state = (await saved.handle.queryPermission?.(MODE)) ?? "granted";
    if (state === "granted") await watch().catch(() => {});
    else reconnect.hidden = false;
  }

  openButton.addEventListener("click", async () => {
    try {
      await open(await /** @type {NonNullable<Window["showDirectoryPicker"]>} */ (window.showDirectoryPicker)(MODE));
    } catch (err) {
      if (/** @type {Error} */ (err).name !== "AbortError") failed(/** @type {Error} */ (err));
    }
  });
  reconnect.addEventListener("click", async () => {
    if ((await /** @type {DiskMirror} */ (mirror).handle.requestPermission(MODE)) === "granted")
      await watch().catch(() => {});
  });
  /** @type {HTMLElement} */ (bar.querySelector("[data-action=folder-sync]")).addEventListener("click", () =>
    sync().catch(() => {}),
  );
  /** @type {HTMLElement} */ (bar.querySelector("[data-action=folder-close]")).addEventListener("click", async () => {
    observer?.disconnect();
    [mirror, watching, observer] = [null, false, null];
    bar.hidden = true;
    showConflicts([]);
    showSkipped([]);
    await forgetFolder();
  });
  window.addEventListener("focus", () => sync().catch(() => {}));

  /** A workspace change (a worker `change` message): its paths go to disk; "disk"'s own came from there,
   * and a "clear" is the first half of a history import, whose "import" follows.
   * @param {WorkspaceChange | null | undefined} change */
  function changed(change) {
    if (!change || change.author === "disk" || ["closed", "clear"].includes(change.type)) return;
    const paths = change.type === "commit" ? change.paths : null;
    sync(paths?.length ? paths : null).catch(() => {});
  }

  return {
    open,
    restore,
    sync,
    changed,
    conflicts: () => (mirror ? [...mirror.conflicts.values()] : []),
    exclusive: (/** @type {() => Promise<unknown>} */ work) => /** @type {DiskMirror} */ (mirror).exclusive(work),
  };
}
