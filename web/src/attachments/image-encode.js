// Decode, downscale and encode one image (docs/attachments.md): createImageBitmap decodes it once, an
// OffscreenCanvas draws it scaled and encodes it. Runs in the image worker (image-worker.js), or on the
// page where a worker cannot draw: each side hands in what it draws on (image-worker.js, image-prep.js),
// on a page without OffscreenCanvas a <canvas>, which encodes asynchronously too. Nothing here names the DOM.
import { JPEG_QUALITY, MAX_SENT_BYTES, fitSize, smallerTry } from "./image-rules.js";

/** @import { EncodeTry } from "./image-rules.js" */
/** @typedef {Pick<OffscreenCanvasRenderingContext2D, "imageSmoothingQuality" | "fillStyle" | "fillRect" | "drawImage">} DrawingContext */
/**
 * A canvas that encodes with a callback (the page's <canvas>).
 * @typedef {object} CallbackCanvas
 * @property {(contextId: "2d") => DrawingContext | null} getContext
 * @property {(callback: (blob: Blob | null) => void, type?: string, quality?: number) => void} toBlob
 */
/** @typedef {(width: number, height: number) => OffscreenCanvas | CallbackCanvas} Surface what an image is drawn on */

/**
 * The image as it is sent: PNG stays PNG when that fits the cap (screenshots keep their crisp text),
 * anything else, or a PNG too large, becomes JPEG, smaller until it fits.
 * @param {Blob} blob @param {string} mime its type by its first bytes
 * @param {Surface} surface what it is drawn on (the worker's OffscreenCanvas, or the page's)
 * @returns {Promise<{blob: Blob, mime: string, width: number, height: number}>}
 */
export async function encodeForModel(blob, mime, surface) {
  const bitmap = await createImageBitmap(blob); // decoded once; each try draws it scaled
  try {
    const fit = fitSize(bitmap.width, bitmap.height);
    let attempt = { width: fit.width, height: fit.height, quality: JPEG_QUALITY };
    if (mime === "image/png") {
      const png = await draw(surface, bitmap, attempt, "image/png");
      if (png.size <= MAX_SENT_BYTES) return { blob: png, mime: "image/png", ...size(attempt) };
    }
    for (;;) {
      const jpeg = await draw(surface, bitmap, attempt, "image/jpeg");
      const next = jpeg.size > MAX_SENT_BYTES ? smallerTry(attempt) : null;
      if (!next) return { blob: jpeg, mime: "image/jpeg", ...size(attempt) };
      attempt = next;
    }
  } finally {
    bitmap.close();
  }
}

/** @param {EncodeTry} attempt */
const size = ({ width, height }) => ({ width, height });

/**
 * @param {Surface} surface @param {ImageBitmap} bitmap @param {EncodeTry} attempt @param {string} type
 * @returns {Promise<Blob>}
 */
async function draw(surface, bitmap, { width, height, quality }, type) {
  const canvas = surface(width, height);
  const context = /** @type {DrawingContext} */ (canvas.getContext("2d"));
  context.imageSmoothingQuality = "high";
  if (type === "image/jpeg") {
    context.fillStyle = "#fff"; // JPEG has no transparency: white, not black, behind it
    context.fillRect(0, 0, width, height);
  }
  context.drawImage(bitmap, 0, 0, width, height);
  if ("convertToBlob" in canvas) return canvas.convertToBlob({ type, quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("the image could not be encoded"))),
      type,
      quality,
    ),
  );
}
