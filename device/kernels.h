/* The default algorithm's kernel, a template over the operator (ops.h: it fixes the input
 * type and the accumulator) and the warp width W, and the tile functions it shares with the
 * multipass and two-pass kernels (device/study/pass_kernels.h). An instance whose W does not
 * exist on the target compiles to a trap (hip_compat.h). */
#ifndef HIPREDUCE_KERNELS_H
#define HIPREDUCE_KERNELS_H

#include "block_reduce.h"
#include "launch_args.h"
#include "narrow_keys.h"
#include "tile_load.h"

namespace hr {

/* Levels and workspace of the default algorithm (plan.h's hr_tree_plan, as pointers). */
struct tree_levels {
    int levels;
    uint64_t count[HR_MAX_LEVELS];
    uint64_t share, extra;             /* block b streams a contiguous range of share tiles, + 1 if b < extra */
    void* partial[HR_MAX_LEVELS];      /* acc arrays of levels 1 .. levels-2 */
    uint32_t* counter[HR_MAX_LEVELS];  /* arrival counters of levels 2 .. levels-1, zero between launches */
    /* Rows (tree_args::row_elems elements apart): row_blocks consecutive blocks reduce each row
     * (blockIdx.x / row_blocks is the row; a one-dimensional grid, as the emulated GPU has), row
     * r's partials and counters r times these further. row_blocks 0: one array. */
    uint64_t row_blocks, row_partial_bytes, row_counters;
};

/* The row this block reduces (0 for one array), and the block's index inside it. */
__device__ __forceinline__ uint64_t tree_row(const tree_levels& lv) { return lv.row_blocks ? blockIdx.x / lv.row_blocks : 0; }
__device__ __forceinline__ uint64_t tree_block(const tree_levels& lv)
{
    return lv.row_blocks ? blockIdx.x % lv.row_blocks : blockIdx.x;
}

/* Level k's partials and counters of this block's row (the array's own for one array). */
template <class Acc> __device__ __forceinline__ Acc* level_partial(const tree_levels& lv, int k)
{
    return (Acc*)((unsigned char*)lv.partial[k] + tree_row(lv) * lv.row_partial_bytes);
}
__device__ __forceinline__ uint32_t* level_counter(const tree_levels& lv, int k)
{
    return lv.counter[k] + tree_row(lv) * lv.row_counters;
}

template <class R> __device__ __forceinline__ bool inputs_aligned(const void* x, const void* y)
{
    if constexpr (R::inputs == 2) return aligned16(x) && aligned16(y);
    else return aligned16(x);
}

/* Reduces input tile `tile` to one accumulator (valid in thread 0). */
template <class R>
__device__ __forceinline__ typename R::acc reduce_tile(const typename R::value_t* x, const typename R::value_t* y,
                                                      uint64_t count, uint64_t tile, bool aligned,
                                                      block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    const uint64_t first = tile * tile_items<R>();
    const uint64_t valid = tile_valid<R>(count, first);
    typename R::acc v = input_lane_accumulate<R>(R::identity(), x, y, first, valid,
                                                 aligned && valid == tile_items<R>(), threadIdx.x);
    return block_reduce_segments<R, HR_TILE_LANES>(v, smem);
}

#ifndef HR_TREE_MIN_BLOCKS
/* Resident 256-thread blocks per SM / CU that the tree kernel's registers must allow:
 * host/tuning.h's rows launch that many per multiprocessor. */
#define HR_TREE_MIN_BLOCKS 4
#endif
/* __launch_bounds__'s second argument: on CUDA, blocks per SM; on HIP it becomes
 * amdgpu_waves_per_eu, waves per SIMD, and the host's "SM" is what hipDeviceProp's
 * multiProcessorCount counts. gfx9 (wave64, a CU of 4 SIMDs): a 256-thread block is one
 * wave on each SIMD, so waves per SIMD = blocks per CU (4: at most 128 VGPRs on gfx90a/940,
 * 64 on gfx906/908). gfx10 and later run in WGP mode, where multiProcessorCount counts
 * workgroup processors (two CUs, 4 SIMD32): a block is 8 waves of 32, 2 per SIMD, so 4 blocks
 * per WGP are 8 waves per SIMD (at most 128 VGPRs). (A bound of 16, from counting 2 SIMDs,
 * capped the kernels at 64 VGPRs and ROCm 5.2's clang spilled 33-52 of the tree kernel's to
 * scratch on gfx1030: -Rpass-analysis=kernel-resource-usage, f32.) */
#if defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
#define HR_TREE_MIN_OCCUPANCY (HR_TREE_MIN_BLOCKS * 2)
#else
#define HR_TREE_MIN_OCCUPANCY HR_TREE_MIN_BLOCKS
#endif

#ifndef HR_TREE_PREFETCH
#define HR_TREE_PREFETCH 1 /* load tile t+1 before reducing tile t */
#endif
#ifndef HR_KEYED_PREFETCH
#define HR_KEYED_PREFETCH 1 /* the same for argmin/argmax (key + position per lane: more registers) */
#endif

/* Reduces input tiles [first, end) one by one, storing tile t's value at out[t]. Full
 * aligned tiles are software-pipelined: the next tile's loads are in flight while the
 * block reduces the current one, so the per-tile barriers do not stall the stream. dot
 * loads two inputs' chunks per tile, already twice a single input's bytes in flight, and
 * a second tile's worth would not fit the registers the launch bound allows. argmin/argmax
 * of 8/16-bit inputs reduce a full tile by one 32-bit maximum (narrow_keys.h). */
template <class R>
__device__ __forceinline__ void stream_tiles(const typename R::value_t* x, const typename R::value_t* y,
                                             uint64_t count, uint64_t first, uint64_t end, typename R::acc* out,
                                             block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    using acc = typename R::acc;
    const bool aligned = inputs_aligned<R>(x, y);
    uint64_t tile = first;
    if constexpr (HR_TREE_PREFETCH && R::inputs == 1 && (HR_KEYED_PREFETCH || !R::keyed)) {
        if (aligned) {
            const uint64_t full = count / tile_items<R>() < end ? count / tile_items<R>() : end;
            input_chunks<R> current;
            if (tile < full) load_input<R>(current, x, y, tile * tile_items<R>(), threadIdx.x);
            for (; tile < full; ++tile) {
                input_chunks<R> next;
                if (tile + 1 < full) load_input<R>(next, x, y, (tile + 1) * tile_items<R>(), threadIdx.x);
                acc v;
                if constexpr (narrow_keys<R>())
                    v = reduce_narrow_keys<R>(current.x, tile * tile_items<R>(), smem);
                else
                    v = block_reduce_segments<R, HR_TILE_LANES>(
                        fold_input<R>(R::identity(), current, threadIdx.x, tile * tile_items<R>()), smem);
                if (threadIdx.x == 0) out[tile] = v;
                current = next;
            }
        }
    }
    for (; tile < end; ++tile) {
        acc v = reduce_tile<R>(x, y, count, tile, aligned, smem);
        if (threadIdx.x == 0) out[tile] = v;
    }
}

/* Whether R's result has the same bits in every order, so that a block may fold all its tiles
 * lane by lane and the launch finish over one partial per block (tree_kernel): integer results of
 * integer inputs (sums and products modulo 2^bits, min, max, bitwise ops) and argmin/argmax of
 * 8/16-bit keys (the best key's first index is unique). Per tile, the order's tree cost two
 * barriers and the finish read one partial per tile (i8 at 2^28: 16384). */
template <class R> constexpr bool order_free()
{
    using T = typename R::value_t;
    constexpr bool integers = !R::float_in && std::is_integral<T>::value && std::is_integral<typename R::acc>::value;
    return R::inputs == 1 && (narrow_keys<R>() || integers);
}

/* Calls f(chunks, tile) for the full aligned input tiles [first, end), in order, the next tile's
 * loads in flight while f runs on this one; the two buffers take turns, so no tile's registers
 * are copied (a copy was 16 moves per tile). */
template <class R> struct full_tiles {
    const typename R::value_t* x;
    uint64_t first, end;
    template <class F> __device__ __forceinline__ void operator()(const F& f) const
    {
        constexpr uint64_t items = tile_items<R>();
        lane_chunks a, b;
        uint64_t t = first;
        if (t < end) load_chunks<false>(a, x + t * items, threadIdx.x);
        while (t < end) {
            if (t + 1 < end) load_chunks<false>(b, x + (t + 1) * items, threadIdx.x);
            f(a, t);
            if (++t == end) break;
            if (t + 1 < end) load_chunks<false>(a, x + (t + 1) * items, threadIdx.x);
            f(b, t);
            ++t;
        }
    }
};

/* The block's accumulator (valid in thread 0) of input tiles [first, end) of an order-free R:
 * each lane folds its chunks of every tile, the block's tree runs once. */
template <class R>
__device__ __forceinline__ typename R::acc reduce_range(const typename R::value_t* x, uint64_t count, uint64_t first,
                                                       uint64_t end, block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    using acc = typename R::acc;
    const bool aligned = aligned16(x);
    const uint64_t full_end = count / tile_items<R>() < end ? count / tile_items<R>() : end;
    uint64_t tile = first;
    acc v = R::identity();
    if (aligned && tile < full_end) {
        const full_tiles<R> stream = {x, tile, full_end};
        if constexpr (narrow_keys<R>()) {
            v = narrow_keys_lane<R>(stream);
        } else {
            stream([&](const lane_chunks& r, uint64_t t) {
                v = fold_input<R>(v, input_chunks<R>{r}, threadIdx.x, t * tile_items<R>());
            });
        }
        tile = full_end;
    }
    for (; tile < end; ++tile) { /* a partial last tile, or an unaligned input */
        const uint64_t at = tile * tile_items<R>(), valid = tile_valid<R>(count, at);
        v = R::apply(v, input_lane_accumulate<R>(R::identity(), x, nullptr, at, valid, aligned && valid == tile_items<R>(),
                                                 threadIdx.x));
    }
    return block_reduce_segments<R, HR_TILE_LANES>(v, smem);
}

/* Thread 0: `arrivals` of a counter's `members` are stored; whether they complete them (then it
 * resets the counter for the next launch). The arrival is one acquire-release atomic: its release
 * half publishes thread 0's stores, its acquire half (in the completing block) makes every
 * earlier arrival's stores visible to thread 0, and the barrier after it (__syncthreads_or, in
 * the callers) extends that to the block's other threads. */
__device__ __forceinline__ bool arrive_add(uint32_t* counter, uint64_t arrivals, uint64_t members)
{
    const bool last = hr_arrive_add(counter, (uint32_t)arrivals) + arrivals == members;
    if (last) *counter = 0;
    return last;
}

/* `arrivals` elements of `level` in group `group` are stored (by thread 0). Returns, in every
 * thread, whether they complete the group. */
template <class R>
__device__ __forceinline__ bool arrive(const tree_levels& lv, int level, uint64_t group, uint64_t arrivals)
{
    bool last = false;
    if (threadIdx.x == 0) {
        const uint64_t members = tile_valid<R>(lv.count[level], group * tile_items<R>());
        last = arrive_add(level_counter(lv, level + 1) + group, arrivals, members);
    }
    return __syncthreads_or(last);
}

/* Reduces group `group` of level `level`, written by other blocks of this launch. */
template <class R>
__device__ __forceinline__ typename R::acc reduce_group(const tree_levels& lv, int level, uint64_t group,
                                                       block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    using acc = typename R::acc;
    const acc* partial = level_partial<const acc>(lv, level) + group * tile_items<R>();
    const uint64_t valid = tile_valid<R>(lv.count[level], group * tile_items<R>());
    acc v = partial_lane_accumulate<R, true>(R::identity(), partial, valid, valid == tile_items<R>(), threadIdx.x);
    return block_reduce_segments<R, HR_TILE_LANES>(v, smem);
}

/* Carries element `index` of `level` (value v in thread 0) up the levels for as long
 * as this block is the one completing each group; the top element is the result. */
template <class R>
__device__ __forceinline__ void climb(const tree_levels& lv, const tree_args& a, int level, uint64_t index,
                                      typename R::acc v, block_reduce_storage<R, HR_TILE_LANES>& smem)
{
    for (;; ++level) {
        if (level == lv.levels - 1) {
            if (threadIdx.x == 0) store_result<R>(a, tree_row(lv), v, lv.count[0]);
            return;
        }
        if (threadIdx.x == 0) level_partial<typename R::acc>(lv, level)[index] = v;
        const uint64_t group = index / tile_items<R>();
        if (!arrive<R>(lv, level, group, 1)) return;
        v = reduce_group<R>(lv, level, group, smem);
        index = group;
    }
}

/* Default algorithm, one launch (PMPP's segmented reduction and the HIP tutorial's
 * single pass, with a deterministic last-block finish instead of float atomics).
 * Block b streams input tiles [b*k, b*k+k) into level 1, then arrives once in each
 * level-1 group (tile_items consecutive partials) its range touched; the block that
 * completes a group reduces it into level 2, and so on up to the one-element top. The
 * order is fixed by element index, whichever block does the work. An order-free R (above)
 * skips the levels: each block folds its range at once, the last to arrive reduces the
 * blocks' partials. */
template <class R, int W>
__global__ __launch_bounds__(HR_TILE_LANES, HR_TREE_MIN_OCCUPANCY) void tree_kernel(tree_args a, tree_levels lv)
{
    HR_KERNEL_BODY(W)
    {
        using T = typename R::value_t;
        const T* x = (const T*)a.x + tree_row(lv) * a.row_elems;
        const T* y = R::inputs == 2 ? (const T*)a.y + tree_row(lv) * a.row_elems : nullptr; /* dot: its row too */
        HR_SHARED(smem, block_reduce_storage<R, HR_TILE_LANES>);
        if (lv.count[0] == 0 || lv.levels == 2) { /* empty, or one tile: block 0 alone */
            typename R::acc v = R::identity();
            if (lv.count[0]) v = reduce_tile<R>(x, y, lv.count[0], 0, inputs_aligned<R>(x, y), smem);
            if (threadIdx.x == 0) store_result<R>(a, tree_row(lv), v, lv.count[0]);
            return;
        }
        const uint64_t b = tree_block(lv);
        const uint64_t first = b * lv.share + (b < lv.extra ? b : lv.extra);
        const uint64_t end = first + lv.share + (b < lv.extra ? 1 : 0);
        if constexpr (order_free<R>()) { /* one partial per block, of the row's blocks (level 1 has room) */
            using acc = typename R::acc;
            const uint64_t blocks = lv.row_blocks ? lv.row_blocks : gridDim.x;
            acc* partial = level_partial<acc>(lv, 1);
            acc v = reduce_range<R>(x, lv.count[0], first, end, smem);
            if (threadIdx.x == 0) partial[b] = v;
            if (!__syncthreads_or(threadIdx.x == 0 && arrive_add(level_counter(lv, 2), 1, blocks))) return;
            v = R::identity(); /* a partial or a few per thread, all loads in flight */
#pragma unroll 4
            for (uint64_t i = threadIdx.x; i < blocks; i += HR_TILE_LANES) v = R::apply(v, load_one<acc, true>(partial + i));
            v = block_reduce_segments<R, HR_TILE_LANES>(v, smem);
            if (threadIdx.x == 0) store_result<R>(a, tree_row(lv), v, lv.count[0]);
            return;
        }
        stream_tiles<R>(x, y, lv.count[0], first, end, level_partial<typename R::acc>(lv, 1), smem);
        for (uint64_t group = first / tile_items<R>(); group * tile_items<R>() < end; ++group) {
            const uint64_t lo = group * tile_items<R>() > first ? group * tile_items<R>() : first;
            const uint64_t hi = (group + 1) * tile_items<R>() < end ? (group + 1) * tile_items<R>() : end;
            if (arrive<R>(lv, 1, group, hi - lo)) climb<R>(lv, a, 2, group, reduce_group<R>(lv, 1, group, smem), smem);
        }
    }
}

}  // namespace hr

#endif
