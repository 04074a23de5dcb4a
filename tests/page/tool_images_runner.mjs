// Runs the page's image filter (web/src/attachments/tool-images.js) under Node for tests/page/test_tool_images_page.py:
// stdin is a JSON list of image lists; prints one JSON line per list: {shown: [mime...], alts: [...]}.
import { readFileSync } from "node:fs";
import { imageAlt, shownImages } from "../../web/src/attachments/tool-images.js";

for (const images of JSON.parse(readFileSync(0, "utf8"))) {
  const shown = shownImages(images);
  const alts = shown.map((image, index) => imageAlt(image, index, shown.length, "snap"));
  console.log(JSON.stringify({ shown: shown.map((image) => image.mime), alts }));
}
