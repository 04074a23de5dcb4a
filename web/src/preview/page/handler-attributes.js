// The event-handler attributes (`onclick="…"`, `onerror="…"`, `onload="…"`) of a page's HTML, guarded
// like its inline scripts (loop-guard.js) where the preview frame shares the app's thread: an
// `<img onerror="while (1) {}">` runs at load without a click. The HTML is edited in place: an attribute
// with a loop is written again, double-quoted, on the same lines; every other byte stays as it was.
// Comments and start tags are found by html-scan.js's `replaceMarkup`, in time linear in the page.
import { replaceMarkup } from "./html-scan.js";

const ATTRIBUTE = /(\s+)([^\s"'>/=]+)(?:(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * `text` (the part of `html` that starts at `offset`: markup outside <script> and <style> blocks, or a
 * block's start tag) with the loops of its handler attributes guarded; `guard` is loop-guard.js's module.
 * A handler that does not parse is left as written and named in `unguarded`.
 * @param {string} text
 * `lineOf(offset)` is the line of an offset in the page; `counter.steps` adds up the characters scanned.
 * @param {{offset: number, from: string, lineOf: (offset: number) => number,
 *   guard: {guardHandler: (value: string, options: {path: string, firstLine: number}) => string | null},
 *   unguarded: string[], counter?: {steps: number}}} context
 */
export function guardHandlers(text, { offset, from, guard, unguarded, lineOf, counter }) {
  return replaceMarkup(
    text,
    (tag, at) => {
      if (tag.startsWith("<!--") || !/\son/i.test(tag)) return tag;
      return tag.replace(ATTRIBUTE, (whole, space, name, equals, double, single, bare, inTag) => {
        const value = double ?? single ?? bare;
        if (!/^on/i.test(name) || value === undefined) return whole;
        const start = offset + at + inTag + whole.length - value.length - (bare === undefined ? 1 : 0);
        const firstLine = lineOf(start);
        try {
          const guarded = guard.guardHandler(value, { path: from, firstLine });
          return guarded === null ? whole : `${space}${name}${equals}"${escapeAttribute(guarded)}"`;
        } catch (err) {
          unguarded.push(`${from} (the ${name} attribute at line ${firstLine}): ${/** @type {Error} */ (err).message}`);
          return whole;
        }
      });
    },
    counter,
  );
}

/**
 * The inverse of the browser's decoding of a double-quoted attribute value.
 * @param {string} code
 */
function escapeAttribute(code) {
  return code.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}
