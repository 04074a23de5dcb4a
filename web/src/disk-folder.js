// An opened folder on disk as the mirror reads it (a File System Access directory handle): its files and
// folders by workspace path, without what the skip rules leave out (`.git/`, `node_modules/`, what its
// `.gitignore` files exclude: web/src/folder-rules.js), which a walk does not even enter.
import { SkipRules } from "./folder-rules.js";

const missing = (err) => err.name === "NotFoundError" || err.name === "TypeMismatchError";

export class DiskFolder {
  constructor(handle) {
    this.handle = handle;
    this.rules = new SkipRules(); // as the last full walk found them
  }

  /** Everything below the folder: {files: path → File, folders: Set of paths, skipped: [{path, reason}]};
   * the rules are read again on the way (each folder's .gitignore before its entries). */
  async walk() {
    this.rules = new SkipRules();
    const found = { files: new Map(), folders: new Set(), skipped: [] };
    await this.walkInto(this.handle, "", found);
    return found;
  }

  async walkInto(directory, prefix, found) {
    const entries = [];
    for await (const pair of directory.entries()) entries.push(pair);
    const rules = entries.find(([name, entry]) => name === ".gitignore" && entry.kind === "file");
    if (rules) this.rules.add(prefix || "/", await (await rules[1].getFile()).text());
    for (const [name, entry] of entries) {
      const path = `${prefix}/${name}`;
      const isFolder = entry.kind === "directory";
      const reason = this.rules.reason(path, isFolder);
      if (reason) found.skipped.push({ path, reason });
      else if (isFolder) {
        found.folders.add(path);
        await this.walkInto(entry, path, found);
      } else found.files.set(path, await entry.getFile());
    }
  }

  /** Whether the rules of the last walk leave `path` alone (as a file or as a folder). */
  skips(path) {
    return Boolean(this.rules.reason(path) || this.rules.reason(path, true));
  }

  /** Just `paths` (a workspace change's), in the shape of `walk()`. */
  async stat(paths) {
    const found = { files: new Map(), folders: new Set(), skipped: [] };
    for (const path of paths) {
      const file = await this.fileAt(path);
      if (file) found.files.set(path, file);
      else if (await this.folderAt(path)) found.folders.add(path);
    }
    return found;
  }

  /** The folder at `path` ("" or "/" for the top), or null; `create` makes it and its parents. */
  async folderAt(path, create = false) {
    let folder = this.handle;
    try {
      for (const name of path.split("/").filter(Boolean)) folder = await folder.getDirectoryHandle(name, { create });
      return folder;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  /** {folder, file} handles of the file at `path`, or null; `create` makes the folders and the file. */
  async handleAt(path, create = false) {
    const folder = await this.folderAt(path.slice(0, path.lastIndexOf("/")), create);
    try {
      return folder && { folder, file: await folder.getFileHandle(path.split("/").at(-1), { create }) };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async fileAt(path) {
    const found = await this.handleAt(path);
    return found ? found.file.getFile() : null;
  }

  /** Remove the folder at `path` if it is empty; true when it is gone. */
  async removeEmptyFolder(path) {
    const parent = await this.folderAt(path.slice(0, path.lastIndexOf("/")));
    try {
      await parent?.removeEntry(path.split("/").at(-1));
      return true;
    } catch (err) {
      if (err.name === "NotFoundError") return true;
      if (err.name === "InvalidModificationError") return false; // not empty: the disk holds more there
      throw err;
    }
  }
}
