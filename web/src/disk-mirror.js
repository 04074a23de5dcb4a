// An opened folder (a File System Access directory handle) kept equal to the workspace. The page owns
// the handle; the worker decides, per file, from the sha256 each side had at the last sync, and per
// folder from its presence (`vfs.mirrorPlan`, py/agentlite/workspace/mirror.py). The workspace's changes
// are written to disk, each checked against the disk first; the disk's come in as one recorded change by
// "disk"; a file both sides changed is a conflict the user resolves. What the skip rules leave out
// (`.git/`, `node_modules/`, `.gitignore`: web/src/disk-folder.js) is touched on neither side.
import { DiskFolder } from "./disk-folder.js";
import { checkBudget, sendFolder } from "./folder-import.js";
import { saveFolder } from "./folder-store.js";
import { fromBase64 } from "./views/download.js";

const PLAN_LISTS = ["to_disk", "delete_on_disk", "from_disk", "delete_in_workspace", "settled"];

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const same = (file, record) => record && file.size === record.size && file.lastModified === record.modified;
const deepestFirst = (paths) => [...paths].sort((a, b) => b.split("/").length - a.split("/").length);

export class DiskMirror {
  /** `synced`: path → {sha, size, modified} at the last sync, `folders`: the folders then;
   * `onConflicts(list)`: the open conflicts; `onSkipped(list)`: what the last full sync left alone. */
  constructor(handle, synced, { call, folders = [], onConflicts = (_list) => {}, onSkipped = (_list) => {} }) {
    this.handle = handle;
    this.disk = new DiskFolder(handle);
    this.synced = { ...synced };
    this.syncedFolders = new Set(folders);
    this.call = call;
    this.onConflicts = onConflicts;
    this.onSkipped = onSkipped;
    this.conflicts = new Map();
    this.running = Promise.resolve();
  }

  /** Bring both sides together (only `paths` when given); runs one at a time, in order. */
  sync(paths = null) {
    return this.exclusive(() => this.syncOnce(paths));
  }

  /** Run `work` when no sync runs, and start none until it ends. */
  exclusive(work) {
    const next = this.running.then(work);
    this.running = next.catch(() => {});
    return next;
  }

  async syncOnce(paths) {
    // A changed .gitignore changes the rules: the whole folder is read again.
    const only = paths?.some((path) => path.endsWith("/.gitignore")) ? null : paths;
    const disk = only ? await this.disk.stat(only.filter((p) => !this.disk.skips(p))) : await this.disk.walk();
    if (!only) this.onSkipped(disk.skipped);
    // Before reading: the sizes the disk states of what is read (new or changed files) against an import's limits.
    checkBudget([...disk.files].filter(([path, file]) => !same(file, this.synced[path])));
    const shas = {};
    for (const [path, file] of disk.files) shas[path] = await this.shaOf(path, file);
    const plan = this.withoutSkipped(await this.call("mirrorPlan", this.question(disk, shas, only)));
    for (const path of plan.settled) this.record(path, disk.files.get(path), shas[path]);
    await this.foldersToDisk(plan.folders, disk.folders);
    for (const path of plan.to_disk) await this.writeChecked(path, disk.files.get(path));
    for (const path of plan.delete_on_disk) await this.removeChecked(path, disk.files.get(path));
    for (const path of deepestFirst(plan.folders.delete_on_disk)) {
      if (await this.disk.removeEmptyFolder(path)) this.syncedFolders.delete(path);
    }
    const deleted = [...plan.delete_in_workspace, ...plan.folders.delete_in_workspace];
    await this.importFromDisk(plan.from_disk, deleted, disk.files, shas, plan.folders.from_disk);
    this.setConflicts(plan.conflicts, only);
    await this.save();
    return plan;
  }

  question(disk, shas, only) {
    const synced = Object.fromEntries(Object.entries(this.synced).map(([path, r]) => [path, r.sha]));
    const folders = { disk_folders: [...disk.folders], synced_folders: [...this.syncedFolders] };
    return { disk: shas, synced, only, ...folders };
  }

