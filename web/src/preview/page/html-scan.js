// The scans of a page's HTML the preview makes (page-html.js, handler-attributes.js), in time linear in the
// page whatever it holds. They find exactly what these regular expressions find:
//   blocks:   /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi
//   tags:     /<(link|img|source|video|audio|iframe|embed|track|input|object)\b[^>]*>/gi
//   markup:   /<!--[\s\S]*?-->|<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g
// but a regular expression tries again from every `<` after one that failed and rescans the rest of the page
// each time: an unclosed `<script>` after thousands of `<script` openers, or a run of attributes with no
// `>`, took minutes. Here every search remembers how far it looked (`Finder`), and an attribute run is
// parsed once from any position (`Markup`), so each character is looked at a bounded number of times.
// `counter.steps` adds up the characters looked at, which the unit tests compare across input sizes.

/** @typedef {{steps: number}} Counter */

const OPENER = /<(script|style)\b/gi;
const TAG_START = /<(link|img|source|video|audio|iframe|embed|track|input|object)\b/gi;
const SPACE = /\s/;

/** Searches of one text that go forward only: the answer for a needle is kept while it still applies. */
class Finder {
  /** @param {string} text @param {Counter} counter */
  constructor(text, counter) {
    this.text = text;
    this.counter = counter;
    /** @type {Map<string, {from: number, at: number}>} */
    this.known = new Map();
  }

  /** The first index of `needle` (a string, or a /g regex named by `key`) at or after `from`, else -1; a
   * search that the last one for the same needle answers already (it began before `from` and found
   * nothing before it) is not made again.
   * @param {string | RegExp} needle
   * @param {number} from
   * @param {string} [key]
   */
  next(needle, from, key = String(needle)) {
    const seen = this.known.get(key);
    if (seen && seen.from <= from && (seen.at === -1 || seen.at >= from)) return seen.at;
    let at;
    let end;
    if (typeof needle === "string") {
      at = this.text.indexOf(needle, from);
      end = at === -1 ? this.text.length : at + needle.length;
    } else {
      needle.lastIndex = from;
      const found = needle.exec(this.text);
      at = found ? found.index : -1;
      end = found ? at + found[0].length : this.text.length;
    }
    this.counter.steps += end - from + 1;
    this.known.set(key, { from, at });
    return at;
  }

  /**
   * Each match of the /g regex `pattern` from `from` on, as `at` moves (the caller sets where to go on).
   * @param {RegExp} pattern
   * @param {number} from
   * @returns {Generator<RegExpExecArray, void, number>}
   */
  *matches(pattern, from) {
    let at = from;
    while (at < this.text.length) {
      pattern.lastIndex = at;
      const found = pattern.exec(this.text);
      this.counter.steps += (found ? found.index + found[0].length : this.text.length) - at + 1;
      if (!found) return;
      at = yield found;
    }
  }
}

/**
 * The <script> and <style> blocks of `html`, as the `blocks` expression matches them: [{index, name,
 * attributes, body, bodyAt, whole}] (`bodyAt`: where the body starts in `html`).
 * @param {string} html @param {Counter} [counter]
 */
export function scriptBlocks(html, counter = { steps: 0 }) {
  const find = new Finder(html, counter);
  const found = [];
  const openers = find.matches(new RegExp(OPENER.source, "gi"), 0);
  for (let step = openers.next(); !step.done; ) {
    const opener = /** @type {RegExpExecArray} */ (step.value);
    const gt = find.next(">", opener.index + opener[0].length);
    if (gt === -1) break; // no `>` after it: no later opener has one either
    const name = opener[1];
    const close = new RegExp(`</${name}\\s*>`, "gi");
    const end = find.next(close, gt + 1, `</${name.toLowerCase()}`);
    if (end === -1) {
      step = openers.next(opener.index + 1);
      continue;
    }
    close.lastIndex = end;
    const closing = close.exec(html)?.[0] ?? "";
    const whole = html.slice(opener.index, end + closing.length);
    const attributes = html.slice(opener.index + opener[0].length, gt);
    found.push({ index: opener.index, name, attributes, body: html.slice(gt + 1, end), bodyAt: gt + 1, whole });
    step = openers.next(end + closing.length);
  }
  return found;
}

/**
 * `text` with each tag the `tags` expression matches replaced by `replace(tag)`.
 * @param {string} text @param {(tag: string) => string} replace @param {Counter} [counter]
 */
export function replaceMediaTags(text, replace, counter = { steps: 0 }) {
  const find = new Finder(text, counter);
  const pieces = [];
  let done = 0;
  const starts = find.matches(new RegExp(TAG_START.source, "gi"), 0);
  for (let step = starts.next(); !step.done; ) {
    const tag = /** @type {RegExpExecArray} */ (step.value);
    const start = tag.index;
    const gt = find.next(">", start + tag[0].length);
    if (gt === -1) break;
    pieces.push(text.slice(done, start), replace(text.slice(start, gt + 1)));
    done = gt + 1;
    step = starts.next(done);
  }
  pieces.push(text.slice(done));
  return pieces.join("");
}

