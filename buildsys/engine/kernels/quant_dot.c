/*
 * SIMD dot products of llama.cpp's Q4_0, Q4_1 and Q8_0 blocks, built for WebAssembly (docs/local-model.md,
 * "What the build changes"). In the engine's pinned wasm the two 4-bit ones run one byte at a time, and
 * all three convert each block's 16-bit float scales one by one; here the values are multiplied eight
 * 16-bit lanes at a time and four blocks' scales are converted at once. `python build.py` compiles this
 * file with -msimd128 and puts these bodies in place of the engine's (buildsys/local_kernels.py). Names,
 * signature and block layouts are ggml's; a body must be a leaf (no calls, no globals, no stack), so
 * everything here is inlined.
 */
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#define QK 32 /* weights per block */

typedef struct { uint16_t d; uint8_t qs[QK / 2]; } block_q4_0;             /* w = d * (q - 8) */
typedef struct { uint16_t d, m; uint8_t qs[QK / 2]; } block_q4_1;          /* w = d * q + m */
typedef struct { uint16_t d; int8_t qs[QK]; } block_q8_0;                  /* a = d * q */
typedef struct { uint16_t d, s; int8_t qs[QK]; } block_q8_1;               /* s = d * sum(q) */

_Static_assert(sizeof(block_q4_0) == 18, "block_q4_0 is 18 bytes");
_Static_assert(sizeof(block_q4_1) == 20, "block_q4_1 is 20 bytes");
_Static_assert(sizeof(block_q8_0) == 34, "block_q8_0 is 34 bytes");
_Static_assert(sizeof(block_q8_1) == 36, "block_q8_1 is 36 bytes");

#define INLINE static inline __attribute__((always_inline))

INLINE float from_bits(uint32_t bits) {
    union { uint32_t u; float f; } v = {bits};
    return v.f;
}

/* IEEE half to float without a table or a call: the half's exponent and mantissa moved to a float's place,
 * then scaled by 2^112 (the difference of the exponent biases). Exact for every finite half, subnormals and
 * zero included (WebAssembly keeps float subnormals); infinities and NaNs, never a block's scale, are not kept. */
INLINE float half_to_float(uint16_t h) {
    return from_bits((uint32_t)(h & 0x8000) << 16 | (uint32_t)(h & 0x7FFF) << 13) * 0x1.0p112f;
}

/* The same for four halves, one in the low half of each i32 lane (the high half is ignored). */
INLINE v128_t halves_to_floats(v128_t h) {
    const v128_t sign = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x8000)), 16);
    const v128_t magnitude = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x7FFF)), 13);
    return wasm_f32x4_mul(wasm_v128_or(sign, magnitude), wasm_f32x4_splat(0x1.0p112f));
}

/* The 32 products of a 4-bit block with its activations, as four i32 partial sums. All in 16-bit lanes:
 * x86 has no byte shifts nor a one-instruction widening of a high half of bytes, so values are cut out of
 * 16-bit lanes by shifts and masks. Each 16-bit lane of `q` holds the 4-bit values of weights 2j and
 * 2j+1 (low nibbles) and 2j+16 and 2j+17 (high nibbles); `offset` is subtracted from each (8 for q4_0,
 * 0 for q4_1). */
INLINE v128_t nibbles_dot(const void *xq, const int8_t *yq, int offset) {
    const v128_t q = wasm_v128_load(xq);
    const v128_t nibble = wasm_i16x8_splat(0x000F);
    const v128_t shift = wasm_i16x8_splat((int16_t)offset);
    const v128_t w0 = wasm_i16x8_sub(wasm_v128_and(q, nibble), shift);                     /* weights 2j */
    const v128_t w16 = wasm_i16x8_sub(wasm_v128_and(wasm_u16x8_shr(q, 4), nibble), shift); /* 2j+16 */
    const v128_t w1 = wasm_i16x8_sub(wasm_v128_and(wasm_u16x8_shr(q, 8), nibble), shift);  /* 2j+1 */
    const v128_t w17 = wasm_i16x8_sub(wasm_u16x8_shr(q, 12), shift);                       /* 2j+17 */
    const v128_t y_lo = wasm_v128_load(yq);
    const v128_t y_hi = wasm_v128_load(yq + QK / 2);
    const v128_t a0 = wasm_i16x8_shr(wasm_i16x8_shl(y_lo, 8), 8); /* activations 2j, sign-extended */
    const v128_t a1 = wasm_i16x8_shr(y_lo, 8);                    /* 2j+1 */
    const v128_t a16 = wasm_i16x8_shr(wasm_i16x8_shl(y_hi, 8), 8);
    const v128_t a17 = wasm_i16x8_shr(y_hi, 8);
    return wasm_i32x4_add(wasm_i32x4_add(wasm_i32x4_dot_i16x8(w0, a0), wasm_i32x4_dot_i16x8(w1, a1)),
                          wasm_i32x4_add(wasm_i32x4_dot_i16x8(w16, a16), wasm_i32x4_dot_i16x8(w17, a17)));
}

