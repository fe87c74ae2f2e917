/* The random suite's cases (random_case.h): sizes biased to the edges, byte offsets, and values
 * with special floats (NaN payloads, infinities, signed zeros, subnormals, huge and tiny values) of
 * f16, bf16, f32 and f64. */
#include "random_case.h"

#include <stdio.h>
#include <string.h>

#include "typed_ref.h"

static uint64_t mix64(uint64_t z) /* splitmix64's finalizer */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
typedef struct rng { uint64_t s; } rng;
static uint64_t next(rng* r) { return mix64(r->s += UINT64_C(0x9e3779b97f4a7c15)); }
static uint64_t below(rng* r, uint64_t k) { return k ? next(r) % k : 0; }

static const char* const f_mode_names[F_MODES] = {"fill", "mix", "wide", "subnormal"};
static const char* const i_mode_names[I_MODES] = {"fill", "bits", "extreme", "small"};

const char* rc_describe(const rcase* c)
{
    static char text[256];
    const int fl = tr_is_float(c->dtype);
    char dtypes[32];
    if (c->typed) snprintf(dtypes, sizeof dtypes, "%s->%s", tr_dtype_name(c->dtype), tr_dtype_name(c->out));
    else snprintf(dtypes, sizeof dtypes, "%s", tr_dtype_name(c->dtype));
    snprintf(text, sizeof text, "seed=%llu case=%llu op=%s dtype=%s n=%llu offset=%u values=%s/%s special=0x%x/%llu",
             (unsigned long long)c->seed, (unsigned long long)c->index, tr_op_name(c->op), dtypes,
             (unsigned long long)c->n, c->offset, fl ? f_mode_names[c->mode] : i_mode_names[c->mode],
             ref_data_name(c->data), c->special, (unsigned long long)c->density);
    return text;
}

/* Sizes biased to the edges: tiny, 2^k +- 1, whole tiles +- 1, warp and lane multiples +- 1,
 * three-level sizes (t * t + 1 elements), and log-uniform ones. */
static uint64_t pick_n(rng* r, hipreduce_dtype d)
{
    const uint64_t t = tr_tile_items(d), delta = below(r, 3); /* -1, 0, +1 as delta - 1 */
    switch (below(r, 20)) {
    case 0: case 1: return below(r, 5);
    case 2: case 3: case 4: case 5: return (UINT64_C(1) << (1 + below(r, 20))) + delta - 1;
    case 6: case 7: case 8: case 9: return (1 + below(r, 16)) * t + delta - 1;
    case 10: /* three levels (t * t + 1 elements) for 8-byte and, rarely (the largest), 4-byte dtypes */
        if (t * t > (UINT64_C(1) << 24) || (t * t > (UINT64_C(1) << 22) && below(r, 4)))
            return (17 + below(r, 240)) * t + delta - 1;
        return below(r, 4) ? t * t + delta - 1 : t * (t + 1) + 1;
    case 11: case 12: case 13: return (1 + below(r, 64)) * 32 + delta - 1;
    case 14: case 15: case 16: return below(r, 2100);
    default: return below(r, UINT64_C(1) << below(r, 21));
    }
}

/* Byte offset from a 16-byte boundary: aligned, element-aligned, or inside an element. */
static unsigned pick_offset(rng* r, size_t size)
{
    const unsigned k = (unsigned)below(r, 16 / size);
    switch (below(r, 4)) {
    case 0: return 0;
    case 1: return (unsigned)size * k;
    default: return size == 1 ? (unsigned)below(r, 16) : (unsigned)(size * k + 1 + below(r, size - 1));
    }
}

