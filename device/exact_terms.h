/* The exact sums' terms on a GPU (device/exact_kernels.h says how they flow): each (input dtype,
 * sum or dot)'s tile shape, and one term or one warp-wide exact f64 into the block's shared int64
 * digits as 32-bit pieces by integer atomics (which commute: no order shows), or term by term
 * into the lanes' columns, plus the warp reductions the tiles use. */
#ifndef HIPREDUCE_EXACT_TERMS_H
#define HIPREDUCE_EXACT_TERMS_H

#include <stdint.h>

#include "exact.h"
#include "half.h"
#include "hip_compat.h"

namespace hr {

/* The terms of one (input dtype, sum or dot): K elements per lane in 16-byte chunks, their
 * precision P as f64 terms (bits of significand), and two groups for f64 products (hi, lo). */
template <int In, bool Dot, bool Slices = false> struct exact_kind {
    static constexpr int bytes = In == HIPREDUCE_F64 ? 8 : In == HIPREDUCE_F32 ? 4 : 2;
    static constexpr int per_chunk = 16 / bytes;
    /* sums: 128 bytes a lane, dot: 64 bytes of each input, at most 16 elements (the per-tile
     * warp reductions over more elements: on the H200 4-15% faster than half as many, dot f64
     * 17%, despite 110 and 128 registers). Slices (rows, columns, segments:
     * exact_slices_kernel) of f16/bf16: 64 bytes, as f32's 32 elements (a slice of one tile, the
     * common short row, folds and sums half as many terms; with exact_kernels.h's warp runs, H200:
     * bf16 rows of 256 1.46x, of 1024 1.33x, of 4096 4x). */
    static constexpr int K = Dot ? (64 / bytes < 16 ? 64 / bytes : 16) : Slices && bytes == 2 ? 32 : 128 / bytes;
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

/* How a tile's group of terms went: summed into the digits; no nonzero term; term by term (SLOW:
 * some term may be inf, NaN or an f64 subnormal; WIDE: every term finite, some nonzero, only the
 * exponents too far apart); LO: f64 products whose hi parts went, their lo parts term by term. */
enum { EXACT_DONE = 0, EXACT_ZERO = 1, EXACT_SLOW = 2, EXACT_WIDE = 3, EXACT_LO = 4 };

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

/* A digit += v (modulo 2^64, as every digit's arithmetic). One 64-bit shared atomic on AMD; on
 * NVIDIA that is a compare-and-swap loop, which the lanes adding to one digit repeat in turn, so
 * there (and on the emulator) two native 32-bit adds: the low word's, then the high word's with the
 * carry out of the low one (the same total modulo 2^64; the digits are read only after a barrier). */
__device__ __forceinline__ void exact_digit_add(unsigned long long* d, uint64_t v)
{
#if defined(HIPREDUCE_BACKEND_AMD)
    atomicAdd(d, (unsigned long long)v);
#else
    uint32_t* w = reinterpret_cast<uint32_t*>(d); /* little-endian: w[0] is the low word */
    const uint32_t lo = (uint32_t)v, old = atomicAdd(w, lo);
    const uint32_t hi = (uint32_t)(v >> 32) + (old + lo < old ? 1u : 0u);
    if (hi) atomicAdd(w + 1, hi);
#endif
}

/* (-1)^neg m 2^q (q >= HR_EXACT_LOW, m < 2^64) into the digits: piece k (0, 1, 2) of m 2^s,
 * s the offset within digit i. */
__device__ __forceinline__ void exact_piece(unsigned long long* acc, bool neg, uint64_t m, int q, int k)
{
    const int pos = q - HR_EXACT_LOW, i = pos >> 5, s = pos & 31;
    const uint64_t low = m << s, high = s ? m >> (64 - s) : 0;
    const uint64_t p = k == 0 ? low & 0xffffffff : k == 1 ? low >> 32 : high;
    if (p) exact_digit_add(acc + i + k, neg ? 0 - p : p);
}

/* The term-by-term path's columns: a second, finer accumulator beside the digits for the terms
 * that go one by one (wide or slow tiles of f64 sums and of every dot). Row j weighs
 * 2^(16 j + HR_EXACT_LOW) (half a digit: rows 2i and 2i + 1 are digit i's); each row has
 * EXACT_COLUMNS 32-bit words, and a lane adds only to its own column (lane % EXACT_COLUMNS), so
 * the lanes of one warp never meet on a word (no serialised atomics, no bank conflicts: lane c's
 * words all lie in bank c), and a term's pieces are 16-bit, so that no carry is ever returned
 * and looked at (a piece is a fire-and-forget atomic add: the 8 threads of the block that share
 * a column are in other warps). A word is a signed sum modulo 2^32 of pieces below 2^16 (see
 * exact_kernels.h's EXACT_DRAIN_ROUNDS for why it stays below 2^30), drained into the digits
 * every EXACT_DRAIN_ROUNDS rounds and at the end. Sums of f16/bf16/f32 have bins instead
 * (exact_bins.h): one word. The digits (and so the bits) are the same integer sums. */
enum { EXACT_COLUMNS = 32 };

/* The rows that one (input dtype, sum or dot)'s terms reach (only theirs: the LDS of AMD's CUs
 * holds one block of all 272): a term is m 2^q with m of M bits (f64 values 53, f64 x f64
 * products 106), q from the terms' least bit less 52 (an f64 value with trailing zeros; f64
 * values: at least -1074; products: the least bit itself) up to the bound less M; its pieces take
 * 5 rows from q's (products 8: the high word's 4 from q + 64's). */
template <int In, bool Dot> struct exact_col_kind {
    static constexpr bool on = Dot || In == HIPREDUCE_F64;
    static constexpr bool product = Dot && In == HIPREDUCE_F64;
    static constexpr int least = HR_EXACT_LEAST(Dot, In), top = HR_EXACT_TOP(Dot, In), M = product ? 106 : 53;
    static constexpr int qmin = product ? least : least - 52 < -1074 ? -1074 : least - 52;
    static constexpr int row0 = (qmin - HR_EXACT_LOW) >> 4;
    static constexpr int rows = ((top - M - HR_EXACT_LOW) >> 4) + (product ? 8 : 5) - row0;
    static constexpr int words = on ? rows * EXACT_COLUMNS : 1;
    static_assert(!on || exact_kind<In, Dot>::K <= 16, "exact_kernels.h's EXACT_DRAIN_ROUNDS: at most 16 terms a lane");
    static_assert(row0 >= 0 && row0 + rows <= 2 * HR_EXACT_DIGITS, "the rows lie in the digits");
};

/* A block's columns (shared) as one kind's terms use them: words[0] is row row0's. */
struct exact_cols {
    uint32_t* words;
    int row0;
};
template <int In, bool Dot> __device__ __forceinline__ exact_cols exact_cols_of(uint32_t* words)
{
    return exact_cols{words, exact_col_kind<In, Dot>::row0};
}

/* (-1)^neg m 2^q into the lane's column as Pieces 16-bit pieces of m 2^s, s = (q - LOW) % 16
 * (16 Pieces >= the bits of m, plus 15; at most 6). In 32-bit words, the sign applied as
 * (p ^ sign) - sign, no branch but the top piece's (often zero): a term is a few instructions a
 * piece. */
template <int Pieces>
__device__ __forceinline__ void exact_col_add(const exact_cols& cols, bool neg, uint64_t m, int q, int lane)
{
    static_assert(Pieces <= 6, "m 2^s has three 32-bit words");
    const int pos = q - HR_EXACT_LOW, s = pos & 15;
    const uint64_t low = m << s;
    const uint32_t word[3] = {(uint32_t)low, (uint32_t)(low >> 32), s ? (uint32_t)(m >> (64 - s)) : 0u};
    const uint32_t sign = neg ? 0xffffffffu : 0u;
    uint32_t* w = cols.words + ((pos >> 4) - cols.row0) * EXACT_COLUMNS + lane % EXACT_COLUMNS;
#pragma unroll
    for (int k = 0; k < Pieces; ++k) {
        const uint32_t p = k % 2 ? word[k / 2] >> 16 : word[k / 2] & 0xffff;
        if (k < Pieces - 1 || p) atomicAdd(w + k * EXACT_COLUMNS, (p ^ sign) - sign);
    }
}

/* A finite f64's value into the lane's column. */
__device__ __forceinline__ void exact_value(const exact_cols& cols, uint64_t b, int lane)
{
    const int e = (int)((b >> 52) & 0x7ff);
    const uint64_t m = (b & 0xfffffffffffffull) | (e ? 1ull << 52 : 0);
    if (m) exact_col_add<5>(cols, b >> 63, m, (e ? e : 1) - 1075, lane); /* 53 + 15 bits */
}

/* One term by its f64 bits: NaN and infinities to the flags (exact.h's), a value to the column. */
__device__ __forceinline__ void exact_term(const exact_cols& cols, uint32_t& flags, uint64_t b, int lane)
{
    flags |= b != 0x8000000000000000ull ? HR_EXACT_NONNEG : HR_EXACT_NEGZERO;
    if (((b >> 52) & 0x7ff) == 0x7ff) {
        flags |= (b & 0xfffffffffffffull) ? HR_EXACT_NAN : (b >> 63) ? HR_EXACT_NINF : HR_EXACT_PINF;
        return;
    }
    exact_value(cols, b, lane);
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
__device__ __forceinline__ void exact_product(const exact_cols& cols, uint32_t& flags, uint64_t bx, uint64_t by,
                                              int lane)
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
    exact_col_add<5>(cols, neg, lo, q, lane);
    exact_col_add<4>(cols, neg, hi, q + 64, lane); /* hi < 2^42: 42 + 15 bits */
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

}  // namespace hr

#endif
