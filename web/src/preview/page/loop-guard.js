// The preview's loop guard, a bundle of its own (dist/preview-guard.js) that the app loads only in an
// engine whose preview frame runs on the app's own thread (thread.js): there a page stuck in a loop would
// freeze the app. Every `for`, `while` and `do…while` body of a workspace script gets a check that asks
// the frame (web/sandbox/preview.html, `__agentliteLoopDue`) whether the page's script has held the thread
// longer than LOOP_LIMIT_MS, and if so throws a RangeError naming the loop's file:line. Checks are inserted
// on the loop's own lines, so every other position and line of the script stays where it was.
import { parse } from "acorn";
import { decodeHTMLAttribute } from "entities/decode";

export const LOOP_LIMIT_MS = 1000;
export const DUE = "__agentliteLoopDue"; // the frame's check, a global of the page's window
export const TURNS = "__agentliteLoopTurns"; // turns left before the next check, set by the check
const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);

/**
 * `code` with every loop guarded. Throws acorn's SyntaxError when it does not parse (a real syntax error
 * the browser reports, or syntax this parser does not know, which would run unguarded). `path` names the
 * file in the error; `firstLine` is the line of the code's first line in that file (an inline script).
 * @param {string} code
 * `handler`: the code is an event-handler attribute's, a function's body.
 * @param {{path: string, module: boolean, firstLine?: number, handler?: boolean}} options
 * @returns {string}
 */
export function guardLoops(code, { path, module, firstLine = 1, handler = false }) {
  const tree = parse(code, {
    ecmaVersion: "latest",
    sourceType: module ? "module" : "script",
    locations: true,
    allowHashBang: !handler,
    allowReturnOutsideFunction: handler, // an on…="" attribute's code is a function's body
  });
  /** @type {[number, string][]} */
  const inserts = []; // [position, text]
  for (const loop of loopsOf(tree)) {
    const check = checkFor(path, loop.loc.start.line + firstLine - 1);
    const body = loop.body;
    if (body.type === "BlockStatement") inserts.push([body.start + 1, check]);
    else inserts.push([body.start, `{${check}`], [body.end, "}"]);
  }
  inserts.sort((a, b) => a[0] - b[0]);
  const pieces = [];
  let from = 0;
  for (const [at, text] of inserts) {
    pieces.push(code.slice(from, at), text);
    from = at;
  }
  pieces.push(code.slice(from));
  return pieces.join("");
}

/**
 * The code of an event-handler attribute (`onclick="…"`, as written in the HTML: character references and
 * all) with its loops guarded, decoded: what the element will run. null when it has no loop (the
 * attribute then stays exactly as written). Throws acorn's SyntaxError like guardLoops.
 * @param {string} value
 * @param {{path: string, firstLine: number}} options
 * @returns {string | null}
 */
export function guardHandler(value, { path, firstLine }) {
  const code = decodeHTMLAttribute(value);
  const guarded = guardLoops(code, { path, module: false, firstLine, handler: true });
  return guarded === code ? null : guarded;
}

// A turn costs a decrement; the check itself (a call that may read the clock) runs when the frame's count
// of turns runs out: calling it on every turn made a tight loop 6× slower in Firefox (measured 31 ms ->
// 205 ms for 10^7 turns; 49 ms with the count). The check names its loop twice: in the error, and to the
// frame, which reports it itself where the engine hides an inline script's error (WebKit: "Script error.").
/**
 * @param {string} path
 * @param {number} line
 */
function checkFor(path, line) {
  const where = `${path}:${line}`;
  const message = `preview stopped a loop that ran for more than ${LOOP_LIMIT_MS} ms at ${where}`;
  return `if(--${TURNS}<0&&${DUE}(${literal(where)}))throw new RangeError(${literal(message)});`;
}

/**
 * `<` escaped: the check may land in an inline <script> of an HTML page.
 * @param {string} text
 */
function literal(text) {
  return JSON.stringify(text).replace(/</g, "\\u003c");
}

/**
 * Every loop node of an acorn tree, outer before inner.
 * @param {object} node
 * @returns {Generator<LoopNode>}
 */
function* loopsOf(node) {
  const stack = [node];
  while (stack.length) {
    const next = /** @type {AstNode} */ (stack.pop());
    if (LOOPS.has(next.type)) yield/** @type {LoopNode} */ (/** @type {unknown} */ (next));
    for (const key of Object.keys(next)) {
      const value = next[key];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push(value[i]);
      } else if (isNode(value)) stack.push(value);
    }
  }
}

/**
 * An acorn node, read by its fields; a loop's, by those the guard uses.
 * @typedef {{type: string, [key: string]: unknown}} AstNode
 * @typedef {{loc: {start: {line: number}}, body: {type: string, start: number, end: number}}} LoopNode
 */

/**
 * @param {unknown} value
 * @returns {value is AstNode}
 */
function isNode(value) {
  return (
    value !== null && typeof value === "object" && typeof (/** @type {{type?: unknown}} */ (value).type) === "string"
  );
}
