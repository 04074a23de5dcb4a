// Importing a local folder: the "Import folder" button (a folder input, every browser) and folders dropped
// on the file tree. Shows progress while the batches go to the worker, then says what was skipped
// (.git/, node_modules/, .gitignore) and offers to import that too.
import { itemsFromDrop, itemsFromInput, sendFolder } from "../folders/folder-import.js";
import { selectFiles, skippedText } from "../folders/folder-rules.js";

const count = (n) => n.toLocaleString("en");
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `say(text, failed)`: the files panel's status line; `dropTarget(event)`: the folder a drop lands in. */
export function createFolderView(root, { call, say, dropTarget }) {
  const input = root.querySelector("[data-testid=folder-input]");
  const button = root.querySelector("[data-action=import-folder]");
  const tree = root.querySelector("[data-testid=file-tree]");
  const bar = root.querySelector("[data-testid=import-progress]");
  const skippedNote = root.querySelector("[data-testid=import-skipped]");
  let busy = false;
  let skipped = [];

  function progress({ files, bytes, totalFiles, totalBytes }) {
    bar.max = Math.max(totalBytes, 1);
    bar.value = bytes;
    say(`Importing… ${count(files)} of ${count(totalFiles)} files (${megabytes(bytes)} of ${megabytes(totalBytes)})`);
  }

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
      say(`Importing ${name} failed: ${err.message}`, true);
    } finally {
      busy = false;
      bar.hidden = true;
    }
  }

  function showSkipped(name, left) {
    skipped = left;
    if (!left.length) return;
    skippedNote.querySelector("span").textContent =
      `Skipped ${count(left.length)} files of ${name}: ${skippedText(left)}.`;
    skippedNote.hidden = false;
    skippedNote.dataset.count = String(left.length);
  }

  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const items = itemsFromInput(input.files);
    const name = input.files[0]?.webkitRelativePath.split("/")[0] || "the folder";
    input.value = "";
    if (items.length) run(name, items, []);
  });
  skippedNote.querySelector("button").addEventListener("click", () => {
    const left = skipped;
    skipped = [];
    run("the skipped files", left, [], false);
  });

  const carriesFiles = (event) => event.dataTransfer?.types.includes("Files");
  tree.addEventListener("dragover", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  tree.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    const names = Array.from(event.dataTransfer.files, (file) => file.name);
    itemsFromDrop(event.dataTransfer.items, dropTarget(event)).then(
      ({ items, folders }) => run(names.join(", ") || "the drop", items, folders),
      (err) => say(`Reading the dropped folder failed: ${err.message}`, true),
    );
  });
}
