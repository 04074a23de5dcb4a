// Runs the projects' pure modules (web/src/projects: registry.js, seal.js, link.js) under Node for
// tests/page/test_projects_*.py: stdin is a JSON list of cases {op, ...}; prints one JSON line per case:
// {value} or {error: {name, message, code}}. Bytes travel as base64.
import { readFileSync } from "node:fs";
import { register } from "node:module";
import { createDecipheriv } from "node:crypto";

register("./json_hooks.mjs", import.meta.url);
const registry = await import("../../web/src/projects/registry.js");
const sealing = await import("../../web/src/projects/seal.js");
const link = await import("../../web/src/projects/link.js");

const bytesOf = (text) => Uint8Array.from(Buffer.from(text, "base64"));
const textOf = (bytes) => Buffer.from(bytes).toString("base64");

/** A `localStorage` stand-in over a plain object, which the case's result shows as it ends. */
function fakeStorage(items) {
  return {
    items,
    getItem: (key) => (Object.hasOwn(items, key) ? items[key] : null),
    setItem: (key, value) => {
      items[key] = String(value);
    },
    removeItem: (key) => {
      delete items[key];
    },
  };
}

/** Steps [tab, method, ...args] on registries sharing one storage (a registry per tab, as two tabs have);
 * each step's answer or error, the storage as it ends, and how often each tab's clock was read. */
function registrySteps(c) {
  const storage = fakeStorage(c.storage ?? {});
  let clock = c.clock ?? 1000;
  const now = () => ++clock;
  const tabs = {};
  const tab = (name) => {
    tabs[name] ??= registry.createRegistry(storage, now);
    return tabs[name];
  };
  const answers = c.steps.map(([name, method, ...args]) => attempt(() => tab(name)[method](...args)));
  return { answers, storage: storage.items };
}

function attempt(run) {
  try {
    return { value: run() ?? null };
  } catch (err) {
    return { error: { name: err.name, message: err.message, code: err.code ?? null } };
  }
}

async function attemptAsync(run) {
  try {
    return { value: (await run()) ?? null };
  } catch (err) {
    return { error: { name: err.name, message: err.message, code: err.code ?? null } };
  }
}

/** Counts the key derivations WebCrypto is asked for, so a test sees a refusal came before any. */
let derivations = 0;
const subtle = globalThis.crypto.subtle;
const deriveBits = subtle.deriveBits.bind(subtle);
subtle.deriveBits = (...args) => {
  derivations += 1;
  return deriveBits(...args);
};

/** A storage event as another tab's write raises it, sent to `onChange`'s listener. */
function changes(c) {
  const target = new EventTarget();
  const heard = [];
  const stop = registry.onChange(() => heard.push("changed"), target);
  for (const key of c.keys) target.dispatchEvent(Object.assign(new Event("storage"), { key }));
  stop();
  target.dispatchEvent(Object.assign(new Event("storage"), { key: c.keys[0] }));
  return heard.length;
}

const OPS = {
  names: (c) => ({
    database: registry.databaseName(c.id),
    attachments: registry.attachmentsDatabase(c.id),
    folder: registry.folderDatabase(c.id),
    lock: registry.workspaceLock(c.id),
  }),
  constants: () => ({
    id: registry.DEFAULT_ID,
    name: registry.DEFAULT_NAME,
    linkMax: link.LINK_MAX_BYTES,
    iterations: sealing.ITERATIONS,
    lowest: sealing.ITERATIONS_LOWEST,
    highest: sealing.ITERATIONS_HIGHEST,
  }),
  registry: (c) => registrySteps(c),
  changes: (c) => changes(c),
  seal: async (c) => textOf(await sealing.seal(bytesOf(c.bytes), c.passphrase, c.iterations)),
  unseal: async (c) => {
    derivations = 0;
    const answer = await attemptAsync(async () => textOf(await sealing.unseal(bytesOf(c.bytes), c.passphrase)));
    return { ...answer, derivations };
  },
  roundTrip: async (c) => {
    const sealed = await sealing.seal(bytesOf(c.bytes), c.passphrase, c.iterations);
    const again = await sealing.seal(bytesOf(c.bytes), c.passphrase, c.iterations);
    const opened = await sealing.unseal(sealed, c.passphrase);
    return { sealed: textOf(sealed), opened: textOf(opened), differs: textOf(sealed) !== textOf(again) };
  },
  // AES-256-GCM by Node's own cipher, not WebCrypto: another tool opening the envelope from its layout.
  gcmOpen: (c) => {
    const body = bytesOf(c.body);
    const decipher = createDecipheriv("aes-256-gcm", bytesOf(c.key), bytesOf(c.iv));
    decipher.setAAD(bytesOf(c.header));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return textOf(Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]));
  },
  kindOf: (c) => ({ kind: sealing.kindOf(bytesOf(c.bytes)), sealed: sealing.isSealed(bytesOf(c.bytes)) }),
  linkFor: (c) => link.linkFor(bytesOf(c.bytes), c.url),
  fromFragment: (c) => {
    const answer = attempt(() => link.fromFragment(c.hash));
    return answer.value ? { value: textOf(answer.value) } : answer;
  },
};

// Every non-ASCII unit escaped: the reader of these lines splits on U+0085 and U+2028 too.
const ascii = (json) =>
  json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

for (const item of JSON.parse(readFileSync(0, "utf8"))) {
  const wrapped = await attemptAsync(() => OPS[item.op](item));
  console.log(ascii(JSON.stringify(wrapped)));
}
