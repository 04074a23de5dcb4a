// Decode, downscale and encode one image (docs/attachments.md): createImageBitmap decodes it once, an
// OffscreenCanvas draws it scaled and encodes it. Runs in the image worker (image-worker.js), or on the
// page where a worker cannot draw (no OffscreenCanvas): there a <canvas> encodes, asynchronously too.
import { JPEG_QUALITY, MAX_SENT_BYTES, fitSize, smallerTry } from "./image-rules.js";

/**
 * The image as it is sent: PNG stays PNG when that fits the cap (screenshots keep their crisp text),
 * anything else, or a PNG too large, becomes JPEG, smaller until it fits.
 * @param {Blob} blob @param {string} mime its type by its first bytes
 * @returns {Promise<{blob: Blob, mime: string, width: number, height: number}>}
 */
export async function encodeForModel(blob, mime) {
  const bitmap = await createImageBitmap(blob); // decoded once; each try draws it scaled
  try {
    const fit = fitSize(bitmap.width, bitmap.height);
    let attempt = { width: fit.width, height: fit.height, quality: JPEG_QUALITY };
    if (mime === "image/png") {
      const png = await draw(bitmap, attempt, "image/png");
      if (png.size <= MAX_SENT_BYTES) return { blob: png, mime: "image/png", ...size(attempt) };
    }
    for (;;) {
      const jpeg = await draw(bitmap, attempt, "image/jpeg");
      const next = jpeg.size > MAX_SENT_BYTES ? smallerTry(attempt) : null;
      if (!next) return { blob: jpeg, mime: "image/jpeg", ...size(attempt) };
      attempt = next;
    }
  } finally {
    bitmap.close();
  }
}

const size = ({ width, height }) => ({ width, height });

async function draw(bitmap, { width, height, quality }, type) {
  const canvas = surface(width, height);
  const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
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

/** An OffscreenCanvas, or on a page whose browser has none, a detached <canvas>. */
function surface(width, height) {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(width, height);
  return Object.assign(document.createElement("canvas"), { width, height });
}
