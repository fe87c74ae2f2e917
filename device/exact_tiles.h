/* A warp's tile of the exact sums (device/exact_kernels.h says how they flow): its loads, the
 * window of its terms' exponents, its sum exact in f64 where the window allows, else term by term
 * (device/exact_bins.h's per-lane bins for f16/bf16/f32 sums, the lanes' columns otherwise:
 * exact_terms.h). */
#ifndef HIPREDUCE_EXACT_TILES_H
#define HIPREDUCE_EXACT_TILES_H

#include <stdint.h>

#include "exact_bins.h"
#include "exact_terms.h"

namespace hr {

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

/* Per-halfword unsigned max, min and wrapping decrement (one instruction each where
 * HR_HALFWORD_OPS: CUDA). */
__device__ __forceinline__ uint32_t exact_halves(uint32_t a, uint32_t b, int op)
{
    uint32_t r = 0;
    for (int h = 0; h < 32; h += 16) {
        const uint32_t x = a >> h & 0xffff, y = b >> h & 0xffff;
        r |= (op == 0 ? (x > y ? x : y) : op == 1 ? (x < y ? x : y) : (x - 1) & 0xffff) << h;
    }
    return r;
}
template <bool Max> __device__ __forceinline__ uint32_t exact_extreme2(uint32_t a, uint32_t b)
{
#if defined(HR_HALFWORD_OPS)
    return Max ? hr_vmaxu2(a, b) : hr_vminu2(a, b);
#else
    return exact_halves(a, b, Max ? 0 : 1);
#endif
}

/* exact_fold of the two 16-bit keys of a word at once (per halfword; the halves are combined
 * when the lane's terms are done). */
__device__ __forceinline__ void exact_fold2(uint32_t keys, uint32_t& kmax, uint32_t& kmin)
{
    kmax = exact_extreme2<true>(kmax, keys);
#if defined(HR_HALFWORD_OPS)
    kmin = exact_extreme2<false>(kmin, hr_vsub2(keys, 0x00010001u));
#else
    kmin = exact_extreme2<false>(kmin, exact_halves(keys, 0, 2));
#endif
}

/* A lane folds its keys in EXACT_CHAINS independent chains, merged when its terms are done: one
 * chain was the tile's longest dependency (a fold a key or word, 32 deep for f16/bf16/f32). */
enum { EXACT_CHAINS = 4 };

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

/* Where exact_group's exact f64 values go: a warp-uniform call sink(v) a value, every lane the
 * same v (the digits: exact_spread; a slice of one tile: its value, exact_kernels.h). */
struct exact_to_digits {
    unsigned long long* acc;
    int lane;
    __device__ __forceinline__ void operator()(double v) const { exact_spread(acc, v, lane); }
};

/* A warp's run: the lanes' sums of consecutive tiles that exact_group's direct (or narrow) rule
 * took, added up in each lane while every partial sum stays exact, and only then summed over the
 * warp into the digits (exact_run_flush): a warp sum and a spread a run instead of a tile. With
 * its terms below 2^(hi - Shift - 1022) and multiples of 2^(lo - Shift - 1022 - P) (exact_group's
 * fields and units, the largest and least over the run's tiles), n tiles of 2^LOGN terms stay
 * below 2^53 of those units while n <= 2^(53 - P - LOGN - (hi - lo)): the rule of exact_run_join,
 * which refuses a tile that would break it (exact_lanes then flushes the run and starts another
 * with that tile). hi, lo and n are the same in the whole warp (its windows are); v is the lane's. */
enum { EXACT_RUN_TILES = 1 << 20 }; /* at most, so that n never wraps */
struct exact_run {
    double v;
    int hi, lo;
    uint32_t n;
};
__device__ __forceinline__ exact_run exact_run_empty() { return exact_run{0.0, 0, 0, 0}; }

template <int W> __device__ __forceinline__ void exact_run_flush(unsigned long long* acc, exact_run& run, int lane)
{
    if (run.n == 0) return;
    exact_spread(acc, exact_warp_sum<W>(run.v), lane);
    run = exact_run_empty();
}

/* exact_group's sink where the lane values of direct and narrow tiles join the warp's run (other
 * values, warp sums, go to the digits as exact_to_digits' do). */
struct exact_to_run {
    unsigned long long* acc;
    exact_run* run;
    int lane;
    __device__ __forceinline__ void operator()(double v) const { exact_spread(acc, v, lane); }
};

/* Lane values v (each the sum of a lane's terms of a group of 2^LOGN terms in the warp, precision
 * P, window emax, emin): into the digits as their warp sum, or into the warp's run. */
template <int P, int LOGN, int W, class Sink>
__device__ __forceinline__ void exact_lanes(const Sink& sink, double v, int, int)
{
    sink(exact_warp_sum<W>(v));
}
/* The run with lane values v of a tile (window emax, emin) added, if the rule lets it take them. */
template <int P, int LOGN>
__device__ __forceinline__ bool exact_run_join(exact_run& run, double v, int emax, int emin)
{
    const int hi = emax > run.hi ? emax : run.hi, lo = run.n == 0 || emin < run.lo ? emin : run.lo;
    const int room = 53 - P - LOGN - (hi - lo); /* log2 of the tiles the run may hold */
    const uint32_t n = run.n + 1;
    if (run.n != 0 && (room < 0 || n > (room >= 20 ? (uint32_t)EXACT_RUN_TILES : 1u << room))) return false;
    run = exact_run{run.v + v, hi, lo, n};
    return true;
}
template <int P, int LOGN, int W>
__device__ __forceinline__ void exact_lanes(const exact_to_run& sink, double v, int emax, int emin)
{
    if (exact_run_join<P, LOGN>(*sink.run, v, emax, emin)) return;
    exact_run_flush<W>(sink.acc, *sink.run, sink.lane); /* then v starts a run of its own: exact_group's rule */
    *sink.run = exact_run{v, emax, emin, 1};
}

/* exact_group's sink for a slice that one warp sums alone (exact_kernels.h's exact_slice_warp):
 * the lane values of its tiles join one run, which must hold them all; a tile that would break it,
 * or a warp sum (the split rule's), marks the attempt failed (the slice then goes the block's
 * way). Every lane marks alike. */
struct exact_to_lone_run {
    exact_run* run;
    bool* failed;
    __device__ __forceinline__ void operator()(double) const { *failed = true; }
};
template <int P, int LOGN, int W>
__device__ __forceinline__ void exact_lanes(const exact_to_lone_run& sink, double v, int emax, int emin)
{
    if (!exact_run_join<P, LOGN>(*sink.run, v, emax, emin)) *sink.failed = true;
}

/* exact_group's split sums (its rule says when they are exact), C's exponent field ec. */
template <int M, int W, class Term, class Sink>
__device__ __forceinline__ void exact_split(const Sink& sink, int ec, const Term& term)
{
    const double C = exact_double((uint64_t)ec << 52 | 1ull << 51);
    double sh[2] = {0, 0}, sl[2] = {0, 0};
#pragma unroll
    for (int j = 0; j < M; ++j) {
        const double t = term(j), h = (t + C) - C;
        sh[j % 2] += h;
        sl[j % 2] += t - h;
    }
    sink(exact_warp_sum<W>(sh[0] + sh[1]));
    sink(exact_warp_sum<W>(sl[0] + sl[1]));
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
template <int M, int P, int LOGN, int Shift, int W, bool Narrow, class Term, class Sink>
__device__ __forceinline__ int exact_group(const Sink& sink, int emax, int emin, const Term& term)
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
            exact_lanes<P, LOGN, W>(sink, (double)((s[0] + s[1]) + (s[2] + s[3])), emax, emin);
            return EXACT_DONE;
        }
    }
    if (range <= 53 - P - LOGN) {
        double s[4] = {0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < M; ++j) s[j % 4] += term(j);
        exact_lanes<P, LOGN, W>(sink, (s[0] + s[1]) + (s[2] + s[3]), emax, emin);
        return EXACT_DONE;
    }
    if (range <= 106 - P - 2 * LOGN && ec <= 0x7fe) {
        exact_split<M, W>(sink, ec, term);
        return EXACT_DONE;
    }
    return EXACT_WIDE;
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
template <int In, bool Dot, bool Slices = false> struct exact_raw {
    uint4 x[exact_kind<In, Dot, Slices>::chunks], y[Dot ? exact_kind<In, Dot, Slices>::chunks : 1];
};

