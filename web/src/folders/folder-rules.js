// Which files of a local folder are brought in: everything but git's own folder (`.git/` in any
// spelling a Windows or macOS disk reads as it: web/src/names.js), `node_modules/`, names that can pose
// as others (an invisible or bidi control character) and what the folder's own `.gitignore` files
// exclude (each applies below its folder, as git reads them: web/src/gitignore.js). What is left out is
// kept, with its reason, so the user can be told and can bring it in after all.
import { lastMatch, parseGitignore } from "./gitignore.js";
import { hasGitDir, nameTrouble } from "./names.js";

/** @typedef {keyof typeof REASONS} Reason */
/** @typedef {{ path: string, file: File }} Item */
/** @typedef {{ path: string, reason: string }} Skipped */

export const REASONS = {
  git: ".git/",
  modules: "node_modules/",
  ignored: ".gitignore",
  name: "names the workspace cannot take",
};

/** `items`: [{path, file}] with workspace paths ("/src/a.js"), `folders`: paths of folders (a drop's,
 * so empty ones come too). Returns {kept, skipped, folders}: each skipped item also has its `reason` (a
 * key of REASONS); `folders` are the folders not skipped.
 * @template {Item} T
 * @param {T[]} items
 * @param {string[]} [folders] */
export async function selectFiles(items, folders = []) {
  const rules = await gitignoreRules(items);
  /** @type {T[]} */
  const kept = [];
  /** @type {(T & { reason: string })[]} */
  const skipped = [];
  for (const item of items) {
    const reason = rules.reason(item.path);
    if (reason) skipped.push({ ...item, reason });
    else kept.push(item);
  }
  return { kept, skipped, folders: folders.filter((folder) => !rules.reason(folder, true)) };
}

/** The folders a path lies in, outermost first ("/a/b/c.txt" → ["/", "/a", "/a/b"]).
 * @param {string} path */
function foldersOf(path) {
  const parts = path.split("/").slice(1, -1);
  return ["/", ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`)];
}

/** The skip rules of one folder: git's folder, `node_modules/`, hidden characters, and the `.gitignore`
 * files added so far, each applying below its own folder. A walk adds a folder's `.gitignore` before it
 * looks at its entries. `counter.steps` counts the matcher's comparisons (bounded: pattern × path). */
export class SkipRules {
  constructor() {
    /** @type {Map<string, import("./gitignore.js").Rule[]>} */
    this.rules = new Map(); // folder → the parsed patterns of its .gitignore
    /** @type {Map<string, boolean>} */
    this.folders = new Map(); // folder → whether the .gitignore files leave it out, as decided so far
    this.counter = { steps: 0 };
  }

  /** `folder`'s .gitignore text ("/" for the top folder).
   * @param {string} folder
   * @param {string} text */
  add(folder, text) {
    this.rules.set(folder, parseGitignore(text));
    for (const known of this.folders.keys())
      if (folder === "/" || known.startsWith(`${folder}/`)) this.folders.delete(known);
  }

  /** Why `path` is left out (a key of REASONS), or null; a folder's path is matched as a folder ("build/").
   * @param {string} path
   * @returns {string | null} */
  reason(path, isFolder = false) {
    const fixed = fixedReason(path);
    if (fixed) return fixed;
    const outside = foldersOf(path)
      .slice(1)
      .some((folder) => this.folderIgnored(folder));
    return outside || this.ignored(path, isFolder) ? "ignored" : null;
  }

  /** @param {string} folder */
  folderIgnored(folder) {
    if (!this.folders.has(folder)) this.folders.set(folder, this.ignored(folder, true));
    return /** @type {boolean} */ (this.folders.get(folder));
  }

  /** Git's order: the deepest .gitignore with a pattern matching `path` decides, its last such pattern.
   * @param {string} path
   * @param {boolean} isFolder */
  ignored(path, isFolder) {
    for (const folder of foldersOf(path).reverse()) {
      const rules = this.rules.get(folder);
      if (!rules) continue;
      const relative = path.slice(folder === "/" ? 1 : folder.length + 1);
      const found = lastMatch(rules, relative, isFolder, this.counter);
      if (found) return !found.negated;
    }
    return false;
  }
}

/** The rules of the `.gitignore` files among `items` (not those inside .git/ or node_modules/).
 * @param {Item[]} items */
async function gitignoreRules(items) {
  const rules = new SkipRules();
  const found = items.filter((item) => item.path.endsWith("/.gitignore") && !fixedReason(item.path));
  const texts = await Promise.all(found.map((item) => item.file.text()));
  for (const [index, item] of found.entries())
    rules.add(item.path.slice(0, -"/.gitignore".length) || "/", texts[index]);
  return rules;
}

/** @param {string} path */
function fixedReason(path) {
  if (hasGitDir(path)) return "git";
  const names = path.split("/");
  if (names.includes("node_modules")) return "modules";
  if (names.some((name) => name && nameTrouble(name))) return "name";
  return null;
}

/** "1,200 in .git/, 12 left out by .gitignore": the skipped files counted by reason.
 * @param {{ reason: string }[]} skipped */
export function skippedText(skipped) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) || 0) + 1);
  const parts = [];
  for (const reason of Object.keys(REASONS).filter((key) => counts.has(key))) {
    const count = /** @type {number} */ (counts.get(reason));
    const where = /** @type {Record<string, string>} */ ({
      ignored: "left out by .gitignore",
      name: "with a name the workspace cannot take",
    })[reason];
    parts.push(`${count.toLocaleString("en")} ${where ?? `in ${REASONS[/** @type {Reason} */ (reason)]}`}`);
  }
  return parts.join(", ");
}

/** "not synced: .git/, node_modules/, 3 left out by .gitignore, 2 files skipped": what an opened
 * folder's sync leaves alone on both sides (`skipped`: [{path, reason}], files and folders the walk did
 * not enter) and how many single files it could not bring across (`problems`, each listed with its
 * reason beside this).
 * @param {{ reason: string }[]} skipped */
export function unsyncedText(skipped, problems = 0) {
  const reasons = new Set(skipped.map(({ reason }) => reason));
  const ignored = skipped.filter(({ reason }) => reason === "ignored").length;
  const parts = ["git", "modules"]
    .filter((reason) => reasons.has(reason))
    .map((reason) => REASONS[/** @type {Reason} */ (reason)]);
  if (ignored) parts.push(`${ignored.toLocaleString("en")} left out by .gitignore`);
  if (problems) parts.push(`${problems.toLocaleString("en")} ${problems === 1 ? "file" : "files"} skipped`);
  return parts.length ? `not synced: ${parts.join(", ")}` : "";
}
