/* Tile loaders: one lane's share of a tile in the default algorithm's order
 * (device/order.h): chunk c of lane l holds elements (c * Lanes + l) * ChunkItems + v.
 * A full tile at a 16-byte aligned address is read with one 16-byte load per chunk
 * (dot: per chunk of each input), all chunks in flight before the first use; any other
 * tile is read element by element. Both feed the lane's fold (lane_folds.h) in the same
 * (c, v) sequence, so the result does not depend on the path. Out-of-range elements are
 * skipped, which equals feeding the identity because every operator's identity is exact. */
#ifndef HIPREDUCE_TILE_LOAD_H
#define HIPREDUCE_TILE_LOAD_H

#include <string.h>

#include "hip_compat.h"
#include "lane_folds.h"
#include "rules.h"

namespace hr {

/* Elements per 16-byte chunk and per tile: rules.h's geometry of the operator's input element
 * (fixed by its type, never by the device). */
template <class Op> __host__ __device__ constexpr int chunk_items() { return (int)hr_chunk_items(sizeof(typename Op::value_t)); }
template <class Op> __host__ __device__ constexpr uint64_t tile_items() { return hr_tile_items(sizeof(typename Op::value_t)); }

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

__device__ __forceinline__ bool aligned16(const void* p) { return ((uintptr_t)p & 15) == 0; }

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

template <bool Coherent> __device__ __forceinline__ void load_chunks(lane_chunks& r, const void* tile, unsigned lane)
{
    const uint4* p = (const uint4*)tile;
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        const uint4* q = p + (uint64_t)c * HR_TILE_LANES + lane;
        r.raw[c] = Coherent ? hr_load16_coherent(q) : hr_load16_input(q);
    }
}

/* A lane's chunks of one input tile (dot: of both inputs). */
template <class R, int Inputs = R::inputs> struct input_chunks {
    lane_chunks x;
};
template <class R> struct input_chunks<R, 2> {
    lane_chunks x, y;
};

template <class R>
__device__ __forceinline__ void load_input(input_chunks<R>& r, const typename R::value_t* x,
                                           const typename R::value_t* y, uint64_t first, unsigned lane)
{
    load_chunks<false>(r.x, x + first, lane);
    if constexpr (R::inputs == 2) load_chunks<false>(r.y, y + first, lane);
}

/* Position of element v of chunk c of a lane, counted from the lane's first element. */
template <class R> __host__ __device__ constexpr uint32_t lane_pos(int c, int v)
{
    return (uint32_t)c * HR_TILE_LANES * chunk_items<R>() + v;
}

/* The elements of a 16-byte chunk. On AMD (and in the emulator, which tests that path), 8- and
 * 16-bit ones are shifted out of its 32-bit words: copied out as bytes, the chunk stayed in scratch
 * there (ROCm 5.2's clang). nvcc keeps the copy: the shifts cost registers in its segment kernels. */
template <class T> __device__ __forceinline__ void chunk_elements(T (&v)[HR_CHUNK_BYTES / sizeof(T)], const uint4& raw)
{
#if !defined(HIPREDUCE_BACKEND_CUDA)
    if constexpr (sizeof(T) < 4) {
        constexpr int per_word = 4 / (int)sizeof(T);
        const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
        for (int i = 0; i < HR_CHUNK_BYTES / (int)sizeof(T); ++i)
            v[i] = (T)(w[i / per_word] >> (8 * (int)sizeof(T) * (i % per_word)));
        return;
    }
#endif
    HR_MEMCPY(v, &raw, sizeof v);
}

template <class R>
__device__ __forceinline__ typename R::acc fold_input(typename R::acc start, const input_chunks<R>& r, unsigned lane,
                                                      uint64_t tile_first)
{
    using T = typename R::value_t;
    constexpr int items = chunk_items<R>();
    input_fold<R> fold(start, lane * items);
#pragma unroll
    for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
        if constexpr (input_fold<R>::words) { /* four 8-bit elements at once */
            uint32_t wx[4];
            HR_MEMCPY(wx, &r.x.raw[c], sizeof wx);
            if constexpr (R::inputs == 2) {
                uint32_t wy[4];
                HR_MEMCPY(wy, &r.y.raw[c], sizeof wy);
#pragma unroll
                for (int i = 0; i < 4; ++i) fold.add_word(wx[i], wy[i]);
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) fold.add_word(wx[i]);
            }
            continue;
        }
        T vx[items];
        chunk_elements(vx, r.x.raw[c]);
        if constexpr (R::inputs == 2) {
            T vy[items];
            chunk_elements(vy, r.y.raw[c]);
#pragma unroll
            for (int i = 0; i < items; ++i) fold.add(vx[i], vy[i], lane_pos<R>(c, i));
        } else {
#pragma unroll
            for (int i = 0; i < items; ++i) fold.add(vx[i], lane_pos<R>(c, i));
        }
    }
    return fold.result(tile_first);
}

/* The element-by-element walk over lane `lane`'s elements of a tile (partial or unaligned):
 * add(at, c, i) for element at + i of chunk c, for every one below `valid`, in the order's
 * sequence. Items per chunk <= 4 unroll fully; 8- and 16-bit elements do not (32 or 64 loads
 * at once would spill). */
