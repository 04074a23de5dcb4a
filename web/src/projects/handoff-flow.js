// The hand-off's steps on the page (docs/projects.md): the agent worker writes and checks the file itself
// (the `handoff.*` calls: every digest, every path, the budgets of any import); the page adds what only it
// holds (the attachments' originals, the project's settings), seals or unseals it with a passphrase, and
// moves an accepted file to the new project it opens as (projects/pending.js).
import { fromBase64, toBase64 } from "../bytes.js";
import shared from "../limits.json";
import { allOriginals, keepOriginals } from "../attachments/attachment-store.js";
import { LINK_MAX_BYTES, linkFor } from "./link.js";
import { forgetPending, keepPending, pendingFor } from "./pending.js";
import { kindOf, seal, unseal } from "./seal.js";

/** @typedef {(method: any, args?: any) => Promise<any>} Call */
/** @typedef {ReturnType<typeof import("./registry.js").createRegistry>} Registry */
/** What a hand-off file holds, as the worker summed it up. @typedef {Record<string, any>} Summary */
/** A checked file the user may open as a project. @typedef {{zip: Uint8Array, summary: Summary}} Offer */

/** A refusal the user reads (a wrong passphrase, a changed file, not a project file). */
export class HandoffProblem extends Error {}

/** The most a hand-off file may be: what any import may be (the worker checks it again). */
export const FILE_MAX_BYTES = shared.imports.total_bytes;

/** Refuse a file too big to be a project before its bytes are read. @param {number} size */
export function refuseTooBig(size) {
  if (size > FILE_MAX_BYTES) {
    const mb = Math.round(FILE_MAX_BYTES / 1024 / 1024);
    throw new HandoffProblem(`This file is over ${mb} MB, more than any import may be; nothing was opened.`);
  }
}

/** The project's file: its bytes (sealed when a passphrase is given) and a name to save it under.
 * @param {{call: Call, name: string, settings: object, passphrase: string}} how */
export async function writeFile({ call, name, settings, passphrase }) {
  const attachments = await allOriginals();
  const made = await call("handoff.save", { name, attachments, settings });
  const plain = fromBase64(made.data);
  const bytes = passphrase ? await seal(plain, passphrase) : plain;
  return { bytes, summary: /** @type {Summary} */ (made.summary), fileName: `${fileSafe(name)}.agentlite` };
}

/** A link carrying the project after `#`, or a problem when the project is too big for one.
 * @param {{call: Call, name: string, settings: object, passphrase: string, pageUrl: string}} how */
export async function writeLink(how) {
  const { bytes } = await writeFile(how);
  const link = linkFor(bytes, how.pageUrl);
  if (!link) {
    const kb = Math.ceil(bytes.length / 1024);
    throw new HandoffProblem(
      `This project is ${kb} KB as a file; a link holds at most ${LINK_MAX_BYTES / 1024} KB. Save the project file instead.`,
    );
  }
  return link;
}

/** Unseal (when sealed) and check `bytes` in the worker; nothing is stored yet.
 * @param {{call: Call, bytes: Uint8Array, passphrase: string}} what @returns {Promise<Offer>} */
export async function readOffer({ call, bytes, passphrase }) {
  refuseTooBig(bytes.length);
  const kind = kindOf(bytes);
  if (kind === "unknown") throw new HandoffProblem("This is not an AgentLite project file.");
  let zip = bytes;
  if (kind === "sealed") {
    if (!passphrase) throw new HandoffProblem("This project is sealed: type its passphrase above and press Enter.");
    try {
      zip = await unseal(/** @type {Uint8Array<ArrayBuffer>} */ (bytes), passphrase);
    } catch (/** @type {any} */ err) {
      throw new HandoffProblem(err.message);
    }
  }
  try {
    return { zip, summary: await call("handoff.inspect", { data: toBase64(zip) }) };
  } catch (/** @type {any} */ err) {
    throw new HandoffProblem(`This project file was refused: ${err.message}`);
  }
}

/** Make the project `offer` opens as (named like the file's, made unique) and hand it the file.
 * @param {{registry: Registry, offer: Offer, name?: string}} what */
export async function acceptOffer({ registry, offer, name }) {
  const project = registry.create(registry.uniqueName(name || String(offer.summary.name || "Opened project")));
  await keepPending(project.id, offer.zip);
  return project;
}

/** On the new project's page: write the file waiting for it into its (empty) database. Resolves to the
 * summary, or null when nothing waits. The file is forgotten either way: a refusal is final.
 * @param {{call: Call, projectId: string, registry: Registry}} where */
export async function openPending({ call, projectId, registry }) {
  const zip = await pendingFor(projectId);
  if (!zip) return null;
  try {
    const opened = await call("handoff.open", { data: toBase64(zip) });
    await keepOriginals(opened.attachments || {});
    // A file's settings never grant approvals nor skip the review: "run without asking" and "apply
    // changes at once" stay the user's own choices.
    const { auto_approve: _approvals, changes: _changes, ...settings } = opened.settings || {};
    registry.setOverrides(projectId, settings);
    return /** @type {Summary} */ (opened.summary);
  } finally {
    await forgetPending(projectId);
  }
}

/** @param {string} name */
function fileSafe(name) {
  return name.replace(/[^\p{L}\p{N} ._-]+/gu, "_").trim() || "project";
}
