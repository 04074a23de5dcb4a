// What preview_page's report says about its screenshot, from what the preview frame answered: the PNG in
// base64 (as a tool result's image carries it, py/agentlite/tools/images.py) with its size, or why there
// is none. The frame runs the page's code, so its answer is checked like any input: the bytes must be a
// PNG within the image limit whose header, read by the page's one header reader (image-size.js), gives
// a size within SHOT_LIMITS; anything else is a clear refusal.
import { toBase64 } from "../../bytes.js";
import { measure } from "../../attachments/image-size.js";

export const SHOT_LIMITS = { maxWidth: 1280, maxHeight: 2000 }; // CSS px, device scale 1
export const MAX_SHOT_BYTES = 4 * 1024 * 1024; // as MAX_IMAGE_BYTES of a tool result's image
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * @param {any} answer the frame's `{result: {png}}` or `{error}`
 * @returns {{screenshot: {mime: string, data: string, width: number, height: number}} | {screenshot_error: string}}
 */
export function shotReport(answer) {
  if (answer?.error !== undefined) return { screenshot_error: String(answer.error).slice(0, 500) };
  const png = answer?.result?.png;
  const bytes = png instanceof ArrayBuffer ? new Uint8Array(png) : png instanceof Uint8Array ? png : null;
  if (!bytes || !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    return { screenshot_error: "the preview gave something that is not a PNG picture" };
  }
  if (bytes.length > MAX_SHOT_BYTES) {
    return { screenshot_error: `the picture has ${bytes.length} bytes; the limit is ${MAX_SHOT_BYTES}` };
  }
  const size = measure(bytes);
  const [width, height] = size.ok && size.frames === 1 ? [size.width, size.height] : [0, 0];
  /** @type {(n: number, max: number) => boolean} */
  const fits = (n, max) => n > 0 && n <= max;
  if (!fits(width, SHOT_LIMITS.maxWidth) || !fits(height, SHOT_LIMITS.maxHeight)) {
    return { screenshot_error: "the preview gave a picture of an impossible size" };
  }
  return { screenshot: { mime: "image/png", data: toBase64(bytes), width, height } };
}
