// The images of a tool result as the page shows them (views/tool-card.js), and of a message's attachments
// (views/attachment-chips.js): only the raster types the agent accepts (py/agentlite/tools/images.py),
// with base64 data whose bytes are that type and whose header's pixels and frames are within bounds
// (image-size.js: pixels before bytes, checked again here whatever the worker or a stored chat sends),
// so nothing else (SVG, a small file claiming 40,000 × 40,000 pixels) ever becomes an <img> source; and
// the alt text that names the tool, the type and the size.
import { fromBase64 } from "../bytes.js";
import { checked } from "./image-size.js";

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** An image of a tool's result, as the agent sends it. @typedef {{mime: string, data: string}} ToolImage */

/** The bytes base64 `data` decodes to. @param {string} data */
export const decodedSize = (data) =>
  Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);

/** @param {number} bytes */
function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The images of a result the page may show: allowed types, base64 data, a header of that type within
 * bounds. @param {unknown} images @returns {ToolImage[]} */
export function shownImages(images) {
  if (!Array.isArray(images)) return [];
  return images.filter(
    (image) =>
      IMAGE_TYPES.includes(image?.mime) &&
      typeof image.data === "string" &&
      BASE64.test(image.data) &&
      withinBounds(image),
  );
}

/** Whether the image's bytes are of its type with pixels and frames within bounds. @param {ToolImage} image */
function withinBounds(image) {
  try {
    const found = checked(fromBase64(image.data));
    return found.ok && found.mime === image.mime;
  } catch {
    return false; // not base64 after all (atob refuses a length of 4n + 1)
  }
}

/** The alt text of the `index`-th of `count` images `tool` returned.
 * @param {ToolImage} image @param {number} index @param {number} count @param {string | undefined} tool */
export function imageAlt(image, index, count, tool) {
  return `Image ${index + 1} of ${count} returned by ${tool}: ${image.mime}, ${sizeText(decodedSize(image.data))}`;
}
