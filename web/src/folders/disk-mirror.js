// An opened folder (a File System Access directory handle) kept equal to the workspace. The page owns
// the handle; the worker decides, per file, from the sha256 each side had at the last sync, and per
// folder from its presence (`vfs.mirrorPlan`, py/agentlite/workspace/mirror.py). The workspace's changes
// are written to disk, each checked against the disk first; the disk's come in as one recorded change by
// "disk"; a file both sides changed is a conflict the user resolves. What the skip rules leave out
// (`.git/` in every spelling, `node_modules/`, `.gitignore`: web/src/disk-folder.js) is touched on
// neither side. A file one side cannot take (too big for the workspace, a name Windows refuses, a write
// the disk refuses) is skipped with its reason and the rest of the sync goes on. A case-only rename is
// a rename on disk, so a case-insensitive disk never loses the file.
import { DiskFolder } from "./disk-folder.js";
import { checkTotals, FILE_BYTES, sendFolder } from "./folder-import.js";
import { saveFolder } from "./folder-store.js";
import { diskKey, nameTrouble, windowsRefuses } from "./names.js";
import { fromBase64, sha256Hex } from "../bytes.js";

/** @import { Call } from "./folder-import.js" */
/** @import { Found } from "./disk-folder.js" */
/** @typedef {{ sha: string, size: number, modified: number }} SyncRecord */
/** @typedef {{ path: string, workspace?: unknown }} Conflict */
/** @typedef {{ to_disk: string[], delete_on_disk: string[], from_disk: string[], delete_in_workspace: string[], settled: string[] }} PlanLists */
/** The worker's answer to `mirrorPlan` (py/agentlite/workspace/mirror.py).
 * @typedef {PlanLists & { folders: PlanLists, conflicts: Conflict[], max_file_size?: number }} Plan */

/** @type {(keyof PlanLists)[]} */
const PLAN_LISTS = ["to_disk", "delete_on_disk", "from_disk", "delete_in_workspace", "settled"];

const same = (/** @type {File} */ file, /** @type {SyncRecord | undefined} */ record) =>
  record && file.size === record.size && file.lastModified === record.modified;
const depth = (/** @type {string} */ path) => path.split("/").length;
const deepestFirst = (/** @type {string[]} */ paths) => [...paths].sort((a, b) => depth(b) - depth(a));
const sizeText = (/** @type {number} */ bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Paths grouped by the key a case-insensitive disk files them under.
 * @param {string[]} paths */
function byDiskKey(paths) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const path of paths) groups.set(diskKey(path), [...(groups.get(diskKey(path)) ?? []), path]);
  return groups;
}

/** Case-only renames in a plan: [from, to] where `gone` holds `from`, `made` holds `to`, and the two
 * differ only in case (a case-insensitive disk files them under one entry); shallowest first.
 * @param {string[]} gone
 * @param {string[]} made
 * @returns {[string, string][]} */
function caseRenames(gone, made) {
  const byKey = new Map(made.map((path) => [diskKey(path), path]));
  const pairs = gone.flatMap((path) => {
    const to = byKey.get(diskKey(path));
    return to && to !== path ? [/** @type {[string, string]} */ ([path, to])] : [];
  });
  return pairs.sort(([a], [b]) => depth(a) - depth(b));
}

export class DiskMirror {
  /** `synced`: path → {sha, size, modified} at the last sync, `folders`: the folders then;
   * `onConflicts(list)`: the open conflicts; `onSkipped(list, problems)`: what the last full sync left
   * alone, and the single files it could not bring across ([{path, why}]).
   * @param {FileSystemDirectoryHandle} handle
   * @param {Record<string, SyncRecord>} synced
   * @param {{ call: Call, folders?: string[], onConflicts?: (list: Conflict[]) => void,
   *   onSkipped?: (list: Found["skipped"], problems: { path: string, why: string }[]) => void }} options */
  constructor(
    handle,
    synced,
    {
      call,
      folders = [],
      onConflicts = (/** @type {Conflict[]} */ _list) => {},
      onSkipped = (
        /** @type {Found["skipped"]} */ _list,
        /** @type {{ path: string, why: string }[]} */ _problems,
      ) => {},
    },
  ) {
    this.handle = handle;
    this.disk = new DiskFolder(handle);
    this.synced = { ...synced };
    this.syncedFolders = new Set(folders);
    this.call = call;
    this.onConflicts = onConflicts;
    this.onSkipped = onSkipped;
    /** @type {Map<string, Conflict>} */
    this.conflicts = new Map();
    /** @type {Map<string, string>} */
    this.problems = new Map(); // path → why that file was not brought across
    /** @type {Found["skipped"]} */
    this.skipped = [];
    /** @type {Promise<unknown>} */
    this.running = Promise.resolve();
  }

