// The rules an attachment meets before it is sent (docs/attachments.md): pure, so Node tests them.
// An image is named by its first bytes, never by its file name or the type the browser guessed: the same
// four raster types the agent accepts (py/agentlite/tools/images.py); its pixels and frames are measured
// from its header before it is decoded (../image-size.js, image-prep.js). It is sent at most MAX_SIDE pixels
// on its longest side and about MAX_SENT_BYTES encoded; a message carries at most MAX_IMAGES images and
// MAX_MESSAGE_BYTES of attachments (the agent checks the same caps, py/agentlite/user_attachments.py).

export const MAX_IMAGES = 8;
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024; // what is sent of one message's attachments
export const MAX_FILE_BYTES = 50 * 1024 * 1024; // one original file the page agrees to read
export const MAX_SIDE = 2048; // px, the longest side sent
export const MAX_SENT_BYTES = 1.5 * 1024 * 1024; // one encoded image sent
export const JPEG_QUALITY = 0.85;

/** @typedef {{width: number, height: number, quality: number}} EncodeTry one size and JPEG quality tried */

/** @type {[string, number[]][]} */
const SIGNATURES = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]], // GIF87a
  ["image/gif", [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]], // GIF89a
  ["image/webp", [0x52, 0x49, 0x46, 0x46]], // RIFF, then "WEBP" at 8
];
const WEBP = [0x57, 0x45, 0x42, 0x50];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** @param {Uint8Array} bytes @param {number[]} prefix */
const startsWith = (bytes, prefix, at = 0) => prefix.every((byte, i) => bytes[at + i] === byte);

/** The image type `bytes` start as (PNG, JPEG, GIF, WebP), or null. @param {Uint8Array} bytes */
export function sniffImage(bytes) {
  for (const [mime, prefix] of SIGNATURES) {
    if (startsWith(bytes, prefix) && (mime !== "image/webp" || startsWith(bytes, WEBP, 8))) return mime;
  }
  return null;
}

/** What a file is by its first bytes: "image", "pdf", or null (refused). @param {Uint8Array} bytes */
export function sniffKind(bytes) {
  if (sniffImage(bytes)) return "image";
  return startsWith(bytes, PDF) ? "pdf" : null;
}

/** The size an image is sent at: its own, or scaled down so the longest side is `maxSide`.
 * @param {number} width @param {number} height */
export function fitSize(width, height, maxSide = MAX_SIDE) {
  const longest = Math.max(width, height);
  if (!(longest > maxSide)) return { width, height, scaled: false };
  const ratio = maxSide / longest;
  return {
    width: Math.max(1, Math.round(width * ratio)),
    height: Math.max(1, Math.round(height * ratio)),
    scaled: true,
  };
}

/** The next, smaller try when an encoded image is still over `MAX_SENT_BYTES`: a lower JPEG quality
 * first, then three quarters of the side. Null when nothing smaller is worth trying.
 * @param {EncodeTry} attempt @returns {EncodeTry | null} */
export function smallerTry({ width, height, quality }) {
  if (quality > 0.6) return { width, height, quality: Math.round((quality - 0.15) * 100) / 100 };
  if (Math.max(width, height) <= 256) return null;
  return { width: Math.round(width * 0.75), height: Math.round(height * 0.75), quality };
}

/**
 * Why one more attachment cannot join `current` (a sentence for the user), or null when it can.
 * @param {{kind: string, sentBytes: number}[]} current
 * @param {{kind: string, name: string, sentBytes: number}} next
 */
export function refusal(current, next) {
  const images = current.filter((item) => item.kind === "image").length;
  if (next.kind === "image" && images >= MAX_IMAGES)
    return `${next.name} was not attached: a message takes at most ${MAX_IMAGES} images.`;
  const total = current.reduce((sum, item) => sum + item.sentBytes, 0);
  if (total + next.sentBytes > MAX_MESSAGE_BYTES)
    return `${next.name} was not attached: a message takes at most ${MAX_MESSAGE_BYTES / 1024 / 1024} MB of attachments.`;
  return null;
}

/** A file name fit to show: no control characters (C0, DEL, C1), at most 200 characters. @param {unknown} name */
export function cleanName(name) {
  const kept = [...String(name || "")].filter((c) => {
    const code = c.charCodeAt(0);
    return code > 0x1f && (code < 0x7f || code > 0x9f);
  });
  return kept.join("").trim().slice(0, 200) || "attachment";
}
