// Export and import of the workspace as a zip, with or without its history, and its export as a git
// repository (a zip with .git/, docs/git.md). Importing a zip that holds a history replaces the workspace
// with it, after the user agrees; a zip of files only is added as one recorded change, and so are the
// files of HEAD of a zip of a git working copy.
import { fromBase64, toBase64 } from "../bytes.js";
import { downloadBytes } from "../browser/download.js";

const HISTORY_MANIFEST = "history/manifest.json";
/** @import { Call } from "../folders/folder-import.js" */

const isGitHead = (/** @type {string} */ name) => name === ".git/HEAD" || name.endsWith("/.git/HEAD");

/** The member names of a zip, read from its central directory.
 * @param {Uint8Array} bytes */
export function zipNames(bytes) {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && data.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("this file is not a zip archive");
  const names = [];
  const decoder = new TextDecoder();
  let at = data.getUint32(end + 16, true);
  for (let i = data.getUint16(end + 10, true); i > 0; i -= 1) {
    if (data.getUint32(at, true) !== 0x02014b50) throw new Error("the zip archive is damaged");
    const length = data.getUint16(at + 28, true);
    names.push(decoder.decode(bytes.subarray(at + 46, at + 46 + length)));
    at += 46 + length + data.getUint16(at + 30, true) + data.getUint16(at + 32, true);
  }
  return names;
}

/**
 * @param {ParentNode} root
 * @param {{ call: Call, onMessage: (text: string, error?: boolean) => void }} options
 */
export function createArchiveView(root, { call, onMessage }) {
  const exportButton = /** @type {HTMLElement} */ (root.querySelector("[data-testid=export-workspace]"));
  const gitButton = /** @type {HTMLElement} */ (root.querySelector("[data-testid=export-git]"));
  const importButton = /** @type {HTMLElement} */ (root.querySelector("[data-testid=import-workspace]"));
  const withHistory = /** @type {HTMLInputElement} */ (root.querySelector("#export-history"));
  const picker = /** @type {HTMLInputElement} */ (root.querySelector("#import-file"));

  async function exportZip() {
    const history = withHistory.checked;
    const data = await call("exportZip", { history });
    const stamp = new Date().toISOString().slice(0, 10);
    downloadBytes(`agentlite-workspace-${stamp}${history ? "-history" : ""}.zip`, fromBase64(data), "application/zip");
    onMessage(`Exported the workspace${history ? " with its history" : ""}.`);
  }

  async function exportGit() {
    onMessage("Making the git repository…");
    const { data, commits } = await call("exportGit", {});
    const stamp = new Date().toISOString().slice(0, 10);
    downloadBytes(`agentlite-workspace-${stamp}-git.zip`, fromBase64(data), "application/zip");
    onMessage(`Exported the workspace as a git repository (${commits} commit${commits === 1 ? "" : "s"}).`);
  }

  /** @param {File} file */
  async function importZip(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const names = zipNames(bytes);
    const history = names.includes(HISTORY_MANIFEST);
    const git = !history && names.some(isGitHead);
    if (history) {
      const question = `${file.name} holds a workspace with its history. Replace this workspace and its history with it?`;
      if (!window.confirm(question)) return;
    }
    // A history replaces this one in the same commit, after the worker checked all of it: a refused one
    // leaves the workspace as it was.
    await call("importZip", { data: toBase64(bytes), history, replace: history });
    const what = history ? " with its history" : git ? " (the files of its git HEAD) as one change" : " as one change";
    onMessage(`Imported ${file.name}${what}.`);
  }

  /** @param {(...args: any[]) => Promise<void>} work */
  function guard(work) {
    return (/** @type {any[]} */ ...args) =>
      work(...args).catch((/** @type {Error} */ err) => onMessage(`Failed: ${err.message}`, true));
  }

  exportButton.addEventListener("click", guard(exportZip));
  gitButton.addEventListener("click", guard(exportGit));
  importButton.addEventListener("click", () => picker.click());
  picker.addEventListener(
    "change",
    guard(async () => {
      const [file] = /** @type {FileList} */ (picker.files);
      picker.value = "";
      if (file) await importZip(file);
    }),
  );
}
