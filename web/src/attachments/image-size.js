// An image's pixel size and frame count read from its header: pixels before bytes (docs/attachments.md).
// The page's twin of py/agentlite/image_size.py, answering alike down to the words of each refusal (a
// shared corpus tests both): an attachment is measured here before anything decodes it, and a tool
// result's image before it becomes an <img>. Pure, never throws, its work bounded by MAX_STEPS: PNG
// (IHDR, acTL), JPEG (segments walked to the first SOFn), GIF (logical screen, every image descriptor,
// which may widen the canvas as browsers do), WebP (VP8, VP8L, VP8X and its ANMF frames).

export const MAX_SIDE = 16384; // px on either side: the largest canvas side browsers draw
export const MAX_PIXELS = 50_000_000; // one frame: a 48-megapixel phone photo passes
export const MAX_FRAMES = 1000; // frames of an animation
export const MAX_ANIMATION_PIXELS = 1_000_000_000; // frames × canvas pixels of an animation
export const MAX_STEPS = 200_000; // chunks, segments and sub-blocks walked for one image

const CUT = "its header is cut short";

/** @typedef {{ok: true, mime: string, width: number, height: number, frames: number, ended: boolean}} Size */
/** @typedef {{ok: false, reason: string, ended: boolean}} Refused */

/** @param {string} mime @param {number} width @param {number} height @returns {Size} */
const size = (mime, width, height, frames = 1, ended = false) => ({ ok: true, mime, width, height, frames, ended });
/** @param {string} reason @returns {Refused} */
const refused = (reason, ended = false) => ({ ok: false, reason, ended });
/** @param {number} n */
const num = (n) => n.toLocaleString("en-US");

/** @param {Uint8Array} b @param {number} at */
const u16be = (b, at) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
/** @param {Uint8Array} b @param {number} at */
const u16le = (b, at) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
/** @param {Uint8Array} b @param {number} at */
const u24le = (b, at) => u16le(b, at) + (b[at + 2] ?? 0) * 0x10000;
/** @param {Uint8Array} b @param {number} at */
const u32be = (b, at) => u16be(b, at) * 0x10000 + u16be(b, at + 2);
/** @param {Uint8Array} b @param {number} at */
const u32le = (b, at) => u16le(b, at) + u16le(b, at + 2) * 0x10000;
/** @param {Uint8Array} b @param {number} at @param {string} text */
const ascii = (b, at, text) => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

/** The size `bytes` declare, or why they have none; never throws. @param {Uint8Array} bytes @returns {Size | Refused} */
export function measure(bytes) {
  if (bytes[0] === 0x89 && ascii(bytes, 1, "PNG\r\n\x1a\n")) return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes);
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return gif(bytes);
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return webp(bytes);
  return refused("its bytes are not a PNG, JPEG, GIF or WebP image");
}

/** Why an image of this size is not taken, or null. @param {Size} found */
export function overBounds({ width, height, frames }) {
  if (width < 1 || height < 1) return `its header says ${num(width)} × ${num(height)} pixels, an image with no pixels`;
  if (Math.max(width, height) > MAX_SIDE || width * height > MAX_PIXELS)
    return `it is ${num(width)} × ${num(height)} pixels: at most ${num(MAX_SIDE)} on a side and ${MAX_PIXELS / 1e6} megapixels are taken`;
  if (frames > MAX_FRAMES) return `it has ${num(frames)} frames: at most ${num(MAX_FRAMES)} are taken`;
  if (frames * width * height > MAX_ANIMATION_PIXELS)
    return `its ${num(frames)} frames of ${num(width)} × ${num(height)} pixels are more than ${num(MAX_ANIMATION_PIXELS)} pixels in all`;
  return null;
}

/** The size when measured and within bounds, else why not (one clause, for a sentence).
 * @param {Uint8Array} bytes @returns {Size | Refused} */
export function checked(bytes) {
  const found = measure(bytes);
  if (!found.ok) return found;
  const why = overBounds(found);
  return why ? refused(why) : found;
}

/** @param {Uint8Array} b */
function png(b) {
  if (b.length < 33) return refused(CUT, true);
  if (u32be(b, 8) !== 13 || !ascii(b, 12, "IHDR"))
    return refused("its PNG header is malformed: IHDR is not its first chunk");
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  if (width > 0x7fffffff || height > 0x7fffffff) return refused("its PNG header is malformed: a side is over 2^31 - 1");
  let frames = 1;
  let at = 33;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (at + 8 > b.length) return size("image/png", width, height, frames, true);
    const length = u32be(b, at);
    if (length > 0x7fffffff) return refused("its PNG header is malformed: a chunk length is over 2^31 - 1");
    if (ascii(b, at + 4, "IDAT")) return size("image/png", width, height, frames);
    if (ascii(b, at + 4, "acTL")) {
      if (length !== 8 || at + 12 > b.length)
        return refused("its PNG header is malformed: acTL is not 8 bytes", at + 12 > b.length);
      frames = u32be(b, at + 8);
      if (frames === 0) return refused("its PNG header is malformed: acTL counts no frames");
    }
    at += 12 + length;
  }
  return refused(`its PNG header has more than ${num(MAX_STEPS)} chunks before its image data`);
}

