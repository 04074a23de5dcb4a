// Which WebAssembly build of the engine this browser can run fastest. The build ships the default
// (Memory64, JSPI) wasm twice: its 4-bit kernels with relaxed SIMD, and with plain SIMD only, for an
// engine without relaxed SIMD (Firefox before 146, or with it turned off); docs/local-model.md.

// A module of one function: three v128.const 0, i32x4.relaxed_dot_i8x16_i7x16_add_s, drop.
const ZERO_V128 = [0xfd, 0x0c, ...new Array(16).fill(0)];
const RELAXED_PROBE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // magic, version 1
  ...[0x01, 0x04, 0x01, 0x60, 0x00, 0x00], // type section: [] -> []
  ...[0x03, 0x02, 0x01, 0x00], // function section: one function of type 0
  ...[0x0a, 0x3e, 0x01, 0x3c, 0x00], // code section: one body of 60 bytes, no locals
  ...ZERO_V128,
  ...ZERO_V128,
  ...ZERO_V128,
  ...[0xfd, 0x93, 0x02, 0x1a, 0x0b], // relaxed dot (0x113), drop, end
]);

/** Whether this engine validates relaxed SIMD instructions. */
export function hasRelaxedSimd() {
  try {
    return WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}
