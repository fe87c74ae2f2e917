/* The default algorithm's driver as a host template over (operator, warp width), and the
 * table entries that the executor's run-time switch picks from (filled in
 * host/tree_<dtype>.cpp, host/instances.h). The multipass and two-pass drivers are the study
 * wing's (host/study/pass_drivers.h). */
#ifndef HIPREDUCE_DRIVERS_H
#define HIPREDUCE_DRIVERS_H

#include <array>

#include "hip_compat.h"
#include "kernels.h"
#include "op_table.h"
#include "ops.h"
#include "plan.h"
#include "tuning.h"

namespace hr {

/* Read once per handle from the device (never on the hot path). */
struct device_info {
    int ordinal;
    int warp_size;
    int sm_count;
    int major;          /* compute capability / gfx major */
    int blocks_per_sm;  /* from tuning.h */
};

/* Blocks of HR_TILE_LANES threads that fill the device once (the persistent grid). */
inline uint64_t resident_blocks(const device_info& dev) { return (uint64_t)dev.sm_count * dev.blocks_per_sm; }

struct reduce_call {
    const void* input;
    const void* y;             /* dot's second input; null otherwise */
    uint64_t n;
    void* result;              /* device memory for one result element */
    int64_t* index;            /* argmin/argmax: device memory for the index; null otherwise */
    int out_dtype;             /* the result dtype (default algorithm) */
    unsigned char* workspace;  /* the driver's scratch (partials, double buffers) */
    uint32_t* counters;        /* the default algorithm's arrival counters: zero, and left zero */
    hipStream_t stream;
    const device_info* dev;
};

using run_fn = hipError_t (*)(const reduce_call&);

static inline unsigned grid_for(uint64_t tiles, const device_info& dev)
{
    const uint64_t cap = resident_blocks(dev);
    return (unsigned)(tiles == 0 ? 1 : tiles < cap ? tiles : cap);
}

template <class R, int W> hipError_t run_tree(const reduce_call& c)
{
    hr_tree_plan plan;
    if (hr_plan_tree(c.n, tile_items<R>(), sizeof(typename R::acc), &plan) != 0) return hipErrorInvalidValue;
    tree_levels lv = {};
    lv.levels = plan.levels;
    for (int k = 0; k < plan.levels; ++k) {
        lv.count[k] = plan.count[k];
        lv.partial[k] = c.workspace + plan.partial_offset[k];
        lv.counter[k] = (uint32_t*)((unsigned char*)c.counters + plan.counter_offset[k]);
    }
    /* Even shares: as many blocks as fill the device, each a contiguous run of tiles, the
     * runs differing by at most one tile (every resident slot streams until the last tiles;
     * ceil-sized runs would leave up to a tile per block of slots idle: 3% for i8 at 2^28). */
    const uint64_t tiles = plan.levels > 1 ? plan.count[1] : 1;
    const unsigned grid = grid_for(tiles, *c.dev);
    lv.share = tiles / grid;
    lv.extra = tiles % grid;
    const tree_args args = {c.input, c.y, c.result, c.index, c.out_dtype, 0, 0};
    hipLaunchKernelGGL((tree_kernel<R, W>), dim3(grid), dim3(HR_TILE_LANES), 0, c.stream, args, lv);
    return hipGetLastError();
}

/* Axis and segment calls (host/segment_drivers.h): sizes (size_only) or runs one; *need gets
 * the bytes of partials and of (zeroed) arrival counters it needs. */
struct shaped_call;
struct shaped_need {
    uint64_t partials, counters;
};
using shaped_fn = hipError_t (*)(const shaped_call&, shaped_need* need);

/* Drivers in hipreduce_algorithm order. */
enum { HR_DRIVERS = 3 };

/* The default algorithm's instance of one (op, input dtype, accumulator) cell; run null
 * where the cell is no allowed triple's. */
struct tree_entry {
    run_fn run[2]; /* [warp 32, warp 64] */
    shaped_fn shaped[2]; /* the axis and segment calls, [warp 32, warp 64] */
    size_t acc_size;
    size_t elem_size;
};

/* The default algorithm's instances with one input dtype (host/tree_<dtype>.cpp). */
struct dtype_instances {
    std::array<std::array<tree_entry, HR_ACC_KINDS>, HR_OP_SLOTS> tree;
};

#define HR_DECLARE_INSTANCES(E, NAME, CLASS, BYTES) const dtype_instances& instances_##NAME();
HR_DTYPE_ROWS(HR_DECLARE_INSTANCES)
#undef HR_DECLARE_INSTANCES

}  // namespace hr

#endif
