/* The three drivers as host templates over (operator, warp width), and the table
 * entry that the executor's run-time switch picks from. */
#ifndef HIPREDUCE_DRIVERS_H
#define HIPREDUCE_DRIVERS_H

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
    uint64_t n;
    void* result;              /* device memory for one element */
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

template <class Op, int W> hipError_t run_tree(const reduce_call& c)
{
    using T = typename Op::value_t;
    hr_tree_plan plan;
    if (hr_plan_tree(c.n, tile_items<Op>(), sizeof(typename Op::acc), &plan) != 0) return hipErrorInvalidValue;
    tree_levels lv = {};
    lv.levels = plan.levels;
    for (int k = 0; k < plan.levels; ++k) {
        lv.count[k] = plan.count[k];
        lv.partial[k] = c.workspace + plan.partial_offset[k];
        lv.counter[k] = (uint32_t*)((unsigned char*)c.counters + plan.counter_offset[k]);
    }
    /* Even shares: as many blocks as fill the device, each a contiguous run of tiles. */
    const uint64_t tiles = plan.levels > 1 ? plan.count[1] : 1;
    const uint64_t blocks = grid_for(tiles, *c.dev);
    lv.tiles_per_block = (tiles + blocks - 1) / blocks;
    const unsigned grid = (unsigned)((tiles + lv.tiles_per_block - 1) / lv.tiles_per_block);
    hipLaunchKernelGGL((tree_kernel<Op, W>), dim3(grid), dim3(HR_TILE_LANES), 0, c.stream, (const T*)c.input, lv,
                       (T*)c.result);
    return hipGetLastError();
}

template <class Op, int W> hipError_t run_multipass(const reduce_call& c)
{
    using T = typename Op::value_t;
    using acc = typename Op::acc;
    hr_multipass_plan plan;
    if (hr_plan_multipass(c.n, tile_items<Op>(), sizeof(acc), &plan) != 0) return hipErrorInvalidValue;
    void* buffer[2] = {c.workspace, c.workspace + plan.back_offset};
    const void* src = c.input;
    for (int pass = 0; pass < plan.passes; ++pass) {
        void* dst = pass + 1 == plan.passes ? c.result : buffer[pass % 2];
        const dim3 grid(grid_for(plan.count[pass + 1], *c.dev));
        if (pass == 0)
            hipLaunchKernelGGL((pass_kernel<Op, T, W>), grid, dim3(HR_TILE_LANES), 0, c.stream, (const T*)src,
                               plan.count[pass], dst);
        else
            hipLaunchKernelGGL((pass_kernel<Op, acc, W>), grid, dim3(HR_TILE_LANES), 0, c.stream, (const acc*)src,
                               plan.count[pass], dst);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
        src = dst;
    }
    return hipSuccess;
}

template <class Op, int W> hipError_t run_two_pass(const reduce_call& c)
{
    using T = typename Op::value_t;
    using acc = typename Op::acc;
    hr_two_pass_plan plan;
    if (hr_plan_two_pass(c.n, tile_items<Op>(), resident_blocks(*c.dev), sizeof(acc), &plan) != 0)
        return hipErrorInvalidValue;
    if (plan.blocks == 1) {
        hipLaunchKernelGGL((grid_stride_kernel<Op, T, W>), dim3(1), dim3(HR_TILE_LANES), 0, c.stream,
                           (const T*)c.input, c.n, c.result);
        return hipGetLastError();
    }
    hipLaunchKernelGGL((grid_stride_kernel<Op, T, W>), dim3((unsigned)plan.blocks), dim3(HR_TILE_LANES), 0, c.stream,
                       (const T*)c.input, c.n, (void*)c.workspace);
    hipLaunchKernelGGL((grid_stride_kernel<Op, acc, W>), dim3(1), dim3(HR_TILE_LANES), 0, c.stream,
                       (const acc*)c.workspace, plan.blocks, c.result);
    return hipGetLastError();
}

/* Drivers in hipreduce_algorithm order. */
enum { HR_DRIVERS = 3 };

/* One (op, dtype) cell of the run-time switch; acc_size == 0 where op does not apply. */
struct op_entry {
    size_t acc_size;
    size_t elem_size;
    run_fn run[HR_DRIVERS][2]; /* [algorithm][warp 32, warp 64] */
};

template <template <class> class OpT, class T> constexpr op_entry entry_for()
{
    using Op = OpT<T>;
    if constexpr (op_applies<Op>()) {
        return {sizeof(typename Op::acc),
                sizeof(T),
                {{run_tree<Op, 32>, run_tree<Op, 64>},
                 {run_multipass<Op, 32>, run_multipass<Op, 64>},
                 {run_two_pass<Op, 32>, run_two_pass<Op, 64>}}};
    } else {
        return {};
    }
}


/* A function-local table: a namespace-scope const array would also become a device
 * constant under HIP-Clang and drag the host launchers into the device pass. */
#define HR_DEFINE_OP_ROW(name)                                                                                     \
    const op_entry* row_##name()                                                                                   \
    {                                                                                                              \
        static const op_entry row[HR_DTYPE_SLOTS] = {                                                              \
        entry_for<op_##name, int8_t>(),  entry_for<op_##name, uint8_t>(),  entry_for<op_##name, int16_t>(),        \
        entry_for<op_##name, uint16_t>(), entry_for<op_##name, int32_t>(), entry_for<op_##name, uint32_t>(),       \
        entry_for<op_##name, int64_t>(), entry_for<op_##name, uint64_t>(), op_entry{},                             \
        op_entry{},                      entry_for<op_##name, float>(),    entry_for<op_##name, double>()};       \
        return row;                                                                                                \
    }

const op_entry* row_sum();
const op_entry* row_prod();
const op_entry* row_min();
const op_entry* row_max();
const op_entry* row_and();
const op_entry* row_or();
const op_entry* row_xor();

}  // namespace hr

#endif
