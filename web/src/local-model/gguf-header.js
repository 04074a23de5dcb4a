// A GGUF file's header, read from its first bytes: the facts the page shows about a model before the
// engine loads it (name, architecture, parameter count, quantisation, context length, chat template).
// Pure: bytes in, facts out. Written here because wllama reads the metadata only inside its engine, after
// the whole file is loaded; the settings need them at once, and a file that is not GGUF must be refused
// before the engine sees it. It runs in a worker of its own (header-worker.js), never on the page's thread,
// and within a budget (`LIMITS`): a hostile header cannot make it read past the bytes it was given, take
// more than `steps` values, nest arrays, or allocate much: counts and lengths are checked before use.

/** A metadata value: a scalar, a string, or an array (skipped: only its length is kept).
 * @typedef {number | boolean | string | {array: number}} GgufValue */
/** What the page shows about a model; `size` (bytes) once its file is stored.
 * @typedef {{name: string, architecture: string, parameters: string, quantisation: string,
 *   contextLength: number, chatTemplate: string, tools: boolean, size?: number}} ModelFacts */
/** The reader's budget. @typedef {{keys: number, string: number, array: number, steps: number, depth: number}} Limits */

export const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
/** The largest real headers: ~60 keys, a vocabulary of 262k tokens and ~500k merges (each string one step),
 * chat templates of a few KB. Arrays of scalars are skipped in one step whatever their length.
 * @type {Limits} */
export const LIMITS = { keys: 10_000, string: 1 << 20, array: 1 << 22, steps: 4_000_000, depth: 1 };

export class GgufError extends Error {
  name = "GgufError";
  steps = 0; // the values read when it was refused
}

// general.file_type -> the quantisation's name (llama.cpp's llama_ftype, the common ones)
/** @type {Record<string, string>} */
const FILE_TYPES = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  28: "IQ4_XS",
  32: "BF16",
};
// value type -> byte size of a scalar (8 = string, 9 = array)
/** @type {Record<number, number>} */
const SCALAR = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
/** value type -> how a scalar of it is read @type {Record<number, (v: DataView, at: number) => number | boolean>} */
const READ = {
  0: (v, at) => v.getUint8(at),
  1: (v, at) => v.getInt8(at),
  2: (v, at) => v.getUint16(at, true),
  3: (v, at) => v.getInt16(at, true),
  4: (v, at) => v.getUint32(at, true),
  5: (v, at) => v.getInt32(at, true),
  6: (v, at) => v.getFloat32(at, true),
  7: (v, at) => v.getUint8(at) !== 0,
  10: (v, at) => Number(v.getBigUint64(at, true)),
  11: (v, at) => Number(v.getBigInt64(at, true)),
  12: (v, at) => v.getFloat64(at, true),
};

class Reader {
  /** @param {Uint8Array} bytes @param {Limits} limits */
  constructor(bytes, limits) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bytes = bytes;
    this.limits = limits;
    this.at = 0;
    this.steps = 0; // values read: each costs a bounded amount of work
  }
  /** @param {string} message */
  refuse(message) {
    const error = new GgufError(message);
    error.steps = this.steps;
    return error;
  }
  step() {
    if (this.steps >= this.limits.steps) throw this.refuse("the header has too many values");
    this.steps++;
  }
  /** @param {number} n */
  need(n) {
    if (n < 0 || this.at + n > this.bytes.length) throw this.refuse("the header is cut short");
  }
  u32() {
    this.need(4);
    const value = this.view.getUint32(this.at, true);
    this.at += 4;
    return value;
  }
  u64() {
    this.need(8);
    const value = this.view.getBigUint64(this.at, true);
    this.at += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw this.refuse("a count in the header is too large");
    return Number(value);
  }
  /** The next string's length, its bytes checked present. */
  stringLength() {
    const length = this.u64();
    if (length > this.limits.string) throw this.refuse("a string in the header is too long");
    this.need(length);
    return length;
  }
  string() {
    const length = this.stringLength();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
  /** @param {number} type @returns {number | boolean} */
  scalar(type) {
    const size = SCALAR[type];
    if (size === undefined) throw this.refuse(`unknown value type ${type}`);
    this.need(size);
    const at = this.at;
    this.at += size;
    return READ[type](this.view, at);
  }
  /** @param {number} type @param {number} [depth] arrays around this value @returns {GgufValue} */
  value(type, depth = 0) {
    this.step();
    if (type === 8) return this.string();
    if (type !== 9) return this.scalar(type);
    if (depth >= this.limits.depth) throw this.refuse("arrays in the header are nested too deep");
    const itemType = this.u32();
    const count = this.u64();
    if (count > this.limits.array) throw this.refuse("an array in the header is too long");
    this.skipItems(itemType, count, depth + 1); // arrays (the vocabulary) are skipped, not kept
    return { array: count };
  }
  /** @param {number} type @param {number} count @param {number} depth */
  skipItems(type, count, depth) {
    const size = SCALAR[type];
    if (size !== undefined) {
      this.need(size * count); // scalars: one step, whatever their number
      this.at += size * count;
      return;
    }
    if (type !== 8) {
      if (count > 0) this.value(type, depth); // an array or an unknown type: refused there
      return;
    }
    for (let i = 0; i < count; i++) {
      this.step();
      const length = this.stringLength(); // skipped, not decoded
      this.at += length;
    }
  }
}

