/* The exact sums' driver (host/exact_driver.h): a full reduction or dot in one launch of
 * exact_full_kernel over a persistent grid (its counters only: no workspace), rows, columns and
 * segments in one launch of exact_slices_kernel (no workspace). device/exact_kernels.h says how
 * the sums stay exact. */
#include "exact_driver.h"

#include "exact_kernels.h"

namespace hr {

namespace {

/* The full reduction's grid: the blocks of its kernel resident at once (one wave), which hand
 * the tiles out among themselves in chunks (exact_kernels.h's EXACT_CHUNK_ROUNDS). The runtime's
 * occupancy (host/drivers.h; the emulator has none: HR_EXACT_BLOCKS, the CUDA launch bound's). */
template <int In, bool Dot, int W> uint64_t exact_blocks_per_sm()
{
    return kernel_blocks_per_sm<exact_full_kernel<In, Dot, W>>((int)HR_EXACT_BLOCKS);
}

template <int In, bool Dot, int W> hipError_t run_exact(const reduce_call& c, call_need* need_out)
{
    call_need own, *need = need_out ? need_out : &own; /* null when running: sized before */
    int lo, hi;
    hr_exact_digit_range(Dot ? HIPREDUCE_OP_DOT_EXACT : HIPREDUCE_OP_SUM_EXACT, In, &lo, &hi);
    const bool full = Dot || c.shape == HR_SHAPE_FULL || (c.shape == HR_SHAPE_AXIS && c.outer == 1 && c.inner == 1);
    if (!full) { /* rows, columns, segments: a lane, a warp or a block per result */
        if constexpr (!Dot) {
            need->partials = need->counters = 0;
            if (c.size_only) return hipSuccess;
            const bool segments = c.shape == HR_SHAPE_SEGMENTS;
            const uint64_t results = segments ? c.num_segments * c.inner : c.outer * c.inner, cap = (uint64_t)c.dev->sm_count * 16;
            const uint32_t per = exact_slices_per<In, W>(results, c.extent, segments, c.out_dtype, c.words, cap);
            const exact_slices_args a = {(const unsigned char*)c.input, segments ? c.offsets : nullptr, results, c.extent,
                                         c.inner, lo, hi, c.result, c.out_dtype, c.words, per};
            const uint64_t groups = (results + per - 1) / per;
            const dim3 grid((unsigned)(groups < cap ? groups : cap));
            bool lanes = false;
            if constexpr (exact_lane_kind<In>) {
                lanes = per > HR_TILE_LANES / W;
                if (lanes) hipLaunchKernelGGL((exact_slices_kernel<In, W, true>), grid, dim3(HR_TILE_LANES), 0, c.stream, a);
            }
            if (!lanes) hipLaunchKernelGGL((exact_slices_kernel<In, W, false>), grid, dim3(HR_TILE_LANES), 0, c.stream, a);
            return hipGetLastError();
        }
    }
    /* one wave, or fewer blocks where there are fewer chunks */
    const uint64_t chunks = exact_chunks<W>(exact_tiles<In, Dot, W>(c.extent));
    const uint64_t wave = c.dev->sm_count * exact_blocks_per_sm<In, Dot, W>(), blocks = chunks == 0 ? 1 : chunks < wave ? chunks : wave;
    const uint64_t digits = (uint64_t)(hi - lo + 1);
    need->partials = 0;
    need->counters = 16 + digits * 8; /* exact_full_args': arrivals, flags, claims, digits */
    if (c.size_only) return hipSuccess;
    /* A dot's rows (a plan's): one full launch a row, in stream order, each leaving the counters zero. */
    const uint64_t rows = c.shape == HR_SHAPE_AXIS ? c.outer : 1;
    const uint64_t row_bytes = c.extent * (uint64_t)hr_dtype_bytes(In);
    const uint64_t result_bytes = c.words ? 8u * (uint64_t)c.words : (uint64_t)hr_dtype_bytes(c.out_dtype);
    for (uint64_t r = 0; r < rows; ++r) {
        const unsigned char* x = (const unsigned char*)c.input + r * row_bytes;
        const unsigned char* y = (const unsigned char*)c.y + (Dot ? r * row_bytes : 0);
        const bool vec = (uintptr_t)x % 16 == 0 && (uintptr_t)y % 16 == 0;
        const exact_full_args a = {{x, y, c.extent, (uint64_t)exact_kind<In, Dot>::bytes, vec}, lo, hi, c.counters, c.counters + 1,
                                   (unsigned long long*)(c.counters + 2), (unsigned long long*)(c.counters + 4),
                                   (unsigned char*)c.result + r * result_bytes, c.out_dtype, c.words};
        hipLaunchKernelGGL((exact_full_kernel<In, Dot, W>), dim3((unsigned)blocks), dim3(HR_TILE_LANES), 0, c.stream, a);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
    }
    return hipSuccess;
}

template <int In, bool Dot> call_fn pick(bool wide) { return wide ? run_exact<In, Dot, 64> : run_exact<In, Dot, 32>; }

}  // namespace

call_fn exact_driver(int in_dtype, bool dot, bool wide)
{
    switch (in_dtype) {
    case HIPREDUCE_F16: return dot ? pick<HIPREDUCE_F16, true>(wide) : pick<HIPREDUCE_F16, false>(wide);
    case HIPREDUCE_BF16: return dot ? pick<HIPREDUCE_BF16, true>(wide) : pick<HIPREDUCE_BF16, false>(wide);
    case HIPREDUCE_F32: return dot ? pick<HIPREDUCE_F32, true>(wide) : pick<HIPREDUCE_F32, false>(wide);
    case HIPREDUCE_F64: return dot ? pick<HIPREDUCE_F64, true>(wide) : pick<HIPREDUCE_F64, false>(wide);
    default: return nullptr;
    }
}

}  // namespace hr
