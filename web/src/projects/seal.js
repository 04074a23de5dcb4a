// A passphrase envelope around any bytes (docs/handoff-sealed.md lays it out byte by byte): WebCrypto's
// PBKDF2-HMAC-SHA256 turns the passphrase into a master secret, HKDF-SHA256 splits that into an
// AES-256-GCM key and a check value, and the header (magic, version, KDF, iterations, salt, IV, check,
// length) is the cipher's additional data, so none of it can change unnoticed. A SHA-256 of everything
// ends the file: damage in transit is told apart from a wrong passphrase before any key is derived.
// An envelope is untrusted: its iteration count is bounded before it costs anything.

import { sha256 } from "../bytes.js";

const MAGIC = Uint8Array.of(0x89, 0x41, 0x4c, 0x53, 0x45, 0x41, 0x4c, 0x0a); // "\x89ALSEAL\n"
const ZIP_MAGICS = [Uint8Array.of(0x50, 0x4b, 0x03, 0x04), Uint8Array.of(0x50, 0x4b, 0x05, 0x06)];
const VERSION = 1;
const KDF_NAME = "PBKDF2-SHA256";
const KDF_NAME_MAX = 32;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const CHECK_BYTES = 16;
const TAG_BYTES = 16;
const DIGEST_BYTES = 32;
// OWASP's advice for PBKDF2-HMAC-SHA256 (2023): 600,000. Measured per engine in docs/handoff-sealed.md.
export const ITERATIONS = 600_000;
// What a header may ask for: never a token effort, never minutes of the reader's time.
export const ITERATIONS_LOWEST = 100_000;
export const ITERATIONS_HIGHEST = 5_000_000;
const encoder = new TextEncoder();
const KEY_INFO = encoder.encode("AgentLite seal v1 key");
const CHECK_INFO = encoder.encode("AgentLite seal v1 check");
/** @typedef {Uint8Array<ArrayBuffer>} Bytes */

/** Why an envelope cannot be made or opened; `code` names the kind, the message is for the user. */
export class SealError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = "SealError";
    this.code = code;
  }
}

/** @param {Uint8Array} bytes @param {Uint8Array} magic */
const startsWith = (bytes, magic) => bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);

/** Whether `bytes` begin as a sealed envelope. @param {Uint8Array} bytes */
export const isSealed = (bytes) => startsWith(bytes, MAGIC);

/** What `bytes` are, by their first bytes. @param {Uint8Array} bytes @returns {"sealed" | "zip" | "unknown"} */
export function kindOf(bytes) {
  if (isSealed(bytes)) return "sealed";
  return ZIP_MAGICS.some((magic) => startsWith(bytes, magic)) ? "zip" : "unknown";
}

/** @param {number} n */
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** @param {unknown} iterations @param {string} asker who names the count: a file, or a caller of seal */
function checkIterations(iterations, asker = "The sealed file asks for") {
  const n = Number(iterations);
  if (Number.isInteger(n) && n >= ITERATIONS_LOWEST && n <= ITERATIONS_HIGHEST) return n;
  throw new SealError(
    "iterations",
    `${asker} ${grouped(n)} rounds of key derivation; ` +
      `this page accepts ${grouped(ITERATIONS_LOWEST)} to ${grouped(ITERATIONS_HIGHEST)}.`,
  );
}

/** The passphrase's bytes (one Unicode form, so it matches however it was typed). @param {string} context
 * @param {unknown} passphrase */
function passphraseBytes(passphrase, context) {
  if (typeof passphrase === "string" && passphrase) return encoder.encode(passphrase.normalize("NFC"));
  throw new SealError("no-passphrase", context);
}

/** The AES key and the check value for a passphrase, salt and iteration count: one PBKDF2 block (a
 * longer output would cost the reader more than a guesser), split by HKDF.
 * @param {Bytes} secret @param {Bytes} salt @param {number} iterations */
async function derive(secret, salt, iterations) {
  const subtle = crypto.subtle;
  const base = await subtle.importKey("raw", secret, "PBKDF2", false, ["deriveBits"]);
  const master = await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, base, 256);
  const hkdf = await subtle.importKey("raw", master, "HKDF", false, ["deriveBits", "deriveKey"]);
  const split = (/** @type {Bytes} */ info) => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info });
  const key = await subtle.deriveKey(split(KEY_INFO), hkdf, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const check = new Uint8Array(await subtle.deriveBits(split(CHECK_INFO), hkdf, CHECK_BYTES * 8));
  return { key, check };
}

/** Where each field of a version 1 header starts, for a KDF name of `nameLength` bytes; `end` is the
 * header's length. @param {number} nameLength */
function offsets(nameLength) {
  const iterations = 10 + nameLength;
  const salt = iterations + 4;
  const iv = salt + SALT_BYTES;
  const check = iv + IV_BYTES;
  const length = check + CHECK_BYTES;
  return { iterations, salt, iv, check, length, end: length + 8 };
}

