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
 * or no nonzero term (the sign of an exact zero) go term by term instead: f16/bf16/f32 sums into
 * each lane's f64 bins in shared memory (device/exact_bins.h), flushed into the digits now and
 * then; dot products and f64 terms into each lane's column of 16-bit pieces (exact_terms.h),
 * drained into the digits now and then. The files: exact_terms.h (a term into the digits or the
 * columns, warp reductions), exact_bins.h, exact_tiles.h (a warp's tile), this one (the kernels).
 *
 * The full reduction (exact_full_kernel): one wave of blocks takes the tiles in chunks, each
 * block claiming its next as it goes; every block adds its normalised digits to the call's
 * counters, and the last to arrive rounds their sum into the result (or stores it as words: an
 * MPI rank's contribution). Rows, columns and segments (exact_slices_kernel): a lane a result
 * where the slice has at most 64 terms in a narrow window (exact_slice_lane), a warp a result
 * where the slice is short and its tiles narrow (exact_slice_warp), else the block, the same
 * tiles over the slice's elements, rounded by the block. */
#ifndef HIPREDUCE_EXACT_KERNELS_H
#define HIPREDUCE_EXACT_KERNELS_H

#include <stdint.h>

#include "exact_tiles.h"
#include "order.h"

namespace hr {

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

/* Result `item` of dtype out (a float dtype), its bits. */
__device__ __forceinline__ void exact_store(void* result, uint64_t item, int out, uint64_t bits)
{
    if (out == HIPREDUCE_F64) ((uint64_t*)result)[item] = bits;
    else if (out == HIPREDUCE_F32) ((uint32_t*)result)[item] = (uint32_t)bits;
    else ((uint16_t*)result)[item] = (uint16_t)bits;
}

/* A block's accumulator for the one rounding, in shared memory, made empty (hr_exact_init's state)
 * where only digits [l, h] can be nonzero: every thread zeroes its part, before the kernel's next
 * barrier. A kernel empties all of it first; exact_finish leaves it empty. */
__device__ __forceinline__ void exact_fin_clear(hr_exact& fin, int l, int h)
{
    for (int i = l + (int)threadIdx.x; i <= h; i += HR_TILE_LANES) fin.d[i] = 0;
    if (threadIdx.x == 0) fin.lo = HR_EXACT_DIGITS, fin.hi = -1, fin.flags = 0, fin.adds = 0;
}

/* Rounds digits [lo, hi] (any digits below 2^63 in magnitude) with flags into result `item` of
 * dtype out, or with words > 0 stores them as exact.h's words (libhipreduce_mpi's). Every thread
 * calls it; the block's threads copy the nonzero digits into fin, so that thread 0's serial
 * normalisation and rounding walk those alone (data over a few binades: a few digits, not the
 * range's 12 for f32 or 69 for f64; the full kernel's serial tail, every other SM idle), and
 * leave fin empty again (before the caller's next barrier). */
__device__ __forceinline__ void exact_finish(const unsigned long long* acc, uint32_t flags, int lo, int hi,
                                             hr_exact& fin, void* result, uint64_t item, int out, int words)
{
    for (int i = lo + (int)threadIdx.x; i <= hi; i += HR_TILE_LANES)
        if (acc[i]) {
            fin.d[i] = (int64_t)acc[i];
            atomicMin(&fin.lo, i);
            atomicMax(&fin.hi, i);
        }
    __syncthreads();
    if (threadIdx.x == 0) {
        fin.flags = flags;
        if (words) {
            hr_exact_normalize(&fin);
            int64_t* w = (int64_t*)result + item * (uint64_t)words;
            for (int i = lo; i <= hi; ++i) w[i - lo] = fin.d[i];
            w[hi - lo + 1] = (int64_t)fin.flags;
        } else {
            exact_store(result, item, out, hr_exact_round(&fin, out));
        }
    }
    __syncthreads();
    const int l = fin.lo, h = fin.hi; /* normalising may have added digit h */
    __syncthreads();
    exact_fin_clear(fin, l, h);
}

/* Rounds of a block's tiles between two drains of its columns into its digits: a round adds to
 * a column's word at most 16 pieces below 2^16 from each of the 8 threads sharing the column
 * (K <= 16 terms a lane, a piece each to a word; f64 products K = 8, two), so 2^7 rounds stay
 * below 2^(4+3+16+7) = 2^30 (a signed 32-bit word). */
enum { EXACT_DRAIN_ROUNDS = 1 << 7 };
static_assert(HR_TILE_LANES / EXACT_COLUMNS == 8, "8 threads share a column");

/* Rounds between two carries of the digits: a lane's tile adds at most 64 pieces below 2^32 to
 * a digit (far fewer: a warp's exact f64 sums one piece each; a flush of a warp's bins: a digit
 * meets at most 6 of its 16 bins, one piece each), so 2^16 rounds of HR_TILE_LANES (256) lanes
 * stay below 2^(6+8+32+16) = 2^62; a drain adds below 2^52 to a digit (2 rows of 32 words below
 * 2^30, the upper one shifted by 16), 2^9 drains below 2^61: together below 2^63. */
enum { EXACT_CARRY_ROUNDS = 1 << 16 };
static_assert(EXACT_CARRY_ROUNDS % EXACT_DRAIN_ROUNDS == 0, "a carry comes after a drain");

/* The block's columns into its digits, left zero, where a tile went into them: `any`, the
 * block's vote on its `used` flag (__syncthreads_or: the barrier before the drain, so that every
 * thread takes the same branch). Every thread calls it; a warp a row at a time (its lanes read
 * consecutive words). */
template <int In, bool Dot, int W>
__device__ __forceinline__ void exact_drain(unsigned long long* acc, uint32_t* cols, bool any)
{
    using C = exact_col_kind<In, Dot>;
    if constexpr (C::on) {
        if (!any) return;
        const int lane = threadIdx.x % W, warp = threadIdx.x / W;
        for (int r = warp; r < C::rows; r += HR_TILE_LANES / W) {
            int64_t v = 0;
            if (lane < EXACT_COLUMNS) {
                v = (int32_t)cols[r * EXACT_COLUMNS + lane];
                cols[r * EXACT_COLUMNS + lane] = 0;
            }
            v = exact_butterfly<W>(v, [](int64_t x, int64_t y) { return x + y; });
            const int row = C::row0 + r; /* weighs 2^(16 row + HR_EXACT_LOW) */
            if (lane == 0 && v) exact_digit_add(acc + row / 2, (uint64_t)v << (16 * (row % 2))); /* modulo 2^64 */
        }
        __syncthreads();
    }
}

/* After round r of a block's tiles (every thread calls it, r the same in the whole block; modulo
 * 2^32, which the drain and carry periods divide). */
template <int In, bool Dot, int W>
__device__ __forceinline__ void exact_round_done(unsigned long long* acc, uint32_t* cols, const uint32_t* used, uint32_t r,
                                                 int lo, int hi)
{
    if ((r + 1) % EXACT_DRAIN_ROUNDS != 0) return;
    exact_drain<In, Dot, W>(acc, cols, __syncthreads_or(*used != 0));
    if ((r + 1) % EXACT_CARRY_ROUNDS != 0) return;
    if (threadIdx.x == 0) exact_carry(acc, lo, hi);
    __syncthreads();
}

/* The columns zeroed, none used (once a kernel: drains leave them zero). */
template <int In, bool Dot> __device__ __forceinline__ void exact_cols_init(uint32_t* cols, uint32_t& used)
{
    if constexpr (exact_col_kind<In, Dot>::on)
        for (int i = threadIdx.x; i < exact_col_kind<In, Dot>::words; i += HR_TILE_LANES) cols[i] = 0;
    if (threadIdx.x == 0) used = 0;
}

__device__ __forceinline__ void exact_zero(unsigned long long* acc, uint32_t& shared_flags)
{
    for (int i = threadIdx.x; i < HR_EXACT_DIGITS; i += HR_TILE_LANES) acc[i] = 0;
    if (threadIdx.x == 0) shared_flags = 0;
    __syncthreads();
}

/* The full reduction's launch. Its counters (the executor's, zero and left zero: the last block
 * zeroes them again) gather what the blocks leave: their arrivals, their flags (OR), their claims
 * on chunks of tiles (EXACT_CHUNK_ROUNDS) and their normalised digits, added modulo 2^64 (the sum
 * of a digit's blocks stays below blocks 2^32: no wrap but the signed top digit's). */
struct exact_full_args {
    exact_slice s;
    int lo, hi;                  /* the digits the terms reach (exact.h's hr_exact_digit_range) */
    uint32_t* arrivals;          /* the blocks that are done */
    uint32_t* flags;             /* their flags */
    unsigned long long* claims;  /* chunks handed out after each block's first */
    unsigned long long* digits;  /* [hi - lo + 1]: their digits' sums */
    void* result;
    int out, words;              /* words > 0: the result is the accumulator's words (exact_finish) */
};

/* A block's tiles come in chunks of EXACT_CHUNK_ROUNDS rounds of its warps (a tile a warp a round):
 * chunk `blockIdx.x` first, then whichever the block claims next (an atomic count of chunks
 * handed out), so that blocks that the memory system serves faster take more. An equal share a
 * block, as before 0.2.15, left the SMs finishing 16 us (bf16) to 50 us (f32) apart at 2^28 on
 * the H200, with the DRAM ever less busy as they did. The claim on the next chunk goes out at a
 * chunk's first round and is read at its last (a barrier between): C rounds to come back. */
enum { EXACT_CHUNK_ROUNDS = 4 };
static_assert(EXACT_CHUNK_ROUNDS >= 2 && (EXACT_CHUNK_ROUNDS & (EXACT_CHUNK_ROUNDS - 1)) == 0,
              "a power of two (dividing 2^32, as the rounds' count wraps), at least 2");

/* The full reduction's tiles of `count` elements, and its chunks (the kernel's and its grid's). */
template <int In, bool Dot, int W> __host__ __device__ __forceinline__ uint64_t exact_tiles(uint64_t count)
{
    constexpr uint64_t N = (uint64_t)exact_kind<In, Dot>::K * W;
    return (count + N - 1) / N;
}
template <int W> __host__ __device__ __forceinline__ uint64_t exact_chunks(uint64_t tiles)
{
    constexpr uint64_t C = (uint64_t)EXACT_CHUNK_ROUNDS * (HR_TILE_LANES / W); /* tiles a chunk */
    return (tiles + C - 1) / C;
}

/* The kernels' launch bounds. CUDA: HR_EXACT_BLOCKS (2) blocks an SM, i.e. at most 128 registers,
 * which the out-of-line rare paths obey too (unbounded, their unrolled loops would take up to 254
 * registers, counted in the kernel's); f64 sums at 3 blocks (80 registers) spilled and ran 20%
 * slower on the H200. AMD: the block size only, as before. The full reduction's grid is one wave
 * (host/exact_driver.cpp: the runtime's occupancy, HR_EXACT_BLOCKS an SM where it has none). */
enum { HR_EXACT_BLOCKS = 2 };
#if defined(HIPREDUCE_BACKEND_CUDA)
#define HR_EXACT_BOUNDS __launch_bounds__(HR_TILE_LANES, HR_EXACT_BLOCKS)
#else
#define HR_EXACT_BOUNDS __launch_bounds__(HR_TILE_LANES)
#endif

template <int In, bool Dot, int W>
__global__ HR_EXACT_BOUNDS void exact_full_kernel(exact_full_args a)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(acc, unsigned long long[HR_EXACT_DIGITS]);
        HR_SHARED(shared_flags, uint32_t);
        HR_SHARED(slots, double[exact_bin_kind<In, Dot>::slots]);
        HR_SHARED(cols, uint32_t[exact_col_kind<In, Dot>::words]);
        HR_SHARED(used, uint32_t);
        HR_SHARED(fin, hr_exact);
        HR_SHARED(ahead_of, uint64_t[2]); /* the chunk after the block's chunk j, at j % 2 */
        exact_cols_init<In, Dot>(cols, used);
        exact_fin_clear(fin, 0, HR_EXACT_DIGITS - 1);
        exact_zero(acc, shared_flags);
        exact_bins bins = exact_bins_init<In, Dot>(slots);
        constexpr int warps = HR_TILE_LANES / W;
        constexpr uint32_t C = EXACT_CHUNK_ROUNDS;
        const int lane = threadIdx.x % W, warp = threadIdx.x / W;
        const uint64_t tiles = exact_tiles<In, Dot, W>(a.s.count), chunks = exact_chunks<W>(tiles);
        const auto tile_of = [&](uint64_t chunk, uint32_t i) { return (chunk * C + i) * warps + warp; };
        uint64_t chunk = blockIdx.x;  /* this round's: the same in the whole block */
        unsigned long long claim = 0; /* thread 0's, on the chunk after this one */
        uint32_t flags = 0;
        exact_raw<In, Dot> cur, next;
        if (chunk < chunks && tile_of(chunk, 0) < tiles) exact_fetch<In, Dot, W>(cur, a.s, tile_of(chunk, 0), lane);
        /* round r, the chunk's i-th: the loads of the warp's next tile into `next` issued, then its
         * tile in `cur` summed and `next` copied into `cur` (for f16/bf16 too: alternating two
         * buffers spilled the bf16 kernel at 128 registers, 89% of the read against 94%, H200) */
        const auto round = [&](uint32_t r) {
            if (chunk >= chunks) return false;
            const uint32_t i = r % C, j = r / C % 2;
            if (i == 0 && threadIdx.x == 0) claim = atomicAdd(a.claims, 1ull);
            const uint64_t ahead = i + 1 < C ? chunk : ahead_of[j], t = tile_of(chunk, i), after = tile_of(ahead, (i + 1) % C);
            if (ahead < chunks && after < tiles) exact_fetch<In, Dot, W>(next, a.s, after, lane);
            if (t < tiles) exact_tile<In, Dot, W>(acc, cols, &used, flags, bins, nullptr, cur, t, a.s.count, lane);
            cur = next;
            exact_round_done<In, Dot, W>(acc, cols, &used, r, a.lo, a.hi);
            if (i == C - 2) {
                if (threadIdx.x == 0) ahead_of[j] = gridDim.x + claim;
                __syncthreads();
            }
            if (i == C - 1) chunk = ahead;
            return true;
        };
        for (uint32_t r = 0; round(r); ++r) {}
        if constexpr (exact_bin_kind<In, Dot>::on) exact_bins_flush<In, W>(acc, bins, lane);
        atomicOr(&shared_flags, flags);
        exact_drain<In, Dot, W>(acc, cols, __syncthreads_or(used != 0));
        const int digits = a.hi - a.lo + 1;
        bool last = false;
        if (threadIdx.x == 0) {
            exact_carry(acc, a.lo, a.hi);
            for (int i = 0; i < digits; ++i)
                if (acc[a.lo + i]) atomicAdd(a.digits + i, acc[a.lo + i]);
            if (shared_flags) atomicOr(a.flags, shared_flags);
            last = hr_arrive_add(a.arrivals, 1) + 1 == gridDim.x;
        }
        if (!__syncthreads_or(last)) return;
        /* the last block: the sums, and the counters zero again for the next launch */
        for (int i = threadIdx.x; i < digits; i += HR_TILE_LANES) {
            acc[a.lo + i] = hr_load_coherent(a.digits + i);
            a.digits[i] = 0;
        }
        if (threadIdx.x == 0) {
            shared_flags = hr_load_coherent(a.flags);
            *a.flags = 0;
            *a.claims = 0;
            *a.arrivals = 0;
        }
        __syncthreads();
        exact_finish(acc, shared_flags, a.lo, a.hi, fin, a.result, 0, a.out, a.words);
    }
}

/* Rows, columns and segments (exact_slices_kernel): the slices and where their results go. The
 * f16/bf16 slices take tiles of exact_kind's Slices size, whose direct and narrow sums join the
 * warp's run (exact_tiles.h) rather than the digits tile by tile (the full reduction's tiles do
 * not: no gain there on the H200). */
template <int In> constexpr bool exact_slices_kind = exact_kind<In, false>::bytes == 2;

/* Rows, columns and segments: their launch's arguments. */
struct exact_slices_args {
    const unsigned char* x;
    const uint64_t* offsets; /* segments (device memory), else null */
    uint64_t results, extent, inner;
    int lo, hi;
    void* result;
    int out, words; /* as exact_full_args' */
    uint32_t per;   /* results a block takes at a time (exact_slices_per) */
};

/* A slice as its tiles see it. A contiguous slice starts its tile grid at the 16-byte boundary at
 * or before its first element (where that lies within the input), so that its tiles take 16-byte
 * loads wherever the slice starts (segments' offsets are any); the grid's `head` elements before
 * the first are blanked to -0.0 as loaded (exact_blank_head), which changes no exact sum, nor an
 * exact zero's sign (an empty slice keeps head 0: no grid). */
struct exact_grid {
    exact_slice s;
    int head;
};

/* Tile `tile` of a grid as fetched: lane 0's first chunk holds the head elements of tile 0. */
template <int In, bool Dot, bool Slices>
__device__ __forceinline__ void exact_blank_head(exact_raw<In, Dot, Slices>& r, int head, uint64_t tile, int lane)
{
    if (tile != 0 || lane != 0 || head == 0) return;
    constexpr int bytes = exact_kind<In, Dot, Slices>::bytes;
    uint32_t w[4] = {r.x[0].x, r.x[0].y, r.x[0].z, r.x[0].w};
#pragma unroll
    for (int e = 0; e < 16 / bytes; ++e) {
        if (e >= head) break;
        if (bytes == 8) w[2 * e] = 0, w[2 * e + 1] = 0x80000000u;
        if (bytes == 4) w[e] = 0x80000000u;
        if (bytes == 2) w[e / 2] = (w[e / 2] & ~(0xffffu << 16 * (e & 1))) | 0x8000u << 16 * (e & 1);
    }
    r.x[0] = uint4{w[0], w[1], w[2], w[3]};
}

/* The tiles a slice may have for one warp to sum it alone (exact_slice_warp): more go the block's
 * way, its warps sharing the tiles. */
enum { EXACT_WARP_TILES = 16 };

/* Result r's slice summed by one warp, where it can be: empty (+0.0); or of one tile that takes
 * exact_group's direct (or narrow) path or its split path (its exact sum: one f64 or the sum of
 * two); or of up to EXACT_WARP_TILES tiles that all take the direct (or narrow) path and whose
 * lanes' values one run holds (exact_tiles.h; its warp sum: one exact f64). The warp rounds that
 * into the result itself (f32 and f64 results: one rounding). f16/bf16 results, accumulator words
 * and every other slice go the block's way. Every lane of the warp calls it; whether the result is
 * stored. */
template <int In, int W>
__device__ __forceinline__ bool exact_slice_warp(const exact_slices_args& a, const exact_grid& g, uint64_t r, int lane)
{
    const exact_slice& s = g.s;
    if (a.words) return false;
    if (s.count == 0) {
        if (lane == 0) exact_store(a.result, r, a.out, 0); /* +0.0 in every float dtype */
        return true;
    }
    constexpr bool S = exact_slices_kind<In>;
    using X = exact_kind<In, false, S>;
    constexpr int N = X::K * W;
    const uint64_t tiles = (s.count + N - 1) / N;
    if ((a.out != HIPREDUCE_F32 && a.out != HIPREDUCE_F64) || tiles > EXACT_WARP_TILES) return false;
    double v0 = 0, v1 = 0; /* the values in the order given (a direct or narrow sum, a run: v0 alone) */
    exact_raw<In, false, S> cur, next;
    exact_fetch<In, false, W>(cur, s, 0, lane);
    if (tiles == 1) {
        int values = 0;
        const auto sink = [&](double x) {
            v1 = values ? x : v1;
            v0 = values ? v0 : x;
            ++values;
        };
        exact_blank_head(cur, g.head, 0, lane);
        if (exact_sum_group<In, W>(cur, sink) != EXACT_DONE) return false;
    } else {
        if constexpr (X::P + exact_log2<N>::value >= 53) return false; /* no direct rule (f64) */
        exact_run run = exact_run_empty();
        bool failed = false;
        for (uint64_t t = 0; t < tiles; ++t) {
            if (t + 1 < tiles) exact_fetch<In, false, W>(next, s, t + 1, lane);
            exact_blank_head(cur, g.head, t, lane);
            if (exact_sum_group<In, W>(cur, exact_to_lone_run{&run, &failed}) != EXACT_DONE || failed) return false;
            if (t + 1 < tiles) cur = next;
        }
        v0 = exact_warp_sum<W>(run.v);
    }
    /* exact values, a nonzero term among the sums: an exact zero is +0.0 (the chains start at +0.0);
     * their sum rounded to nearest even in f64 (inf past the largest), or to odd where an f32
     * result follows, so that rounding it to f32 is the one rounding of the exact sum: TwoSum's
     * error says whether, and which way, the f64 sum was inexact */
    const double sum = v0 + v1, z = sum - v0, err = (v0 - (sum - z)) + (v1 - z);
    uint64_t bits = exact_bits(sum);
    if (a.out == HIPREDUCE_F32) {
        if (err != 0 && (bits & 1) == 0) bits = (err > 0) == (sum > 0) ? bits + 1 : bits - 1; /* its magnitude's odd neighbour */
        bits = __builtin_bit_cast(uint32_t, (float)exact_double(bits));
    }
    if (lane == 0) exact_store(a.result, r, a.out, bits);
    return true;
}

/* The most terms a lane sums alone (exact_slice_lane), and the input dtypes of which that many
 * terms can fit exact_group's direct rule at all (f16, bf16, f32; not f64). */
enum { EXACT_LANE_TERMS = 64 };
template <int In> constexpr bool exact_lane_kind = exact_kind<In, false>::P + exact_log2<EXACT_LANE_TERMS>::value < 53;

/* Result r's slice (its first element at x, `count` of them `step` bytes apart) summed by one
 * lane, where it can be: f16/bf16/f32 terms, at most EXACT_LANE_TERMS of them, finite, their
 * exponent fields within exact_group's direct rule for `count` terms (every partial sum exact in
 * f64), an f32 or f64 result. The f64 chains start at -0.0, so IEEE's signed zeros give an exact
 * zero's sign (-0.0 only where every term is -0.0); the result is that sum rounded once. Whether
 * stored. */
template <int In>
__device__ __forceinline__ bool exact_slice_lane(const exact_slices_args& a, const unsigned char* x, uint64_t count,
                                                 uint64_t step, uint64_t r)
{
    using X = exact_kind<In, false>;
    if constexpr (!exact_lane_kind<In>) return false;
    if (a.words || (a.out != HIPREDUCE_F32 && a.out != HIPREDUCE_F64) || count > EXACT_LANE_TERMS) return false;
    if (count == 0) {
        exact_store(a.result, r, a.out, 0); /* +0.0 */
        return true;
    }
    uint32_t kmax = 0, kmin = 0xffffffffu;
    double s[2] = {-0.0, -0.0};
#pragma unroll 8
    for (int i = 0; i < (int)count; ++i) {
        const uint64_t b = exact_load<In>(x + (uint64_t)i * step);
        exact_fold(exact_key<In>(b), kmax, kmin);
        s[i & 1] += exact_widen<In>(b);
    }
    int emax, emin;
    exact_window<In, 1>(kmax, kmin, emax, emin);
    if (emax == EXACT_BAD) return false;
    int logn = 0;
    while ((1ull << logn) < count) ++logn;
    if (emax != 0 && emax - emin > 53 - X::P - logn) return false;
    const double sum = s[0] + s[1];
    exact_store(a.result, r, a.out, a.out == HIPREDUCE_F32 ? __builtin_bit_cast(uint32_t, (float)sum) : exact_bits(sum));
    return true;
}

/* The results a block of the slices kernel takes at a time where lanes may sum them (f16/bf16/f32
 * terms, an f32 or f64 result; rows of at most EXACT_LANE_TERMS: HR_TILE_LANES, a lane each;
 * segments, whose lengths lie in device memory: a share of the `blocks` that leaves each some 4
 * rounds, at most HR_TILE_LANES), else `warps` (a warp each: exact_slices_kernel without lanes). */
template <int In, int W>
__host__ __device__ inline uint32_t exact_slices_per(uint64_t results, uint64_t extent, bool segments, int out, int words,
                                                     uint64_t blocks)
{
    constexpr uint64_t warps = HR_TILE_LANES / W;
    if (!exact_lane_kind<In> || words || (out != HIPREDUCE_F32 && out != HIPREDUCE_F64)) return (uint32_t)warps;
    if (!segments) return extent <= EXACT_LANE_TERMS ? HR_TILE_LANES : (uint32_t)warps;
    const uint64_t share = (results + 4 * blocks - 1) / (4 * blocks);
    return (uint32_t)(share < warps ? warps : share > HR_TILE_LANES ? HR_TILE_LANES : share);
}

/* Rows, columns and segments: result r's slice, as the cpu device's (src/cpu_exact.c). A block
 * takes a.per results at a time: with Lanes, a lane each where a lane can sum one
 * (exact_slice_lane), those left `warps` at a time; without, `warps` (a.per) at a time; a warp
 * each (exact_slice_warp), and those left, the block one by one. */
template <int In, int W, bool Lanes>
__global__ HR_EXACT_BOUNDS void exact_slices_kernel(exact_slices_args a)
{
    HR_KERNEL_BODY(W)
    {
        HR_SHARED(acc, unsigned long long[HR_EXACT_DIGITS]);
        HR_SHARED(shared_flags, uint32_t);
        HR_SHARED(slots, double[exact_bin_kind<In, false>::slots]);
        HR_SHARED(cols, uint32_t[exact_col_kind<In, false>::words]);
        HR_SHARED(used, uint32_t);
        HR_SHARED(fin, hr_exact);
        constexpr int warps = HR_TILE_LANES / W, bytes = exact_kind<In, false>::bytes;
        HR_SHARED(left, uint32_t[warps]); /* the block's results of this round that no warp stored */
        HR_SHARED(todo, uint32_t[Lanes ? HR_TILE_LANES : 1]); /* Lanes: this round's results no lane stored (from base) */
        HR_SHARED(todos, uint32_t);
        exact_cols_init<In, false>(cols, used);
        exact_fin_clear(fin, 0, HR_EXACT_DIGITS - 1);
        exact_bins bins = exact_bins_init<In, false>(slots);
        constexpr bool S = exact_slices_kind<In>;
        constexpr int N = exact_kind<In, false, S>::K * W;
        const int lane = threadIdx.x % W, warp = threadIdx.x / W;
        const auto place = [&](uint64_t r, uint64_t& count, uint64_t& step) { /* the slice's first element */
            uint64_t first;
            step = bytes;
            if (a.offsets) { /* inner components a segment (device/call.h) */
                const uint64_t s = r / a.inner;
                first = a.offsets[s];
                count = a.offsets[s + 1] - first;
                first = first * a.inner + r % a.inner;
                step = bytes * a.inner;
            } else {
                const uint64_t o = r / a.inner, i = r % a.inner;
                first = o * a.extent * a.inner + i;
                count = a.extent;
                step = bytes * a.inner;
            }
            return a.x + first * bytes;
        };
        const auto slice_of = [&](uint64_t r) {
            uint64_t count, step;
            const unsigned char* x = place(r, count, step);
            const uintptr_t m = (uintptr_t)x % 16;
            const int head = step == bytes && count != 0 && m % bytes == 0 && x - m >= a.x ? (int)(m / bytes) : 0;
            x -= head * bytes;
            return exact_grid{exact_slice{x, nullptr, count + head, step, step == bytes && (uintptr_t)x % 16 == 0}, head};
        };
        const uint64_t per = Lanes ? a.per : warps;
        for (uint64_t base = (uint64_t)blockIdx.x * per; base < a.results; base += (uint64_t)gridDim.x * per) {
            __syncthreads(); /* every thread has read `left` and `todo` of the round before */
            uint32_t n = warps; /* the round's results for the warps */
            if constexpr (Lanes) {
                if (threadIdx.x == 0) todos = 0;
                __syncthreads();
                const uint64_t own = base + threadIdx.x;
                if (threadIdx.x < per && own < a.results) {
                    uint64_t count, step;
                    const unsigned char* x = place(own, count, step);
                    if (!exact_slice_lane<In>(a, x, count, step, own)) todo[atomicAdd(&todos, 1u)] = threadIdx.x;
                }
                __syncthreads();
                n = todos;
            }
            const auto result_of = [&](uint32_t k) { return Lanes ? (k < n ? base + todo[k] : a.results) : base + k; };
            for (uint32_t q = 0; q < n; q += warps) { /* `warps` of them at a time */
                if (q != 0) __syncthreads(); /* every thread has read `left` of the turn before */
                const uint64_t mine = result_of(q + warp);
                const bool stored = mine < a.results && exact_slice_warp<In, W>(a, slice_of(mine), mine, lane);
                if (lane == 0) left[warp] = mine < a.results && !stored;
                __syncthreads();
                for (int w = 0; w < warps; ++w) {
                    if (!left[w]) continue; /* the same in the whole block */
                    const uint64_t r = result_of(q + w);
                    exact_zero(acc, shared_flags);
                    const exact_grid g = slice_of(r);
                    const exact_slice& s = g.s;
                    const uint64_t tiles = (s.count + N - 1) / N;
                    uint32_t flags = 0;
                    exact_run run = exact_run_empty();
                    for (uint64_t k = 0; k * warps < tiles; ++k) {
                        if (k * warps + warp < tiles) {
                            exact_raw<In, false, S> raw;
                            exact_fetch<In, false, W>(raw, s, k * warps + warp, lane);
                            exact_blank_head(raw, g.head, k * warps + warp, lane);
                            exact_tile<In, false, W>(acc, cols, &used, flags, bins, &run, raw, k * warps + warp, s.count, lane);
                        }
                        exact_round_done<In, false, W>(acc, cols, &used, (uint32_t)k, a.lo, a.hi);
                    }
                    exact_run_flush<W>(acc, run, lane);
                    if constexpr (exact_bin_kind<In, false>::on) exact_bins_flush<In, W>(acc, bins, lane);
                    atomicOr(&shared_flags, flags);
                    exact_drain<In, false, W>(acc, cols, __syncthreads_or(used != 0));
                    exact_finish(acc, shared_flags, a.lo, a.hi, fin, a.result, r, a.out, a.words);
                    __syncthreads();
                }
            }
        }
    }
}

}  // namespace hr

#endif
