/* The term-by-term path of the f16/bf16/f32 exact sums (tiles whose terms span too many binades
 * for device/exact_tiles.h's windows): per-lane binned accumulators in shared memory (Neal's
 * small superaccumulator, with f64 bins), so that a term costs a load, an add and a store to the
 * lane's own slot instead of three 64-bit shared atomics (compare-and-swap loops on NVIDIA, which
 * the lanes of a warp serialise when their terms share digits).
 *
 * Bin k of a lane takes the terms whose exponent field lies in [16 k, 16 k + 15]: each is a
 * multiple of u = 2^(16 k - bias - frac) (subnormals too) below 2^(16 + frac) u, so any sum of
 * at most 2^(37 - frac) of them is an exact f64 (f32: 2^14). A lane flushes its bins into the
 * block's digits every EXACT_BIN_CAP terms (2^9, far below) and at the end of its block's work:
 * the warp adds bin k's slots as integers (slot / u, below 2^53 each) and three lanes add the sum
 * to the digits. Every partial sum is exact, so the bits are those of the digits alone.
 * Layout [bin][thread]: a warp's lanes always touch consecutive words (no bank conflicts). */
#ifndef HIPREDUCE_EXACT_BINS_H
#define HIPREDUCE_EXACT_BINS_H

#include <stdint.h>

#include "exact_terms.h"

namespace hr {

/* The bins of one (input dtype, sum or dot): only sums of f16, bf16 and f32 have them. */
template <int In, bool Dot> struct exact_bin_kind {
    static constexpr bool on = !Dot && In != HIPREDUCE_F64;
    static constexpr int frac = In == HIPREDUCE_F32 ? 23 : In == HIPREDUCE_F16 ? 10 : 7;
    static constexpr int top = In == HIPREDUCE_F16 ? 0x1f : 0xff; /* inf and NaN */
    static constexpr int bias = In == HIPREDUCE_F16 ? 15 : 127;
    static constexpr int sign = In == HIPREDUCE_F32 ? 31 : 15;
    static constexpr int width = 16;                             /* exponent fields a bin (exact_bin_add's shift) */
    static constexpr int count = on ? (top - 1) / width + 1 : 0; /* f32, bf16: 16; f16: 2 */
    static constexpr int slots = on ? count * HR_TILE_LANES : 1; /* the block's shared doubles */
    /* bin 0's unit lies one bit below the format's least bit, in the same digit (so in the
     * digits that hr_exact_digit_range gives the kernels) */
    static_assert(((-bias - frac) - HR_EXACT_LOW) >> 5 == ((1 - bias - frac) - HR_EXACT_LOW) >> 5, "bin 0's digit");
};

/* Terms a lane adds between two flushes: a bin's sum stays below 2^(width + frac + 9) u <= 2^48 u. */
enum { EXACT_BIN_CAP = 1 << 9 };
static_assert(16 + 23 + 9 <= 53, "an f32 bin of EXACT_BIN_CAP terms is an exact f64");

/* A lane's bins: its column of the block's slots (every bin valid: zero at the start and after
 * a flush, so a term is one add with no bookkeeping), and its terms since the last flush (the
 * same on every lane of a warp). */
struct exact_bins {
    double* col;
    uint32_t count;
};

/* The lane's bins, its column zeroed (only the lane itself touches it: no barrier). */
template <int In, bool Dot> __device__ __forceinline__ exact_bins exact_bins_init(double* slots)
{
    using B = exact_bin_kind<In, Dot>;
    if constexpr (!B::on) return exact_bins{slots, 0};
    else {
        for (int k = 0; k < B::count; ++k) slots[k * HR_TILE_LANES + threadIdx.x] = 0;
        return exact_bins{slots + threadIdx.x, 0};
    }
}

/* A finite term by its input bits into its bin (zeros add nothing; the caller counts it). */
template <int In> __device__ __forceinline__ void exact_bin_add(exact_bins& b, uint64_t bits)
{
    using B = exact_bin_kind<In, false>;
    const int k = (int)(bits >> (B::frac + 4)) & (B::top >> 4); /* the exponent field / width */
    b.col[k * HR_TILE_LANES] += exact_widen<In>(bits);
}

/* One term by its input bits: NaN and infinities to the flags, a nonzero value to its bin. */
template <int In> __device__ __forceinline__ void exact_bin_term(exact_bins& b, uint32_t& flags, uint64_t bits)
{
    using B = exact_bin_kind<In, false>;
    const int field = (int)(bits >> B::frac) & B::top;
    const uint64_t mag = bits & ((1ull << B::sign) - 1);
    flags |= bits != 1ull << B::sign ? HR_EXACT_NONNEG : HR_EXACT_NEGZERO;
    if (field == B::top) {
        flags |= (bits & ((1ull << B::frac) - 1)) ? HR_EXACT_NAN : (bits >> B::sign) ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    if (mag != 0) exact_bin_add<In>(b, bits);
}

/* The warp's bins into the digits, left empty (every lane of the warp calls it). */
template <int In, int W> __device__ HR_NOINLINE void exact_bins_flush(unsigned long long* acc, exact_bins& b, int lane)
{
    using B = exact_bin_kind<In, false>;
    if (b.count == 0) return; /* no term since the last flush: every bin zero */
    uint32_t used = 0;
#pragma unroll
    for (int k = 0; k < B::count; ++k) used |= (uint32_t)(b.col[k * HR_TILE_LANES] != 0.0) << k;
    const uint32_t any = exact_butterfly<W>(used, [](uint32_t x, uint32_t y) { return x | y; });
#pragma unroll 1
    for (int k = 0; k < B::count; ++k) {
        if (!(any >> k & 1)) continue;
        const int q = B::width * k - B::bias - B::frac; /* the bin's unit u = 2^q */
        const double v = b.col[k * HR_TILE_LANES];
        b.col[k * HR_TILE_LANES] = 0;
        const int64_t n = (int64_t)(v * exact_double((uint64_t)(1023 - q) << 52)); /* v / u, exactly */
        const int64_t s = exact_butterfly<W>(n, [](int64_t x, int64_t y) { return x + y; }); /* < 2^59 */
        if (lane < 3 && s) exact_piece(acc, s < 0, s < 0 ? 0 - (uint64_t)s : (uint64_t)s, q, lane);
    }
    b.count = 0;
}

}  // namespace hr

#endif
