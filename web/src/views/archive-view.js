// Export and import of the workspace as a zip, with or without its history. Importing a zip that holds
// a history replaces the workspace with it, after the user agrees; a zip of files only is added as one
// recorded change.
import { downloadBytes, fromBase64, toBase64 } from "./download.js";

const HISTORY_MANIFEST = "history/manifest.json";

/** The member names of a zip, read from its central directory. */
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

export function createArchiveView(root, { call, onMessage }) {
  const exportButton = root.querySelector("[data-testid=export-workspace]");
  const importButton = root.querySelector("[data-testid=import-workspace]");
  const withHistory = root.querySelector("#export-history");
  const picker = root.querySelector("#import-file");

  async function exportZip() {
    const history = withHistory.checked;
    const data = await call("exportZip", { history });
    const stamp = new Date().toISOString().slice(0, 10);
    downloadBytes(`agentlite-workspace-${stamp}${history ? "-history" : ""}.zip`, fromBase64(data), "application/zip");
    onMessage(`Exported the workspace${history ? " with its history" : ""}.`);
  }

  async function importZip(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const history = zipNames(bytes).includes(HISTORY_MANIFEST);
    if (history) {
      const question = `${file.name} holds a workspace with its history. Replace this workspace and its history with it?`;
      if (!window.confirm(question)) return;
      await call("clear");
    }
    await call("importZip", { data: toBase64(bytes), history });
    onMessage(`Imported ${file.name}${history ? " with its history" : " as one change"}.`);
  }

  function guard(work) {
    return (...args) => work(...args).catch((err) => onMessage(`Failed: ${err.message}`, true));
  }

  exportButton.addEventListener("click", guard(exportZip));
  importButton.addEventListener("click", () => picker.click());
  picker.addEventListener(
    "change",
    guard(async () => {
      const [file] = picker.files;
      picker.value = "";
      if (file) await importZip(file);
    }),
  );
}
