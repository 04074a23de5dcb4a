// Runs the PDF reader's pure rules (web/src/pdf/pdf-rules.js) and the prompt text (web/src/pdf/pdf-text.js)
// under Node for tests/page/test_pdf_rules.py: stdin is a JSON list of cases {op, ...}; prints one JSON
// line per case: {value}.
import { readFileSync } from "node:fs";
import { bytesProblem, failureText, isMapName, pageText, pngSize, textAnswer, withinLimits } from "../../web/src/pdf/pdf-rules.js";
import { pdfAsPromptText } from "../../web/src/pdf/pdf-text.js";
import { parserBoot, watchRealm } from "../../web/src/pdf/in-frame/watch.js";

// The watch on a realm of its own: the canary, then `calls` more functions made and `evals` evals run.
function watched(c) {
  const scope = { Function, eval: (code) => code };
  const counts = watchRealm(scope, new EventTarget());
  for (let i = 0; i < c.calls; i++) new scope.Function("return 1")();
  for (let i = 0; i < c.evals; i++) scope.eval("1");
  return { ...counts, made: typeof scope.Function("return 2") };
}

// Whether the parser's bootstrap is a script that parses (never run here).
function bootParses() {
  try {
    new Function(parserBoot());
    return true;
  } catch (err) {
    return String(err);
  }
}

const OPS = {
  pageText: (c) => pageText(c.items),
  bytesProblem: (c) => bytesProblem(Uint8Array.from(Buffer.from(c.base64, "base64")), c.maxBytes),
  withinLimits: (c) => withinLimits(c.pages, c.total, c.limits),
  failureText: (c) => failureText(Object.assign(new Error(c.message), { name: c.name })),
  failureOf: (c) => failureText(c.error), // as it arrives from the frame: a plain object, or anything
  textAnswer: (c) => textAnswer(c.answer, c.limits),
  pngSize: (c) => pngSize(Uint8Array.from(Buffer.from(c.base64, "base64"))),
  isMapName: (c) => isMapName(c.name),
  watched,
  bootParses,
  prompt: (c) => pdfAsPromptText(c.name, c.doc),
};

// Every non-ASCII unit escaped: the reader of these lines splits on U+0085 and U+2028 too.
const ascii = (json) => json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

for (const item of JSON.parse(readFileSync(0, "utf8"))) {
  console.log(ascii(JSON.stringify({ value: OPS[item.op](item) })));
}
