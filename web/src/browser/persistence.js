// Keeping the workspace: asks the browser for persistent storage (navigator.storage.persist() exists
// only on Window, not in the worker), remembers that the user dismissed the warning, and saves an
// exported workspace as a file. Platform edge: the storage notice view only renders what this reports.
import { fromBase64 } from "../bytes.js";
import { downloadBytes } from "./download.js";

const DISMISSED_KEY = "agentlite.storage-warning-dismissed";

/** Resolves to true when the browser will keep this site's data under storage pressure. */
export async function requestPersistence() {
  try {
    if (!navigator.storage?.persist) return false;
    if (await navigator.storage.persisted()) return true;
    return await navigator.storage.persist();
  } catch (_error) {
    return false;
  }
}

export function warningDismissed(storage = localStorage) {
  return storage.getItem(DISMISSED_KEY) === "1";
}

export function dismissWarning(storage = localStorage) {
  storage.setItem(DISMISSED_KEY, "1");
}

/** Offer `base64` (a zip) as a download named `name`. @param {string} name @param {string} base64 */
export function saveZip(name, base64) {
  downloadBytes(name, fromBase64(base64), "application/zip");
}
