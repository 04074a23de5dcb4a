// Where the Pyodide memory snapshot lives between visits: one entry in Cache Storage, written by this
// browser after a normal start (docs/startup.md). The entry carries the key it was made for (build id,
// Pyodide version, user agent) and the sha256 of its bytes, so a snapshot of another build, or one that
// was damaged on disk, is recognised before Pyodide is handed a heap it would trust blindly.
// Every method may throw (no Cache Storage, quota, a broken profile): the caller falls back.
import { sha256Hex } from "../../bytes.js";

const CACHE_NAME = "agentlite-pyodide-snapshot";
const ENTRY_URL = new URL("./__pyodide-snapshot__", self.location.href).href;
const KEY_HEADER = "x-snapshot-key";
const SHA_HEADER = "x-snapshot-sha256";

/** Why a stored snapshot cannot be used (thrown by `read`, shown in the progress bar). */
export class UnusableSnapshot extends Error {}

/**
 * The key a snapshot is valid for: the same build, the same Pyodide, the same browser.
 * @param {string} build
 * @param {string} pyodideVersion
 * @param {string} userAgent
 */
export function snapshotKey(build, pyodideVersion, userAgent) {
  return encodeURIComponent(`${build}|${pyodideVersion}|${userAgent}`);
}

/**
 * The stored snapshot's bytes for `key`; null when none is stored; UnusableSnapshot when it is wrong.
 * @param {string} key
 */
export async function read(key) {
  const cache = await caches.open(CACHE_NAME);
  const response = await cache.match(ENTRY_URL);
  if (!response) return null;
  if (response.headers.get(KEY_HEADER) !== key) throw new UnusableSnapshot("snapshot of another build");
  const bytes = new Uint8Array(await response.arrayBuffer());
  if ((await sha256Hex(bytes)) !== response.headers.get(SHA_HEADER)) {
    throw new UnusableSnapshot("snapshot corrupt (checksum differs)");
  }
  return bytes;
}

/**
 * Stores `bytes` as the snapshot for `key`, replacing whatever was stored.
 * @param {string} key
 * @param {Uint8Array<ArrayBuffer>} bytes
 */
export async function write(key, bytes) {
  const headers = {
    "content-type": "application/octet-stream",
    [KEY_HEADER]: key,
    [SHA_HEADER]: await sha256Hex(bytes),
  };
  const cache = await caches.open(CACHE_NAME);
  await cache.put(ENTRY_URL, new Response(bytes, { headers }));
}

/** Forgets the stored snapshot (after it failed to restore). */
export async function remove() {
  const cache = await caches.open(CACHE_NAME);
  await cache.delete(ENTRY_URL);
}