#ifdef __wasm_relaxed_simd__
/* With relaxed SIMD (built for engines that have it): `i32x4.relaxed_dot_i8x16_i7x16_add_s` multiplies
 * bytes and adds four products per i32 lane (pmaddubsw and pmaddwd on x86). It is exact here, as the
 * 4-bit values fit its 7-bit operand and no pair of products leaves 16 bits. q4_0's offset is taken off
 * as 8 times the activations' sum. */
#define RELAXED_DOT wasm_i32x4_relaxed_dot_i8x16_i7x16_add /* (bytes, 7-bit bytes, i32 sums to add to) */

INLINE v128_t nibbles_dot_relaxed(const void *xq, const int8_t *yq, int offset) {
    const v128_t q = wasm_v128_load(xq);
    const v128_t nibble = wasm_i8x16_splat(0x0F);
    const v128_t lo = wasm_v128_and(q, nibble);                     /* weights 0-15 */
    const v128_t hi = wasm_v128_and(wasm_u16x8_shr(q, 4), nibble);  /* 16-31 */
    const v128_t y_lo = wasm_v128_load(yq);
    const v128_t y_hi = wasm_v128_load(yq + QK / 2);
    const v128_t zero = wasm_i32x4_splat(0);
    const v128_t sums = RELAXED_DOT(y_hi, hi, RELAXED_DOT(y_lo, lo, zero));
    if (!offset) return sums;
    const v128_t ones = wasm_i8x16_splat(1);
    const v128_t y_sums = RELAXED_DOT(y_hi, ones, RELAXED_DOT(y_lo, ones, zero));
    return wasm_i32x4_sub(sums, wasm_i32x4_mul(y_sums, wasm_i32x4_splat(offset)));
}
#define NIBBLES_DOT nibbles_dot_relaxed
#else
#define NIBBLES_DOT nibbles_dot
#endif

INLINE v128_t q4_0_dot(const void *xq, const int8_t *yq) { return NIBBLES_DOT(xq, yq, 8); }

INLINE v128_t q4_1_dot(const void *xq, const int8_t *yq) { return NIBBLES_DOT(xq, yq, 0); }

/* The same for two blocks of bytes (q8_0 weights, or keys, with q8_0 activations): even and odd bytes
 * of each 16-bit lane, sign-extended in place. */
INLINE v128_t q8_0_dot(const void *xq, const int8_t *yq) {
    v128_t sums = wasm_i32x4_splat(0);
    for (int half = 0; half < QK; half += QK / 2) {
        const v128_t x = wasm_v128_load((const int8_t *)xq + half);
        const v128_t y = wasm_v128_load(yq + half);
        const v128_t even = wasm_i32x4_dot_i16x8(wasm_i16x8_shr(wasm_i16x8_shl(x, 8), 8),
                                                 wasm_i16x8_shr(wasm_i16x8_shl(y, 8), 8));
        const v128_t odd = wasm_i32x4_dot_i16x8(wasm_i16x8_shr(x, 8), wasm_i16x8_shr(y, 8));
        sums = wasm_i32x4_add(sums, wasm_i32x4_add(even, odd));
    }
    return sums;
}

INLINE float lanes_sum(v128_t v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

INLINE v128_t scaled(v128_t sums, v128_t scale) {
    return wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums), scale);
}

/* The first four bytes of four consecutive blocks, `stride` bytes apart, one block per i32 lane: its
 * scale d in the low half, q4_1's m or q8_1's s (or the first values) in the high half. Four lane loads:
 * gathering the halves one by one cost a third of the kernel's time. */
INLINE v128_t four_heads(const void *first, size_t stride) {
    const uint8_t *p = first;
    v128_t heads = wasm_v128_load32_zero(p);
    heads = wasm_v128_load32_lane(p + stride, heads, 1);
    heads = wasm_v128_load32_lane(p + 2 * stride, heads, 2);
    return wasm_v128_load32_lane(p + 3 * stride, heads, 3);
}
#define LANE(v, k) wasm_i32x4_shuffle(v, v, k, k, k, k)

