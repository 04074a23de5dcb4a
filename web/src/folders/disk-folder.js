// An opened folder on disk as the mirror reads it (a File System Access directory handle): its files and
// folders by workspace path, without what the skip rules leave out (`.git/`, `node_modules/`, what its
// `.gitignore` files exclude: web/src/folder-rules.js), which a walk does not even enter. Paths are the
// workspace's: names in NFC, whatever form the disk keeps them in (a macOS disk may hand out NFD), and a
// name is looked up in the disk's own form; `renameCase` renames an entry a case-insensitive disk files
// under both spellings.
import { SkipRules } from "./folder-rules.js";
import { diskKey, workspaceName } from "./names.js";

/** @typedef {{ files: Map<string, File>, folders: Set<string>, skipped: { path: string, reason: string }[] }} Found */
/** @typedef {FileSystemFileHandle | FileSystemDirectoryHandle} Entry */

const missing = (/** @type {unknown} */ err) =>
  /** @type {Error} */ (err).name === "NotFoundError" || /** @type {Error} */ (err).name === "TypeMismatchError";
const lastName = (/** @type {string} */ path) => /** @type {string} */ (path.split("/").at(-1));

/** The entry `name` (workspace form) of kind `kind` in `directory`, in whatever form the disk keeps the
 * name, or null; `create` makes it when there is none.
 * @overload
 * @param {FileSystemDirectoryHandle} directory
 * @param {string} name
 * @param {"file"} kind
 * @param {boolean} [create]
 * @returns {Promise<FileSystemFileHandle | null>}
 */
/**
 * @overload
 * @param {FileSystemDirectoryHandle} directory
 * @param {string} name
 * @param {"directory"} kind
 * @param {boolean} [create]
 * @returns {Promise<FileSystemDirectoryHandle | null>}
 */
/**
 * @overload
 * @param {FileSystemDirectoryHandle} directory
 * @param {string} name
 * @param {Entry["kind"]} kind
 * @param {boolean} [create]
 * @returns {Promise<Entry | null>}
 */
/**
 * @param {FileSystemDirectoryHandle} directory
 * @param {string} name
 * @param {Entry["kind"]} kind
 * @param {boolean} [create]
 * @returns {Promise<Entry | null>}
 */
async function child(directory, name, kind, create = false) {
  const get = (/** @type {string} */ as, /** @type {boolean} */ make) =>
    kind === "file"
      ? directory.getFileHandle(as, { create: make })
      : directory.getDirectoryHandle(as, { create: make });
  try {
    return await get(name, false);
  } catch (err) {
    if (!missing(err)) throw err;
  }
  for await (const [other, entry] of directory.entries())
    if (other !== name && entry.kind === kind && workspaceName(other) === name) return entry;
  return create ? get(name, true) : null;
}

export class DiskFolder {
  /** @param {FileSystemDirectoryHandle} handle */
  constructor(handle) {
    this.handle = handle;
    this.rules = new SkipRules(); // as the last full walk found them
    /** @type {Set<string>} */
    this.known = new Set();
    /** @type {Map<string, string>} */
    this.spellings = new Map();
  }

  /** Everything below the folder: {files: path → File, folders: Set of paths, skipped: [{path, reason}]};
   * the rules are read again on the way (each folder's .gitignore before its entries). `known`: the
   * paths of the last sync; an entry the disk keeps under another case than the one known (a case-only
   * rename a disk without `move` for folders could not make) is given the known spelling.
   * @param {string[]} [known] */
  async walk(known = []) {
    this.rules = new SkipRules();
    this.known = new Set(known);
    this.spellings = new Map(known.map((path) => [diskKey(path), path]));
    /** @type {Found} */
    const found = { files: new Map(), folders: new Set(), skipped: [] };
    await this.walkInto(this.handle, "", found);
    return found;
  }

  /**
   * @param {FileSystemDirectoryHandle} directory
   * @param {string} prefix
   * @param {Found} found
   */
  async walkInto(directory, prefix, found) {
    /** @type {[string, Entry][]} */
    const entries = [];
    for await (const pair of directory.entries()) entries.push(pair);
    const rules = entries.find(([name, entry]) => name === ".gitignore" && entry.kind === "file");
    if (rules)
      this.rules.add(prefix || "/", await (await /** @type {FileSystemFileHandle} */ (rules[1]).getFile()).text());
    const names = new Set(entries.map(([name]) => workspaceName(name)));
    for (const [name, entry] of entries) {
      const path = this.spelling(prefix, workspaceName(name), names);
      const isFolder = entry.kind === "directory";
      const reason = this.rules.reason(path, isFolder);
      if (reason) found.skipped.push({ path, reason });
      else if (isFolder) {
        found.folders.add(path);
        await this.walkInto(entry, path, found);
      } else found.files.set(path, await entry.getFile());
    }
  }

