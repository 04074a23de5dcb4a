// Limits shared by the sandbox host (page) and the runtimes inside the frame. Both sides cap: the
// frame so that a huge output is never copied out, the host because the frame is not trusted.

export const STREAM_LIMIT_BYTES = 64 * 1024; // per output stream (stdout, stderr, console, value)
export const CHANGED_LIMIT_BYTES = 32 * 1024 * 1024; // all files a run may hand back, together

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Cut `text` to `limit` UTF-8 bytes (never inside a character) and say how much was left out.
export function cap(text, limit = STREAM_LIMIT_BYTES) {
  const str = typeof text === "string" ? text : String(text ?? "");
  if (str.length <= limit / 4) return str; // fast path: cannot exceed the limit even at 4 bytes per char
  const bytes = encoder.encode(str);
  if (bytes.length <= limit) return str;
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // step back to a character boundary
  return `${decoder.decode(bytes.subarray(0, end))}\n[output truncated: ${bytes.length - end} more bytes]`;
}

export function utf8Length(text) {
  return encoder.encode(text).length;
}
