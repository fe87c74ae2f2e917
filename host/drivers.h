/* What the executor hands a driver: the one call struct (reduce_call), built once per call, and
 * the device it runs on; the default algorithm's table entries that the executor's run-time
 * switch picks from (filled in host/tree_<dtype>.cpp, host/instances.h; its driver:
 * host/default_driver.h). The multipass and two-pass drivers are the study wing's
 * (host/study/pass_drivers.h); they and the study algorithms read the same struct. */
#ifndef HIPREDUCE_DRIVERS_H
#define HIPREDUCE_DRIVERS_H

#include <array>

#include "call.h"
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

/* Blocks of Kernel (HR_TILE_LANES threads each) resident on one SM at once: the runtime's
 * occupancy, asked once per kernel and process (a device of another architecture in the same
 * process gets the first one's count: a grid size, never the bits); `fallback` where there is
 * none (the emulator) or the query fails. Sizes the grids of one resident wave. */
template <auto Kernel> uint64_t kernel_blocks_per_sm(int fallback)
{
    static const int blocks = [] {
        int n = 0;
#if !defined(HIPREDUCE_BACKEND_EMU)
        if (hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, Kernel, HR_TILE_LANES, 0) != hipSuccess) {
            n = 0;
            (void)hipGetLastError(); /* not the launch's error */
        }
#endif
        return n;
    }();
    return (uint64_t)(blocks > 0 ? blocks : fallback);
}

static inline unsigned grid_for(uint64_t tiles, const device_info& dev)
{
    const uint64_t cap = resident_blocks(dev);
    return (unsigned)(tiles == 0 ? 1 : tiles < cap ? tiles : cap);
}

static inline uint64_t round16(uint64_t b) { return (b + 15) / 16 * 16; }

/* A validated call (device/call.h's hr_call) as a driver takes it, with its launch context: the
 * executor builds it once per call (host/gpu_executor.cpp, driver_call). Full reductions are
 * the shape [1][n][1]; only the default algorithm runs the others. */
struct reduce_call {
    hr_shape shape;
    const void* input;
    const void* y;             /* dot's second input; null otherwise */
    const uint64_t* offsets;   /* SEGMENTS: num_segments + 1 offsets in device memory */
    uint64_t n;                /* elements of the input (full: extent) */
    uint64_t outer, extent, inner, num_segments;
    const hr_tensor* tensor;   /* TENSOR: its dimensions (outer results, extent elements each) */
    int out_dtype;
    int words;                 /* exact sums: 0, or each result's accumulator as this many int64 (exact.h) */
    void* result;              /* device memory for the results (argmin/argmax: the values) */
    int64_t* index;            /* argmin/argmax: device memory for the indices; null otherwise */
    void* result2;             /* var_mean, std_mean: device memory for the means; null otherwise */
    int finish;                /* the op row's finish (op_table.h) */
    double correction;         /* var and std's */
    unsigned char* workspace;  /* the driver's scratch, 16-byte aligned (partials, double buffers) */
    uint32_t* counters;        /* the default algorithm's arrival counters: zero, and left zero */
    bool size_only;            /* only report the bytes (the size query, and before a run) */
    hipStream_t stream;
    const device_info* dev;
};

/* Where a call's results go, as every default-algorithm kernel takes it (launch_args.h). */
inline result_args results_of(const reduce_call& c)
{
    return result_args{c.result, c.index, c.out_dtype, c.finish, c.result2, c.correction};
}

/* The bytes a default-algorithm call needs: partials, and (zeroed) arrival counters. */
struct call_need {
    uint64_t partials, counters;
};

/* The default algorithm's driver (default_driver.h: sizes, or runs, any call); the multipass and
 * two-pass runners (full reductions). */
using call_fn = hipError_t (*)(const reduce_call&, call_need* need);
using run_fn = hipError_t (*)(const reduce_call&);

/* The default algorithm's instance of one (op, input dtype, accumulator) cell; run null
 * where the cell is no allowed triple's. */
struct tree_entry {
    call_fn run[2]; /* [warp 32, warp 64] */
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
