// window.agentlite (docs/contract.md, testing API): the testing API on the main thread. Each call goes to the
// worker's workspace; code run in a sandbox frame can reach none of it.
import { diagnose } from "../../mcp/page/mcp-doctor.js";
import { fromBase64 } from "../../bytes.js";

/** @import { AgentClient } from "./agent-client.js" */
/** @import { createFolderOpenView } from "../../views/folder-open-view.js" */
/** @import { PdfOptions } from "../../pdf/pdf-text.js" */

/** `activeChat()`: the chat whose stage `vfs.readText(path, {staged: true})` reads. `folder`: the open-folder view; the tests open a folder of the origin private file system through it
 * (the same handle interface as a folder the user picks, whose picker cannot be automated). `pdfReader`:
 * loads the PDF reader (web/src/pdf/pdf-text.js) as the page does.
 * @param {AgentClient} client
 * @param {ReturnType<typeof createFolderOpenView>} folder
 * @param {() => Promise<typeof import("../../pdf/pdf-text.js")>} pdfReader
 * @param {() => string | null} [activeChat] */
export function installTestingApi(client, folder, pdfReader, activeChat = () => null) {
  const vfs = Object.freeze({
    // `{staged: true}`: as the active chat's stage shows it (the kept text where it has no change).
    readText: (/** @type {string} */ path, /** @type {{staged?: boolean}} */ options = {}) => {
      const chat = options?.staged === true ? activeChat() : null;
      return client.call("vfs.readText", chat ? { path, chat } : { path });
    },
    writeText: (/** @type {string} */ path, /** @type {string} */ text) => client.call("vfs.writeText", { path, text }),
    list: (/** @type {string} */ dir) => client.call("vfs.list", { dir }),
    history: (/** @type {string} */ path) => client.call("vfs.history", { path }),
    dropped: (/** @type {string} */ path) => client.call("stage.dropped", { path }), // what reviews dropped
    // The history actions the UI offers, beyond docs/contract.md, testing API: each is itself a recorded change.
    undo: (/** @type {string} */ path) => client.call("vfs.undo", { path }),
    rename: (/** @type {string} */ path, /** @type {string} */ newName) =>
      client.call("vfs.rename", { path, new_name: newName }),
    undoTurn: (/** @type {string} */ turn) => client.call("vfs.undoTurn", { turn }),
    restoreBefore: (/** @type {string} */ turn) => client.call("vfs.restoreBefore", { turn }),
    importZip: (/** @type {string} */ base64) => client.call("vfs.importZip", { data: base64 }), // one recorded change
    check: () => client.call("vfs.check"), // [] when every head, version and content is consistent
  });
  const folders = Object.freeze({
    openPrivate: async (/** @type {string} */ name) => {
      const root = await navigator.storage.getDirectory();
      return folder.open(await root.getDirectoryHandle(name, { create: true }), { ask: false });
    },
    sync: () => folder.sync(),
    conflicts: () => folder.conflicts(),
    // Changes made on both sides with no sync between them (else the browser's report of the disk's
    // change may bring it in first): `work` runs while no sync does.
    exclusive: (/** @type {() => Promise<unknown>} */ work) => folder.exclusive(work),
  });
  // The agent worker's watchdog (docs/contract.md, testing API): `busy(seconds)` holds Python busy
  // without yielding, as a runaway step would; `longestMs()` is the longest the worker took to answer;
  // `hangAfter(ms)` sets the limit for this page (60 s otherwise), so a test need not wait a minute.
  const worker = Object.freeze({
    busy: (/** @type {number} */ seconds) => client.call("worker.busy", { seconds }),
    hangAfter: (/** @type {number} */ ms) => {
      if (!(ms >= 1000)) throw new RangeError("the watchdog's limit is at least 1000 ms");
      client.watchdog.hangMs = ms;
    },
    longestMs: () => client.watchdog.longestMs,
    generation: () => client.generation,
  });
  // `pdf.read(base64, options)`: the PDF reader (docs/pdf.md) on a file's bytes, loaded on first use as the
  // composer and read_file load it; `{ok, doc, ms, text}` or `{ok: false, name, message}`.
  // `pdf.render(base64, options)`: its page pictures as `[{type, width, height}]`.
  const pdf = Object.freeze({
    read: async (/** @type {string} */ base64, /** @type {PdfOptions} */ options = {}) => {
      const reader = await pdfReader();
      try {
        const started = performance.now();
        const doc = await reader.readPdf(fromBase64(base64), options);
        const ms = performance.now() - started; // the pdf_text benchmark's figure
        return { ok: true, doc, ms, text: reader.pdfAsPromptText("sample.pdf", doc) };
      } catch (err) {
        return { ok: false, name: /** @type {Error} */ (err).name, message: /** @type {Error} */ (err).message };
      }
    },
    render: async (
      /** @type {string} */ base64,
      /** @type {PdfOptions & {first?: number, count?: number, maxSide?: number}} */ options = {},
    ) => {
      const blobs = await (await pdfReader()).renderPdfPages(fromBase64(base64), options);
      const pictures = await Promise.all(blobs.map((blob) => createImageBitmap(blob)));
      return pictures.map(({ width, height }, i) => ({ type: blobs[i].type, width, height }));
    },
  });
  // The hand-off file's worker calls (docs/handoff-format.md), bytes in base64: `save(name)` writes this
  // project, `inspect(data)` its summary, `open(data)` into this (empty) project; the page reloads after.
  const handoff = Object.freeze({
    save: (/** @type {string} */ name) => client.call("handoff.save", { name }),
    inspect: (/** @type {string} */ data) => client.call("handoff.inspect", { data }),
    open: (/** @type {string} */ data) => client.call("handoff.open", { data }),
  });
  Object.defineProperty(window, "agentlite", {
    // `mcp.diagnose(url, {token})`: the MCP connection doctor (docs/mcp.md, Connection doctor).
    value: Object.freeze({
      ready: client.ready,
      vfs,
      folder: folders,
      worker,
      pdf,
      handoff,
      mcp: Object.freeze({ diagnose }),
    }),
    enumerable: true,
  });
}
