// "Take it with you" in the projects dialog (docs/projects.md): save the open project as one file (sealed
// when a passphrase is typed), copy a link that carries a small one after `#`, and open a file — picked,
// dropped on the page, or a link's — as a new project. What a file or link holds is shown first, its
// instruction files and servers named, and nothing is stored until the user accepts it.
import {
  acceptOffer,
  HandoffProblem,
  readOffer,
  refuseTooBig,
  writeFile,
  writeLink,
} from "../projects/handoff-flow.js";
import { el } from "./dom.js";

/** @typedef {import("../projects/handoff-flow.js").Offer} Offer */
/**
 * @typedef {{
 *   call: import("../projects/handoff-flow.js").Call,
 *   ready: Promise<unknown>,
 *   registry: ReturnType<typeof import("../projects/registry.js").createRegistry>,
 *   open: import("../projects/current.js").OpenProject,
 *   settings: () => object,
 *   download: (name: string, bytes: Uint8Array) => void,
 *   go: (name: string) => void,
 *   show: () => void,
 *   say: (text: string) => void,
 * }} HandoffViewDeps
 */

/** "1 chat", "3 files". @param {unknown} n @param {string} noun */
const count = (n, noun) => `${Number(n) || 0} ${noun}${Number(n) === 1 ? "" : "s"}`;

/** @param {ParentNode} root @param {HandoffViewDeps} deps */
export function createHandoffView(root, deps) {
  const { call, ready, registry, open, go, show, say } = deps;
  const q = (/** @type {string} */ id) => /** @type {HTMLElement} */ (root.querySelector(`[data-testid=${id}]`));
  const passphrase = /** @type {HTMLInputElement} */ (q("handoff-passphrase"));
  const picker = /** @type {HTMLInputElement} */ (q("handoff-open"));
  const status = q("handoff-status");
  const linkText = /** @type {HTMLInputElement} */ (q("handoff-link-text"));
  const offerBox = q("handoff-offer");
  /** @type {Offer | null} */
  let offer = null;
  /** @type {{bytes: Uint8Array, from: string} | null} */
  let waiting = null;

  /** @param {string} text */
  const tell = (text) => (status.textContent = text);
  const how = () => ({ call, name: open.name, settings: deps.settings(), passphrase: passphrase.value });

  /** @param {() => Promise<void>} action */
  const guarded = (action) => async () => {
    say("");
    try {
      await ready;
      await action();
    } catch (/** @type {any} */ err) {
      tell("");
      say(err instanceof HandoffProblem ? err.message : `That did not work: ${err.message}`);
    }
  };

  async function save() {
    tell("Writing the project file…");
    const { bytes, fileName } = await writeFile(how());
    deps.download(fileName, bytes);
    tell(`Saved ${fileName} (${Math.ceil(bytes.length / 1024)} KB${passphrase.value ? ", sealed" : ""}).`);
  }

  async function copyLink() {
    tell("Making the link…");
    const page = new URL(location.href);
    page.searchParams.delete("project"); // the receiver's own projects are not the sender's
    const link = await writeLink({ ...how(), pageUrl: page.href });
    linkText.value = link;
    linkText.hidden = false;
    linkText.select();
    const copied = await navigator.clipboard?.writeText(link).then(
      () => true,
      () => false,
    );
    tell(copied ? "The link is copied. Whoever opens it is asked before anything opens." : "Copy the link below.");
  }

  /** @param {Uint8Array} bytes @param {string} from */
  async function inspect(bytes, from) {
    tell(`Checking ${from}…`);
    offer = null; // an earlier file's offer is gone: only what was checked last can be opened
    offerBox.hidden = true;
    // Kept until it opens: a sealed file or link is tried again when the passphrase is typed (a link's
    // project is no longer in the address to open again).
    waiting = { bytes, from };
    offer = await readOffer({ call, bytes, passphrase: passphrase.value });
    waiting = null;
    present(offer.summary);
    tell("");
  }

  /** @param {Record<string, any>} summary */
  function present(summary) {
    /** @type {HTMLElement} */ (offerBox.querySelector(".handoff-offer-title")).textContent =
      `Open "${summary.name}" as a new project?`;
    const facts = [
      [count(summary.files, "file"), count(summary.versions, "version"), count(summary.chats, "chat")].join(", "),
      ...(summary.instructions || []).map((/** @type {string} */ path) => `Instructions for the agent: ${path}`),
      ...(summary.servers || []).map(
        (/** @type {{url: string, name?: string}} */ server) =>
          `MCP server ${server.name || ""} ${server.url} (not connected until you connect it)`,
      ),
    ];
    /** @type {HTMLElement} */ (offerBox.querySelector(".handoff-offer-facts")).replaceChildren(
      ...facts.map((text) => el("li", "", text)),
    );
    offerBox.hidden = false;
    /** @type {HTMLElement} */ (q("handoff-accept")).focus();
  }

  async function accept() {
    if (!offer) return;
    const project = await acceptOffer({ registry, offer });
    offer = null;
    go(project.name);
  }

  /** @param {File} file */
  async function openFile(file) {
    show();
    await guarded(async () => {
      refuseTooBig(file.size);
      await inspect(new Uint8Array(await file.arrayBuffer()), file.name);
    })();
  }

  q("handoff-save").addEventListener("click", guarded(save));
  q("handoff-link").addEventListener("click", guarded(copyLink));
  q("handoff-accept").addEventListener("click", guarded(accept));
  q("handoff-decline").addEventListener("click", () => {
    offer = null;
    waiting = null;
    offerBox.hidden = true;
  });
  passphrase.addEventListener("change", () => {
    const again = waiting;
    if (again) guarded(() => inspect(again.bytes, again.from))();
  });
  picker.addEventListener("change", () => {
    const file = picker.files?.[0];
    picker.value = "";
    if (file) openFile(file);
  });
  return {
    openFile,
    /** A link's project: shown, then opened only if the user accepts. @param {Uint8Array} bytes */
    offerLink: (bytes) => {
      show();
      return guarded(() => inspect(bytes, "the link's project"))();
    },
  };
}
