/* argmin/argmax of 8- and 16-bit inputs over a full, aligned tile of the streaming loop
 * (kernels.h). A tile's accumulator is its best key and the first index holding it (NaN: the
 * first NaN), which is unique, so any exact search gives the order's bits (device/order.h). The
 * element-by-element fold (lane_folds.h: a key and a position per element) and the block tree of
 * (key, 64-bit index) ran at 36-69% of the read on the H200, instruction-bound (739 SASS
 * instructions per i8 tile and warp); this path takes 186, and 79% (8-bit) and 85-87% (16-bit) of
 * the read (H200).
 *  - Each element's key is mapped to an unsigned integer that is larger when better (argmin:
 *    complemented), and packed above its place in the lane counted from the end, so that the
 *    lane's maximum is its best key at its first place. 8-bit keys go into 16-bit halves (key
 *    byte, 63 - place), two maxima per instruction; 16-bit ones into 32 bits.
 *  - A lane's value of a tile is (rank, 16383 - position in the tile) in 32 bits: rank 0 is
 *    unused, keys are 1 .. 65536, a NaN 65537; 17 + 14 bits. The segments' stream (kernels.h's
 *    stream_tiles) takes the block's maximum of it per tile; the full reduction's (kernels.h,
 *    reduce_range) keeps each lane's best over all its tiles, with that tile, and runs the
 *    block's tree once.
 *  - f16/bf16: a lane notes whether any magnitude lies above infinity's; such a lane (rare) finds
 *    its first NaN by a scan.
 *  nanargmin/nanargmax (a NaN ranked last) take the element-by-element fold instead. */
#ifndef HIPREDUCE_NARROW_KEYS_H
#define HIPREDUCE_NARROW_KEYS_H

#include "block_reduce.h"
#include "tile_load.h"