  /** The path of `name` in `prefix`: as the last sync knew it when it knew it under another case only
   * and the folder holds no entry of that exact spelling.
   * @param {string} prefix
   * @param {string} name
   * @param {Set<string>} names */
  spelling(prefix, name, names) {
    const path = `${prefix}/${name}`;
    const other = this.known.has(path) ? null : this.spellings.get(diskKey(path));
    const same = other && other.slice(0, other.lastIndexOf("/")) === prefix && !names.has(lastName(other));
    return same ? other : path;
  }

  /** Whether the rules of the last walk leave `path` alone (as a file or as a folder). @param {string} path */
  skips(path) {
    return Boolean(this.rules.reason(path) || this.rules.reason(path, true));
  }

  /** Just `paths` (a workspace change's), in the shape of `walk()`.
   * @param {Iterable<string>} paths */
  async stat(paths) {
    /** @type {Found} */
    const found = { files: new Map(), folders: new Set(), skipped: [] };
    for (const path of paths) {
      const file = await this.fileAt(path);
      if (file) found.files.set(path, file);
      else if (await this.folderAt(path)) found.folders.add(path);
    }
    return found;
  }

  /** The folder at `path` ("" or "/" for the top), or null; `create` makes it and its parents.
   * @param {string} path
   * @returns {Promise<FileSystemDirectoryHandle | null>} */
  async folderAt(path, create = false) {
    /** @type {FileSystemDirectoryHandle | null} */
    let folder = this.handle;
    try {
      for (const name of path.split("/").filter(Boolean)) {
        folder = await child(folder, name, "directory", create);
        if (!folder) return null;
      }
      return folder;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  /** {folder, file} handles of the file at `path`, or null; `create` makes the folders and the file.
   * @param {string} path */
  async handleAt(path, create = false) {
    const folder = await this.folderAt(path.slice(0, path.lastIndexOf("/")), create);
    try {
      const file = folder && (await child(folder, lastName(path), "file", create));
      return file && { folder, file };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  /** @param {string} path */
  async fileAt(path) {
    const found = await this.handleAt(path);
    return found ? found.file.getFile() : null;
  }

  /** Remove the folder at `path` if it is empty; true when it is gone.
   * @param {string} path */
  async removeEmptyFolder(path) {
    const parent = await this.folderAt(path.slice(0, path.lastIndexOf("/")));
    const folder = parent && (await child(parent, lastName(path), "directory"));
    try {
      await parent?.removeEntry(folder ? folder.name : lastName(path));
      return true;
    } catch (err) {
      if (/** @type {Error} */ (err).name === "NotFoundError") return true;
      if (/** @type {Error} */ (err).name === "InvalidModificationError") return false; // not empty: the disk holds more there
      throw err;
    }
  }

  /** The file or folder at `path` (`kind`): {parent, entry}, or null.
   * @param {string} path
   * @param {Entry["kind"]} kind */
  async entryAt(path, kind) {
    const parent = await this.folderAt(path.slice(0, path.lastIndexOf("/")));
    const entry = parent && (await child(parent, lastName(path), kind));
    return entry && { parent, entry };
  }

  /** A case-only rename `from` → `to` (same folder, names that differ in case): on a disk that files both
   * spellings under ONE entry, that entry is renamed (`true`), or `null` when the browser cannot rename
   * it; `false` when the disk keeps two entries (or none), where writing and deleting are safe.
   * @param {string} from
   * @param {string} to
   * @param {Entry["kind"]} [kind] */
  async renameCase(from, to, kind = "file") {
    const [old, now] = [await this.entryAt(from, kind), await this.entryAt(to, kind)];
    if (!old || !now || !(await old.entry.isSameEntry(now.entry))) return false;
    if (typeof old.entry.move !== "function") return null;
    if (old.entry.name !== lastName(to)) await old.entry.move(lastName(to));
    return true;
  }
}