  /** Bring both sides together (only `paths` when given); runs one at a time, in order.
   * @param {string[] | null} [paths] */
  sync(paths = null) {
    return this.exclusive(() => this.syncOnce(paths));
  }

  /** Run `work` when no sync runs, and start none until it ends.
   * @template T
   * @param {() => Promise<T>} work
   * @returns {Promise<T>} */
  exclusive(work) {
    const next = this.running.then(work);
    this.running = next.catch(() => {});
    return next;
  }

  /** @param {string[] | null} paths */
  async syncOnce(paths) {
    // A changed .gitignore changes the rules: the whole folder is read again.
    const only = paths?.some((path) => path.endsWith("/.gitignore")) ? null : paths;
    const known = [...Object.keys(this.synced), ...this.syncedFolders];
    const disk = only ? await this.disk.stat(only.filter((p) => !this.disk.skips(p))) : await this.disk.walk(known);
    if (only) for (const path of only) this.problems.delete(path);
    else this.startProblems(disk.skipped);
    // Before reading: what is new or changed must fit one import; a single file over the per-file limit is
    // never read (its stand-in hash matches nothing) and is skipped below with its reason.
    checkTotals([...disk.files].filter(([path, file]) => file.size <= FILE_BYTES && !same(file, this.synced[path])));
    /** @type {Record<string, string>} */
    const shas = {};
    for (const [path, file] of disk.files) shas[path] = await this.shaOf(path, file);
    const plan = this.withoutSkipped(
      /** @type {Plan} */ (await this.call("mirrorPlan", this.question(disk, shas, only))),
    );
    for (const path of plan.settled) this.record(path, disk.files.get(path), shas[path]);
    await this.renamesOnDisk(plan, disk.files);
    await this.foldersToDisk(plan.folders, disk.folders);
    for (const path of plan.to_disk)
      await this.guarded(path, () => this.writeChecked(path, /** @type {File} */ (disk.files.get(path))));
    const keep = byDiskKey([...plan.to_disk, ...plan.settled, ...disk.files.keys()]);
    for (const path of plan.delete_on_disk)
      await this.guarded(path, () => this.removeChecked(path, disk.files.get(path), keep));
    for (const path of deepestFirst(plan.folders.delete_on_disk)) {
      if (await this.disk.removeEmptyFolder(path)) this.syncedFolders.delete(path);
    }
    const deleted = [...plan.delete_in_workspace, ...plan.folders.delete_in_workspace];
    const incoming = this.withoutTooBig(plan.from_disk, disk.files, plan.max_file_size);
    await this.importFromDisk(incoming, deleted, disk.files, shas, plan.folders.from_disk);
    this.setConflicts(plan.conflicts, only);
    this.onSkipped(this.skipped, this.problemList());
    await this.save();
    return plan;
  }

  /** A full sync starts the list of single files again from what its walk skipped for their names.
   * @param {Found["skipped"]} skipped */
  startProblems(skipped) {
    this.skipped = skipped;
    this.problems.clear();
    for (const { path, reason } of skipped)
      if (reason === "name")
        this.problems.set(path, /** @type {string} */ (nameTrouble(path.split("/").find(nameTrouble) ?? "")));
  }

  problemList() {
    return [...this.problems].map(([path, why]) => ({ path, why }));
  }

