/* The exact sums on a GPU (sum_exact, dot_exact): terms into device/exact.h's superaccumulator,
 * rounded once by its hr_exact_round, so every device gives the same bits (the sum is exact:
 * no order can show).
 *
 * A warp takes tiles of W * K elements (K per lane, 16-byte loads). The tile's terms (the
 * elements widened to f64, or dot's products: exact in f64 but for f64 x f64, which is a
 * two-product hi + lo, two groups) have a largest and a least exponent; when that range is
 * narrow the tile's sum is exact in f64 (direct) or, up to about twice the range, exact as two
 * f64 sums of the terms split at a fixed bit by (t + C) - C (ulp-aligned high parts, and the
 * rest). Either way the tile leaves one or two exact f64 values, which three lanes add as 32-bit
 * pieces into the block's shared int64 digits (integer atomics commute: no order shows). Tiles
 * with a wide range, an inf or NaN, f64 subnormals, f64 products out of the two-product's range,
 * or no nonzero term (the sign of an exact zero) go term by term into the digits instead.
 *
 * The full reduction (exact_full_kernel): every block normalises its digits into the workspace;
 * the last to arrive adds all blocks' digits, leaves the merged, normalised accumulator in the
 * workspace (an MPI rank's contribution) and, unless told not to, rounds it into the result.
 * Rows, columns and segments (exact_slices_kernel): one block per result, the same tiles over
 * the slice's elements, rounded by the block. */
#ifndef HIPREDUCE_EXACT_KERNELS_H
#define HIPREDUCE_EXACT_KERNELS_H

#include <stdint.h>

#include "exact.h"
#include "half.h"
#include "hip_compat.h"
#include "order.h"

