/* The cpu device's exact sums (cpu_exact.h): each result's terms into one superaccumulator
 * (device/exact.h), rounded once. The order does not matter (integer adds), so threads split a
 * slice anywhere and merge their accumulators.
 *
 * The fast paths take blocks of HR_EXACT_BLOCK terms and fix a window under the block's largest
 * exponent, where every term is a multiple of the window's lowest bit and a block's sum cannot
 * overflow, so the window's sums are exact and enter the accumulator once per block:
 *  - f32 terms (and f16/bf16 ones, widened): a window of 20 binades, summed in f64 (at most 53
 *    significant bits, so no add rounds);
 *  - f64 terms (and the f64 products of f16/bf16/f32 inputs, which are exact): a window of 32
 *    binades, each term's two 32-bit halves into two int64 sums.
 * Terms below the window (2^-19 or 2^-31 of the block's largest: rare in real data) and blocks
 * with an infinity or a NaN go to the accumulator one by one; f64 x f64 products (106 bits) all
 * do. The loops are branch-free, so the compiler vectorises them (an AVX2 copy is chosen at run
 * time on x86). */
#include "cpu_exact.h"

#include <stdatomic.h>
#include <string.h>

#include "exact.h"
#include "half.h"
#include "rules.h"

enum {
    HR_EXACT_BLOCK = 1024,      /* terms per fast block: 1024 x 2^52 < 2^63 */
    HR_EXACT_GRAIN = 1 << 16,   /* elements a thread takes at a time */
    HR_EXACT_GROUP = 16         /* results a thread takes at a time */
};

#define HR_EXACT_INLINE static inline __attribute__((always_inline))

/* ---- one block of terms ---- */

static uint64_t f64_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}


/* Vectors of GCC's and Clang's vector extensions: 32 bytes, two 16-byte registers where the
 * build has no wider ones. */
