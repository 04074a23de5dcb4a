// Runs the GGUF header reader and the wire mapping of the model in the page (web/src/local-model/
// gguf-header.js, wire.js) under Node for tests/page/test_local_model.py: stdin is a JSON list of
// cases {kind: "header", base64, limits?} or {kind: "file", path} or {kind: "wire", fn, args}; prints one
// JSON line per case: {value} or {error, steps} (steps: the values read when a header was refused).
import { openSync, readFileSync, readSync } from "node:fs";
import { LIMITS, modelFacts, readMetadata } from "../../web/src/local-model/gguf-header.js";
import * as wire from "../../web/src/local-model/wire.js";

function head(path, size) {
  const bytes = new Uint8Array(size);
  const read = readSync(openSync(path, "r"), bytes, 0, size, 0);
  return bytes.subarray(0, read);
}

function run(testCase) {
  if (testCase.kind === "header") {
    const bytes = new Uint8Array(Buffer.from(testCase.base64, "base64"));
    const { metadata, version, tensors, steps } = readMetadata(bytes, { ...LIMITS, ...testCase.limits });
    return { version, tensors, metadata, steps, facts: modelFacts(metadata, "file.gguf") };
  }
  if (testCase.kind === "file") return modelFacts(readMetadata(head(testCase.path, 16 << 20)).metadata);
  const result = wire[testCase.fn](...testCase.args);
  return result;
}

for (const testCase of JSON.parse(readFileSync(0, "utf8"))) {
  try {
    console.log(JSON.stringify({ value: run(testCase) }));
  } catch (err) {
    console.log(JSON.stringify({ error: `${err.name}: ${err.message}`, steps: err.steps }));
  }
}