  /** The plan without the paths the skip rules leave alone: neither side's copy is touched. */
  withoutSkipped(plan) {
    const kept = (path) => !this.disk.skips(path);
    for (const list of PLAN_LISTS) {
      plan[list] = plan[list].filter(kept);
      plan.folders[list] = plan.folders[list].filter(kept);
    }
    plan.conflicts = plan.conflicts.filter((conflict) => kept(conflict.path));
    return plan;
  }

  /** Folders: the workspace's new ones made on disk; the sync state of those both sides agree on. */
  async foldersToDisk(folders, onDisk) {
    for (const path of folders.to_disk) {
      await this.disk.folderAt(path, true);
      this.syncedFolders.add(path);
    }
    for (const path of folders.settled) {
      if (onDisk.has(path)) this.syncedFolders.add(path);
      else this.syncedFolders.delete(path);
    }
  }

  save() {
    return saveFolder(this.handle, this.synced, [...this.syncedFolders]);
  }

  /** The sha256 of a disk file: the synced one while its size and time are unchanged, else read. */
  async shaOf(path, file) {
    const record = this.synced[path];
    return same(file, record) ? record.sha : sha256(await file.arrayBuffer());
  }

  record(path, file, sha) {
    if (file) this.synced[path] = { sha, size: file.size, modified: file.lastModified };
    else delete this.synced[path];
  }

  /** Write the workspace's file unless the disk changed since it was read (the next sync sees that). */
  async writeChecked(path, seen) {
    const now = await this.disk.fileAt(path);
    if (seen ? !now || now.size !== seen.size || now.lastModified !== seen.lastModified : now) return;
    await this.writeFile(path);
  }

  async writeFile(path) {
    const data = await this.call("readBase64", { path });
    if (data === null) return;
    const bytes = fromBase64(data);
    const { file } = await this.disk.handleAt(path, true);
    const writable = await file.createWritable();
    await writable.write(bytes);
    await writable.close();
    this.record(path, await file.getFile(), await sha256(bytes));
  }

  async removeChecked(path, seen) {
    const now = await this.disk.fileAt(path);
    if (!now || !seen || now.size !== seen.size || now.lastModified !== seen.lastModified) return;
    await this.removeFile(path);
  }

  async removeFile(path) {
    const found = await this.disk.handleAt(path);
    if (found) await found.folder.removeEntry(path.split("/").at(-1));
    this.record(path, null);
  }

  /** The disk's new and changed files, its new folders and its deletions, as ONE recorded change by
   * "disk" (a folder gone from disk goes in the workspace only when nothing is left in it there). */
  async importFromDisk(changed, deleted, files, shas, folders = []) {
    if (!changed.length && !deleted.length && !folders.length) return;
    const items = changed.map((path) => ({ path, file: files.get(path) }));
    await sendFolder(this.call, items, folders, () => {}, { disk: true, deleted });
    for (const path of changed) this.record(path, files.get(path), shas[path]);
    for (const path of deleted) {
      this.record(path, null);
      this.syncedFolders.delete(path);
    }
    for (const path of folders) this.syncedFolders.add(path);
  }

  setConflicts(found, paths) {
    if (!paths) this.conflicts.clear();
    for (const path of paths || []) this.conflicts.delete(path);
    for (const conflict of found) this.conflicts.set(conflict.path, conflict);
    this.onConflicts([...this.conflicts.values()]);
  }

  /** The user's answer to a conflict: keep the app's file (`app`) or the disk's (`disk`). */
  resolve(path, keep) {
    return this.exclusive(async () => {
      const conflict = this.conflicts.get(path);
      if (!conflict) return;
      if (keep === "app") await (conflict.workspace ? this.writeFile(path) : this.removeFile(path));
      else await this.takeFromDisk(path);
      this.conflicts.delete(path);
      this.onConflicts([...this.conflicts.values()]);
      await this.save();
    });
  }

  async takeFromDisk(path) {
    const file = await this.disk.fileAt(path);
    const sha = file ? await sha256(await file.arrayBuffer()) : null;
    await this.importFromDisk(file ? [path] : [], file ? [] : [path], new Map([[path, file]]), { [path]: sha });
  }
}
