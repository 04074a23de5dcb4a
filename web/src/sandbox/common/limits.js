// Limits shared by the sandbox host (page) and the runtimes inside the frame. Both sides cap: the
// frame so that a huge output is never copied out, the host because the frame is not trusted.

export const STREAM_LIMIT_BYTES = 64 * 1024; // per output stream (stdout, stderr, console, value)
export const CHANGED_LIMIT_BYTES = 32 * 1024 * 1024; // all files a run may hand back, together

const MARKER_BYTES = 64; // room kept for the marker, so a capped text is within the limit marker included

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Cut `text` to at most `limit` UTF-8 bytes, the marker that says how much was left out included
// (never inside a character). Capping again changes nothing: the frame caps, then the host checks.
/**
 * @param {unknown} text
 * @param {number} [limit]
 * @returns {string}
 */
export function cap(text, limit = STREAM_LIMIT_BYTES) {
  const str = typeof text === "string" ? text : String(text ?? "");
  if (str.length <= limit / 4) return str; // fast path: cannot exceed the limit even at 4 bytes per char
  const bytes = encoder.encode(str);
  if (bytes.length <= limit) return str;
  let end = Math.max(0, limit - MARKER_BYTES);
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // step back to a character boundary
  return `${decoder.decode(bytes.subarray(0, end))}\n[output truncated: ${bytes.length - end} more bytes]`;
}

/** @param {string} text */
export function utf8Length(text) {
  return encoder.encode(text).length;
}
