// Runs the composer's attachment rules (web/src/attachments/image-rules.js) under Node for
// tests/page/test_attach_rules.py: stdin is a JSON list of cases {op, ...}; prints one JSON line each.
import { readFileSync } from "node:fs";
import * as rules from "../../web/src/attachments/image-rules.js";
import { measureImage } from "../../web/src/attachments/image-prep.js";
import { toBase64 } from "../../web/src/bytes.js";

const run = {
  sniff: ({ bytes }) => ({ image: rules.sniffImage(Uint8Array.from(bytes)), kind: rules.sniffKind(Uint8Array.from(bytes)) }),
  fit: ({ width, height, maxSide }) => rules.fitSize(width, height, maxSide),
  smaller: ({ attempt }) => rules.smallerTry(attempt),
  refusal: ({ current, next }) => rules.refusal(current, next),
  base64: ({ bytes }) => toBase64(Uint8Array.from(bytes)),
  name: ({ name }) => rules.cleanName(name),
  measure: ({ data }) => measureImage(new Blob([Buffer.from(data, "base64")])),
  limits: () => ({ images: rules.MAX_IMAGES, message: rules.MAX_MESSAGE_BYTES, side: rules.MAX_SIDE }),
};
for (const item of JSON.parse(readFileSync(0, "utf8"))) console.log(JSON.stringify(await run[item.op](item)));