rcase rc_make(uint64_t seed, uint64_t index)
{
    rng r = {mix64(seed) ^ mix64(index + 1)};
    rcase c;
    memset(&c, 0, sizeof c);
    c.seed = seed, c.index = index, c.vseed = next(&r);
    c.typed = below(&r, 5) < 2; /* typed triples in ~40% of the cases */
    if (c.typed) {
        do { /* floats (f16, bf16 included) in ~60% of them */
            c.dtype = (hipreduce_dtype)(below(&r, 10) < 6 ? 8 + below(&r, 4) : below(&r, 8));
            c.op = (hipreduce_op)below(&r, TR_NOPS);
            c.out = (hipreduce_dtype)below(&r, TR_NDTYPES);
        } while (!tr_allowed(c.op, c.dtype, c.out));
    } else {
        do { /* floats in ~45% of the cases: they carry the special values */
            c.dtype = below(&r, 20) < 9 ? (below(&r, 2) ? HIPREDUCE_F32 : HIPREDUCE_F64) : ref_dtypes[below(&r, 8)];
            c.op = ref_ops[below(&r, REF_NOPS)];
        } while (!ref_op_applies(c.op, c.dtype));
        c.out = c.dtype;
    }
    c.n = pick_n(&r, c.dtype);
    c.offset = pick_offset(&r, tr_size(c.dtype));
    c.data = REF_DATA_RANDOM;
    if (!tr_is_float(c.dtype)) {
        c.mode = (int)below(&r, I_MODES);
        return c;
    }
    c.mode = (int)below(&r, F_MODES + 2) % F_MODES; /* F_FILL and F_MIX twice as often */
    if (c.mode == F_FILL && (c.typed || c.dtype == HIPREDUCE_F16 || c.dtype == HIPREDUCE_BF16))
        c.mode = F_MIX; /* ref_fill's patterns are the original cases' */
    if (c.mode == F_FILL) { /* the patterns ref_check knows for (op, float) */
        const int order_op = c.op == HIPREDUCE_OP_MIN || c.op == HIPREDUCE_OP_MAX;
        static const ref_data kinds[4] = {REF_DATA_RANDOM, REF_DATA_NEGZERO, REF_DATA_MIXZERO, REF_DATA_EXACT};
        c.data = kinds[below(&r, 4)];
        if (c.data == REF_DATA_EXACT && order_op) c.data = REF_DATA_NAN;
    }
    static const uint64_t densities[6] = {0, 0, 1, 2, 16, 256};
    c.density = densities[below(&r, 6)];
    c.special = below(&r, 3) ? (unsigned)(1 + below(&r, S_ALL)) : (unsigned)(1u << below(&r, 7));
    return c;
}

/* ---- values ---- */

static void put(void* x, uint64_t i, size_t size, uint64_t bits) /* low `size` bytes, host order */
{
    const uint8_t b8 = (uint8_t)bits;
    const uint16_t b16 = (uint16_t)bits;
    const uint32_t b32 = (uint32_t)bits;
    const void* from = size == 1 ? (const void*)&b8 : size == 2 ? (const void*)&b16 : size == 4 ? (const void*)&b32
                                                                                                : (const void*)&bits;
    memcpy((unsigned char*)x + i * size, from, size);
}

static uint64_t int_value(rng* r, const rcase* c)
{
    const unsigned bits = (unsigned)(8 * tr_size(c->dtype));
    const int sgn = c->dtype % 2 == 0; /* the signed integer dtypes have the even values */
    const uint64_t ones = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    const uint64_t lo = sgn ? UINT64_C(1) << (bits - 1) : 0, hi = sgn ? ones >> 1 : ones;
    const uint64_t extremes[7] = {lo, hi, 0, ones, 1, lo + 1, hi - 1};
    if (c->mode == I_BITS) return next(r);
    if (c->mode == I_EXTREME) return extremes[below(r, 7)];
    return below(r, 5) - 2; /* I_SMALL: -2 .. 2 */
}

typedef struct ffmt { int mant, expo; } ffmt; /* mantissa bits, exponent bits */
static uint64_t fbits(ffmt f, uint64_t sign, uint64_t e, uint64_t m)
{
    return (sign & 1) << (f.mant + f.expo) | e << f.mant | (m & ((UINT64_C(1) << f.mant) - 1));
}
static uint64_t special_value(rng* r, ffmt f, unsigned classes)
{
    const uint64_t emax = (UINT64_C(1) << f.expo) - 1, quiet = UINT64_C(1) << (f.mant - 1), h = next(r);
    unsigned pick;
    do pick = 1u << below(r, 7);
    while (!(classes & pick));
    switch (pick) {
    case S_NAN: { /* quiet or signalling, either sign, payload or none */
        const uint64_t payload = (h >> 8) & 1 ? (h >> 16) & (quiet - 1) : 0;
        const uint64_t m = (h >> 2) & 1 ? quiet | payload : (payload ? payload : 1);
        return fbits(f, h >> 1, emax, m);
    }
    case S_PINF: return fbits(f, 0, emax, 0);
    case S_NINF: return fbits(f, 1, emax, 0);
    case S_ZERO: return fbits(f, h, 0, 0);
    case S_SUB: return fbits(f, h, 0, (h >> 3) % 4 == 0 ? 1 : (h >> 3) % 4 == 1 ? ~UINT64_C(0) : (h >> 8) | 1);
    case S_HUGE: return fbits(f, h, emax - 1 - (h >> 1) % 2, (h >> 2) & 1 ? ~UINT64_C(0) : h >> 8);
    default: return fbits(f, h, 1, (h >> 1) & 1 ? 0 : h >> 8); /* S_TINY: the smallest normals */
    }
}
/* The base values of F_MIX: around 1 for sums, dot and nrm2 (every rounding matters), near 1 for
 * products (kept finite), any finite value for the ordering ops. */
