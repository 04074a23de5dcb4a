// Runs the preview's guard of event-handler attributes (web/src/preview/page/handler-attributes.js through
// page-html.js's rewriteHtml, with loop-guard.js) under Node for tests/page/test_handler_guard.py:
// argv[2] is a JSON list of cases {html, due}; prints one JSON line per case: {html, unguarded, handlers},
// where `handlers` is each on…="" attribute of the result as the browser decodes it: {name, code}, and
// for a guarded one what running it as a handler body did, with a check that always answers `due`
// (whether the thread is held): {value} (its `out`) or {thrown}.
import { decodeHTMLAttribute } from "../../web/node_modules/entities/dist/decode.js";
import * as guard from "../../web/src/preview/page/loop-guard.js";
import { rewriteHtml } from "../../web/src/preview/page/page-html.js";

const HANDLER = /\s(on\w+)=(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;

for (const { html, due } of JSON.parse(process.argv[2])) {
  const page = rewriteHtml(html, "/index.html", () => true, () => {}, guard);
  const handlers = [];
  for (const [, name, double, single, bare] of page.html.matchAll(HANDLER)) {
    const code = decodeHTMLAttribute(double ?? single ?? bare);
    const answer = { name, code };
    handlers.push(answer);
    if (!code.includes(guard.DUE)) continue; // never run an unguarded loop
    try {
      answer.value = new Function("__agentliteLoopDue", "__agentliteLoopTurns", `let out = 0;\n${code}\nreturn out;`)(
        () => due,
        0,
      );
    } catch (err) {
      answer.thrown = `${err.name}: ${err.message}`;
    }
  }
  console.log(JSON.stringify({ html: page.html, unguarded: page.unguarded, handlers }));
}
