// A GGUF file's header, read from its first bytes: the facts the page shows about a model before the
// engine loads it (name, architecture, parameter count, quantisation, context length, chat template).
// Pure: bytes in, facts out. Written here because wllama reads the metadata only inside its engine, after
// the whole file is loaded; the settings need them at once, and a file that is not GGUF must be refused
// before the engine sees it. A hostile header cannot make it read past the bytes it was given, loop
// long, or allocate much: counts and lengths are checked against what is left.

/** A metadata value: a scalar, a string, or an array (skipped: only its length is kept).
 * @typedef {number | boolean | string | {array: number}} GgufValue */
/** What the page shows about a model; `size` (bytes) once its file is stored.
 * @typedef {{name: string, architecture: string, parameters: string, quantisation: string,
 *   contextLength: number, chatTemplate: string, tools: boolean, size?: number}} ModelFacts */

export const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
const MAX_KEYS = 10_000;
const MAX_STRING = 1 << 20; // a chat template is a few KB; a longer string is not read
const MAX_ARRAY_SKIP = 1 << 24;

export class GgufError extends Error {
  name = "GgufError";
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

class Reader {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.bytes = bytes;
    this.at = 0;
  }
  /** @param {number} n */
  need(n) {
    if (n < 0 || this.at + n > this.bytes.length) throw new GgufError("the header is cut short");
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
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GgufError("a count in the header is too large");
    return Number(value);
  }
  string() {
    const length = this.u64();
    if (length > MAX_STRING) throw new GgufError("a string in the header is too long");
    this.need(length);
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
  /** @param {number} type @returns {number | boolean} */
  scalar(type) {
    const size = SCALAR[type];
    if (size === undefined) throw new GgufError(`unknown value type ${type}`);
    this.need(size);
    const v = this.view;
    const at = this.at;
    this.at += size;
    /** @type {Record<number, () => number | boolean>} */
    const read = {
      0: () => v.getUint8(at),
      1: () => v.getInt8(at),
      2: () => v.getUint16(at, true),
      3: () => v.getInt16(at, true),
      4: () => v.getUint32(at, true),
      5: () => v.getInt32(at, true),
      6: () => v.getFloat32(at, true),
      7: () => v.getUint8(at) !== 0,
      10: () => Number(v.getBigUint64(at, true)),
      11: () => Number(v.getBigInt64(at, true)),
      12: () => v.getFloat64(at, true),
    };
    return read[type]();
  }
  /** @param {number} type @returns {GgufValue} */
  value(type) {
    if (type === 8) return this.string();
    if (type !== 9) return this.scalar(type);
    const itemType = this.u32();
    const count = this.u64();
    if (count > MAX_ARRAY_SKIP) throw new GgufError("an array in the header is too long");
    for (let i = 0; i < count; i++) this.value(itemType); // arrays (the vocabulary) are skipped, not kept
    return { array: count };
  }
}

/** The key/value metadata of a GGUF header. Throws GgufError for a file that is not GGUF or is cut short
 * (give it more bytes: the vocabulary arrays make headers of a few MB). @param {Uint8Array} bytes */
export function readMetadata(bytes) {
  const reader = new Reader(bytes);
  if (bytes.length < 4 || reader.u32() !== GGUF_MAGIC) throw new GgufError("not a GGUF file (no GGUF magic)");
  const version = reader.u32();
  if (version < 2 || version > 3) throw new GgufError(`GGUF version ${version} is not supported`);
  const tensors = reader.u64();
  const keys = reader.u64();
  if (keys > MAX_KEYS) throw new GgufError("too many keys in the header");
  /** @type {Record<string, GgufValue>} */
  const metadata = {};
  for (let i = 0; i < keys; i++) {
    const key = reader.string();
    metadata[key] = reader.value(reader.u32());
  }
  return { version, tensors, metadata };
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