template <int In, bool Dot, int W, bool Slices>
__device__ __forceinline__ void exact_fetch(exact_raw<In, Dot, Slices>& r, const exact_slice& s, uint64_t tile, int lane)
{
    using X = exact_kind<In, Dot, Slices>;
    const uint64_t base = tile * X::K * W;
    if (s.vec && base + X::K * W <= s.count) {
        const uint64_t at = base * X::bytes + (uint64_t)lane * 16; /* chunk c at a constant offset from it */
#pragma unroll
        for (int c = 0; c < X::chunks; ++c) {
            r.x[c] = hr_load16_input(s.x + at + c * W * 16);
            if constexpr (Dot) r.y[c] = hr_load16_input(s.y + at + c * W * 16);
        }
        return;
    }
#pragma unroll
    for (int c = 0; c < X::chunks; ++c) { /* the last tile: 16-byte loads of the chunks wholly inside */
        const uint64_t first = base + (uint64_t)(c * W + lane) * X::per_chunk;
        if (s.vec && first + X::per_chunk <= s.count) {
            r.x[c] = hr_load16_input(s.x + first * X::bytes);
            if constexpr (Dot) r.y[c] = hr_load16_input(s.y + first * X::bytes);
            continue;
        }
        uint32_t wx[4] = {0, 0, 0, 0}, wy[4] = {0, 0, 0, 0};
#pragma unroll
        for (int e = 0; e < X::per_chunk; ++e) {
            const uint64_t i = first + e;
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
template <int In, bool Dot, bool Slices> __device__ __forceinline__ uint64_t exact_x(const exact_raw<In, Dot, Slices>& r, int j)
{
    return exact_unpack<In>(r.x[j / exact_kind<In, Dot>::per_chunk], j % exact_kind<In, Dot>::per_chunk);
}
template <int In, bool Dot, bool Slices> __device__ __forceinline__ uint64_t exact_y(const exact_raw<In, Dot, Slices>& r, int j)
{
    return exact_unpack<In>(r.y[j / exact_kind<In, Dot>::per_chunk], j % exact_kind<In, Dot>::per_chunk);
}

/* Bands of f64 exponent fields, [32 b, 32 b + 31]: a wide tile of f64 sums whose nonzero terms
 * fill at most EXACT_BANDS of them is summed band by band, each by exact_split (a band's range,
 * 31, is within exact_group's rule for it), instead of term by term (5 column atomics a term). */
enum { EXACT_BANDS = 16 };

/* Whether the warp's f64 tile went band by band (every lane of the warp calls it): not where a
 * term is subnormal, inf or NaN, or the bands are more than EXACT_BANDS. */
template <int W>
__device__ HR_NOINLINE bool exact_banded(unsigned long long* acc, uint32_t* cols, const exact_raw<HIPREDUCE_F64, false>& r,
                                         int lane)
{
    constexpr int K = exact_kind<HIPREDUCE_F64, false>::K, LOGN = exact_log2<K * W>::value;
    static_assert(31 <= 106 - 53 - 2 * LOGN, "a band's range is within exact_group's split rule");
    uint64_t mask = 0;
    uint32_t bad = 0;
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const uint64_t b = exact_x(r, j);
        const int f = (int)(b >> 52) & 0x7ff;
        if (b << 1) mask |= 1ull << (f >> 5), bad |= f == 0 || f == 0x7ff;
    }
    bad = exact_butterfly<W>(bad, [](uint32_t x, uint32_t y) { return x | y; });
    mask = exact_butterfly<W>(mask, [](uint64_t x, uint64_t y) { return x | y; });
    uint64_t c = mask - (mask >> 1 & 0x5555555555555555ull); /* the bands: mask's bits, counted in parallel */
    c = (c & 0x3333333333333333ull) + (c >> 2 & 0x3333333333333333ull);
    c = (c + (c >> 4)) & 0x0f0f0f0f0f0f0f0full;
    const int bands = (int)((c * 0x0101010101010101ull) >> 56);
    if (bad || bands > EXACT_BANDS) return false;
    for (; mask; mask &= mask - 1) { /* the bands present, in ascending order */
        const int band = hr_ctz64(mask);
        const auto term = [&](int j) {
            const uint64_t b = exact_x(r, j);
            return (int)(b >> 57 & 0x3f) == band ? exact_double(b) : 0.0; /* field >> 5, the sign dropped */
        };
        const int ec = 32 * band + 31 + 1 + LOGN; /* exact_group's, the band's top field as emax */
        if (ec <= 0x7fe) {
            exact_split<K, W>(exact_to_digits{acc, lane}, ec, term);
            continue;
        }
#pragma unroll
        for (int j = 0; j < K; ++j) { /* the top bands, where C would overflow: term by term */
            const double t = term(j);
            if (t != 0) exact_value(exact_cols_of<HIPREDUCE_F64, false>(cols), exact_bits(t), lane);
        }
    }
    return true;
}

/* A lane's flags (exact.h's) and bins, which exact_slow takes and returns by value: a pointer
 * to them would keep them in local memory, read and written on every tile's fast path. */
struct exact_lane {
    uint32_t flags;
    exact_bins bins;
};

/* The tile term by term (how: EXACT_ZERO, EXACT_SLOW, EXACT_WIDE or EXACT_LO): f16/bf16/f32 sums
 * into the lane's bins (exact_bins.h), other terms into the lane's column (exact_terms.h), which
 * `used` then says (for the drains: exact_kernels.h). Out of line: rare, and its
 * registers stay out of the fast path. Element j of the lane is the slice's base + c_j + lane
 * per_chunk (c_j a constant): it exists where c_j < room. */
template <int In, bool Dot, int W, bool Slices>
__device__ HR_NOINLINE exact_lane exact_slow(unsigned long long* acc, uint32_t* cols, uint32_t* used, exact_lane st,
                                             exact_raw<In, Dot, Slices> r, uint64_t base, uint64_t count, int lane, int how)
{
    using X = exact_kind<In, Dot, Slices>;
    if constexpr (exact_col_kind<In, Dot>::on) {
        if (lane == 0) atomicOr(used, 1u);
    }
    if constexpr (In == HIPREDUCE_F64 && !Dot) {
        if (how != EXACT_ZERO && exact_banded<W>(acc, cols, r, lane)) {
            st.flags |= HR_EXACT_NONNEG; /* a nonzero term: the zero's sign cannot matter */
            return st;
        }
    }
    const uint64_t left = count - base;
    const int room = (left < (uint64_t)(X::K * W) ? (int)left : X::K * W) - lane * X::per_chunk;
    uint32_t f = st.flags;
    exact_bins b = st.bins;
    if constexpr (exact_bin_kind<In, Dot>::on) {
        if (b.count + X::K > EXACT_BIN_CAP) exact_bins_flush<In, W>(acc, b, lane);
        b.count += X::K;
        if (how == EXACT_WIDE) { /* every term finite, a nonzero one in the warp: only the bins */
#pragma unroll
            for (int j = 0; j < X::K; ++j)
                if ((j / X::per_chunk) * W * X::per_chunk + j % X::per_chunk < room) exact_bin_add<In>(b, exact_x(r, j));
            return exact_lane{f | HR_EXACT_NONNEG, b};
        }
    }
    /* unrolled: r's elements at fixed places (a loop's dynamic index reads them from the stack) */
#pragma unroll
    for (int j = 0; j < X::K; ++j) {
        if ((j / X::per_chunk) * W * X::per_chunk + j % X::per_chunk >= room) continue;
        const uint64_t bx = exact_x(r, j), by = Dot ? exact_y(r, j) : 0;
        if constexpr (exact_bin_kind<In, Dot>::on) {
            exact_bin_term<In>(b, f, bx);
        } else if constexpr (X::two_product) {
            if (how == EXACT_LO) { /* the exact lo = fma(x, y, -hi) of a product in the two-product's range */
                const double x = exact_double(bx), y = exact_double(by);
                exact_value(exact_cols_of<In, Dot>(cols), exact_bits(fma(x, y, -(x * y))), lane);
                f |= HR_EXACT_NONNEG;
            } else {
                exact_product(exact_cols_of<In, Dot>(cols), f, bx, by, lane);
            }
        } else {
            const double t = Dot ? exact_widen<In>(bx) * exact_widen<In>(by) : exact_widen<In>(bx);
            if (how == EXACT_WIDE) exact_value(exact_cols_of<In, Dot>(cols), exact_bits(t), lane); /* finite: no flags but the one below */
            else exact_term(exact_cols_of<In, Dot>(cols), f, exact_bits(t), lane);
        }
    }
    if (how == EXACT_WIDE) f |= HR_EXACT_NONNEG;
    return exact_lane{f, b};
}

/* A sum tile's group (every lane of the warp calls it): the window from the input's own exponent
 * fields, the terms converted as summed; exact_group's result, its values to sink. */
template <int In, int W, bool Slices, class Sink>
__device__ __forceinline__ int exact_sum_group(const exact_raw<In, false, Slices>& r, const Sink& sink)
{
    using X = exact_kind<In, false, Slices>;
    constexpr int K = X::K, LOGN = exact_log2<K * W>::value;
    uint32_t kmax[EXACT_CHAINS], kmin[EXACT_CHAINS];
#pragma unroll
    for (int i = 0; i < EXACT_CHAINS; ++i) kmax[i] = 0, kmin[i] = 0xffffffffu;
    if constexpr (X::bytes == 2) { /* two keys a word */
        static_assert(EXACT_CHAINS == 4, "a chain a word of each chunk");
#pragma unroll
        for (int c = 0; c < X::chunks; ++c) {
            const uint32_t w[4] = {r.x[c].x, r.x[c].y, r.x[c].z, r.x[c].w};
#pragma unroll
            for (int k = 0; k < 4; ++k) exact_fold2(w[k] & 0x7fff7fffu, kmax[k], kmin[k]);
        }
        const uint32_t mx = exact_extreme2<true>(exact_extreme2<true>(kmax[0], kmax[1]), exact_extreme2<true>(kmax[2], kmax[3]));
        const uint32_t mn = exact_extreme2<false>(exact_extreme2<false>(kmin[0], kmin[1]), exact_extreme2<false>(kmin[2], kmin[3]));
        kmax[0] = (mx & 0xffff) > mx >> 16 ? mx & 0xffff : mx >> 16;
        kmin[0] = (mn & 0xffff) < mn >> 16 ? mn & 0xffff : mn >> 16; /* 0xffff: no nonzero term */
    } else {
#pragma unroll
        for (int j = 0; j < K; ++j) exact_fold(exact_key<In>(exact_x(r, j)), kmax[j % EXACT_CHAINS], kmin[j % EXACT_CHAINS]);
#pragma unroll
        for (int i = 1; i < EXACT_CHAINS; ++i) {
            kmax[0] = kmax[i] > kmax[0] ? kmax[i] : kmax[0];
            kmin[0] = kmin[i] < kmin[0] ? kmin[i] : kmin[0];
        }
    }
    int emax, emin;
    exact_window<In, W>(kmax[0], kmin[0], emax, emin);
    constexpr int shift = In == HIPREDUCE_F64 ? 0 : In == HIPREDUCE_F16 ? 15 - 1023 : 127 - 1023;
    constexpr bool narrow = X::bytes == 2;
    const auto term = [&](int j) {
        if constexpr (narrow) return In == HIPREDUCE_F16 ? hr_f16_to_f32((uint16_t)exact_x(r, j)) : hr_bf16_to_f32((uint16_t)exact_x(r, j));
        else return exact_widen<In>(exact_x(r, j));
    };
    return exact_group<K, X::P, LOGN, shift, W, narrow>(sink, emax, emin, term);
}

/* A fetched tile into the digits or the columns (every lane of the warp calls it). */
template <int In, bool Dot, int W, bool Slices>
__device__ __forceinline__ void exact_tile(unsigned long long* acc, uint32_t* cols, uint32_t* used, uint32_t& flags,
                                           exact_bins& bins, exact_run* run, const exact_raw<In, Dot, Slices>& r,
                                           uint64_t tile, uint64_t count, int lane)
{
    using X = exact_kind<In, Dot, Slices>;
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
        const exact_to_digits sink{acc, lane};
        const int a = exact_group<K, 53, LOGN, 0, W, false>(sink, emax[0], emin[0], th);
        const int b = a >= EXACT_SLOW ? EXACT_SLOW : exact_group<K, 53, LOGN, 0, W, false>(sink, emax[1], emin[1], tl);
        how = a >= EXACT_SLOW ? EXACT_SLOW : b >= EXACT_SLOW ? EXACT_LO : a;
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
        how = exact_group<K, X::P, LOGN, 0, W, false>(exact_to_digits{acc, lane}, emax, emin, term);
    } else if constexpr (Slices) {
        how = exact_sum_group<In, W>(r, exact_to_run{acc, run, lane});
    } else {
        how = exact_sum_group<In, W>(r, exact_to_digits{acc, lane});
    }
    if (how == EXACT_DONE) {
        flags |= HR_EXACT_NONNEG; /* a nonzero term: the zero's sign cannot matter */
        return;
    }
    const exact_lane st = exact_slow<In, Dot, W>(acc, cols, used, exact_lane{flags, bins}, r, tile * K * W, count, lane, how);
    flags = st.flags, bins = st.bins;
}

}  // namespace hr

#endif
