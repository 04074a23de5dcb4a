// The preview's screenshot, a bundle of its own (dist/preview-screenshot.js) that runs inside the preview
// frame, and only when preview_page asks for a picture: the app hands its text over the frame's port and
// the frame imports it from a blob: URL (web/sandbox/preview.html, `runModule`). html-to-image draws the
// page's DOM into an SVG foreignObject, that into a canvas, and the canvas becomes a PNG. It needs no
// network and no frame of its own, so it works in the preview's opaque origin in every engine
// (docs/preview.md, "Screenshots", has the measurements and the candidates that did not).
import { toCanvas } from "html-to-image";

const BLANK = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";

/**
 * The page as shown now, at the frame's width and the document's height (each capped), device scale 1.
 * @param {{maxWidth: number, maxHeight: number}} args
 * @returns {Promise<{png: ArrayBuffer, width: number, height: number}>}
 */
export async function run({ maxWidth, maxHeight }) {
  const root = document.documentElement;
  const width = Math.max(1, Math.min(root.clientWidth || innerWidth, maxWidth));
  // innerHeight too: in Firefox ESR 153 the root's clientHeight of a page with no content in flow came
  // out 0 (an 800x1 shot, measured), innerHeight is the frame's own
  const tall = Math.max(root.clientHeight, root.scrollHeight, innerHeight);
  const height = Math.max(1, Math.min(tall, maxHeight));
  const canvas = await toCanvas(root, {
    width,
    height,
    canvasWidth: width,
    canvasHeight: height,
    pixelRatio: 1,
    backgroundColor: canvasBackground(),
    style: { width: `${width}px`, height: `${height}px`, margin: "0" },
    // An image that cannot be read (none from the network can) is left blank, also when its element
    // reports the failure only after html-to-image has started listening.
    imagePlaceholder: BLANK,
    onImageErrorHandler: () => {},
  }).catch((err) => {
    // html-to-image rejects with the failed image's `error` event when a picture cannot be drawn
    throw err instanceof Error ? err : new Error(`the page could not be drawn (${err?.type || err} event)`);
  });
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("the browser could not encode the picture as PNG");
  return { png: await blob.arrayBuffer(), width: canvas.width, height: canvas.height };
}

// What a browser paints behind the page: the root's background, else the body's (CSS propagates the
// body's to the canvas), else white. A copy of the elements has no canvas to propagate to.
function canvasBackground() {
  for (const element of [document.documentElement, document.body]) {
    const color = element ? getComputedStyle(element).backgroundColor : "";
    if (color && !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(color)) return color;
  }
  return "#ffffff";
}