static uint64_t base_value(rng* r, ffmt f, const rcase* c)
{
    const uint64_t bias = (UINT64_C(1) << (f.expo - 1)) - 1, emax = (UINT64_C(1) << f.expo) - 1, h = next(r);
    const int ordering = c->op == HIPREDUCE_OP_MIN || c->op == HIPREDUCE_OP_MAX || c->op == HIPREDUCE_OP_MAX_ABS ||
                         c->op == HIPREDUCE_OP_ARGMIN || c->op == HIPREDUCE_OP_ARGMAX;
    if (ordering) return fbits(f, h, 1 + (h >> 1) % (emax - 1), h >> 8);
    if (c->op != HIPREDUCE_OP_PROD) return fbits(f, h, bias - 6 + (h >> 1) % 13, h >> 8);
    /* 1 - 2^-k .. 1 + 2^-k with 2^-k <= 1 / sqrt(n): products of the whole input stay finite */
    int k = 7;
    while ((UINT64_C(1) << (2 * k)) < c->n && k < f.mant) ++k;
    const uint64_t low = (UINT64_C(1) << (f.mant - k)) - 1, mant = (UINT64_C(1) << f.mant) - 1;
    return (h >> 1) & 1 ? fbits(f, 0, bias, (h >> 8) & low) : fbits(f, 0, bias - 1, mant - ((h >> 8) & (2 * low + 1)));
}

void rc_fill(const rcase* c, uint64_t vseed, void* x)
{
    const size_t size = tr_size(c->dtype);
    rng r = {vseed};
    if (c->mode == 0) { /* F_FILL / I_FILL */
        ref_fill(c->op, c->dtype, c->data, c->n, vseed, x);
        return;
    }
    if (!tr_is_float(c->dtype)) {
        for (uint64_t i = 0; i < c->n; ++i) put(x, i, size, int_value(&r, c));
        return;
    }
    static const ffmt formats[4] = {{10, 5}, {7, 8}, {23, 8}, {52, 11}}; /* f16, bf16, f32, f64 */
    const ffmt f = formats[c->dtype - HIPREDUCE_F16];
    if (c->mode == F_WIDE) { /* huge values of one sign or both: sums overflow; products over/underflow */
        const uint64_t signs = below(&r, 3), bias = (UINT64_C(1) << (f.expo - 1)) - 1;
        for (uint64_t i = 0; i < c->n; ++i) {
            const uint64_t h = next(&r), sign = signs == 2 ? h : signs;
            uint64_t v = special_value(&r, f, S_HUGE) & ~fbits(f, 1, 0, 0);
            if (c->op == HIPREDUCE_OP_PROD) v = fbits(f, 0, bias - 12 + (h >> 1) % 25, h >> 8);
            put(x, i, size, v | fbits(f, sign, 0, 0));
        }
        return;
    }
    if (c->mode == F_SUBNORMAL) {
        for (uint64_t i = 0; i < c->n; ++i) put(x, i, size, special_value(&r, f, S_SUB | S_ZERO));
        return;
    }
    for (uint64_t i = 0; i < c->n; ++i) { /* F_MIX */
        const int special = c->density == 1 || (c->density > 1 && below(&r, c->density) == 0);
        put(x, i, size, special ? special_value(&r, f, c->special) : base_value(&r, f, c));
    }
    if (c->density == 0 && c->n > 0) put(x, below(&r, c->n), size, special_value(&r, f, c->special));
}
