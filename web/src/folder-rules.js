// Which files of a local folder are brought in: everything but `.git/`, `node_modules/` and what the
// folder's own `.gitignore` files exclude (each applies below its folder, as git reads them). What is
// left out is kept, with its reason, so the user can be told and can bring it in after all.
import ignore from "ignore";

export const REASONS = { git: ".git/", modules: "node_modules/", ignored: ".gitignore" };

/** `items`: [{path, file}] with workspace paths ("/src/a.js"), `folders`: paths of folders (a drop's,
 * so empty ones come too). Returns {kept, skipped, folders}: each skipped item also has its `reason` (a
 * key of REASONS); `folders` are the folders not skipped. */
export async function selectFiles(items, folders = []) {
  const rules = await gitignoreRules(items);
  const kept = [];
  const skipped = [];
  for (const item of items) {
    const reason = rules.reason(item.path);
    if (reason) skipped.push({ ...item, reason });
    else kept.push(item);
  }
  return { kept, skipped, folders: folders.filter((folder) => !rules.reason(folder, true)) };
}

/** The folders a path lies in, outermost first ("/a/b/c.txt" → ["/", "/a", "/a/b"]). */
function foldersOf(path) {
  const parts = path.split("/").slice(1, -1);
  return ["/", ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`)];
}

/** The skip rules of one folder: `.git/`, `node_modules/`, and the `.gitignore` files added so far, each
 * applying below its own folder. A walk adds a folder's `.gitignore` before it looks at its entries. */
export class SkipRules {
  constructor() {
    this.matchers = new Map(); // folder → an `ignore` matcher of that folder's .gitignore
  }

  /** `folder`'s .gitignore text ("/" for the top folder). */
  add(folder, text) {
    this.matchers.set(folder, ignore().add(text));
  }

  /** Why `path` is left out (a key of REASONS), or null; a folder's path is matched as a folder ("build/"). */
  reason(path, isFolder = false) {
    const fixed = fixedReason(path);
    if (fixed) return fixed;
    for (const folder of foldersOf(path)) {
      const matcher = this.matchers.get(folder);
      const relative = path.slice(folder === "/" ? 1 : folder.length + 1) + (isFolder ? "/" : "");
      if (matcher?.ignores(relative)) return "ignored";
    }
    return null;
  }
}

/** The rules of the `.gitignore` files among `items` (not those inside .git/ or node_modules/). */
async function gitignoreRules(items) {
  const rules = new SkipRules();
  const found = items.filter((item) => item.path.endsWith("/.gitignore") && !fixedReason(item.path));
  const texts = await Promise.all(found.map((item) => item.file.text()));
  for (const [index, item] of found.entries())
    rules.add(item.path.slice(0, -"/.gitignore".length) || "/", texts[index]);
  return rules;
}

function fixedReason(path) {
  const parts = path.split("/");
  if (parts.includes(".git")) return "git";
  if (parts.includes("node_modules")) return "modules";
  return null;
}

/** "1,200 in .git/, 12 left out by .gitignore": the skipped files counted by reason. */
export function skippedText(skipped) {
  const counts = new Map();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) || 0) + 1);
  const parts = [];
  for (const reason of Object.keys(REASONS).filter((key) => counts.has(key))) {
    const count = counts.get(reason);
    const where = reason === "ignored" ? "left out by .gitignore" : `in ${REASONS[reason]}`;
    parts.push(`${count.toLocaleString("en")} ${where}`);
  }
  return parts.join(", ");
}

/** "not synced: .git/, node_modules/, 3 left out by .gitignore": what an opened folder's sync leaves
 * alone on both sides (`skipped`: [{path, reason}], files and folders the walk did not enter). */
export function unsyncedText(skipped) {
  const reasons = new Set(skipped.map(({ reason }) => reason));
  const ignored = skipped.filter(({ reason }) => reason === "ignored").length;
  const parts = ["git", "modules"].filter((reason) => reasons.has(reason)).map((reason) => REASONS[reason]);
  if (ignored) parts.push(`${ignored.toLocaleString("en")} left out by .gitignore`);
  return parts.length ? `not synced: ${parts.join(", ")}` : "";
}
