// Runs the page's check of a preview screenshot (web/src/preview/page/shot.js) under Node for
// tests/page/test_preview_shot.py: stdin is a JSON list of answers, where `png` is base64 (made an
// ArrayBuffer here, as the frame sends it); prints one JSON line per answer, shotReport's result.
import { readFileSync } from "node:fs";
import { shotReport } from "../../web/src/preview/page/shot.js";

for (const answer of JSON.parse(readFileSync(0, "utf8"))) {
  const png = answer?.result?.png;
  if (typeof png === "string") answer.result.png = Uint8Array.from(Buffer.from(png, "base64")).buffer;
  console.log(JSON.stringify(shotReport(answer)));
}