typedef uint64_t u64x4 __attribute__((vector_size(32)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef float f32x4 __attribute__((vector_size(16)));
typedef double f64x4 __attribute__((vector_size(32)));

/* Adds the finite f64 v times 2^shift (a window's sum, computed scaled down). */
static void add_f64_shifted(hr_exact* a, double v, int shift)
{
    const uint64_t b = f64_bits(v);
    const int e = (int)((b >> 52) & 0x7ff);
    const uint64_t f = b & 0xfffffffffffffull;
    hr_exact_add(a, (int)(b >> 63), e ? f | (1ull << 52) : f, (e ? e : 1) - 1075 + shift);
}

/* One pass over k f64 terms for the window whose largest exponent field is top (>= 1; E =
 * top - 1023, C = 1.5 * 2^(E + 11), blocks at the top of the range scaled by 2^-shift): the two
 * parts' sums of the terms in the window, whether any non-zero term lies below it, the largest
 * magnitude's bits and whether any term is not -0.0. */
HR_EXACT_INLINE void window_f64(const unsigned char* p, size_t k, int top, int shift, double* hi_sum, double* lo_sum,
                                int* late, uint64_t* high_bits, uint64_t* any)
{
    const uint64_t abs_mask = 0x7fffffffffffffffull, neg_zero = 1ull << 63;
    const uint64_t floor_bits = top > 34 ? (uint64_t)(top - 33) << 52 : 0; /* the window's least magnitude */
    const double scale = shift ? 0x1p-128 : 1.0;
    const uint64_t c_bits = ((uint64_t)(top - shift + 11) << 52) | (1ull << 51);
    double c;
    memcpy(&c, &c_bits, 8);
    f64x4 hi0 = {0, 0, 0, 0}, hi1 = hi0, lo0 = hi0, lo1 = hi0;
    u64x4 below = {0, 0, 0, 0}, nonneg = below;
    i64x4 top0 = {0, 0, 0, 0}, top1 = top0;
    size_t j = 0;
    for (; j + 8 <= k; j += 8) {
        u64x4 b0, b1;
        memcpy(&b0, p + 8 * j, 32);
        memcpy(&b1, p + 8 * j + 32, 32);
        __builtin_prefetch(p + 8 * j + 8 * HR_EXACT_BLOCK); /* the next block's loads overlap this sum */
        const i64x4 m0 = (i64x4)(b0 & abs_mask), m1 = (i64x4)(b1 & abs_mask); /* below 2^63: signed compares */
        const i64x4 more0 = m0 > top0, more1 = m1 > top1;
        top0 = (top0 & ~more0) | (m0 & more0);
        top1 = (top1 & ~more1) | (m1 & more1);
        nonneg |= (b0 ^ neg_zero) | (b1 ^ neg_zero);
        const u64x4 in0 = (u64x4)(m0 >= (int64_t)floor_bits), in1 = (u64x4)(m1 >= (int64_t)floor_bits);
        below |= ((u64x4)m0 & ~in0) | ((u64x4)m1 & ~in1);
        const f64x4 x0 = (f64x4)(b0 & in0) * scale, x1 = (f64x4)(b1 & in1) * scale;
        const f64x4 h0 = (x0 + c) - c, h1 = (x1 + c) - c;
        hi0 += h0, hi1 += h1;
        lo0 += x0 - h0, lo1 += x1 - h1;
    }
    double hi = ((hi0[0] + hi1[0]) + (hi0[1] + hi1[1])) + ((hi0[2] + hi1[2]) + (hi0[3] + hi1[3]));
    double lo = ((lo0[0] + lo1[0]) + (lo0[1] + lo1[1])) + ((lo0[2] + lo1[2]) + (lo0[3] + lo1[3]));
    uint64_t t = 0, n = 0, l = 0;
    for (int i = 0; i < 4; ++i) {
        t = (uint64_t)top0[i] > t ? (uint64_t)top0[i] : t;
        t = (uint64_t)top1[i] > t ? (uint64_t)top1[i] : t;
        n |= nonneg[i];
        l |= below[i];
    }
    for (; j < k; ++j) {
        uint64_t b;
        double x;
        memcpy(&b, p + 8 * j, 8);
        memcpy(&x, &b, 8);
        t = (b & abs_mask) > t ? b & abs_mask : t;
        n |= b ^ neg_zero;
        if ((b & abs_mask) < floor_bits) {
            l |= b & abs_mask;
            continue;
        }
        x *= scale;
        const double h = (x + c) - c;
        hi += h;
        lo += x - h;
    }
    *hi_sum = hi, *lo_sum = lo, *late = l != 0, *high_bits = t, *any = n;
}

/* k f64 terms (any alignment). With E the window's largest exponent and C = 1.5 * 2^(E + 11),
 * (x + C) - C is x rounded to a multiple of 2^(E - 41) and x less it is exact and below
 * 2^(E - 42); for every term within 33 binades of E both parts' sums of 1024 terms have at most
 * 53 significant bits, so f64 adds take them without a rounding. Blocks at the top of the range
 * (C would overflow) are scaled by 2^-128 first, which is exact for the terms in the window.
 * *guess carries the window from block to block (0: none yet), as block_f32's. */
HR_EXACT_INLINE void block_f64(hr_exact* a, const unsigned char* p, size_t k, uint32_t* guess)
{
    double hi = 0, lo = 0;
    int late = 0, done = 0;
    uint64_t high_bits = 0, any = 0;
    int top = (int)*guess;
    if (top) {
        window_f64(p, k, top, top > 0x7f0 ? 128 : 0, &hi, &lo, &late, &high_bits, &any);
        /* else inexact (a term above the window), or many terms below it: again with the block's own */
        done = (int)(high_bits >> 52) <= top && (int)(high_bits >> 52) + 8 >= top;
    }
    if (!done) {
        for (size_t j = 0; j < k; ++j) {
            uint64_t b;
            memcpy(&b, p + 8 * j, 8);
            high_bits = (b & 0x7fffffffffffffffull) > high_bits ? b & 0x7fffffffffffffffull : high_bits;
        }
        if (high_bits >> 52 == 0x7ff) { /* an infinity or a NaN: term by term */
            for (size_t j = 0; j < k; ++j) {
                uint64_t b;
                memcpy(&b, p + 8 * j, 8);
                hr_exact_add_f64_bits(a, b);
            }
            *guess = 0;
            return;
        }
        top = high_bits >> 52 ? (int)(high_bits >> 52) : 1; /* a subnormal's exponent is 1's */
        window_f64(p, k, top, top > 0x7f0 ? 128 : 0, &hi, &lo, &late, &high_bits, &any);
    }
    const int shift = top > 0x7f0 ? 128 : 0;
    const uint64_t floor_bits = top > 34 ? (uint64_t)(top - 33) << 52 : 0;
    *guess = (uint32_t)top;
    a->flags |= any ? HR_EXACT_NONNEG : k ? HR_EXACT_NEGZERO : 0;
    add_f64_shifted(a, hi, shift);
    add_f64_shifted(a, lo, shift);
    if (late)
        for (size_t j = 0; j < k; ++j) {
            uint64_t b;
            memcpy(&b, p + 8 * j, 8);
            if ((b & 0x7fffffffffffffffull) < floor_bits) hr_exact_add_f64_value(a, b);
        }
}

/* The f32 window whose largest exponent is emax: its least magnitude's bits. */
static inline int32_t f32_floor(uint32_t emax) { return emax > 20 ? (int32_t)((emax - 19) << 23) : 0; }

/* One pass over k f32 terms: the sum in f64 of those at or above floor_bits, whether any (non-zero)
 * term lies below, the largest magnitude and whether any term is not -0.0. The sum is exact when
 * no term's exponent exceeds the window's (block_f32). */
HR_EXACT_INLINE double window_f32(const unsigned char* p, size_t k, int32_t floor_bits, int* late, uint32_t* top,
                                  uint32_t* any)
{
    f64x4 sum0 = {0, 0, 0, 0}, sum1 = sum0;
    u32x8 below = {0, 0, 0, 0, 0, 0, 0, 0}, nonneg = below;
    i32x8 high = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t j = 0;
    for (; j + 8 <= k; j += 8) {
        u32x8 b;
        memcpy(&b, p + 4 * j, 32);
        __builtin_prefetch(p + 4 * j + 4 * HR_EXACT_BLOCK); /* the next block's loads overlap this sum */
        const u32x8 mag = b & 0x7fffffff;
        const i32x8 more = (i32x8)mag > high;
        high = (high & ~more) | ((i32x8)mag & more);
        nonneg |= b ^ 0x80000000u;
        const u32x8 in = (u32x8)((i32x8)mag >= floor_bits);
        const u32x8 kept = b & in;
        below |= mag & ~in;
        f32x4 f0, f1;
        memcpy(&f0, &kept, 16);
        memcpy(&f1, (const unsigned char*)&kept + 16, 16);
        sum0 += __builtin_convertvector(f0, f64x4);
        sum1 += __builtin_convertvector(f1, f64x4);
    }
    double total = (sum0[0] + sum1[0]) + (sum0[1] + sum1[1]) + (sum0[2] + sum1[2]) + (sum0[3] + sum1[3]);
    uint32_t t = 0, n = 0, l = 0;
    for (int i = 0; i < 8; ++i) {
        t = (uint32_t)high[i] > t ? (uint32_t)high[i] : t;
        n |= nonneg[i];
        l |= below[i];
    }
    for (; j < k; ++j) {
        uint32_t b;
        float f;
        memcpy(&b, p + 4 * j, 4);
        memcpy(&f, &b, 4);
        t = (b & 0x7fffffff) > t ? b & 0x7fffffff : t;
        n |= b ^ 0x80000000u;
        if ((int32_t)(b & 0x7fffffff) >= floor_bits) total += (double)f;
        else l |= b & 0x7fffffff;
    }
    *late = l != 0;
    *top = t;
    *any = n;
    return total;
}

/* k f32 terms (any alignment): in f64, exactly. Terms within 19 binades of the window's largest
 * exponent are multiples of 2^(base - 150) below 2^(emax - 126), so any sum of 1024 of them has at
 * most 53 significant bits: f64 adds take them without a rounding. *guess carries the window from
 * block to block (0: none yet): one pass when no term of the block lies above it and its largest
 * is within 4 binades of it, else a second with the block's own (which the next block inherits). */
HR_EXACT_INLINE void block_f32(hr_exact* a, const unsigned char* p, size_t k, uint32_t* guess)
{
    int late = 0;
    uint32_t top = 0, any = 0;
    int32_t floor_bits = f32_floor(*guess);
    double total = 0;
    int done = 0;
    if (*guess) {
        total = window_f32(p, k, floor_bits, &late, &top, &any);
        /* else inexact (a term above the window), or many terms below it: again with the block's own */
        done = (top >> 23) <= *guess && (top >> 23) + 4 >= *guess;
    }
    if (!done) {
        for (size_t j = 0; j < k; ++j) {
            uint32_t b;
            memcpy(&b, p + 4 * j, 4);
            top = (b & 0x7fffffff) > top ? b & 0x7fffffff : top;
        }
        if (top >> 23 == 0xff) { /* an infinity or a NaN: term by term */
            for (size_t j = 0; j < k; ++j) {
                float f;
                memcpy(&f, p + 4 * j, 4);
                hr_exact_add_f64_bits(a, f64_bits((double)f));
            }
            *guess = 0;
            return;
        }
        *guess = top >> 23;
        floor_bits = f32_floor(*guess);
        total = window_f32(p, k, floor_bits, &late, &top, &any);
    }
    a->flags |= any ? HR_EXACT_NONNEG : k ? HR_EXACT_NEGZERO : 0;
    hr_exact_add_f64_value(a, f64_bits(total));
    if (late)
        for (size_t j = 0; j < k; ++j) {
            uint32_t b;
            float f;
            memcpy(&b, p + 4 * j, 4);
            memcpy(&f, &b, 4);
            if ((int32_t)(b & 0x7fffffff) < floor_bits) hr_exact_add_f64_value(a, f64_bits((double)f));
        }
}

/* ---- terms into a contiguous buffer: gathered (strided), widened (f16, bf16) or products ---- */

HR_EXACT_INLINE double load_f64(const unsigned char* p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}
HR_EXACT_INLINE double load_f32(const unsigned char* p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return (double)v;
}
HR_EXACT_INLINE float load_f16(const unsigned char* p)
{
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return hr_f16_to_f32(h);
}
HR_EXACT_INLINE float load_bf16(const unsigned char* p)
{
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return hr_bf16_to_f32(h);
}

/* k terms of elements `step` bytes apart into buf as T: the values, or with y the products
 * (exact in f64). */
#define HR_EXACT_LOADER(NAME, T, LOAD)                                                                      \
    HR_EXACT_INLINE void NAME(T* buf, const unsigned char* x, const unsigned char* y, size_t step, size_t k) \
    {                                                                                                       \
        if (y)                                                                                              \
            for (size_t j = 0; j < k; ++j) buf[j] = (T)((double)LOAD(x + j * step) * (double)LOAD(y + j * step)); \
        else                                                                                                \
            for (size_t j = 0; j < k; ++j) buf[j] = (T)LOAD(x + j * step);                                  \
    }
HR_EXACT_LOADER(gather_f64, double, load_f64)
HR_EXACT_LOADER(gather_f32, float, load_f32)
HR_EXACT_LOADER(gather_f16, float, load_f16)
HR_EXACT_LOADER(gather_bf16, float, load_bf16)
HR_EXACT_LOADER(products_f32, double, load_f32)
HR_EXACT_LOADER(products_f16, double, load_f16)
HR_EXACT_LOADER(products_bf16, double, load_bf16)

/* f64 x f64: the 106-bit product of the significands, exactly. */
HR_EXACT_INLINE void mul_64(uint64_t a, uint64_t b, uint64_t* hi, uint64_t* lo)
{
#ifdef __SIZEOF_INT128__
    const unsigned __int128 p = (unsigned __int128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    const uint64_t a0 = a & 0xffffffff, a1 = a >> 32, b0 = b & 0xffffffff, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);
    *lo = (mid << 32) | (p00 & 0xffffffff);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* One f64 product x * y, taken exactly (the header's rules for dot_exact's terms). */
static void add_f64_product(hr_exact* a, uint64_t bx, uint64_t by)
{
    const int ex = (int)((bx >> 52) & 0x7ff), ey = (int)((by >> 52) & 0x7ff);
    const uint64_t fx = bx & 0xfffffffffffffull, fy = by & 0xfffffffffffffull;
    const int neg = (int)((bx ^ by) >> 63);
    const int zx = ex == 0 && fx == 0, zy = ey == 0 && fy == 0;
    if (ex == 0x7ff || ey == 0x7ff) {
        a->flags |= HR_EXACT_NONNEG;
        if ((ex == 0x7ff && fx) || (ey == 0x7ff && fy) || zx || zy) a->flags |= HR_EXACT_NAN; /* NaN, inf * 0 */
        else a->flags |= neg ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    if (zx || zy) { /* a zero product: -0.0 when the signs differ */
        a->flags |= neg ? HR_EXACT_NEGZERO : HR_EXACT_NONNEG;
        return;
    }
    a->flags |= HR_EXACT_NONNEG;
    uint64_t hi, lo;
    mul_64(ex ? fx | (1ull << 52) : fx, ey ? fy | (1ull << 52) : fy, &hi, &lo);
    const int q = (ex ? ex : 1) + (ey ? ey : 1) - 2150; /* 2^(ex - 1075) * 2^(ey - 1075) */
    hr_exact_add(a, neg, lo, q);
    hr_exact_add(a, neg, hi, q + 64);
}

/* Adds count elements of dtype at x, `step` bytes apart (and dot's y, or NULL), into a. */
HR_EXACT_INLINE void add_range_body(hr_exact* a, int dtype, const unsigned char* x, const unsigned char* y,
                                    size_t step, uint64_t count)
{
    if (y && dtype == HIPREDUCE_F64) {
        for (uint64_t j = 0; j < count; ++j) {
            uint64_t bx, by;
            memcpy(&bx, x + j * step, sizeof bx);
            memcpy(&by, y + j * step, sizeof by);
            add_f64_product(a, bx, by);
        }
        return;
    }
    const size_t elem = (size_t)hr_dtype_bytes(dtype);
    const int direct = !y && step == elem && (dtype == HIPREDUCE_F32 || dtype == HIPREDUCE_F64);
    double buf[HR_EXACT_BLOCK]; /* f64 terms, or f32 ones in its first half */
    uint32_t guess = 0;         /* block_f32's or block_f64's window, from block to block */
    for (uint64_t j = 0; j < count; j += HR_EXACT_BLOCK) {
        const size_t k = (size_t)(count - j < HR_EXACT_BLOCK ? count - j : HR_EXACT_BLOCK);
        const unsigned char* xb = x + j * step;
        const unsigned char* yb = y ? y + j * step : NULL;
        if (direct && dtype == HIPREDUCE_F32) block_f32(a, xb, k, &guess);
        else if (direct) block_f64(a, xb, k, &guess);
        else if (y) { /* products: exact in f64; dot's inputs are contiguous (a constant step vectorises) */
            if (dtype == HIPREDUCE_F32) products_f32(buf, xb, yb, 4, k);
            else if (dtype == HIPREDUCE_F16) products_f16(buf, xb, yb, 2, k);
            else products_bf16(buf, xb, yb, 2, k);
            block_f64(a, (const unsigned char*)buf, k, &guess);
        } else if (dtype == HIPREDUCE_F64) {
            gather_f64(buf, xb, NULL, step, k);
            block_f64(a, (const unsigned char*)buf, k, &guess);
        } else {
            float* f = (float*)(void*)buf;
            if (dtype == HIPREDUCE_F32) gather_f32(f, xb, NULL, step, k);
            else if (dtype == HIPREDUCE_F16 && step == 2) gather_f16(f, xb, NULL, 2, k);
            else if (dtype == HIPREDUCE_F16) gather_f16(f, xb, NULL, step, k);
            else if (step == 2) gather_bf16(f, xb, NULL, 2, k);
            else gather_bf16(f, xb, NULL, step, k);
            block_f32(a, (const unsigned char*)f, k, &guess);
        }
    }
}

/* The same code twice: for the build's baseline and, chosen at run time, for AVX2. */
static void add_range_baseline(hr_exact* a, int dtype, const unsigned char* x, const unsigned char* y, size_t step,
                               uint64_t count)
{
    add_range_body(a, dtype, x, y, step, count);
}
#if HR_CPU_X86_VARIANTS
__attribute__((target("avx2"))) static void add_range_avx2(hr_exact* a, int dtype, const unsigned char* x,
                                                           const unsigned char* y, size_t step, uint64_t count)
{
    add_range_body(a, dtype, x, y, step, count);
}
#endif

typedef void (*add_range_fn)(hr_exact*, int, const unsigned char*, const unsigned char*, size_t, uint64_t);

static add_range_fn add_range_best(void)
{
#if HR_CPU_X86_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return add_range_avx2;
#endif
    return add_range_baseline;
}

/* ---- calls ---- */

int hr_cpu_is_exact(const hr_call* call) { return hr_op_combine(call->op) == HR_CB_EXACT; }

typedef struct exact_call {
    const hr_call* call;
    add_range_fn add;
    size_t elem, out_bytes;
} exact_call;

/* Rounds a (normalised or not) into result r of the call. */
static void store(const exact_call* c, hr_exact* a, uint64_t r)
{
    const uint64_t bits = hr_exact_round(a, c->call->out_dtype);
    unsigned char* dst = (unsigned char*)c->call->result + r * c->out_bytes;
    if (c->out_bytes == 8) memcpy(dst, &bits, 8);
    if (c->out_bytes == 4) {
        const uint32_t v = (uint32_t)bits;
        memcpy(dst, &v, 4);
    }
    if (c->out_bytes == 2) {
        const uint16_t v = (uint16_t)bits;
        memcpy(dst, &v, 2);
    }
}

/* Result r's elements: the first one, their count, and the bytes between two of them. */
static void slice_of(const hr_call* call, uint64_t r, size_t elem, uint64_t* first, uint64_t* count, size_t* step)
{
    *step = elem;
    if (call->shape == HR_SHAPE_SEGMENTS) {
        *first = call->offsets[r];
        *count = call->offsets[r + 1] - call->offsets[r];
    } else if (call->inner == 1) { /* a full call is the row of (1, n, 1) */
        *first = r * call->extent;
        *count = call->extent;
    } else { /* result (o, i) of [outer][extent][inner] */
        const uint64_t o = r / call->inner, i = r % call->inner;
        *first = o * call->extent * call->inner + i;
        *count = call->extent;
        *step = elem * (size_t)call->inner;
    }
}

static void add_slice(const exact_call* c, hr_exact* a, uint64_t first, uint64_t count, size_t step)
{
    const unsigned char* x = (const unsigned char*)c->call->x + first * c->elem;
    const unsigned char* y = c->call->y ? (const unsigned char*)c->call->y + first * c->elem : NULL;
    c->add(a, c->call->in_dtype, x, y, step, count);
}

/* One long slice on several threads: each sums the pieces it claims into its own accumulator,
 * then adds that into the shared one under a lock (integer adds: the order cannot show). */
typedef struct long_job {
    const exact_call* c;
    uint64_t first, count;
    atomic_uint_fast64_t next; /* the first piece no thread has taken */
    atomic_flag lock;
    hr_exact* sum;
} long_job;

static void run_long(void* ctx, unsigned worker)
{
    long_job* job = (long_job*)ctx;
    (void)worker;
    hr_exact own;
    hr_exact_init(&own);
    const uint64_t pieces = job->count / HR_EXACT_GRAIN + (job->count % HR_EXACT_GRAIN != 0);
    uint64_t p0, p1;
    while (hr_cpu_claim(&job->next, pieces, 1, &p0, &p1)) {
        const uint64_t f = p0 * HR_EXACT_GRAIN, k = job->count - f < HR_EXACT_GRAIN ? job->count - f : HR_EXACT_GRAIN;
        add_slice(job->c, &own, job->first + f, k, job->c->elem);
    }
    hr_exact_normalize(&own);
    while (atomic_flag_test_and_set_explicit(&job->lock, memory_order_acquire)) {
    }
    hr_exact_merge(job->sum, &own);
    atomic_flag_clear_explicit(&job->lock, memory_order_release);
}

/* Results one thread each, claimed in groups. */
typedef struct short_job {
    const exact_call* c;
    uint64_t results;
    int skip_long; /* leave contiguous slices longer than a grain to run_long */
    atomic_uint_fast64_t next;
} short_job;

static void run_short(void* ctx, unsigned worker)
{
    short_job* job = (short_job*)ctx;
    (void)worker;
    hr_exact a;
    uint64_t r0, r1;
    while (hr_cpu_claim(&job->next, job->results, HR_EXACT_GROUP, &r0, &r1))
        for (uint64_t r = r0; r < r1; ++r) {
            uint64_t first, count;
            size_t step;
            slice_of(job->c->call, r, job->c->elem, &first, &count, &step);
            if (job->skip_long && count > HR_EXACT_GRAIN) continue;
            hr_exact_init(&a);
            add_slice(job->c, &a, first, count, step);
            store(job->c, &a, r);
        }
}

hipreduce_status hr_cpu_run_exact(hr_cpu* cpu, const hr_call* call)
{
    static _Atomic(add_range_fn) best; /* the same answer on every thread: a benign race */
    add_range_fn add = atomic_load_explicit(&best, memory_order_relaxed);
    if (add == NULL) {
        add = add_range_best();
        atomic_store_explicit(&best, add, memory_order_relaxed);
    }
    const exact_call c = {call, add, (size_t)hr_dtype_bytes(call->in_dtype), (size_t)hr_dtype_bytes(call->out_dtype)};
    const uint64_t results = hr_call_results(call);
    if (results == 0) return HIPREDUCE_STATUS_SUCCESS;
    const int strided = call->shape == HR_SHAPE_AXIS && call->inner > 1;
    /* Every result of a grain or less (all of them when strided: their elements are far apart)
     * in groups on the pool; the work estimate counts 16 KiB tiles, as level 0 does. */
    const uint64_t work = strided ? call->n * c.elem / 16384 : results;
    short_job shorts = {&c, results, !strided, 0};
    atomic_init(&shorts.next, 0);
    if (results > 1 || strided) hr_cpu_parallel(cpu, work, run_short, &shorts);
    if (strided) return HIPREDUCE_STATUS_SUCCESS;
    for (uint64_t r = 0; r < results; ++r) {
        uint64_t first, count;
        size_t step;
        slice_of(call, r, c.elem, &first, &count, &step);
        if (results > 1 && count <= HR_EXACT_GRAIN) continue; /* done above */
        hr_exact sum;
        hr_exact_init(&sum);
        long_job job = {&c, first, count, 0, ATOMIC_FLAG_INIT, &sum};
        atomic_init(&job.next, 0);
        hr_cpu_parallel(cpu, count * c.elem / 16384, run_long, &job);
        store(&c, &sum, r);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
