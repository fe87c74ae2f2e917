/* What the default algorithm's kernels receive: one parameter pack per kernel (tree_kernel:
 * tree_args, kernels.h; segments_kernel: seg_args, segments.h; strided_kernel: strided_args, columns.h;
 * the CSR segments' kernels: tile_args, segment_tiles.h),
 * each the shared result part plus the inputs and the shape that its kernel walks, and the one
 * store of a result that every kernel makes. The host fills them from its one call struct
 * (host/drivers.h, reduce_call). */
#ifndef HIPREDUCE_LAUNCH_ARGS_H
#define HIPREDUCE_LAUNCH_ARGS_H

#include <stdint.h>

#include "hip_compat.h"
#include "rules.h"

namespace hr {

/* Where a launch's results go: result r, of dtype `out`, at result + r * its bytes, and for
 * argmin/argmax its index at index[r] (index null otherwise). */
struct result_args {
    void* result;
    int64_t* index;
    int out;
};

/* Rounds accumulator v once to the result dtype and writes result `item` (argmin/argmax: and its
 * index); empty: the slice had no element (the empty result). */
template <class R>
__device__ __forceinline__ void store_result(const result_args& a, uint64_t item, typename R::acc v, bool empty)
{
    unsigned char* r = (unsigned char*)a.result + item * (uint64_t)hr_dtype_bytes(a.out);
    R::store(v, empty, a.out, r, a.index ? a.index + item : nullptr);
}

/* The full reduction's kernel, over one array or over rows of row_elems elements (kernels.h's
 * tree_levels::row_blocks). y: dot's second input, else null. */
struct tree_args : result_args {
    const void* x;
    const void* y;
    uint64_t row_elems;
};

/* The contiguous rows' kernel: `items` rows of `extent` elements (CSR segments: segment_tiles.h's
 * tile_args). */
struct seg_args : result_args {
    const void* x;
    uint64_t items;
    uint64_t extent;
};

/* One level of a strided reduction: outputs (o, b, i) of [outer][blocks][inner], block b
 * reducing elements [256b, 256b + 256) of the level's `count` along the axis. Level 0 reads
 * the input, later levels the accumulators; blocks == 1 is the top, which stores the results
 * (partial null), else the outputs are the next level's partials. */
struct strided_args : result_args {
    const void* x;
    uint64_t outer, count, inner, blocks;
    void* partial;
};

}  // namespace hr

#endif
