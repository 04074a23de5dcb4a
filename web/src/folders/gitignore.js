// One `.gitignore` file's patterns, matched the way git matches them (gitignore(5), wildmatch) in time
// bounded by pattern × path: a pattern is cut at its slashes into names and `**` steps, and a path is
// matched name by name with each (pattern step, path name) pair decided once. A regex built from many
// `**` backtracks exponentially: a dozen of them over a deep path held the page for minutes.
//
// Left as git has it: `*`, `?` and `[...]` stay inside a name; `**` alone between slashes spans any
// number of folders (one or more at the end: `a/**` is what is inside `a`); a pattern without a slash
// (a trailing one aside) matches a name at any depth; a trailing `/` matches folders only; `!`
// re-includes; `\` escapes. Differences: `?` and `[...]` take one character, where git takes one byte.

/** @typedef {{ star: true }} Star */
/** @typedef {(char: string) => boolean} CharTest */
/** @typedef {{ any?: true, char?: string, negated?: boolean, tests?: CharTest[] }} CharToken */
/** @typedef {{ tokens: (Star | CharToken)[] }} NamePattern */
/** @typedef {{ negated: boolean, folderOnly: boolean, steps: (Star | NamePattern)[], basename: boolean }} Rule */
/** @typedef {{ steps: number }} Counter */

/** @type {Star} */
const STAR = { star: true };

/** The patterns of one `.gitignore` text, in file order.
 * @param {string} text
 * @returns {Rule[]} */
