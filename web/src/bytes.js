// Bytes as the page and the agent worker pass them around: the SHA-256 that checks a download or a
// stored copy (or names a previewed page's inline code in its frame's CSP), and the base64 form in which
// bytes cross the worker's calls. A leaf with no DOM: the page, the worker and the preview frame import it.

/** The SHA-256 of `bytes`, 32 bytes. @param {BufferSource} bytes */
export async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** The lower-case hex SHA-256 of `bytes`. @param {BufferSource} bytes */
export async function sha256Hex(bytes) {
  return Array.from(await sha256(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The base64 SHA-256 of `bytes` (as a CSP hash source names a script). @param {BufferSource} bytes */
export async function sha256Base64(bytes) {
  return toBase64(await sha256(bytes));
}

/** The bytes of a base64 text (throws on text that is not base64). @param {string} text */
export function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The base64 text of `bytes`, built in slices so a large file never overflows the call stack.
 * @param {Uint8Array} bytes */
export function toBase64(bytes) {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}