// SOF0 to SOF15 are frame headers, but for C4 (DHT), C8 (JPG) and CC (DAC).
/** @param {number} m */
const isSof = (m) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
/** @param {number} m */
const isStandalone = (m) => (m >= 0xd0 && m <= 0xd7) || m === 0x01;

/** @param {Uint8Array} b */
function jpeg(b) {
  let at = 2;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (at + 2 > b.length) return refused(CUT, true);
    if (b[at] !== 0xff) return refused("its JPEG header is malformed: a segment does not start with a marker");
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // a fill byte before the marker
      continue;
    }
    if (isStandalone(marker)) {
      at += 2;
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda)
      return refused("its JPEG header is malformed: no frame header before its image data");
    if (at + 4 > b.length) return refused(CUT, true);
    const length = u16be(b, at + 2);
    if (length < 2) return refused("its JPEG header is malformed: a segment is shorter than its length field");
    if (isSof(marker)) return jpegFrame(b, at, length);
    at += 2 + length;
  }
  return refused(`its JPEG header has more than ${num(MAX_STEPS)} segments before its frame header`);
}

/** @param {Uint8Array} b @param {number} at @param {number} length */
function jpegFrame(b, at, length) {
  if (length < 8) return refused("its JPEG header is malformed: the frame header is too short");
  if (at + 9 > b.length) return refused(CUT, true);
  const height = u16be(b, at + 5);
  if (height === 0) return refused("its JPEG header gives its height later (DNL), which is not taken");
  return size("image/jpeg", u16be(b, at + 7), height);
}

/** The bytes a colour table takes, by a GIF's packed field. @param {number} packed */
const table = (packed) => (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0);

/** @param {Uint8Array} b */
function gif(b) {
  if (b.length < 13) return refused(CUT, true);
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  let at = 13 + table(b[10]);
  let frames = 0;
  const steps = { count: 0 };
  while (at < b.length) {
    const block = b[at];
    steps.count += 1;
    if (block === 0x3b) return gifSize(width, height, frames, false); // the trailer
    if (block === 0x21) {
      at = subBlocks(b, at + 2, steps); // an extension: its label, then sub-blocks
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break; // an image descriptor: a frame
      width = Math.max(width, u16le(b, at + 1) + u16le(b, at + 5));
      height = Math.max(height, u16le(b, at + 3) + u16le(b, at + 7));
      frames += 1;
      at = subBlocks(b, at + 11 + table(b[at + 9]), steps);
    } else {
      return refused("its GIF data is malformed: an unknown block");
    }
    if (steps.count > MAX_STEPS) return refused(`its GIF data has more than ${num(MAX_STEPS)} blocks`);
  }
  return gifSize(width, height, frames, true);
}

/** @param {number} width @param {number} height @param {number} frames @param {boolean} ended */
function gifSize(width, height, frames, ended) {
  if (frames === 0) return refused(ended ? CUT : "its GIF data has no image", ended);
  return size("image/gif", width, height, frames, ended);
}

/** Where the sub-blocks starting at `at` end (past the data when they run off it); counts steps.
 * @param {Uint8Array} b @param {number} at @param {{count: number}} steps */
function subBlocks(b, at, steps) {
  while (at < b.length && b[at] !== 0 && steps.count <= MAX_STEPS) {
    at += 1 + b[at];
    steps.count += 1;
  }
  return at + 1;
}

/** @param {Uint8Array} b */
function webp(b) {
  if (b.length < 30) return refused(CUT, true);
  if (ascii(b, 12, "VP8 ")) {
    if (b[20] & 1 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a)
      return refused("its WebP header is malformed: VP8 data without a key frame");
    return size("image/webp", u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (ascii(b, 12, "VP8L")) {
    if (b[20] !== 0x2f) return refused("its WebP header is malformed: VP8L data without its signature");
    const bits = u32le(b, 21);
    return size("image/webp", (bits % 0x4000) + 1, (Math.floor(bits / 0x4000) % 0x4000) + 1);
  }
  if (ascii(b, 12, "VP8X")) {
    const width = u24le(b, 24) + 1;
    const height = u24le(b, 27) + 1;
    return b[20] & 0x02 ? webpFrames(b, width, height) : size("image/webp", width, height);
  }
  return refused("its WebP header is malformed: its first chunk is not VP8, VP8L or VP8X");
}

/** An animated WebP: its ANMF chunks counted, walking chunk by chunk to the end RIFF declares.
 * @param {Uint8Array} b @param {number} width @param {number} height */
function webpFrames(b, width, height) {
  const declared = 8 + u32le(b, 4);
  const end = Math.min(b.length, declared);
  const ended = b.length < declared;
  let frames = 0;
  let at = 12;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (at + 8 > end) {
      if (frames === 0) return refused(ended ? CUT : "its WebP animation has no frames", ended);
      return size("image/webp", width, height, frames, ended);
    }
    if (ascii(b, at, "ANMF")) frames += 1;
    const length = u32le(b, at + 4);
    at += 8 + length + (length % 2);
  }
  return refused(`its WebP data has more than ${num(MAX_STEPS)} chunks`);
}
