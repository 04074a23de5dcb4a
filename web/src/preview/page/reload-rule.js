// Whether a workspace change may rerun the open preview by itself (docs/preview.md, "Reloads"). Running a
// page runs its code, so a change the agent made reloads only where the chat lets the agent run
// JavaScript unasked (auto-approve `js`, as for preview_page); otherwise the preview waits for the
// user's Reload. The user's own changes reload at once. Pure: tested under Node.
import { folderOf } from "../common/resolve.js";

const USER_AUTHORS = new Set(["user", "disk"]); // the editor, the user's file operations, their folder on disk
const USER_TYPES = new Set(["import", "clear"]); // a zip the user imported, the workspace the user cleared

/**
 * Whether the user made `change` (a workspace change event: {type, author, paths}).
 * @param {{type?: string, author?: string, paths?: unknown} | null | undefined} change
 */
export function byUser(change) {
  return USER_AUTHORS.has(change?.author ?? "") || USER_TYPES.has(change?.type ?? "");
}

/**
 * "reload", "hold" (wait for the user's Reload) or "ignore" (the page is not affected).
 * shown: the paths the open preview was handed; agentMayRun: the chats auto-approve `js`.
 * @param {{change: any, entry: string, shown: Set<string>, agentMayRun: boolean}} options
 */
export function onChange({ change, entry, shown, agentMayRun }) {
  if (byUser(change) || agentMayRun) return "reload";
  const paths = Array.isArray(change?.paths) ? change.paths : [];
  if (!paths.length) return "hold"; // another tab's change: which files, and whose, is unknown
  const folder = folderOf(entry);
  const touched = paths.some((/** @type {string} */ path) => shown.has(path) || String(path).startsWith(folder));
  return touched ? "hold" : "ignore";
}