/* acc[0] and acc[1] += Σ over blocks of d_x * d_y * DOT(x, y): four blocks a step, their scales converted
 * together, on two accumulators so that two blocks' work can overlap; then the blocks left one by one. */
#define DOT_BLOCKS(DOT, EXTRA, x, y, blocks, acc)                                                                   \
    int i = 0;                                                                                                 \
    for (; i + 3 < blocks; i += 4) {                                                                           \
        const v128_t hx = four_heads(&x[i], sizeof *x), hy = four_heads(&y[i], sizeof *y);                   \
        const v128_t scale = wasm_f32x4_mul(halves_to_floats(hx), halves_to_floats(hy));                      \
        EXTRA(hx, hy)                                                                                          \
        acc[0] = wasm_f32x4_add(acc[0], scaled(DOT(x[i].qs, y[i].qs), LANE(scale, 0)));                        \
        acc[1] = wasm_f32x4_add(acc[1], scaled(DOT(x[i + 1].qs, y[i + 1].qs), LANE(scale, 1)));                \
        acc[0] = wasm_f32x4_add(acc[0], scaled(DOT(x[i + 2].qs, y[i + 2].qs), LANE(scale, 2)));                \
        acc[1] = wasm_f32x4_add(acc[1], scaled(DOT(x[i + 3].qs, y[i + 3].qs), LANE(scale, 3)));                \
    }                                                                                                          \
    for (; i < blocks; ++i) {                                                                                  \
        const float scale = half_to_float(x[i].d) * half_to_float(y[i].d);                                    \
        acc[0] = wasm_f32x4_add(acc[0], scaled(DOT(x[i].qs, y[i].qs), wasm_f32x4_splat(scale)));               \
    }

#define NOTHING(hx, hy)

void ggml_vec_dot_q4_0_q8_0(int n, float *restrict s, size_t bs, const void *restrict vx, size_t bx,
                            const void *restrict vy, size_t by, int nrc) {
    (void)bs, (void)bx, (void)by, (void)nrc;
    const block_q4_0 *restrict x = vx;
    const block_q8_0 *restrict y = vy;
    const int blocks = n / QK;
    v128_t acc[2] = {wasm_f32x4_splat(0.0f), wasm_f32x4_splat(0.0f)};
    DOT_BLOCKS(q4_0_dot, NOTHING, x, y, blocks, acc)
    *s = lanes_sum(wasm_f32x4_add(acc[0], acc[1]));
}

/* q4_1's Σ m * s: each block's offset times its activations' sum (which q8_1 keeps, as s = d * Σ q); m and
 * s are the high halves of the blocks' heads. */
#define OFFSETS(hx, hy)                                                       \
    mins = wasm_f32x4_add(mins, wasm_f32x4_mul(halves_to_floats(wasm_u32x4_shr(hx, 16)), \
                                               halves_to_floats(wasm_u32x4_shr(hy, 16))));

void ggml_vec_dot_q4_1_q8_1(int n, float *restrict s, size_t bs, const void *restrict vx, size_t bx,
                            const void *restrict vy, size_t by, int nrc) {
    (void)bs, (void)bx, (void)by, (void)nrc;
    const block_q4_1 *restrict x = vx;
    const block_q8_1 *restrict y = vy;
    const int blocks = n / QK;
    v128_t acc[2] = {wasm_f32x4_splat(0.0f), wasm_f32x4_splat(0.0f)};
    v128_t mins = wasm_f32x4_splat(0.0f);
    DOT_BLOCKS(q4_1_dot, OFFSETS, x, y, blocks, acc)
    float tail = 0.0f;
    for (int j = blocks & ~3; j < blocks; ++j) {
        tail += half_to_float(x[j].m) * half_to_float(y[j].s);
    }
    *s = lanes_sum(wasm_f32x4_add(wasm_f32x4_add(acc[0], acc[1]), mins)) + tail;
}

void ggml_vec_dot_q8_0_q8_0(int n, float *restrict s, size_t bs, const void *restrict vx, size_t bx,
                            const void *restrict vy, size_t by, int nrc) {
    (void)bs, (void)bx, (void)by, (void)nrc;
    const block_q8_0 *restrict x = vx;
    const block_q8_0 *restrict y = vy;
    const int blocks = n / QK;
    v128_t acc[2] = {wasm_f32x4_splat(0.0f), wasm_f32x4_splat(0.0f)};
    DOT_BLOCKS(q8_0_dot, NOTHING, x, y, blocks, acc)
    *s = lanes_sum(wasm_f32x4_add(acc[0], acc[1]));
}
