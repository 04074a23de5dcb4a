// Importing a local folder: the "Import folder" button (a folder input, every browser) and folders dropped
// on the file tree. Shows progress while the batches go to the worker, then says what was skipped
// (.git/, node_modules/, .gitignore) and offers to import that too.
import { itemsFromDrop, itemsFromInput, sendFolder } from "../folders/folder-import.js";
import { selectFiles, skippedText } from "../folders/folder-rules.js";

/** @import { Call, Item, Progress } from "../folders/folder-import.js" */

const count = (/** @type {number} */ n) => n.toLocaleString("en");
const megabytes = (/** @type {number} */ bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `say(text, failed)`: the files panel's status line; `dropTarget(event)`: the folder a drop lands in.
 * @param {ParentNode} root
 * @param {{ call: Call, say: (text: string, failed?: boolean) => void, dropTarget: (event: DragEvent) => string }} options */
export function createFolderView(root, { call, say, dropTarget }) {
  const input = /** @type {HTMLInputElement} */ (root.querySelector("[data-testid=folder-input]"));
  const button = /** @type {HTMLElement} */ (root.querySelector("[data-action=import-folder]"));
  const tree = /** @type {HTMLElement} */ (root.querySelector("[data-testid=file-tree]"));
  const bar = /** @type {HTMLProgressElement} */ (root.querySelector("[data-testid=import-progress]"));
  const skippedNote = /** @type {HTMLElement} */ (root.querySelector("[data-testid=import-skipped]"));
  let busy = false;
  /** @type {Item[]} */
  let skipped = [];

  /** @param {Progress} progress */
  function progress({ files, bytes, totalFiles, totalBytes }) {
    bar.max = Math.max(totalBytes, 1);
    bar.value = bytes;
    say(`Importing… ${count(files)} of ${count(totalFiles)} files (${megabytes(bytes)} of ${megabytes(totalBytes)})`);
  }

  /**
   * @param {string} name
   * @param {Item[]} items
   * @param {string[]} folders
   */
  async function run(name, items, folders, filter = true) {
    if (busy) return say("An import is under way; wait until it ends.", true);
    busy = true;
    skippedNote.hidden = true;
    bar.hidden = false;
    try {
      const chosen = filter ? await selectFiles(items, folders) : { kept: items, skipped: [], folders };
      progress({ files: 0, bytes: 0, totalFiles: chosen.kept.length, totalBytes: 0 });
      await sendFolder(call, chosen.kept, chosen.folders, progress);
      say(`Imported ${count(chosen.kept.length)} files from ${name} as one change.`);
      showSkipped(name, chosen.skipped);
    } catch (err) {
      say(`Importing ${name} failed: ${/** @type {Error} */ (err).message}`, true);
    } finally {
      busy = false;
      bar.hidden = true;
    }
  }

  /**
   * @param {string} name
   * @param {(Item & { reason: string })[]} left
   */
  function showSkipped(name, left) {
    skipped = left;
    if (!left.length) return;
    /** @type {HTMLSpanElement} */ (skippedNote.querySelector("span")).textContent =
      `Skipped ${count(left.length)} files of ${name}: ${skippedText(left)}.`;
    skippedNote.hidden = false;
    skippedNote.dataset.count = String(left.length);
  }

  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const items = itemsFromInput(/** @type {FileList} */ (input.files));
    const name = /** @type {FileList} */ (input.files)[0]?.webkitRelativePath.split("/")[0] || "the folder";
    input.value = "";
    if (items.length) run(name, items, []);
  });
  /** @type {HTMLButtonElement} */ (skippedNote.querySelector("button")).addEventListener("click", () => {
    const left = skipped;
    skipped = [];
    run("the skipped files", left, [], false);
  });

  const carriesFiles = (/** @type {DragEvent} */ event) => event.dataTransfer?.types.includes("Files");
  tree.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    /** @type {DataTransfer} */ (event.dataTransfer).dropEffect = "copy";
  });
  tree.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    const names = Array.from(/** @type {DataTransfer} */ (event.dataTransfer).files, (file) => file.name);
    itemsFromDrop(/** @type {DataTransfer} */ (event.dataTransfer).items, dropTarget(event)).then(
      ({ items, folders }) => run(names.join(", ") || "the drop", items, folders),
      (/** @type {Error} */ err) => say(`Reading the dropped folder failed: ${err.message}`, true),
    );
  });
}