/** The key/value metadata of a GGUF header, and the values read (`steps`). Throws GgufError for a file that
 * is not GGUF, is cut short (give it more bytes: the vocabulary arrays make headers of a few MB) or is past
 * the budget. @param {Uint8Array} bytes @param {Limits} [limits] */
export function readMetadata(bytes, limits = LIMITS) {
  const reader = new Reader(bytes, limits);
  if (bytes.length < 4 || reader.u32() !== GGUF_MAGIC) throw reader.refuse("not a GGUF file (no GGUF magic)");
  const version = reader.u32();
  if (version < 2 || version > 3) throw reader.refuse(`GGUF version ${version} is not supported`);
  const tensors = reader.u64();
  const keys = reader.u64();
  if (keys > limits.keys) throw reader.refuse("too many keys in the header");
  /** @type {Record<string, GgufValue>} */
  const metadata = Object.create(null);
  for (let i = 0; i < keys; i++) {
    reader.step();
    const key = reader.string();
    metadata[key] = reader.value(reader.u32());
  }
  return { version, tensors, metadata, steps: reader.steps };
}

const HEADER_READS = [1 << 20, 8 << 20, 64 << 20]; // bytes: a header with a large vocabulary needs more

/** The facts of a GGUF file from its header, read from its first bytes (more when cut short; each read
 * within the budget); throws GgufError for a file that is not one. @param {Blob} blob @param {string} fileName */
export async function headerFacts(blob, fileName) {
  for (const size of HEADER_READS) {
    const bytes = new Uint8Array(await blob.slice(0, size).arrayBuffer());
    try {
      return modelFacts(readMetadata(bytes).metadata, fileName);
    } catch (err) {
      const more = err instanceof GgufError && /cut short/.test(err.message) && size < blob.size;
      if (!more) throw err;
    }
  }
  throw new GgufError("the header is larger than 64 MB");
}

/** The facts the page shows about a model, from its metadata.
 * @param {Record<string, GgufValue | undefined>} metadata @param {string} [fileName]
 * @returns {ModelFacts} */
export function modelFacts(metadata, fileName = "") {
  const arch = String(metadata["general.architecture"] ?? "");
  const fileType = metadata["general.file_type"];
  const template = String(metadata["tokenizer.chat_template"] ?? "");
  return {
    name: String(metadata["general.name"] || fileName.replace(/\.gguf$/i, "") || "local model"),
    architecture: arch,
    parameters: String(metadata["general.size_label"] ?? ""),
    quantisation: FILE_TYPES[/** @type {number} */ (fileType)] ?? (fileType === undefined ? "" : `type ${fileType}`),
    contextLength: Number(metadata[`${arch}.context_length`] ?? 0) || 0,
    chatTemplate: template,
    tools: /\btools\b/.test(template), // the template renders a tools list: native tool calling may work
  };
}
