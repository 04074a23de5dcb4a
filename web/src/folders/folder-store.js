// The opened folder, remembered on the page: its directory handle (handles survive structured cloning,
// so a reload can ask for permission again), per file what the disk held at the last sync
// ({sha, size, modified}), and the folders it held then. A database of its own per project (the agent
// worker owns the workspace's): each project has its own opened folder.
import { oneStore } from "../browser/one-store.js";
import { currentProject } from "../projects/current.js";

/** @typedef {{ handle: FileSystemDirectoryHandle, synced: Record<string, import("./disk-mirror.js").SyncRecord>, folders?: string[] }} SavedFolder */

const KEY = "open";
const run = oneStore(() => currentProject().names.folder, "folder");

/** {handle, synced, folders} of the opened folder (`folders` absent if saved before folders were
 * synced), or undefined when none is open.
 * @returns {Promise<SavedFolder | undefined>} */
export const loadFolder = () => run("readonly", (store) => store.get(KEY));
/**
 * @param {FileSystemDirectoryHandle} handle
 * @param {Record<string, { sha: string, size: number, modified: number }>} synced
 * @param {string[]} [folders]
 */
export const saveFolder = (handle, synced, folders = []) =>
  run("readwrite", (store) => store.put({ handle, synced, folders }, KEY));
export const forgetFolder = () => run("readwrite", (store) => store.delete(KEY));
