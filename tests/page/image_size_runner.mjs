// Runs the page's image header reader (web/src/attachments/image-size.js) under Node for tests/page/test_image_size.py:
// stdin is a JSON list of base64 byte strings; prints one JSON line each: {measured, checked}.
import { readFileSync } from "node:fs";
import { checked, measure } from "../../web/src/attachments/image-size.js";

for (const data of JSON.parse(readFileSync(0, "utf8"))) {
  const bytes = Uint8Array.from(Buffer.from(data, "base64"));
  console.log(JSON.stringify({ measured: measure(bytes), checked: checked(bytes) }));
}