/** The header's bytes for these values (the cipher's additional data).
 * @param {{iterations: number, salt: Bytes, iv: Bytes, check: Bytes, length: number}} h */
function headerBytes(h) {
  const name = encoder.encode(KDF_NAME);
  const at = offsets(name.length);
  const header = new Uint8Array(at.end);
  const view = new DataView(header.buffer);
  header.set(MAGIC);
  header.set([VERSION, name.length], 8);
  header.set(name, 10);
  view.setUint32(at.iterations, h.iterations);
  header.set(h.salt, at.salt);
  header.set(h.iv, at.iv);
  header.set(h.check, at.check);
  view.setBigUint64(at.length, BigInt(h.length));
  return header;
}

/** @param {Bytes[]} parts */
function joined(...parts) {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
const same = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** `bytes` sealed with `passphrase`. @param {Bytes} bytes @param {string} passphrase
 * @param {number} [iterations] @returns {Promise<Bytes>} */
export async function seal(bytes, passphrase, iterations = ITERATIONS) {
  const secret = passphraseBytes(passphrase, "Sealing needs a passphrase.");
  const rounds = checkIterations(iterations, "Sealing was asked for");
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const { key, check } = await derive(secret, salt, rounds);
  const header = headerBytes({ iterations: rounds, salt, iv, check, length: bytes.length + TAG_BYTES });
  const body = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: header }, key, bytes);
  const sealed = joined(header, new Uint8Array(body));
  return joined(sealed, await sha256(sealed));
}

/** @param {string} part @param {number} had @param {number | bigint} needed */
const cutShort = (part, had, needed) =>
  new SealError("truncated", `The sealed file is cut short before its ${part} (${had} bytes of ${needed}).`);

/** The header's fields, each checked before anything costs time. @param {Bytes} bytes */
function readHeader(bytes) {
  if (!isSealed(bytes)) {
    if (bytes.length && bytes.length < MAGIC.length && startsWith(MAGIC, bytes))
      throw cutShort("mark", bytes.length, 8);
    throw new SealError("not-sealed", "This is not a sealed hand-off file: it does not begin with the seal's mark.");
  }
  if (bytes.length < 10) throw cutShort("header", bytes.length, 10);
  if (bytes[8] !== VERSION) {
    throw new SealError("version", `The sealed file is of version ${bytes[8]}; this page opens version ${VERSION}.`);
  }
  const nameLength = bytes[9];
  const at = offsets(nameLength);
  if (nameLength <= KDF_NAME_MAX && bytes.length < at.end) throw cutShort("header", bytes.length, at.end);
  const name = new TextDecoder().decode(bytes.subarray(10, 10 + Math.min(nameLength, KDF_NAME_MAX)));
  if (nameLength > KDF_NAME_MAX || name !== KDF_NAME) {
    throw new SealError("kdf", `The sealed file names a key derivation this page does not know ("${name}").`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, at.end);
  return {
    header: bytes.subarray(0, at.end),
    iterations: checkIterations(view.getUint32(at.iterations)),
    salt: bytes.subarray(at.salt, at.iv),
    iv: bytes.subarray(at.iv, at.check),
    check: bytes.subarray(at.check, at.length),
    length: view.getBigUint64(at.length),
  };
}

/** The header and body of an envelope whose length and digest hold. @param {Bytes} bytes */
async function checkedWhole(bytes) {
  const fields = readHeader(bytes);
  const whole = BigInt(fields.header.length) + fields.length + BigInt(DIGEST_BYTES);
  if (BigInt(bytes.length) < whole) throw cutShort("end", bytes.length, whole);
  if (BigInt(bytes.length) > whole) {
    const extra = BigInt(bytes.length) - whole;
    throw new SealError("trailing", `The sealed file has ${extra} bytes after its end: something was added to it.`);
  }
  const sealed = bytes.subarray(0, bytes.length - DIGEST_BYTES);
  if (!same(await sha256(sealed), bytes.subarray(sealed.length))) {
    throw new SealError("damaged", "The sealed file is damaged: its bytes differ from the digest it was sealed with.");
  }
  return { ...fields, body: bytes.subarray(fields.header.length, sealed.length) };
}

/** The bytes sealed in `bytes`, or a SealError saying what is wrong (the passphrase, or the file).
 * @param {Bytes} bytes @param {string} passphrase @returns {Promise<Bytes>} */
export async function unseal(bytes, passphrase) {
  const envelope = await checkedWhole(bytes);
  const secret = passphraseBytes(passphrase, "This file is sealed: enter its passphrase.");
  const { key, check } = await derive(secret, envelope.salt, envelope.iterations);
  if (!same(check, envelope.check)) throw new SealError("wrong-passphrase", "The passphrase is wrong for this file.");
  try {
    const { iv, header } = envelope;
    return new Uint8Array(
      await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: header }, key, envelope.body),
    );
  } catch {
    throw new SealError("damaged", "The sealed file was changed after it was sealed: it fails its authentication.");
  }
}
