/* Per-architecture tuning of the default algorithm's launch, as data. Only choices
 * that leave the reduction order alone live here (the tile geometry is part of the
 * reproducibility contract, src/plan.h): how many 256-thread blocks to keep resident
 * per multiprocessor (the persistent grid), each streaming a contiguous run of tiles.
 * The input loads are evict-first (__ldcs) on NVIDIA: device/hip_compat.h. */
#ifndef HIPREDUCE_TUNING_H
#define HIPREDUCE_TUNING_H

namespace hr {

struct tuning_row {
    int warp_size;     /* 32: NVIDIA or AMD RDNA; 64: AMD GCN/CDNA */
    int major;         /* compute capability major (NVIDIA) or gfx major (AMD); 0 = any */
    int blocks_per_sm; /* resident blocks of HR_TILE_LANES threads per SM / CU */
};

/* First match wins. Measured rows name the figure that chose them (NVIDIA H200, CUDA
 * 13.0, hipreduce tuning harness against CUB DeviceReduce in the same process). */
constexpr tuning_row tuning_table[] = {
    /* sm_90: 4 blocks/SM. f32 sum 2^28: 4465 GB/s (0.98x CUB), f32 max 2^28: 0.2467 ms (1.00x CUB);
     * with 8 blocks/SM: 4354 GB/s and 1.07x CUB for max, with 6: 4128 GB/s. */
    {32, 9, 4},
    /* Other NVIDIA: the same 1024 threads per SM, which hides DRAM latency with 4 x 16 B
     * in flight per lane (not measured). */
    {32, 0, 4},
    /* AMD CDNA/GCN (wave64, up to 2560 threads per CU): 4 blocks = 16 waves per CU
     * keep 64 KiB of loads in flight per CU (reasoned, no AMD GPU to measure). */
    {64, 0, 4},
};

inline int blocks_per_sm(int warp_size, int major)
{
    for (const tuning_row& row : tuning_table)
        if (row.warp_size == warp_size && (row.major == 0 || row.major == major)) return row.blocks_per_sm;
    return 4;
}

}  // namespace hr

#endif
