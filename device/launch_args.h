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
 * argmin/argmax its index at index[r] (index null otherwise); a second output (var_mean,
 * std_mean) at result2 likewise (null otherwise). finish: the op row's (op_table.h), at run time,
 * so that ops differing only there (sum, mean) share their kernels; correction: var's and std's. */
struct result_args {
    void* result;
    int64_t* index;
    int out;
    int finish;
    void* result2;
    double correction;
};

/* Rounds accumulator v, the reduction of a slice of `count` elements (0: empty, the empty
 * result), once to the result dtype with the finish and writes result `item` (argmin/argmax: and
 * its index; two-output ops: and result2's). */
template <class R>
__device__ __forceinline__ void store_result(const result_args& a, uint64_t item, typename R::acc v, uint64_t count)
{
    const uint64_t bytes = (uint64_t)hr_dtype_bytes(a.out);
    unsigned char* r = (unsigned char*)a.result + item * bytes;
    unsigned char* r2 = a.result2 ? (unsigned char*)a.result2 + item * bytes : nullptr;
    R::store(v, count, a.out, a.finish, a.correction, r, r2, a.index ? a.index + item : nullptr);
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
 * (partial null), else the outputs are the next level's partials. extent: the axis's elements
 * (level 0's count), each result's count. */
struct strided_args : result_args {
    const void* x;
    uint64_t outer, count, inner, blocks;
    void* partial;
    uint64_t extent;
};

}  // namespace hr

#endif
