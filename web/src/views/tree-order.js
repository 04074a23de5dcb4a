// The workspace listing as the file tree shows it: each folder's entries, folders first, then by name.
// Pure functions of paths, so the tree can build a folder's rows only when that folder is opened.

export const nameOf = (/** @type {string} */ path) => path.slice(path.lastIndexOf("/") + 1);
export const parentOf = (/** @type {string} */ path) => path.slice(0, path.lastIndexOf("/")) || "/";
export const depthOf = (/** @type {string} */ path) => path.split("/").length - 2;

/** The folders `path` lies in, outermost first, without the root ("/a/b/c" → ["/a", "/a/b"]).
 * @param {string} path */
export function ancestorsOf(path) {
  /** @type {string[]} */
  const found = [];
  for (let at = path.indexOf("/", 1); at > 0; at = path.indexOf("/", at + 1)) found.push(path.slice(0, at));
  return found;
}

/** @typedef {{ path: string, kind: string }} TreeEntry */

const byKindThenName = (/** @type {TreeEntry} */ a, /** @type {TreeEntry} */ b) => {
  if (a.kind !== b.kind) return a.kind === "dir" ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0; // one parent: the paths differ by name only
};

/** folder path → its entries in tree order ("/" holds the top level). One pass and one sort per
 * folder: a 10,000-file tree is grouped again on every workspace refresh.
 * @template {TreeEntry} T
 * @param {Iterable<T>} entries */
export function groupByParent(entries) {
  /** @type {Map<string, T[]>} */
  const groups = new Map();
  for (const entry of entries) {
    const parent = parentOf(entry.path);
    const group = groups.get(parent);
    if (group) group.push(entry);
    else groups.set(parent, [entry]);
  }
  for (const group of groups.values()) group.sort(byKindThenName);
  return groups;
}