  /** Run one file's disk work; a refusal by the disk skips that file with its reason, not the sync.
   * @param {string} path
   * @param {() => Promise<unknown>} work */
  async guarded(path, work) {
    const refused = path.split("/").map(windowsRefuses).find(Boolean);
    if (refused) return void this.problems.set(path, `not written to disk: ${refused}`);
    try {
      await work();
      this.problems.delete(path);
    } catch (err) {
      this.problems.set(
        path,
        `the disk refused it: ${/** @type {Error} */ (err).name}: ${/** @type {Error} */ (err).message}`,
      );
    }
  }

  /** The disk's files the workspace can take: one larger than its limit per file is skipped.
   * @param {string[]} paths
   * @param {Map<string, File>} files
   * @param {number | undefined} limit */
  withoutTooBig(paths, files, limit) {
    return paths.filter((path) => {
      const size = files.get(path)?.size ?? 0;
      if (limit && size > limit)
        this.problems.set(
          path,
          `not brought in: ${sizeText(size)}, over the ${sizeText(/** @type {number} */ (limit))} limit per file`,
        );
      return !(limit && size > limit);
    });
  }

  /** Case-only renames of folders, then of files, made as renames of the disk's entry: on a disk that
   * files both spellings under one entry, writing `readme.md` and deleting `README.md` would delete the
   * one entry both name. Each pair done leaves the plan.
   * @param {Plan} plan
   * @param {Map<string, File>} files */
  async renamesOnDisk(plan, files) {
    for (const [from, to] of caseRenames(plan.folders.delete_on_disk, [
      ...plan.folders.to_disk,
      ...plan.folders.settled,
    ])) {
      // Without `move` the disk keeps the old spelling; the walk gives it the new one (the sync state's).
      if ((await this.disk.renameCase(from, to, "directory").catch(() => false)) === false) continue;
      plan.folders.delete_on_disk = plan.folders.delete_on_disk.filter((path) => path !== from);
      this.syncedFolders.delete(from);
      this.syncedFolders.add(to);
    }
    // `to` is settled when the disk answered for it under the other spelling (a case-insensitive disk).
    for (const [from, to] of caseRenames(plan.delete_on_disk, [...plan.to_disk, ...plan.settled])) {
      const [seen, now] = [files.get(from), await this.disk.fileAt(from)];
      if (!seen || !now || now.size !== seen.size || now.lastModified !== seen.lastModified) continue;
      await this.guarded(to, async () => {
        const renamed = await this.disk.renameCase(from, to);
        if (renamed === false) return; // two entries on this disk: written and deleted as usual
        if (renamed === null) await this.removeFile(from); // the workspace holds it: written again below
        this.record(from, null);
        await this.writeFile(to);
        plan.to_disk = plan.to_disk.filter((path) => path !== to);
        plan.delete_on_disk = plan.delete_on_disk.filter((path) => path !== from);
      });
    }
  }

  /**
   * @param {Found} disk
   * @param {Record<string, string>} shas
   * @param {string[] | null} only
   */
  question(disk, shas, only) {
    const synced = Object.fromEntries(Object.entries(this.synced).map(([path, r]) => [path, r.sha]));
    const folders = { disk_folders: [...disk.folders], synced_folders: [...this.syncedFolders] };
    return { disk: shas, synced, only, ...folders };
  }

  /** The plan without the paths the skip rules leave alone: neither side's copy is touched.
   * @param {Plan} plan */
  withoutSkipped(plan) {
    const kept = (/** @type {string} */ path) => !this.disk.skips(path);
    for (const list of PLAN_LISTS) {
      plan[list] = plan[list].filter(kept);
      plan.folders[list] = plan.folders[list].filter(kept);
    }
    plan.conflicts = plan.conflicts.filter((conflict) => kept(conflict.path));
    return plan;
  }

  /** Folders: the workspace's new ones made on disk; the sync state of those both sides agree on.
   * @param {PlanLists} folders
   * @param {Set<string>} onDisk */
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

  /** The sha256 of a disk file: the synced one while its size and time are unchanged, else read.
   * @param {string} path
   * @param {File} file */
  async shaOf(path, file) {
    const record = this.synced[path];
    if (same(file, record)) return /** @type {SyncRecord} */ (record).sha;
    if (file.size > FILE_BYTES) return `unread:${file.size}:${file.lastModified}`; // too big to read: skipped
    return sha256Hex(await file.arrayBuffer());
  }

