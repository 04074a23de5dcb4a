// Runs the plain-SIMD kernels (buildsys/engine/kernels/quant_dot.c, linked for wasm32) on blocks given as JSON
// on stdin: {wasm, cases: [{fn, n, x, y}]} with the bytes in base64; prints {results: [float, ...]}.
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8"));
const { instance } = await WebAssembly.instantiate(Buffer.from(input.wasm, "base64"));
const memory = instance.exports.memory;
const results = [];
for (const { fn, n, x, y } of input.cases) {
  const xs = Buffer.from(x, "base64");
  const ys = Buffer.from(y, "base64");
  const base = memory.buffer.byteLength;
  memory.grow(Math.ceil((xs.length + ys.length + 4096) / 65536));
  const bytes = new Uint8Array(memory.buffer);
  const xAt = base + 1; // odd addresses: the blocks are packed, nothing may assume alignment
  const yAt = xAt + xs.length + 2;
  const out = (yAt + ys.length + 8) & ~3;
  bytes.set(xs, xAt);
  bytes.set(ys, yAt);
  instance.exports[fn](n, out, 0, xAt, 0, yAt, 0, 1);
  results.push(new Float32Array(memory.buffer, out, 1)[0]);
}
console.log(JSON.stringify({ results }));