namespace hr {

template <class R> constexpr bool narrow_keys()
{
    return R::keyed && R::inputs == 1 && sizeof(typename R::value_t) <= 2 && !R::nan_last;
}

/* The block's maximum of packed 32-bit values (an exact combine: any tree gives the same). */
struct packed_max {
    using acc = uint32_t;
    static __device__ __forceinline__ uint32_t identity() { return 0; }
    static __device__ __forceinline__ uint32_t apply(uint32_t a, uint32_t b) { return a > b ? a : b; }
};

/* The block tree's storage of R, reused for 32-bit words. */
template <class Op, class R>
__device__ __forceinline__ block_reduce_storage<Op, HR_TILE_LANES>& word_storage(block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    static_assert(sizeof(block_reduce_storage<Op, HR_TILE_LANES>) <= sizeof smem, "storage fits");
    return *reinterpret_cast<block_reduce_storage<Op, HR_TILE_LANES>*>(&smem);
}

/* Two 16-bit maxima at once (one instruction on sm_90). */
__device__ __forceinline__ uint32_t max_u16x2(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __vmaxu2(a, b);
#else
    const uint32_t lo = (a & 0xffffu) > (b & 0xffffu) ? a & 0xffffu : b & 0xffffu;
    const uint32_t hi = (a >> 16) > (b >> 16) ? a >> 16 : b >> 16;
    return lo | hi << 16;
#endif
}

template <class R> struct narrow_key_map {
    using T = typename R::value_t;
    static constexpr bool half = R::in_class == HR_CLASS_HALF, is_min = R::is_min;
    static constexpr int bits = 8 * (int)sizeof(T);
    static constexpr uint32_t element_mask = bits == 8 ? 0xffu : 0xffffu;
    /* Integers: signed ones get their top bit flipped (unsigned order), argmin complements. */
    static constexpr uint32_t int_flip = (std::is_signed<T>::value ? 1u << (bits - 1) : 0u) ^ (is_min ? element_mask : 0u);
    static constexpr int nan_rank = 65537;

    /* f16/bf16: the mapped keys of a word's two elements, a float's order as an unsigned one
     * (negative: all bits flipped; positive: the sign bit set); NaNs are the lane's scan's. */
    static __device__ __forceinline__ uint32_t half_word(uint32_t w)
    {
#if defined(__CUDA_ARCH__)
        uint32_t negative; /* each half's sign bit copied over it: one prmt */
        asm("prmt.b32 %0, %1, 0, 0xbb99;" : "=r"(negative) : "r"(w));
#else
        const uint32_t negative = ((w >> 15) & 0x00010001u) * 0xffffu;
#endif
        return w ^ (negative | 0x80008000u) ^ (is_min ? 0xffffffffu : 0u);
    }
    /* The element whose mapped key is u. */
    static __device__ __forceinline__ T element(uint32_t u)
    {
        if constexpr (half) {
            u ^= is_min ? 0xffffu : 0u;
            return (T)(u & 0x8000u ? u ^ 0x8000u : u ^ 0xffffu);
        } else {
            return (T)(u ^ int_flip);
        }
    }
    static __device__ __forceinline__ bool is_nan(uint32_t w, int h)
    {
        return ((w >> (16 * h)) & 0x7fffu) > half_inf<R::dtype>();
    }
};

/* Lane `lane`'s packed (rank, 16383 - position) of its chunks of a full tile. */
template <class R> __device__ __forceinline__ uint32_t narrow_key_lane(const lane_chunks& r, unsigned lane)
{
    using map = narrow_key_map<R>;
    constexpr int words = HR_TILE_CHUNKS * HR_CHUNK_BYTES / 4, items = chunk_items<R>();
    static_assert(HR_TILE_LANES * HR_TILE_CHUNKS * items <= 16384, "a tile position fits 14 bits");
    uint32_t w[words];
    HR_MEMCPY(w, r.raw, sizeof w);
    uint32_t key, place; /* the lane's best mapped key and its first place (0 .. 4 * items - 1) */
    constexpr uint32_t flip = map::half ? 0u : map::int_flip;
    if constexpr (sizeof(typename R::value_t) == 1) {
        /* Halves of (key, 63 - place): bytes 0 and 2 of word i (places 4i, 4i + 2) moved up a
         * byte (a prmt), bytes 1 and 3 (4i + 1, 4i + 3) masked where they are; the flip and the
         * places are one xor (the other bytes are zero). */
        constexpr uint32_t f = flip * 0x01010101u & 0xff00ff00u;
        uint32_t best2[2] = {0, 0};
#pragma unroll
        for (int i = 0; i < words; ++i) {
            const uint32_t p = 63u - 4u * (uint32_t)i;
#if defined(__CUDA_ARCH__)
            const uint32_t up = __byte_perm(w[i], 0u, 0x2404u);
#else
            const uint32_t up = (w[i] << 8) & 0xff00ff00u;
#endif
            const uint32_t even = up ^ (f | p | (p - 2) << 16);
            const uint32_t odd = (w[i] & 0xff00ff00u) ^ (f | (p - 1) | (p - 3) << 16);
            best2[i & 1] = max_u16x2(best2[i & 1], max_u16x2(even, odd));
        }
        const uint32_t m = max_u16x2(best2[0], best2[1]);
        const uint32_t best = (m & 0xffffu) > (m >> 16) ? m & 0xffffu : m >> 16;
        key = best >> 8;
        place = 63u - (best & 0xffu);
    } else {
        /* (key, 31 - place) in 32 bits; word i holds places 2i and 2i + 1. Integers map in the
         * same instruction: x ^ flip on the top half is an add, or a subtract from 0xffff0000
         * where flip complements (the top bit's flip is an add either way). */
        constexpr bool complement = (flip & 0x7fffu) != 0;
        constexpr uint32_t top = ((flip ^ (complement ? 0xffffu : 0u)) & 0x8000u) << 16;
        uint32_t best2[2] = {0, 0};
#pragma unroll
        for (int i = 0; i < words; ++i) {
            const uint32_t p = 31u - 2u * (uint32_t)i;
            const uint32_t k = map::half ? map::half_word(w[i]) : w[i];
            const uint32_t lo = (complement ? 0xffff0000u - (k << 16) : k << 16) + (top + p);
            const uint32_t hi = (k & 0xffff0000u) ^ ((flip << 16) | (p - 1));
            const uint32_t m = lo > hi ? lo : hi;
            best2[i & 1] = best2[i & 1] > m ? best2[i & 1] : m;
        }
        const uint32_t best = best2[0] > best2[1] ? best2[0] : best2[1];
        key = best >> 16;
        place = 31u - (best & 0xffffu);
    }
    uint32_t rank = key + 1;
    if constexpr (map::half) {
        uint32_t magnitude = 0;
#pragma unroll
        for (int i = 0; i < words; ++i) magnitude = max_u16x2(magnitude, w[i] & 0x7fff7fffu);
        if ((magnitude & 0xffffu) > half_inf<R::dtype>() || (magnitude >> 16) > half_inf<R::dtype>()) {
            rank = map::nan_rank; /* the first NaN: scanned from the last place down */
#pragma unroll
            for (int e = 2 * words - 1; e >= 0; --e) place = map::is_nan(w[e / 2], e % 2) ? (uint32_t)e : place;
        }
    }
    const uint32_t pos = lane * items + place / items * (HR_TILE_LANES * items) + place % items;
    return rank << 14 | (16383u - pos);
}

/* The accumulator of a packed (rank, 16383 - position) of the tile whose first index is tile_first. */
template <class R> __device__ __forceinline__ typename R::acc narrow_key_acc(uint32_t packed, uint64_t tile_first)
{
    const uint32_t rank = packed >> 14;
    const typename R::key_t key =
        narrow_key_map<R>::half && rank == narrow_key_map<R>::nan_rank ? R::nan_key() : R::key_of(narrow_key_map<R>::element(rank - 1));
    return typename R::acc{key, (int64_t)(tile_first + (16383u - (packed & 16383u)))};
}

/* The tile's accumulator (valid in thread 0) from its lanes' chunks; tile_first: the index of
 * its first element. smem: the block tree's storage, reused for the packed maximum. */
template <class R>
__device__ __forceinline__ typename R::acc reduce_narrow_keys(const lane_chunks& r, uint64_t tile_first,
                                                             block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    const uint32_t packed =
        block_reduce_segments<packed_max, HR_TILE_LANES>(narrow_key_lane<R>(r, threadIdx.x), word_storage<packed_max>(smem));
    return narrow_key_acc<R>(packed, tile_first);
}

/* A lane's accumulator over the full aligned tiles that stream(f) hands to f(chunks, tile) in
 * order (kernels.h, full_tiles): the lane keeps its best packed value and that tile; a later tile
 * replaces it only with a strictly better rank, so the first place of the best key stays. A lane
 * without tiles (rank 0) gives R's identity. */
template <class R, class Stream> __device__ __forceinline__ typename R::acc narrow_keys_lane(const Stream& stream)
{
    uint32_t best = 0;
    uint64_t best_tile = 0;
    stream([&](const lane_chunks& r, uint64_t tile) {
        const uint32_t packed = narrow_key_lane<R>(r, threadIdx.x);
        if (packed >> 14 > best >> 14) {
            best = packed;
            best_tile = tile;
        }
    });
    return best == 0 ? R::identity() : narrow_key_acc<R>(best, best_tile * tile_items<R>());
}

}  // namespace hr

#endif