  /**
   * @param {string} path
   * @param {File | null | undefined} file
   * @param {string} [sha]
   */
  record(path, file, sha) {
    if (file) this.synced[path] = { sha: /** @type {string} */ (sha), size: file.size, modified: file.lastModified };
    else delete this.synced[path];
  }

  /** Write the workspace's file unless the disk changed since it was read (the next sync sees that).
   * @param {string} path
   * @param {File | undefined} seen */
  async writeChecked(path, seen) {
    const now = await this.disk.fileAt(path);
    if (seen ? !now || now.size !== seen.size || now.lastModified !== seen.lastModified : now) return;
    await this.writeFile(path);
  }

  /** @param {string} path */
  async writeFile(path) {
    const data = await this.call("readBase64", { path });
    if (data === null) return;
    const bytes = fromBase64(data);
    const { file } = /** @type {{ file: FileSystemFileHandle }} */ (await this.disk.handleAt(path, true));
    const writable = await file.createWritable();
    await writable.write(bytes);
    await writable.close();
    this.record(path, await file.getFile(), await sha256Hex(bytes));
  }

  /** Delete the disk's file unless it changed since it was read, or another path of `keep` (path →
   * the paths sharing its case-folded key) names the same entry: then it is another file's only copy.
   * @param {string} path
   * @param {File | undefined} seen
   * @param {Map<string, string[]>} [keep] */
  async removeChecked(path, seen, keep = new Map()) {
    const now = await this.disk.fileAt(path);
    if (!now || !seen || now.size !== seen.size || now.lastModified !== seen.lastModified) return;
    const found = await this.disk.handleAt(path);
    for (const other of keep.get(diskKey(path)) ?? []) {
      const twin = other !== path && (await this.disk.handleAt(other));
      if (found && twin && (await twin.file.isSameEntry(found.file))) return void this.record(path, null);
    }
    await this.removeFile(path);
  }

  /** @param {string} path */
  async removeFile(path) {
    const found = await this.disk.handleAt(path);
    if (found) await found.folder.removeEntry(found.file.name);
    this.record(path, null);
  }

  /** The disk's new and changed files, its new folders and its deletions, as ONE recorded change by
   * "disk" (a folder gone from disk goes in the workspace only when nothing is left in it there).
   * @param {string[]} changed
   * @param {string[]} deleted
   * @param {Map<string, File | null>} files
   * @param {Record<string, string | null>} shas
   * @param {string[]} [folders] */
  async importFromDisk(changed, deleted, files, shas, folders = []) {
    if (!changed.length && !deleted.length && !folders.length) return;
    const items = changed.map((path) => ({ path, file: /** @type {File} */ (files.get(path)) }));
    await sendFolder(this.call, items, folders, () => {}, { disk: true, deleted });
    for (const path of changed) this.record(path, files.get(path), /** @type {string} */ (shas[path]));
    for (const path of deleted) {
      this.record(path, null);
      this.syncedFolders.delete(path);
    }
    for (const path of folders) this.syncedFolders.add(path);
  }

  /**
   * @param {Conflict[]} found
   * @param {string[] | null} paths
   */
  setConflicts(found, paths) {
    if (!paths) this.conflicts.clear();
    for (const path of paths || []) this.conflicts.delete(path);
    for (const conflict of found) this.conflicts.set(conflict.path, conflict);
    this.onConflicts([...this.conflicts.values()]);
  }

  /** The user's answer to a conflict: keep the app's file (`app`) or the disk's (`disk`).
   * @param {string} path
   * @param {"app" | "disk"} keep */
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

  /** @param {string} path */
  async takeFromDisk(path) {
    const file = await this.disk.fileAt(path);
    const sha = file ? await sha256Hex(await file.arrayBuffer()) : null;
    await this.importFromDisk(file ? [path] : [], file ? [] : [path], new Map([[path, file]]), { [path]: sha });
  }
}