namespace hr {

/* The terms of one (input dtype, sum or dot): K elements per lane in 16-byte chunks, their
 * precision P as f64 terms (bits of significand), and two groups for f64 products (hi, lo). */
template <int In, bool Dot> struct exact_kind {
    static constexpr int bytes = In == HIPREDUCE_F64 ? 8 : In == HIPREDUCE_F32 ? 4 : 2;
    static constexpr int per_chunk = 16 / bytes;
    /* sums: 128 bytes a lane, dot: 64 bytes of each input, at most 16 elements (the per-tile
     * warp reductions over more elements: on the H200 4-15% faster than half as many, dot f64
     * 17%, despite 110 and 128 registers; docs/BENCHMARKS.md) */
    static constexpr int K = Dot ? (64 / bytes < 16 ? 64 / bytes : 16) : 128 / bytes;
    static constexpr int chunks = K / per_chunk;
    static constexpr int P1 = In == HIPREDUCE_F64 ? 53 : In == HIPREDUCE_F32 ? 24 : In == HIPREDUCE_F16 ? 11 : 8;
    static constexpr int P = Dot && In != HIPREDUCE_F64 ? 2 * P1 : P1;
    static constexpr bool two_product = Dot && In == HIPREDUCE_F64;
};

template <int N> struct exact_log2 {
    static constexpr int value = 1 + exact_log2<N / 2>::value;
};
template <> struct exact_log2<1> {
    static constexpr int value = 0;
};

/* How a tile's group of terms went: summed into the digits; no nonzero term; term by term. */
enum { EXACT_DONE = 0, EXACT_ZERO = 1, EXACT_SLOW = 2 };

__device__ __forceinline__ uint64_t exact_bits(double v) { return __builtin_bit_cast(uint64_t, v); }
__device__ __forceinline__ double exact_double(uint64_t b) { return __builtin_bit_cast(double, b); }

/* An element's bits widened to f64 (exactly). */
template <int In> __device__ __forceinline__ double exact_widen(uint64_t b)
{
    if constexpr (In == HIPREDUCE_F64) return exact_double(b);
    else if constexpr (In == HIPREDUCE_F32) return (double)hr_bits_f32((uint32_t)b);
    else if constexpr (In == HIPREDUCE_F16) return (double)hr_f16_to_f32((uint16_t)b);
    else return (double)hr_bf16_to_f32((uint16_t)b);
}

template <int In> __device__ __forceinline__ uint64_t exact_load(const unsigned char* p)
{
    if constexpr (In == HIPREDUCE_F64) return *(const uint64_t*)p;
    else if constexpr (In == HIPREDUCE_F32) return *(const uint32_t*)p;
    else return *(const uint16_t*)p;
}

/* Element e of a 16-byte chunk. */
template <int In> __device__ __forceinline__ uint64_t exact_unpack(const uint4& v, int e)
{
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
    if constexpr (In == HIPREDUCE_F64) return (uint64_t)w[2 * e] | (uint64_t)w[2 * e + 1] << 32;
    else if constexpr (In == HIPREDUCE_F32) return w[e];
    else return (w[e / 2] >> (16 * (e & 1))) & 0xffff;
}

/* (-1)^neg m 2^q (q >= HR_EXACT_LOW, m < 2^64) into the digits: piece k (0, 1, 2) of m 2^s,
 * s the offset within digit i. */
__device__ __forceinline__ void exact_piece(unsigned long long* acc, bool neg, uint64_t m, int q, int k)
{
    const int pos = q - HR_EXACT_LOW, i = pos >> 5, s = pos & 31;
    const uint64_t low = m << s, high = s ? m >> (64 - s) : 0;
    const uint64_t p = k == 0 ? low & 0xffffffff : k == 1 ? low >> 32 : high;
    if (p) atomicAdd(acc + i + k, (unsigned long long)(neg ? 0 - p : p));
}

/* A finite f64's value, all three pieces by one thread. */
__device__ __forceinline__ void exact_value(unsigned long long* acc, uint64_t b)
{
    const int e = (int)((b >> 52) & 0x7ff);
    const uint64_t m = (b & 0xfffffffffffffull) | (e ? 1ull << 52 : 0);
    if (m == 0) return;
    for (int k = 0; k < 3; ++k) exact_piece(acc, b >> 63, m, (e ? e : 1) - 1075, k);
}

/* One term by its f64 bits: NaN and infinities to the flags (exact.h's), a value to the digits. */
__device__ __forceinline__ void exact_term(unsigned long long* acc, uint32_t& flags, uint64_t b)
{
    flags |= b != 0x8000000000000000ull ? HR_EXACT_NONNEG : HR_EXACT_NEGZERO;
    if (((b >> 52) & 0x7ff) == 0x7ff) {
        flags |= (b & 0xfffffffffffffull) ? HR_EXACT_NAN : (b >> 63) ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    exact_value(acc, b);
}

__device__ __forceinline__ void exact_mul64(uint64_t a, uint64_t b, uint64_t* hi, uint64_t* lo)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    *lo = a * b;
    *hi = __umul64hi(a, b);
#else
    const unsigned __int128 p = (unsigned __int128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#endif
}

/* One f64 x f64 product, exactly: the significands' 106-bit integer product (as the cpu device). */
__device__ __forceinline__ void exact_product(unsigned long long* acc, uint32_t& flags, uint64_t bx, uint64_t by)
{
    const int ex = (int)((bx >> 52) & 0x7ff), ey = (int)((by >> 52) & 0x7ff);
    const uint64_t fx = bx & 0xfffffffffffffull, fy = by & 0xfffffffffffffull;
    const bool neg = ((bx ^ by) >> 63) != 0, zx = ex == 0 && fx == 0, zy = ey == 0 && fy == 0;
    if (ex == 0x7ff || ey == 0x7ff) {
        flags |= HR_EXACT_NONNEG;
        if ((ex == 0x7ff && fx) || (ey == 0x7ff && fy) || zx || zy) flags |= HR_EXACT_NAN; /* NaN, inf * 0 */
        else flags |= neg ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    if (zx || zy) {
        flags |= neg ? HR_EXACT_NEGZERO : HR_EXACT_NONNEG;
        return;
    }
    flags |= HR_EXACT_NONNEG;
    uint64_t hi, lo;
    exact_mul64(ex ? fx | (1ull << 52) : fx, ey ? fy | (1ull << 52) : fy, &hi, &lo);
    const int q = (ex ? ex : 1) + (ey ? ey : 1) - 2150;
    for (int k = 0; k < 3; ++k) exact_piece(acc, neg, lo, q, k);
    for (int k = 0; k < 3; ++k) exact_piece(acc, neg, hi, q + 64, k);
}

/* Every lane gets op over the warp's values: a butterfly of shuffles. */
template <int W, class T, class Op> __device__ __forceinline__ T exact_butterfly(T v, Op op)
{
    for (int m = W / 2; m > 0; m /= 2) v = op(v, hr_shfl_xor(v, m, W));
    return v;
}
template <class T> __device__ __forceinline__ T exact_max(T a, T b) { return a > b ? a : b; }
template <class T> __device__ __forceinline__ T exact_min(T a, T b) { return a < b ? a : b; }

template <int W> __device__ __forceinline__ int exact_warp_max(int v) { return exact_butterfly<W>(v, exact_max<int>); }
template <int W> __device__ __forceinline__ int exact_warp_min(int v) { return exact_butterfly<W>(v, exact_min<int>); }
/* The same on unsigned keys, in one instruction where the target has it. */
template <int W> __device__ __forceinline__ uint32_t exact_warp_umax(uint32_t v)
{
#if defined(HR_WARP_REDUX)
    if constexpr (W == 32) return hr_warp_umax(v); else
#endif
    return exact_butterfly<W>(v, exact_max<uint32_t>);
}
template <int W> __device__ __forceinline__ uint32_t exact_warp_umin(uint32_t v)
{
#if defined(HR_WARP_REDUX)
    if constexpr (W == 32) return hr_warp_umin(v); else
#endif
    return exact_butterfly<W>(v, exact_min<uint32_t>);
}
/* Every lane gets the warp's sum (exact here: the windows below leave no rounding). */
template <int W> __device__ __forceinline__ double exact_warp_sum(double v)
{
    return exact_butterfly<W>(v, [](double a, double b) { return a + b; });
}

/* A warp-wide exact f64 (the same on every lane) into the digits: lanes 0..2 a piece each. */
__device__ __forceinline__ void exact_spread(unsigned long long* acc, double v, int lane)
{
    if (lane >= 3) return;
    const uint64_t b = exact_bits(v);
    const int e = (int)((b >> 52) & 0x7ff);
    const uint64_t m = (b & 0xfffffffffffffull) | (e ? 1ull << 52 : 0);
    if (m) exact_piece(acc, b >> 63, m, (e ? e : 1) - 1075, lane);
}

/* A term's exponent field for the window rules: its format's (sums: the input dtype's, no
 * conversion; products: f64's), 1 for subnormals (their bits start at the least normal's
 * lowest), EXACT_BAD for inf/NaN and for f64 subnormals (never fast); zero: no nonzero bit. */
enum { EXACT_BAD = 0x7ff };
template <int In> __device__ __forceinline__ int exact_field(uint64_t b, bool& zero)
{
    constexpr int frac = In == HIPREDUCE_F64 ? 52 : In == HIPREDUCE_F32 ? 23 : In == HIPREDUCE_F16 ? 10 : 7;
    constexpr int top = In == HIPREDUCE_F64 ? 0x7ff : In == HIPREDUCE_F16 ? 0x1f : 0xff;
    const int e = (int)(b >> frac) & top;
    zero = (b & ((1ull << (frac + (In == HIPREDUCE_F64 ? 11 : In == HIPREDUCE_F32 ? 8 : In == HIPREDUCE_F16 ? 5 : 8))) - 1)) == 0;
    if (e == top) return EXACT_BAD;
    if (e == 0) return zero ? 0 : In == HIPREDUCE_F64 ? EXACT_BAD : 1;
    return e;
}

/* A term's key: its magnitude's bits as an unsigned integer of the format's top 32 bits (f64
 * inputs: with bit 0 set where the low word has a set bit, so that only zeros have key 0), so
 * that the largest key has the largest exponent field and the least nonzero key the least one.
 * A lane folds max(key) and min(key - 1) (zeros wrap to the top: no nonzero term), two integer
 * operations a term; exact_window turns the warp's folds into exact_field's emax and emin. */
template <int In> __device__ __forceinline__ uint32_t exact_key(uint64_t b)
{
    if constexpr (In == HIPREDUCE_F64) return ((uint32_t)(b >> 32) & 0x7fffffffu) | ((uint32_t)b != 0);
    else if constexpr (In == HIPREDUCE_F32) return (uint32_t)b & 0x7fffffffu;
    else return (uint32_t)b & 0x7fffu;
}
/* The key of an f64 product of two f16/bf16/f32 values: never below 2^-298, so its high word
 * is nonzero whenever the product is. */
__device__ __forceinline__ uint32_t exact_product_key(double t) { return (uint32_t)(exact_bits(t) >> 32) & 0x7fffffffu; }

__device__ __forceinline__ void exact_fold(uint32_t key, uint32_t& kmax, uint32_t& kmin)
{
    kmax = key > kmax ? key : kmax;
    kmin = key - 1 < kmin ? key - 1 : kmin;
}

/* exact_fold of the two 16-bit keys of a word at once (per halfword; the halves are combined
 * when the lane's terms are done). */
__device__ __forceinline__ void exact_fold2(uint32_t keys, uint32_t& kmax, uint32_t& kmin)
{
#if defined(HR_HALFWORD_OPS)
    kmax = hr_vmaxu2(kmax, keys);
    kmin = hr_vminu2(kmin, hr_vsub2(keys, 0x00010001u));
#else
    uint32_t mx = 0, mn = 0;
    for (int h = 0; h < 32; h += 16) {
        const uint32_t k = keys >> h & 0xffff, a = kmax >> h & 0xffff, b = kmin >> h & 0xffff, d = (k - 1) & 0xffff;
        mx |= (k > a ? k : a) << h;
        mn |= (d < b ? d : b) << h;
    }
    kmax = mx, kmin = mn;
#endif
}

/* The warp's emax and emin (exact_field's values: EXACT_BAD, 0 for no nonzero term) from its
 * lanes' folds of keys of format In. */
template <int In, int W> __device__ __forceinline__ void exact_window(uint32_t kmax, uint32_t kmin, int& emax, int& emin)
{
    constexpr int frac = In == HIPREDUCE_F64 ? 20 : In == HIPREDUCE_F32 ? 23 : In == HIPREDUCE_F16 ? 10 : 7;
    constexpr int top = In == HIPREDUCE_F64 ? 0x7ff : In == HIPREDUCE_F16 ? 0x1f : 0xff;
    kmax = exact_warp_umax<W>(kmax);
    kmin = exact_warp_umin<W>(kmin);
    const int fmax = (int)(kmax >> frac), fmin = (int)((kmin + 1) >> frac);
    emax = kmax == 0 ? 0 : fmax == top || (In == HIPREDUCE_F64 && fmin == 0) ? EXACT_BAD : fmax ? fmax : 1;
    emin = fmin ? fmin : 1;
}

/* One group of M terms a lane (term(j): exact values with at most P significant bits, the
 * warp's exponent fields emax, emin (over nonzero terms) in a format of bias 1023 - Shift),
 * N = 2^LOGN terms in the warp (EXACT_*). A term is m 2^(e - Shift - 1022 - P), m < 2^P, so with
 * |t| < 2^(emax - Shift - 1022) and range = emax - emin:
 *  - direct: N 2^(range + P) <= 2^53 units of the least term's bit: every partial sum exact;
 *  - split: C = 1.5 2^k, k = emax - Shift - 1022 + LOGN: h = (t + C) - C is t rounded to a
 *    multiple of u = 2^(k - 52), |h| <= 2^(k - LOGN), so the h's sum stays below 2^53 u;
 *    l = t - h is exact, |l| <= u / 2, a multiple of the least term's bit: exact while
 *    range <= 106 - P - 2 LOGN;
 *  - Narrow (f16/bf16 terms as f32): first, each lane's sum in f32, exact while M 2^(range + P)
 *    <= 2^24 (the least bit, >= 2^-133, lies on f32's grid) and M 2^(emax - Shift - 1022) <=
 *    2^128 (no overflow), then the warp's sum of those in f64: one conversion a term.
 * Every partial sum of a subset of the terms is exact too: a lane sums in independent chains. */
template <int M, int P, int LOGN, int Shift, int W, bool Narrow, class Term>
__device__ __forceinline__ int exact_group(unsigned long long* acc, int emax, int emin, const Term& term, int lane)
{
    if (emax == EXACT_BAD) return EXACT_SLOW;
    if (emax == 0) return EXACT_ZERO;
    const int range = emax - emin, ec = emax - Shift + 1 + LOGN; /* C's f64 exponent field */
    if constexpr (Narrow) {
        constexpr int LOGM = exact_log2<M>::value;
        if (range <= 24 - P - LOGM && emax - Shift - 1022 + LOGM <= 128) {
            float s[4] = {0, 0, 0, 0};
#pragma unroll
            for (int j = 0; j < M; ++j) s[j % 4] += term(j);
            exact_spread(acc, exact_warp_sum<W>((double)((s[0] + s[1]) + (s[2] + s[3]))), lane);
            return EXACT_DONE;
        }
    }
    if (range <= 53 - P - LOGN) {
        double s[4] = {0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < M; ++j) s[j % 4] += term(j);
        exact_spread(acc, exact_warp_sum<W>((s[0] + s[1]) + (s[2] + s[3])), lane);
        return EXACT_DONE;
    }
    if (range <= 106 - P - 2 * LOGN && ec <= 0x7fe) {
        const double C = exact_double((uint64_t)ec << 52 | 1ull << 51);
        double sh[2] = {0, 0}, sl[2] = {0, 0};
#pragma unroll
        for (int j = 0; j < M; ++j) {
            const double t = term(j), h = (t + C) - C;
            sh[j % 2] += h;
            sl[j % 2] += t - h;
        }
        exact_spread(acc, exact_warp_sum<W>(sh[0] + sh[1]), lane);
        exact_spread(acc, exact_warp_sum<W>(sl[0] + sl[1]), lane);
        return EXACT_DONE;
    }
    return EXACT_SLOW;
}

/* Where a warp's tiles come from: elements i of a slice at x + i * step (and dot's y), `count`
 * of them; vec: contiguous and 16-byte aligned (full tiles take 16-byte loads). */
struct exact_slice {
    const unsigned char* x;
    const unsigned char* y;
    uint64_t count, step;
    bool vec;
};

/* A lane's part of a tile, as loaded: element j = c * per_chunk + e of the lane is the slice's
 * tile * N + (c * W + lane) * per_chunk + e; past the end, +0.0 (no term: the slow path reads the
 * count again). */
template <int In, bool Dot> struct exact_raw {
    uint4 x[exact_kind<In, Dot>::chunks], y[Dot ? exact_kind<In, Dot>::chunks : 1];
};

template <int In, bool Dot, int W>
__device__ __forceinline__ void exact_fetch(exact_raw<In, Dot>& r, const exact_slice& s, uint64_t tile, int lane)
{
    using X = exact_kind<In, Dot>;
    const uint64_t base = tile * X::K * W;
    if (s.vec && base + X::K * W <= s.count) {
#pragma unroll
        for (int c = 0; c < X::chunks; ++c) {
            const uint64_t at = (base + (uint64_t)(c * W + lane) * X::per_chunk) * X::bytes;
            r.x[c] = hr_load16_input(s.x + at);
            if constexpr (Dot) r.y[c] = hr_load16_input(s.y + at);
        }
        return;
    }
#pragma unroll
    for (int c = 0; c < X::chunks; ++c) {
        uint32_t wx[4] = {0, 0, 0, 0}, wy[4] = {0, 0, 0, 0};
#pragma unroll
        for (int e = 0; e < X::per_chunk; ++e) {
            const uint64_t i = base + (uint64_t)(c * W + lane) * X::per_chunk + e;
            if (i >= s.count) continue;
            const uint64_t vx = exact_load<In>(s.x + i * s.step), vy = Dot ? exact_load<In>(s.y + i * s.step) : 0;
            if (X::bytes == 8) wx[2 * e] = (uint32_t)vx, wx[2 * e + 1] = (uint32_t)(vx >> 32);
            if (X::bytes == 8) wy[2 * e] = (uint32_t)vy, wy[2 * e + 1] = (uint32_t)(vy >> 32);
            if (X::bytes == 4) wx[e] = (uint32_t)vx, wy[e] = (uint32_t)vy;
            if (X::bytes == 2) wx[e / 2] |= (uint32_t)vx << (16 * (e & 1)), wy[e / 2] |= (uint32_t)vy << (16 * (e & 1));
        }
        r.x[c] = uint4{wx[0], wx[1], wx[2], wx[3]};
        if constexpr (Dot) r.y[c] = uint4{wy[0], wy[1], wy[2], wy[3]};
    }
}

/* The raw elements' bits. */
template <int In, bool Dot> __device__ __forceinline__ uint64_t exact_x(const exact_raw<In, Dot>& r, int j)
{
    return exact_unpack<In>(r.x[j / exact_kind<In, Dot>::per_chunk], j % exact_kind<In, Dot>::per_chunk);
}
template <int In, bool Dot> __device__ __forceinline__ uint64_t exact_y(const exact_raw<In, Dot>& r, int j)
{
    return exact_unpack<In>(r.y[j / exact_kind<In, Dot>::per_chunk], j % exact_kind<In, Dot>::per_chunk);
}

/* The tile term by term (how: EXACT_SLOW, or 3: f64 products whose hi parts are summed, so only
 * their lo parts remain). Out of line: rare, and its registers stay out of the fast path. */
template <int In, bool Dot, int W>
__device__ HR_NOINLINE void exact_slow(unsigned long long* acc, uint32_t* flags, exact_raw<In, Dot> r, uint64_t base,
                                       uint64_t count, int lane, int how)
{
    using X = exact_kind<In, Dot>;
#pragma unroll 1
    for (int j = 0; j < X::K; ++j) {
        const uint64_t i = base + (uint64_t)((j / X::per_chunk) * W + lane) * X::per_chunk + j % X::per_chunk;
        if (i >= count) continue;
        const uint64_t bx = exact_x(r, j), by = Dot ? exact_y(r, j) : 0;
        if constexpr (X::two_product) {
            if (how == 3) { /* the exact lo = fma(x, y, -hi) of a product in the two-product's range */
                const double x = exact_double(bx), y = exact_double(by);
                exact_value(acc, exact_bits(fma(x, y, -(x * y))));
                *flags |= HR_EXACT_NONNEG;
            } else {
                exact_product(acc, *flags, bx, by);
            }
        } else {
            const double t = Dot ? exact_widen<In>(bx) * exact_widen<In>(by) : exact_widen<In>(bx);
            exact_term(acc, *flags, exact_bits(t));
        }
    }
}

/* A fetched tile into the digits (every lane of the warp calls it). */
template <int In, bool Dot, int W>
__device__ __forceinline__ void exact_tile(unsigned long long* acc, uint32_t& flags, const exact_raw<In, Dot>& r,
                                           uint64_t tile, uint64_t count, int lane)
{
    using X = exact_kind<In, Dot>;
    constexpr int K = X::K, LOGN = exact_log2<K * W>::value;
    int how;
    if constexpr (X::two_product) {
        /* hi + lo = x y exactly where no operand is inf/NaN and the product neither overflows nor
         * lies below 2^-969 (where lo could be subnormal): else term by term */
        double hi[K], lo[K];
        int emax[2] = {0, 0}, emin[2] = {EXACT_BAD, EXACT_BAD};
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const uint64_t bx = exact_x(r, j), by = exact_y(r, j);
            const double x = exact_double(bx), y = exact_double(by);
            hi[j] = x * y;
            lo[j] = fma(x, y, -hi[j]);
            bool zx, zy, zh, zl;
            const int ex = exact_field<HIPREDUCE_F64>(bx, zx), ey = exact_field<HIPREDUCE_F64>(by, zy);
            int eh = exact_field<HIPREDUCE_F64>(exact_bits(hi[j]), zh);
            const int el = exact_field<HIPREDUCE_F64>(exact_bits(lo[j]), zl);
            if (ex == EXACT_BAD || ey == EXACT_BAD || (!zx && !zy && eh < 107)) eh = EXACT_BAD;
            emax[0] = eh > emax[0] ? eh : emax[0];
            emin[0] = !zh && eh < emin[0] ? eh : emin[0];
            emax[1] = el > emax[1] ? el : emax[1];
            emin[1] = !zl && el < emin[1] ? el : emin[1];
        }
        const auto th = [&](int j) { return hi[j]; };
        const auto tl = [&](int j) { return lo[j]; };
        for (int g = 0; g < 2; ++g) emax[g] = exact_warp_max<W>(emax[g]), emin[g] = exact_warp_min<W>(emin[g]);
        const int a = exact_group<K, 53, LOGN, 0, W, false>(acc, emax[0], emin[0], th, lane);
        const int b = a == EXACT_SLOW ? EXACT_SLOW : exact_group<K, 53, LOGN, 0, W, false>(acc, emax[1], emin[1], tl, lane);
        how = a == EXACT_SLOW ? EXACT_SLOW : b == EXACT_SLOW ? 3 : a;
    } else if constexpr (Dot) { /* products of f16/bf16/f32: exact f64 values */
        double t[K];
        uint32_t kmax = 0, kmin = 0xffffffffu;
#pragma unroll
        for (int j = 0; j < K; ++j) {
            t[j] = exact_widen<In>(exact_x(r, j)) * exact_widen<In>(exact_y(r, j));
            exact_fold(exact_product_key(t[j]), kmax, kmin);
        }
        int emax, emin;
        exact_window<HIPREDUCE_F64, W>(kmax, kmin, emax, emin);
        const auto term = [&](int j) { return t[j]; };
        how = exact_group<K, X::P, LOGN, 0, W, false>(acc, emax, emin, term, lane);
    } else { /* sums: the window from the input's own exponent fields, converted as summed */
        uint32_t kmax = 0, kmin = 0xffffffffu;
        if constexpr (X::bytes == 2) { /* two keys a word */
#pragma unroll
            for (int c = 0; c < X::chunks; ++c) {
                const uint32_t w[4] = {r.x[c].x, r.x[c].y, r.x[c].z, r.x[c].w};
#pragma unroll
                for (int k = 0; k < 4; ++k) exact_fold2(w[k] & 0x7fff7fffu, kmax, kmin);
            }
            const uint32_t mx = kmax >> 16, mn = kmin >> 16;
            kmax = (kmax & 0xffff) > mx ? kmax & 0xffff : mx;
            kmin = (kmin & 0xffff) < mn ? kmin & 0xffff : mn; /* 0xffff: no nonzero term */
        } else {
#pragma unroll
            for (int j = 0; j < K; ++j) exact_fold(exact_key<In>(exact_x(r, j)), kmax, kmin);
        }
        int emax, emin;
        exact_window<In, W>(kmax, kmin, emax, emin);
        constexpr int shift = In == HIPREDUCE_F64 ? 0 : In == HIPREDUCE_F16 ? 15 - 1023 : 127 - 1023;
        constexpr bool narrow = X::bytes == 2;
        const auto term = [&](int j) {
            if constexpr (narrow) return In == HIPREDUCE_F16 ? hr_f16_to_f32((uint16_t)exact_x(r, j)) : hr_bf16_to_f32((uint16_t)exact_x(r, j));
            else return exact_widen<In>(exact_x(r, j));
        };
        how = exact_group<K, X::P, LOGN, shift, W, narrow>(acc, emax, emin, term, lane);
    }
    if (how == EXACT_DONE) {
        flags |= HR_EXACT_NONNEG; /* a nonzero term: the zero's sign cannot matter */
        return;
    }
    exact_slow<In, Dot, W>(acc, &flags, r, tile * K * W, count, lane, how);
}

/* Thread 0: carries digits [lo, hi) into [0, 2^32), the top one signed (exact.h's normal form). */
__device__ __forceinline__ void exact_carry(unsigned long long* acc, int lo, int hi)
{
    int64_t carry = 0;
    for (int i = lo; i < hi; ++i) {
        const int64_t t = (int64_t)acc[i] + carry;
        acc[i] = (unsigned long long)(t & 0xffffffff);
        carry = t >> 32;
    }
    acc[hi] = (unsigned long long)((int64_t)acc[hi] + carry);
}

/* Rounds digits [lo, hi] (normalised) with flags into result `item` of dtype out (thread 0), or
 * with words > 0 stores them as exact.h's words (libhipreduce_mpi's), leaving the accumulator at
 * `merged` when that is not null. */
__device__ __forceinline__ void exact_finish(const unsigned long long* acc, uint32_t flags, int lo, int hi,
                                             hr_exact* merged, void* result, uint64_t item, int out, int words)
{
    hr_exact a;
    hr_exact_init(&a);
    for (int i = lo; i <= hi; ++i) a.d[i] = (int64_t)acc[i];
    a.lo = lo, a.hi = hi, a.flags = flags;
    hr_exact_normalize(&a);
    if (merged) *merged = a;
    if (!result) return;
    if (words) {
        int64_t* w = (int64_t*)result + item * (uint64_t)words;
        for (int i = lo; i <= hi; ++i) w[i - lo] = a.d[i];
        w[hi - lo + 1] = (int64_t)a.flags;
        return;
    }
    const uint64_t bits = hr_exact_round(&a, out);
    if (out == HIPREDUCE_F64) ((uint64_t*)result)[item] = bits;
    else if (out == HIPREDUCE_F32) ((uint32_t*)result)[item] = (uint32_t)bits;
    else ((uint16_t*)result)[item] = (uint16_t)bits;
}

/* Rounds of a block's tiles between two carries of its digits: a lane's tile adds at most 64
 * pieces below 2^32 to a digit (a term one piece to each of its digits, K <= 64; f64 products
 * two, K = 8), so 2^16 rounds of HR_TILE_LANES (256) lanes stay below 2^(6+8+32+16) = 2^62. */
enum { EXACT_CARRY_ROUNDS = 1 << 16 };

/* After round r of a block's tiles (every thread calls it, r the same in the whole block). */
__device__ __forceinline__ void exact_round_done(unsigned long long* acc, uint64_t r, int lo, int hi)
{
    if ((r + 1) % EXACT_CARRY_ROUNDS != 0) return;
    __syncthreads();
    if (threadIdx.x == 0) exact_carry(acc, lo, hi);
    __syncthreads();
}

__device__ __forceinline__ void exact_zero(unsigned long long* acc, uint32_t& shared_flags)
{
    for (int i = threadIdx.x; i < HR_EXACT_DIGITS; i += HR_TILE_LANES) acc[i] = 0;
    if (threadIdx.x == 0) shared_flags = 0;
    __syncthreads();
}

/* The full reduction's launch. */
struct exact_full_args {
    exact_slice s;
    int lo, hi;                 /* the digits the terms reach (exact.h's hr_exact_digit_range) */
    int64_t* block_digits;      /* [blocks][hi - lo + 1], normalised */
    uint32_t* block_flags;      /* [blocks] */
    uint32_t* counter;          /* zero, left zero */
    hr_exact* merged;           /* the merged accumulator (always written) */
    void* result;               /* null: leave the accumulator only */
    int out, words;             /* words > 0: the result is the accumulator's words (exact_finish) */
};

template <int In, bool Dot, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void exact_full_kernel(exact_full_args a)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(acc, unsigned long long[HR_EXACT_DIGITS]);
        HR_SHARED(shared_flags, uint32_t);
        exact_zero(acc, shared_flags);
        constexpr int warps = HR_TILE_LANES / W, N = exact_kind<In, Dot>::K * W;
        const int lane = threadIdx.x % W, warp = threadIdx.x / W;
        const uint64_t tiles = (a.s.count + N - 1) / N, blocks = gridDim.x;
        uint32_t flags = 0;
        exact_raw<In, Dot> cur, next; /* this round's tile, and the next one's loads in flight */
        if (blockIdx.x * warps + warp < tiles) exact_fetch<In, Dot, W>(cur, a.s, blockIdx.x * warps + warp, lane);
        for (uint64_t r = 0;; ++r) {
            const uint64_t first = (r * blocks + blockIdx.x) * warps; /* the same in the whole block */
            if (first >= tiles) break;
            const uint64_t t = first + warp, after = t + blocks * warps;
            if (after < tiles) exact_fetch<In, Dot, W>(next, a.s, after, lane);
            if (t < tiles) exact_tile<In, Dot, W>(acc, flags, cur, t, a.s.count, lane);
            cur = next;
            exact_round_done(acc, r, a.lo, a.hi);
        }
        atomicOr(&shared_flags, flags);
        __syncthreads();
        const int digits = a.hi - a.lo + 1;
        bool last = false;
        if (threadIdx.x == 0) {
            exact_carry(acc, a.lo, a.hi);
            for (int i = 0; i < digits; ++i) a.block_digits[blockIdx.x * (uint64_t)digits + i] = (int64_t)acc[a.lo + i];
            a.block_flags[blockIdx.x] = shared_flags;
            last = hr_arrive_add(a.counter, 1) + 1 == gridDim.x;
            if (last) *a.counter = 0;
        }
        if (!__syncthreads_or(last)) return;
        /* the last block: every block's digits (normalised, so the sums stay below blocks 2^32) */
        for (int i = threadIdx.x; i < digits; i += HR_TILE_LANES) {
            int64_t sum = 0;
            for (uint64_t b = 0; b < blocks; ++b) sum += hr_load_coherent(a.block_digits + b * digits + i);
            acc[a.lo + i] = (unsigned long long)sum;
        }
        uint32_t f = 0;
        for (uint64_t b = threadIdx.x; b < blocks; b += HR_TILE_LANES) f |= hr_load_coherent(a.block_flags + b);
        atomicOr(&shared_flags, f);
        __syncthreads();
        if (threadIdx.x == 0) exact_finish(acc, shared_flags, a.lo, a.hi, a.merged, a.result, 0, a.out, a.words);
    }
}