template <int Items, class Add>
__device__ __forceinline__ void for_lane_elements(uint64_t valid, unsigned lane, const Add& add)
{
    if constexpr (Items <= 4) {
#pragma unroll
        for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
            const uint64_t at = ((uint64_t)c * HR_TILE_LANES + lane) * Items;
            if (at >= valid) break; /* later chunks start further on */
#pragma unroll
            for (int i = 0; i < Items; ++i)
                if (at + i < valid) add(at, c, i);
        }
    } else {
#pragma unroll 1
        for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
            const uint64_t at = ((uint64_t)c * HR_TILE_LANES + lane) * Items;
            if (at >= valid) break;
#pragma unroll 4
            for (int i = 0; i < Items; ++i)
                if (at + i < valid) add(at, c, i);
        }
    }
}

/* Level 0: folds lane `lane`'s elements of the input tile starting at element `first`
 * (valid elements: `valid`) into start. vector_ok: the tile is full and 16-byte aligned
 * (both inputs for dot). */
template <class R>
__device__ __forceinline__ typename R::acc input_lane_accumulate(typename R::acc start, const typename R::value_t* x,
                                                                 const typename R::value_t* y, uint64_t first,
                                                                 uint64_t valid, bool vector_ok, unsigned lane)
{
    constexpr int items = chunk_items<R>();
    if (vector_ok) {
        input_chunks<R> r;
        load_input<R>(r, x, y, first, lane);
        return fold_input<R>(start, r, lane, first);
    }
    const typename R::value_t* tx = x + first;
    const typename R::value_t* ty = R::inputs == 2 ? y + first : nullptr;
    input_fold<R> fold(start, lane * items);
    const auto add = [&](uint64_t at, int c, int i) {
        if constexpr (R::inputs == 2) fold.add(tx[at + i], ty[at + i], lane_pos<R>(c, i));
        else fold.add(tx[at + i], lane_pos<R>(c, i));
    };
    for_lane_elements<items>(valid, lane, add);
    return fold.result(first);
}

/* Whether a lane's chunk of partials (chunk_items accumulators, contiguous) is whole 16-byte
 * vectors: then a full tile of partials is read by 16-byte loads. */
template <class R, bool Coherent> __host__ __device__ constexpr bool partials_chunked()
{
    return sizeof(typename R::acc) * chunk_items<R>() % HR_CHUNK_BYTES == 0 && (!Coherent || HR_HAS_COHERENT_LOAD16);
}

/* Levels >= 1: folds lane `lane`'s partials of the tile at `tile` into start. Accumulators
 * the size of an element take the input's path (all chunks in flight); wider ones are read
 * in batches of up to four 16-byte loads, issued together: a tile's partials are read by the
 * one block completing its group, after the stream, so their latency is the launch's tail. On
 * AMD a chunk's batches follow one another: clang unrolled them and issued every load at once,
 * and 8/16-bit argmin/argmax (16-byte accumulators, 16 or 8 a chunk: 64-32 VGPRs a chunk) took
 * launch 3 on gfx90a past its 128 VGPRs (9-12 spilled; test/amd_spills.sh). Only a full tile
 * of partials takes this path (a level-1 group of 16384 or 8192 tiles). */
template <class R, bool Coherent>
__device__ __forceinline__ typename R::acc partial_lane_accumulate(typename R::acc start, const typename R::acc* tile,
                                                                   uint64_t valid, bool vector_ok, unsigned lane)
{
    using acc = typename R::acc;
    constexpr int items = chunk_items<R>();
    partial_fold<R> fold(start);
    if constexpr (partials_chunked<R, Coherent>()) {
        constexpr int vecs = (int)sizeof(acc) * items / HR_CHUNK_BYTES; /* per chunk */
        if (vector_ok && vecs == 1) {
            lane_chunks r;
            load_chunks<Coherent>(r, tile, lane);
#pragma unroll
            for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
                acc v[items];
                HR_MEMCPY(v, &r.raw[c], sizeof v);
#pragma unroll
                for (int i = 0; i < items; ++i) fold.add(v[i]);
            }
            return fold.result();
        }
        if (vector_ok && vecs > 1) {
            constexpr int batch = vecs <= 4 ? vecs : 4, per_batch = items * batch / vecs;
            static_assert(vecs % batch == 0, "whole batches");
#pragma unroll
            for (int c = 0; c < HR_TILE_CHUNKS; ++c) {
                const uint4* p = (const uint4*)(tile + ((uint64_t)c * HR_TILE_LANES + lane) * items);
#if defined(HIPREDUCE_BACKEND_AMD)
#pragma unroll 1
#else
#pragma unroll
#endif
                for (int b = 0; b < vecs / batch; ++b) {
                    uint4 raw[batch];
#pragma unroll
                    for (int k = 0; k < batch; ++k)
                        raw[k] = Coherent ? hr_load16_coherent(p + b * batch + k) : hr_load16_input(p + b * batch + k);
                    acc v[per_batch];
                    HR_MEMCPY(v, raw, sizeof v);
#pragma unroll
                    for (int i = 0; i < per_batch; ++i) fold.add(v[i]);
                }
            }
            return fold.result();
        }
    }
    for_lane_elements<items>(valid, lane,
                             [&](uint64_t at, int, int i) { fold.add(load_one<acc, Coherent>(tile + at + i)); });
    return fold.result();
}

}  // namespace hr

#endif
