// An opened folder (a File System Access directory handle) kept equal to the workspace. The page owns
// the handle; the worker decides, per file, from the sha256 each side had at the last sync
// (`vfs.mirrorPlan`, py/agentlite/workspace/mirror.py). The workspace's changes are written to disk,
// each checked against the disk first; the disk's come in as one recorded change by "disk"; a file
// both sides changed is a conflict the user resolves. `.git/` and `node_modules/` are never touched.
import { sendFolder } from "./folder-import.js";
import { saveFolder } from "./folder-store.js";
import { fromBase64 } from "./views/download.js";

const UNMIRRORED = new Set([".git", "node_modules"]);

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const same = (file, record) => record && file.size === record.size && file.lastModified === record.modified;

export class DiskMirror {
  /** `synced`: path → {sha, size, modified} at the last sync; `onConflicts(list)`: the open conflicts. */
  constructor(handle, synced, { call, onConflicts = (_list) => {} }) {
    this.handle = handle;
    this.synced = { ...synced };
    this.call = call;
    this.onConflicts = onConflicts;
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
    const disk = paths ? await this.statPaths(paths) : await this.walk(this.handle, "", new Map());
    const shas = {};
    for (const [path, file] of disk) shas[path] = await this.shaOf(path, file);
    const synced = Object.fromEntries(Object.entries(this.synced).map(([path, r]) => [path, r.sha]));
    const plan = await this.call("mirrorPlan", { disk: shas, synced, only: paths });
    for (const path of plan.settled) this.record(path, disk.get(path), shas[path]);
    for (const path of plan.to_disk) await this.writeChecked(path, disk.get(path));
    for (const path of plan.delete_on_disk) await this.removeChecked(path, disk.get(path));
    await this.importFromDisk(plan.from_disk, plan.delete_in_workspace, disk, shas);
    this.setConflicts(plan.conflicts, paths);
    await saveFolder(this.handle, this.synced);
    return plan;
  }

  /** Every file below `folder` (path → File), skipping .git/ and node_modules/. */
  async walk(folder, prefix, found) {
    for await (const [name, entry] of folder.entries()) {
      if (entry.kind === "directory") {
        if (!UNMIRRORED.has(name)) await this.walk(entry, `${prefix}/${name}`, found);
      } else {
        found.set(`${prefix}/${name}`, await entry.getFile());
      }
    }
    return found;
  }

  async statPaths(paths) {
    const found = new Map();
    for (const path of paths) {
      const file = await this.fileAt(path);
      if (file) found.set(path, file);
    }
    return found;
  }

  /** The file at `path` on disk, or null; `create` makes the folders and the file. */
  async handleAt(path, create = false) {
    const parts = path.split("/").slice(1);
    let folder = this.handle;
    try {
      for (const name of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(name, { create });
      return { folder, file: await folder.getFileHandle(parts.at(-1), { create }) };
    } catch (err) {
      if (err.name === "NotFoundError" || err.name === "TypeMismatchError") return null;
      throw err;
    }
  }

  async fileAt(path) {
    const found = await this.handleAt(path);
    return found ? found.file.getFile() : null;
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
    const now = await this.fileAt(path);
    if (seen ? !now || now.size !== seen.size || now.lastModified !== seen.lastModified : now) return;
    await this.writeFile(path);
  }

  async writeFile(path) {
    const data = await this.call("readBase64", { path });
    if (data === null) return;
    const bytes = fromBase64(data);
    const { file } = await this.handleAt(path, true);
    const writable = await file.createWritable();
    await writable.write(bytes);
    await writable.close();
    this.record(path, await file.getFile(), await sha256(bytes));
  }

  async removeChecked(path, seen) {
    const now = await this.fileAt(path);
    if (!now || !seen || now.size !== seen.size || now.lastModified !== seen.lastModified) return;
    await this.removeFile(path);
  }

  async removeFile(path) {
    const found = await this.handleAt(path);
    if (found) await found.folder.removeEntry(path.split("/").at(-1));
    this.record(path, null);
  }

  /** The disk's new and changed files and its deletions, as ONE recorded change by "disk". */
  async importFromDisk(changed, deleted, disk, shas) {
    if (!changed.length && !deleted.length) return;
    const items = changed.map((path) => ({ path, file: disk.get(path) }));
    await sendFolder(this.call, items, [], () => {}, { disk: true, deleted });
    for (const path of changed) this.record(path, disk.get(path), shas[path]);
    for (const path of deleted) this.record(path, null);
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
      await saveFolder(this.handle, this.synced);
    });
  }

  async takeFromDisk(path) {
    const file = await this.fileAt(path);
    const sha = file ? await sha256(await file.arrayBuffer()) : null;
    await this.importFromDisk(file ? [path] : [], file ? [] : [path], new Map([[path, file]]), { [path]: sha });
  }
}
