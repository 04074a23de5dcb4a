// The projects' wiring on the page (docs/projects.md): the switcher and "Take it with you" views, a project
// file dropped on the page, a link's project (after `#`), and — on a project just made from a file — the
// file written into its database once the agent is up, then the page started again on it.
import { projectNames } from "../agent/common/database.js";
import { downloadBytes } from "../browser/download.js";
import { projectUrl } from "../projects/current.js";
import { acceptOffer, openPending, readOffer, writeFile } from "../projects/handoff-flow.js";
import { fromFragment } from "../projects/link.js";
import { createHandoffView } from "./handoff-view.js";
import { createProjectView } from "./project-view.js";

/**
 * @param {HTMLElement} root
 * @param {{
 *   call: import("../projects/handoff-flow.js").Call,
 *   ready: Promise<unknown>,
 *   registry: ReturnType<typeof import("../projects/registry.js").createRegistry>,
 *   open: import("../projects/current.js").OpenProject,
 *   settings: () => object,
 * }} deps
 */
export function wireProjects(root, { call, ready, registry, open, settings }) {
  const go = (/** @type {string} */ name) => location.assign(projectUrl(name));
  const duplicate = async (/** @type {string} */ name) => {
    await ready;
    const { bytes } = await writeFile({ call, name: open.name, settings: settings(), passphrase: "" });
    const offer = await readOffer({ call, bytes, passphrase: "" });
    go((await acceptOffer({ registry, offer, name })).name);
  };
  const projects = createProjectView(root, { registry, open, go, duplicate, forget: forgetProject });
  const handoff = createHandoffView(root, {
    call,
    ready,
    registry,
    open,
    settings,
    download: (name, bytes) => downloadBytes(name, /** @type {BlobPart} */ (bytes)),
    go,
    show: projects.show,
    say: projects.say,
  });
  dropToOpen(root, handoff.openFile);
  openLaunchedFiles(handoff.openFile);
  offerLinkedProject(handoff.offerLink, (text) => {
    projects.show();
    projects.say(text);
  });
  // Only a file waiting for this project says anything here (an agent that did not start says so itself).
  const openWaiting = () => openPending({ call, projectId: open.id, registry });
  ready
    .then(openWaiting, openWaiting)
    .then((summary) => summary && location.reload())
    .catch((/** @type {any} */ err) => {
      projects.show();
      projects.say(`The project file could not be opened here: ${err.message}`);
    });
}

/** A project file (`.agentlite`) dropped anywhere on the page opens as a project; other drops go on.
 * @param {HTMLElement} root @param {(file: File) => void} openFile */
function dropToOpen(root, openFile) {
  const projectFile = (/** @type {DragEvent} */ event) =>
    Array.from(event.dataTransfer?.files || []).find((file) => file.name.toLowerCase().endsWith(".agentlite"));
  root.addEventListener(
    "drop",
    (event) => {
      const file = projectFile(event);
      if (!file) return;
      event.preventDefault();
      event.stopPropagation();
      openFile(file);
    },
    true,
  );
}

/** A project file the browser opened the installed app with (its file handler, manifest.webmanifest), where
 * the browser has one (Chromium). @param {(file: File) => void} openFile */
function openLaunchedFiles(openFile) {
  const queue = /** @type {any} */ (window).launchQueue;
  queue?.setConsumer(async (/** @type {{files?: FileSystemFileHandle[]}} */ params) => {
    const handle = params.files?.[0];
    if (handle) openFile(await handle.getFile());
  });
}

/** A link's project: taken out of the address at once (it stays in no history entry), then offered.
 * @param {(bytes: Uint8Array) => void} offer @param {(text: string) => void} say */
function offerLinkedProject(offer, say) {
  let bytes = null;
  try {
    bytes = fromFragment(location.hash);
  } catch (/** @type {any} */ err) {
    say(`This link's project was refused: ${err.message}`);
  }
  if (!location.hash.startsWith("#handoff=")) return;
  history.replaceState(history.state, "", `${location.pathname}${location.search}`);
  if (bytes) offer(bytes);
}

/** Delete what project `id` keeps in this browser. A database still open in another tab is deleted once that
 * tab lets go of it; nothing waits for that. @param {string} id */
async function forgetProject(id) {
  const names = projectNames(id);
  await Promise.all(
    [names.database, names.attachments, names.folder].map(
      (name) =>
        new Promise((resolve) => {
          const request = indexedDB.deleteDatabase(name);
          request.onsuccess = request.onerror = request.onblocked = () => resolve(undefined);
        }),
    ),
  );
}
