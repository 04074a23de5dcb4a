// The review's words and steps, kept free of the DOM so they are tested under Node: the message "Request
// changes" sends (the user's comment, then the hunks it points at as a fenced diff that names the file),
// and where the selection goes next (the next pending file or hunk after a decision).

/** A hunk of the stage's diff (`stage.file`): its header and unified-diff lines (" x", "-y", "+z").
 * @typedef {{header: string, lines: string[]}} Hunk */

/** The shortest backtick fence no line of `text` can close: one more than its longest run, at least three.
 * @param {string} text */
export function fenceFor(text) {
  const runs = String(text).match(/`+/g) || [];
  const longest = Math.max(2, ...runs.map((run) => run.length));
  return "`".repeat(longest + 1);
}

/** The hunks that are what they claim: a header and a list of text lines; anything else is left out.
 * @param {unknown} hunks @returns {Hunk[]} */
function wellFormed(hunks) {
  if (!Array.isArray(hunks)) return [];
  return hunks.filter(
    (hunk) =>
      hunk &&
      typeof hunk === "object" &&
      typeof hunk.header === "string" &&
      Array.isArray(hunk.lines) &&
      hunk.lines.every((/** @type {unknown} */ line) => typeof line === "string"),
  );
}

/** `hunks` of `path` as a unified diff, with /dev/null on the side a created or deleted file lacks.
 * @param {string} path @param {string} change @param {unknown} hunks */
export function hunkPatch(path, change, hunks) {
  const name = String(path).replace(/^\/+/, "");
  const before = change === "created" ? "/dev/null" : `a/${name}`;
  const after = change === "deleted" ? "/dev/null" : `b/${name}`;
  const body = wellFormed(hunks).flatMap((hunk) => [hunk.header, ...hunk.lines]);
  return [`--- ${before}`, `+++ ${after}`, ...body].join("\n");
}

/** The next user message a "Request changes" sends: the comment, and the hunks it points at (none for an
 * overall comment) as a fenced diff of `path`. "" when the comment is empty: nothing is sent.
 * @param {{comment: string, path?: string | null, change?: string, hunks?: unknown}} request */
export function requestMessage({ comment, path = null, change = "edited", hunks = [] }) {
  const said = String(comment ?? "").trim();
  if (!said) return "";
  const where = path ? ` for ${path}` : "";
  const head = `Please change your proposal${where}: ${said}`;
  const pointed = wellFormed(hunks);
  if (!path || !pointed.length) return head;
  const patch = hunkPatch(path, change, pointed);
  const fence = fenceFor(patch);
  return `${head}\n\nThe part I mean:\n\n${fence}diff\n${patch}\n${fence}`;
}

/** The position of the next item still `pending` after `from`, going by `direction` (1 or -1) and round
 * the ends; `from` itself last. -1 when none is pending.
 * @param {string[]} states @param {number} from @param {number} direction */
export function nextPending(states, from, direction) {
  const count = states.length;
  for (let offset = 1; offset <= count; offset++) {
    const at = (((from + direction * offset) % count) + count) % count;
    if (states[at] === "pending") return at;
  }
  return -1;
}

/** The position one `direction` on from `from` among `count` items, held at the ends (-1: none).
 * @param {number} count @param {number} from @param {number} direction */
export function step(count, from, direction) {
  if (count <= 0) return -1;
  if (from < 0) return direction > 0 ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, from + direction));
}
