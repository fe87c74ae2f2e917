/* How the study kernels read their input: one thread's share of a pass, folded into
 * one Op::acc. Out-of-range elements are skipped, which equals feeding the identity.
 * Element indices are 64-bit everywhere (n may exceed 2^32). */
#ifndef HIPREDUCE_STUDY_LOADERS_H
#define HIPREDUCE_STUDY_LOADERS_H

#include <string.h>

#include "hip_compat.h"
#include "order.h"

namespace hr {

/* Elements first, first + step, ... (at most `steps` of them, below count), each
 * followed by its partner `pair` elements further on when pair != 0. One loader
 * for every access pattern of the seeds:
 *  - one element per thread:        steps 1                (Harris reduce0..2, tutorial v1..v3)
 *  - first add during global load:  steps 1, pair blockDim (Harris reduce3..5, tutorial v4..v7, PMPP shared)
 *  - thread coarsening:             steps 2 COARSE_FACTOR, step blockDim (PMPP coarsened)
 *  - grid-stride loop:              steps unbounded, step = the whole grid's width
 *                                   (Harris reduce6 with pairs, tutorial v8/v10 without). */
template <class Op, class T>
__device__ __forceinline__ typename Op::acc strided_accumulate(typename Op::acc v, const T* in, uint64_t count,
                                                               uint64_t first, uint64_t step, uint64_t steps,
                                                               uint64_t pair)
{
    using acc = typename Op::acc;
    for (uint64_t k = 0, i = first; k < steps && i < count; ++k, i += step) {
        v = Op::apply(v, acc(in[i]));
        if (pair != 0 && i + pair < count) v = Op::apply(v, acc(in[i + pair]));
    }
    return v;
}

/* Bytes one thread reads per pass in tutorial v9 (ItemsPerThread = this / sizeof(T)). */
enum { HR_VECTOR_THREAD_BYTES = HR_TILE_CHUNKS * HR_CHUNK_BYTES };

/* ItemsPerThread consecutive elements from `first` (tutorial v9): 16-byte vector
 * loads, all issued before the first use, when the run is whole and aligned;
 * element by element otherwise. */
template <class Op, class T>
__device__ __forceinline__ typename Op::acc vector_items_accumulate(typename Op::acc v, const T* in, uint64_t count,
                                                                    uint64_t first)
{
    using acc = typename Op::acc;
    constexpr int chunks = HR_TILE_CHUNKS, per_chunk = HR_CHUNK_BYTES / (int)sizeof(T);
    constexpr uint64_t items = (uint64_t)chunks * per_chunk;
    if (first + items <= count && ((uintptr_t)(in + first) & (HR_CHUNK_BYTES - 1)) == 0) {
        uint4 raw[chunks];
#pragma unroll
        for (int c = 0; c < chunks; ++c) raw[c] = ((const uint4*)(in + first))[c];
#pragma unroll
        for (int c = 0; c < chunks; ++c) {
            T x[per_chunk];
            memcpy(x, &raw[c], sizeof x);
#pragma unroll
            for (int i = 0; i < per_chunk; ++i) v = Op::apply(v, acc(x[i]));
        }
        return v;
    }
    return strided_accumulate<Op>(v, in, count, first, 1, items, 0);
}

}  // namespace hr

#endif