export function parseGitignore(text) {
  const rules = [];
  for (const raw of text.replace(/^\uFEFF/, "").split("\n")) {
    const rule = parseLine(raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

/** @param {string} raw @returns {Rule | null} */
function parseLine(raw) {
  let line = trimTrailingSpaces(raw);
  if (!line || line.startsWith("#")) return null;
  const negated = line.startsWith("!");
  if (negated) line = line.slice(1);
  const folderOnly = line.endsWith("/") && !line.endsWith("\\/");
  if (folderOnly) line = line.replace(/\/+$/, "");
  if (!line) return null;
  const anchored = line.includes("/");
  const steps = line.replace(/^\//, "").split("/");
  const compiled = steps.map((step) => (step === "**" ? STAR : compileName(step)));
  if (compiled.some((step) => step === null)) return null; // an unclosed `[`: git's wildmatch never matches
  return { negated, folderOnly, steps: /** @type {(Star | NamePattern)[]} */ (compiled), basename: !anchored }; // basename: the last name alone
}

/** Trailing spaces go unless escaped (`a\ ` keeps one space). @param {string} line */
function trimTrailingSpaces(line) {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end -= 1;
  return line.slice(0, end);
}

/** A pattern for one name: a list of tokens, each a character, `?`, `*` or a class; null if broken.
 * @param {string} text
 * @returns {NamePattern | null} */
function compileName(text) {
  const chars = Array.from(text);
  /** @type {(Star | CharToken)[]} */
  const tokens = [];
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i];
    if (char === "*") {
      if (tokens.at(-1) !== STAR) tokens.push(STAR);
    } else if (char === "?") tokens.push({ any: true });
    else if (char === "[") {
      const parsed = compileClass(chars, i + 1);
      if (!parsed) return null;
      tokens.push(parsed.token);
      i = parsed.end;
    } else if (char === "\\" && i + 1 < chars.length) tokens.push({ char: chars[++i] });
    else tokens.push({ char });
  }
  return { tokens };
}

/** @type {Record<string, { test: CharTest }>} */
const POSIX_CLASSES = {
  alnum: /[A-Za-z0-9]/,
  alpha: /[A-Za-z]/,
  blank: /[ \t]/,
  cntrl: { test: (/** @type {string} */ c) => Number(c.codePointAt(0)) < 0x20 || c === "\u007f" },
  digit: /[0-9]/,
  graph: /[!-~]/,
  lower: /[a-z]/,
  print: /[ -~]/,
  punct: /[!-/:-@[-`{-~]/,
  space: /[ \t\n\r\f\v]/,
  upper: /[A-Z]/,
  xdigit: /[0-9A-Fa-f]/,
};

/** `[...]` from `chars[start]`: {token, end} (end: the index of its `]`), or null when unclosed.
 * @param {string[]} chars
 * @param {number} start
 * @returns {{ token: CharToken, end: number } | null} */
function compileClass(chars, start) {
  let i = start;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i += 1;
  /** @type {CharTest[]} */
  const tests = [];
  for (let first = true; i < chars.length; first = false, i += 1) {
    let char = chars[i];
    if (char === "]" && !first) return { token: { negated, tests }, end: i };
    if (char === "[" && chars[i + 1] === ":") {
      const close = chars.indexOf("]", i + 2);
      const name = chars.slice(i + 2, close - 1).join("");
      if (close < 0 || chars[close - 1] !== ":" || !POSIX_CLASSES[name]) return null;
      const posix = POSIX_CLASSES[name];
      tests.push((/** @type {string} */ c) => posix.test(c));
      i = close;
      continue;
    }
    if (char === "\\") char = chars[++i];
    if (char === undefined) return null;
    if (chars[i + 1] === "-" && chars[i + 2] !== undefined && chars[i + 2] !== "]") {
      let last = chars[i + 2];
      i += 2;
      if (last === "\\") last = chars[++i];
      if (last === undefined) return null;
      const [low, high] = /** @type {number[]} */ ([char.codePointAt(0), last.codePointAt(0)]);
      tests.push(
        (c) => low <= /** @type {number} */ (c.codePointAt(0)) && /** @type {number} */ (c.codePointAt(0)) <= high,
      );
    } else {
      const same = char;
      tests.push((/** @type {string} */ c) => c === same);
    }
  }
  return null;
}

/** Whether one name matches one name pattern: `*` backtracks to its last place only, so the time is at
 * most tokens × characters. `counter.steps` counts the comparisons.
 * @param {NamePattern} pattern
 * @param {string} name
 * @param {Counter} counter */
function matchName(pattern, name, counter) {
  const { tokens } = pattern;
  const chars = Array.from(name);
  let [t, n, starT, starN] = [0, 0, -1, 0];
  while (n < chars.length) {
    counter.steps += 1;
    const token = tokens[t];
    if (token === STAR) {
      starT = t;
      starN = n;
      t += 1;
    } else if (token && tokenMatches(/** @type {CharToken} */ (token), chars[n])) {
      t += 1;
      n += 1;
    } else if (starT >= 0) {
      t = starT + 1;
      starN += 1;
      n = starN;
    } else return false;
  }
  while (tokens[t] === STAR) t += 1;
  return t === tokens.length;
}

/** @param {CharToken} token @param {string} char */
function tokenMatches(token, char) {
  if (token.any) return true;
  if (token.char !== undefined) return token.char === char;
  return /** @type {CharTest[]} */ (token.tests).some((test) => test(char)) !== token.negated;
}

/** Whether the pattern steps match the names: a table of (step, name) pairs filled from the end, each
 * decided once. A `**` step takes any number of names (at least one when it is the last step).
 * @param {(Star | NamePattern)[]} steps
 * @param {string[]} names
 * @param {Counter} counter */
function matchSteps(steps, names, counter) {
  const width = names.length + 1;
  const table = new Uint8Array((steps.length + 1) * width); // 1: no, 2: yes
  table[steps.length * width + names.length] = 2;
  for (let n = 0; n < names.length; n += 1) table[steps.length * width + n] = 1;
  for (let s = steps.length - 1; s >= 0; s -= 1) {
    const step = steps[s];
    for (let n = names.length; n >= 0; n -= 1) {
      counter.steps += 1;
      let yes;
      if (step === STAR) {
        const atEnd = s === steps.length - 1;
        yes = (!atEnd && table[(s + 1) * width + n] === 2) || (n < names.length && table[s * width + n + 1] === 2);
        if (atEnd) yes = n < names.length;
      } else
        yes =
          n < names.length &&
          table[(s + 1) * width + n + 1] === 2 &&
          matchName(/** @type {NamePattern} */ (step), names[n], counter);
      table[s * width + n] = yes ? 2 : 1;
    }
  }
  return table[0] === 2;
}

/** The last rule of `rules` that matches `relative` (names below the .gitignore's folder; `isFolder`
 * for a folder), or null: its `negated` says whether it re-includes.
 * @param {Rule[]} rules
 * @param {string} relative
 * @param {boolean} isFolder
 * @returns {Rule | null} */
export function lastMatch(rules, relative, isFolder, counter = { steps: 0 }) {
  const names = relative.split("/");
  for (let index = rules.length - 1; index >= 0; index -= 1) {
    const rule = rules[index];
    if (rule.folderOnly && !isFolder) continue;
    if (matchSteps(rule.steps, rule.basename ? names.slice(-1) : names, counter)) return rule;
  }
  return null;
}