/* Rows, columns and segments: result r's slice, as the cpu device's (src/cpu_exact.c). */
struct exact_slices_args {
    const unsigned char* x;
    const uint64_t* offsets; /* segments (device memory), else null */
    uint64_t results, extent, inner;
    int lo, hi;
    void* result;
    int out, words; /* as exact_full_args' */
};

template <int In, int W>
__global__ __launch_bounds__(HR_TILE_LANES) void exact_slices_kernel(exact_slices_args a)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(acc, unsigned long long[HR_EXACT_DIGITS]);
        HR_SHARED(shared_flags, uint32_t);
        constexpr int warps = HR_TILE_LANES / W, bytes = exact_kind<In, false>::bytes;
        constexpr int N = exact_kind<In, false>::K * W;
        const int lane = threadIdx.x % W, warp = threadIdx.x / W;
        for (uint64_t r = blockIdx.x; r < a.results; r += gridDim.x) {
            exact_zero(acc, shared_flags);
            uint64_t first, count, step = bytes;
            if (a.offsets) {
                first = a.offsets[r];
                count = a.offsets[r + 1] - first;
            } else {
                const uint64_t o = r / a.inner, i = r % a.inner;
                first = o * a.extent * a.inner + i;
                count = a.extent;
                step = bytes * a.inner;
            }
            const unsigned char* x = a.x + first * bytes;
            const exact_slice s = {x, nullptr, count, step, step == bytes && (uintptr_t)x % 16 == 0};
            const uint64_t tiles = (count + N - 1) / N;
            uint32_t flags = 0;
            for (uint64_t k = 0; k * warps < tiles; ++k) {
                if (k * warps + warp < tiles) {
                    exact_raw<In, false> raw;
                    exact_fetch<In, false, W>(raw, s, k * warps + warp, lane);
                    exact_tile<In, false, W>(acc, flags, raw, k * warps + warp, count, lane);
                }
                exact_round_done(acc, k, a.lo, a.hi);
            }
            atomicOr(&shared_flags, flags);
            __syncthreads();
            if (threadIdx.x == 0) {
                exact_carry(acc, a.lo, a.hi);
                exact_finish(acc, shared_flags, a.lo, a.hi, nullptr, a.result, r, a.out, a.words);
            }
            __syncthreads();
        }
    }
}

}  // namespace hr

#endif
