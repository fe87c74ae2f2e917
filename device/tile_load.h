/* Tile loaders: one lane's share of a tile in the default algorithm's order
 * (src/plan.h): chunk c of lane l holds elements (c * Lanes + l) * ChunkItems + v.
 * A full tile at a 16-byte aligned address is read with one 16-byte load per chunk,
 * all chunks in flight before the first use; any other tile is read element by
 * element. Both feed the accumulator in the same (c, v) sequence, so the result
 * does not depend on the path. Out-of-range elements are skipped, which equals
 * feeding the identity because every operator's identity is exact. */
#ifndef HIPREDUCE_TILE_LOAD_H
#define HIPREDUCE_TILE_LOAD_H

#include <string.h>

#include "hip_compat.h"
#include "ops.h"
#include "order.h"

namespace hr {

/* Elements per 16-byte chunk and per tile, fixed by the operator's element type. */
template <class Op> __host__ __device__ constexpr int chunk_items() { return HR_CHUNK_BYTES / (int)sizeof(typename Op::value_t); }
template <class Op> __host__ __device__ constexpr uint64_t tile_items() { return (uint64_t)HR_TILE_LANES * HR_TILE_CHUNKS * chunk_items<Op>(); }

/* Number of tiles covering count elements. */
template <class Op> __device__ __forceinline__ uint64_t tile_count(uint64_t count)
{
    return (count + tile_items<Op>() - 1) / tile_items<Op>();
}

/* Elements of the tile starting at element `first` that lie below count. */
template <class Op> __device__ __forceinline__ uint64_t tile_valid(uint64_t count, uint64_t first)
{
    return count - first < tile_items<Op>() ? count - first : tile_items<Op>();
}

/* Scalar read; Coherent reads see values other blocks of the same launch wrote
 * before their release (they bypass the non-coherent L1: hip_compat.h). */
template <class In, bool Coherent> __device__ __forceinline__ In load_one(const In* p)
{
    if constexpr (Coherent) return hr_load_coherent(p);
    else return *p;
}

/* One lane's chunks of a full, 16-byte aligned tile, loaded before any is used. */
struct lane_chunks {
    uint4 raw[HR_TILE_CHUNKS];
};

template <class Op, bool Coherent>
__device__ __forceinline__ void load_chunks(lane_chunks& r, const void* tile, unsigned lane)
{
    const uint4* p = (const uint4*)tile;
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        const uint4* q = p + (uint64_t)c * HR_TILE_LANES + lane;
        r.raw[c] = Coherent ? hr_load16_coherent(q) : hr_load16_input(q);
    }
}

template <class Op, class In>
__device__ __forceinline__ typename Op::acc fold_chunks(typename Op::acc acc, const lane_chunks& r)
{
    constexpr int items = chunk_items<Op>();
    lane_fold<Op> fold(acc);
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        In v[items];
        memcpy(v, &r.raw[c], sizeof v);
#pragma unroll
        for (int i = 0; i < items; ++i) fold.add(typename Op::acc(v[i]));
    }
    return fold.result();
}

/* Whether tiles of In can go through lane_chunks (In is 16 / chunk_items bytes). */
template <class Op, class In, bool Coherent> __host__ __device__ constexpr bool chunk_loadable()
{
    return sizeof(In) * chunk_items<Op>() == HR_CHUNK_BYTES && (!Coherent || HR_HAS_COHERENT_LOAD16);
}

/* Folds lane `lane`'s elements of the tile at `tile` (valid elements: `valid`)
 * into acc. In is the element type at this level: the input's type, or Op::acc
 * for partials. vector_ok: the tile is full and 16-byte aligned. */
template <class Op, class In, bool Coherent = false>
__device__ __forceinline__ typename Op::acc lane_accumulate(typename Op::acc acc, const In* tile, uint64_t valid,
                                                            bool vector_ok, unsigned lane)
{
    constexpr int items = chunk_items<Op>();
    if (chunk_loadable<Op, In, Coherent>() && vector_ok) {
        lane_chunks r;
        load_chunks<Op, Coherent>(r, tile, lane);
        return fold_chunks<Op, In>(acc, r);
    }
    lane_fold<Op> fold(acc);
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        const uint64_t first = ((uint64_t)c * HR_TILE_LANES + lane) * items;
        if (first >= valid) break; /* later chunks start further on */
#pragma unroll
        for (int i = 0; i < items; ++i)
            if (first + i < valid) fold.add(typename Op::acc(load_one<In, Coherent>(tile + first + i)));
    }
    return fold.result();
}

}  // namespace hr

#endif
