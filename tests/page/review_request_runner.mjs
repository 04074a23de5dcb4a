// Runs the review's pure helpers (web/src/views/review-diff.js) under Node for
// tests/page/test_review_request.py: stdin is a JSON list of {fn, args}; prints one JSON line per call:
// {value} or {error}.
import { readFileSync } from "node:fs";
import * as review from "../../web/src/views/review-diff.js";

for (const { fn, args } of JSON.parse(readFileSync(0, "utf8"))) {
  try {
    console.log(JSON.stringify({ value: review[fn](...args) ?? null }));
  } catch (err) {
    console.log(JSON.stringify({ error: String(err) }));
  }
}
