// A small project carried in the page's URL (docs/handoff-sealed.md, "The link"): its hand-off bytes,
// base64url without padding, after `#handoff=`. The fragment never reaches a server; the query is left as
// it was. A fragment is untrusted: its length is bounded before a byte of it is decoded.

import { fromBase64, toBase64 } from "../bytes.js";

export const LINK_MAX_BYTES = 64 * 1024;
const MARK = "handoff=";
const ENCODED_MAX = Math.ceil((LINK_MAX_BYTES * 4) / 3); // base64 characters of LINK_MAX_BYTES, unpadded
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Why a link's project cannot be read; the message is for the user. */
export class LinkError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "LinkError";
  }
}

/** `pageUrl` (its query kept, its fragment replaced) carrying `bytes`, or null when they are more than a
 * link may carry (the user is told to use the file). No bytes make no link: a link that carries nothing is
 * refused on reading, as one cut short would be. @param {Uint8Array} bytes @param {string} pageUrl */
export function linkFor(bytes, pageUrl) {
  if (!bytes.length) throw new LinkError("There is nothing to put in a link.");
  if (bytes.length > LINK_MAX_BYTES) return null;
  const url = new URL(pageUrl);
  url.hash = "";
  const encoded = toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `${url.href}#${MARK}${encoded}`;
}

/** The bytes a `#handoff=` fragment carries, or null for a fragment that carries none; a LinkError for one
 * that is malformed or larger than a link may be. @param {string} hash `location.hash`, with or without "#" */
export function fromFragment(hash) {
  const fragment = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!fragment.startsWith(MARK)) return null;
  const encoded = fragment.slice(MARK.length);
  if (encoded.length > ENCODED_MAX) {
    throw new LinkError("The link carries more than 64 KB: a project this large travels as a hand-off file.");
  }
  if (!encoded) throw new LinkError("The link is empty: nothing follows #handoff=.");
  if (!BASE64URL.test(encoded) || encoded.length % 4 === 1) {
    throw new LinkError("The link is malformed: what follows #handoff= is not base64url (it was cut or changed?).");
  }
  return fromBase64(encoded.replaceAll("-", "+").replaceAll("_", "/"));
}