/**
 * `text` with each comment or start tag the `markup` expression matches replaced by `replace(tag, at)`.
 * @param {string} text @param {(tag: string, at: number) => string} replace @param {Counter} [counter]
 */
export function replaceMarkup(text, replace, counter = { steps: 0 }) {
  const markup = new Markup(text, counter);
  const pieces = [];
  let done = 0;
  let at = markup.find.next("<", 0);
  while (at !== -1) {
    const end = markup.at(at);
    if (end === -1) {
      at = markup.find.next("<", at + 1);
      continue;
    }
    pieces.push(text.slice(done, at), replace(text.slice(at, end), at));
    done = end;
    at = markup.find.next("<", end);
  }
  pieces.push(text.slice(done));
  return pieces.join("");
}

const NAME_STOP = /[\s/>]/g;
const ATTRIBUTE_STOP = /[\s"'>/=]/g;
const BARE_STOP = /[\s"'=<>`]/g;

/** The `markup` expression at one position, with what a parse learns kept for the next one. */
class Markup {
  /** @param {string} text @param {Counter} counter */
  constructor(text, counter) {
    this.text = text;
    this.counter = counter;
    this.find = new Finder(text, counter);
    /** @type {Map<number, number>} the end of the attribute run starting at a position, or -1 */
    this.runs = new Map();
  }

  /**
   * The end of the comment or start tag at `at` (a `<`), -1 when none starts there.
   * @param {number} at
   */
  at(at) {
    const text = this.text;
    if (text.startsWith("<!--", at)) {
      const close = this.find.next("-->", at + 4);
      return close === -1 ? -1 : close + 3;
    }
    if (!/[a-zA-Z]/.test(text[at + 1] ?? "")) return -1;
    const nameEnd = this.stop(NAME_STOP, "name", at + 1);
    return this.run(nameEnd);
  }

  /**
   * The first character at or after `from` that `pattern` matches, else the text's end.
   * @param {RegExp} pattern
   * @param {string} key
   * @param {number} from
   */
  stop(pattern, key, from) {
    const at = this.find.next(pattern, from, key);
    return at === -1 ? this.text.length : at;
  }

  /** The end of `(?:\s+attribute)*\s*\/?>` from `from`, -1 when it fails; every position the run passes
   * is remembered with its outcome, so a later parse that reaches one of them stops there.
   * @param {number} from
   */
  run(from) {
    /** @type {number[]} */
    const passed = [];
    let at = from;
    let end = -1;
    for (;;) {
      if (this.runs.has(at)) {
        end = /** @type {number} */ (this.runs.get(at));
        break;
      }
      passed.push(at);
      const next = this.attribute(at);
      if (next === -1) {
        end = this.close(at);
        break;
      }
      at = next;
    }
    for (const position of passed) this.runs.set(position, end);
    return end;
  }

  /**
   * The end of `\s+name(\s*=\s*value)?` at `at`, -1 when no attribute starts there.
   * @param {number} at
   */
  attribute(at) {
    const text = this.text;
    const name = this.spaces(at);
    if (name === at) return -1;
    const nameEnd = this.stop(ATTRIBUTE_STOP, "attribute", name);
    if (nameEnd === name) return -1;
    const equals = this.spaces(nameEnd);
    if (text[equals] !== "=") return nameEnd;
    const value = this.spaces(equals + 1);
    const quote = text[value];
    if (quote === '"' || quote === "'") {
      const close = this.find.next(quote, value + 1);
      return close === -1 ? nameEnd : close + 1;
    }
    const bareEnd = this.stop(BARE_STOP, "bare", value);
    return bareEnd === value ? nameEnd : bareEnd;
  }

  /**
   * The end of `\s*\/?>` at `at`, -1 when it is not there.
   * @param {number} at
   */
  close(at) {
    let end = this.spaces(at);
    if (this.text[end] === "/") end += 1;
    return this.text[end] === ">" ? end + 1 : -1;
  }

  /**
   * The first position at or after `at` that is not white space.
   * @param {number} at
   */
  spaces(at) {
    let end = at;
    while (end < this.text.length && SPACE.test(this.text[end])) end += 1;
    this.counter.steps += end - at + 1;
    return end;
  }
}

/**
 * A function giving the line number (from 1) of an offset in `html`, each call in O(log lines).
 * @param {string} html
 */
export function lineIndex(html) {
  const starts = [0];
  for (let at = html.indexOf("\n"); at !== -1; at = html.indexOf("\n", at + 1)) starts.push(at + 1);
  return (/** @type {number} */ offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}
