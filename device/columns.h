/* The columns' kernel of the axis reductions (hipreduce_reduce_axis with inner > 1), in the
 * strided order of device/order.h: a thread per (outer, block, inner) output folds its block's
 * 256 elements in 8 lanes, consecutive threads reading consecutive inner positions; each level
 * is one launch, the partials laid out [outer][block][inner]. */
#ifndef HIPREDUCE_COLUMNS_H
#define HIPREDUCE_COLUMNS_H

#include "launch_args.h"
#include "tile_load.h"

namespace hr {

/* f64 nrm2's full blocks (three f64 sums a lane) unrolled 4 x 8 lanes, as every other op's: on
 * NVIDIA (H100, f64 nrm2 columns 1024 x 65536 and 65536 x 1024: 6-8% faster than the short blocks'
 * loop), not on AMD (gfx1030: 256 VGPRs and 2 spilled; ROCm 5.2, test/amd_spills.sh). */
#if defined(HIPREDUCE_BACKEND_CUDA)
#define HR_COLUMNS_NRM2_UNROLL 1
#else
#define HR_COLUMNS_NRM2_UNROLL 0
#endif

/* Level 0's elements as the combine takes them: v at position e along the axis. */
template <class R> __device__ __forceinline__ typename R::acc strided_lift(typename R::value_t v, uint64_t e)
{
    if constexpr (R::keyed) return typename R::acc{R::key_of(v), (int64_t)e};
    else return R::lift(v);
}

/* Element `at` of a strided level: level 0 the transformed input element (argmin/argmax: its
 * position e along the axis as the index), later levels an accumulator. */
template <class R, bool Level0>
__device__ __forceinline__ typename R::acc strided_element(const void* x, uint64_t at, uint64_t e)
{
    if constexpr (Level0) {
        return strided_lift<R>(((const typename R::value_t*)x)[at], e);
    } else {
        return ((const typename R::acc*)x)[at];
    }
}

/* A thread's V consecutive results (or partials) as one 16-byte store, where they are 16 bytes at
 * a 16-byte boundary; false: not done. Stored one by one, 4-byte results a 16-byte stride apart
 * wrote each 32-byte sector in 4 pieces (ncu, 16 x 4194304 f32 sum: L2 91% busy, DRAM 75%; one
 * store and one wave of blocks: L2 88%, DRAM 85%, 3365-3371 -> 3707-3712 GB/s on the H200). */
template <class R, int V, int L>
__device__ __forceinline__ bool store_columns16(const strided_args& a, bool top, uint64_t first, uint64_t id,
                                                const typename R::acc (&l)[V][L])
{
    static_assert(!R::keyed && hr_acc_bytes(R::acc_kind) <= 8, "vectors of columns are sums': no index or second result");
    unsigned char bytes[16];
    unsigned char* dst;
    if (top) {
        if ((int)hr_dtype_bytes(a.out) * V != 16) return false;
        dst = (unsigned char*)a.result + first * (16 / V);
#pragma unroll
        for (int c = 0; c < V; ++c)
            R::store(l[c][0], a.extent, a.out, a.finish, a.correction, bytes + c * (16 / V), nullptr, nullptr);
    } else {
        if constexpr (sizeof(typename R::acc) * V != 16) return false;
        dst = (unsigned char*)a.partial + id * 16;
#pragma unroll
        for (int c = 0; c < V; ++c) HR_MEMCPY(bytes + c * (16 / V), &l[c][0], 16 / V);
    }
    if (((uintptr_t)dst & 15) != 0) return false;
    uint4 w;
    HR_MEMCPY(&w, bytes, 16);
    *(uint4*)dst = w;
    return true;
}

/* Columns of a level, a thread per (outer, block, V consecutive inner positions). V > 1 (level 0,
 * host/tuning.h's strided_vector_bytes; inner a multiple of V, the input at a 16-byte boundary):
 * each element's V columns are one 16-byte load, so a thread has the 8 lanes' 128 bytes in flight
 * instead of 32; every column keeps its own lanes and order. */
template <class R, int W, bool Level0, int V = 1>
__global__ __launch_bounds__(HR_TILE_LANES) void strided_kernel(strided_args a)
{
    HR_KERNEL_BODY(W)
    {
        using acc = typename R::acc;
        using T = typename R::value_t;
        static_assert(V == 1 || (Level0 && V * sizeof(T) == HR_CHUNK_BYTES), "vectors: 16-byte loads of the input");
        constexpr int B = HR_STRIDED_BLOCK, L = HR_STRIDED_LANES;
        const uint64_t columns = a.inner / V; /* of V positions each */
        const uint64_t total = a.outer * a.blocks * columns;
        const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
        const bool narrow = total <= UINT32_MAX; /* 32-bit divisions: a fraction of 64-bit ones' cost */
        for (uint64_t id = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; id < total; id += stride) {
            uint64_t i, b, o;
            if (narrow) {
                const uint32_t ob = (uint32_t)id / (uint32_t)columns;
                i = (uint32_t)id - ob * (uint32_t)columns;
                o = ob / (uint32_t)a.blocks;
                b = ob - (uint32_t)o * (uint32_t)a.blocks;
            } else {
                const uint64_t ob = id / columns;
                i = id % columns;
                b = ob % a.blocks;
                o = ob / a.blocks;
            }
            i *= V;
            const uint64_t e0 = b * B;
            const uint64_t n = a.count - e0 < (uint64_t)B ? a.count - e0 : (uint64_t)B;
            const uint64_t at0 = (o * a.count + e0) * a.inner + i;
            acc l[V][L];
#pragma unroll
            for (int c = 0; c < V; ++c)
#pragma unroll
                for (int j = 0; j < L; ++j) l[c][j] = R::identity();
            if constexpr (V > 1) { /* every lane's next 16 bytes in flight at once, then folded */
                const T* x = (const T*)a.x;
#pragma unroll 1
                for (uint64_t t = 0; t * L < n; ++t) {
                    T v[L][V];
#pragma unroll
                    for (int j = 0; j < L; ++j)
                        if (t * L + j < n) {
                            const uint4 raw = hr_load16_input(x + at0 + (t * L + j) * a.inner);
                            HR_MEMCPY(v[j], &raw, sizeof v[j]);
                        }
#pragma unroll
                    for (int j = 0; j < L; ++j)
                        if (t * L + j < n)
#pragma unroll
                            for (int c = 0; c < V; ++c) l[c][j] = R::apply(l[c][j], strided_lift<R>(v[j][c], e0 + t * L + j));
                }
            } else if (n == (uint64_t)B && (R::acc_kind != HR_ACC_NRM2_F64 || HR_COLUMNS_NRM2_UNROLL)) {
#pragma unroll 4
                for (int t = 0; t < B / L; ++t)
#pragma unroll
                    for (int j = 0; j < L; ++j) {
                        const uint64_t e = (uint64_t)t * L + j;
                        l[0][j] = R::apply(l[0][j], strided_element<R, Level0>(a.x, at0 + e * a.inner, e0 + e));
                    }
            } else { /* a short block (or nrm2's on AMD: HR_COLUMNS_NRM2_UNROLL): the same sequence, every
                      * lane's next element in flight at once */
                for (uint64_t t = 0; t * L < n; ++t)
#pragma unroll
                    for (int j = 0; j < L; ++j) {
                        const uint64_t e = t * L + j;
                        if (e < n) l[0][j] = R::apply(l[0][j], strided_element<R, Level0>(a.x, at0 + e * a.inner, e0 + e));
                    }
            }
#pragma unroll
            for (int c = 0; c < V; ++c) {
#pragma unroll
                for (int s = L / 2; s > 0; s /= 2)
#pragma unroll
                    for (int j = 0; j < s; ++j) l[c][j] = R::apply(l[c][j], l[c][j + s]);
                if (a.count == 1) { /* one element: the result itself (min/max: a NaN made canonical) */
                    l[c][0] = strided_element<R, Level0>(a.x, at0 + c, 0);
                    if constexpr (R::combine == HR_CB_MIN || R::combine == HR_CB_MAX) l[c][0] = R::apply(l[c][0], l[c][0]);
                }
            }
            const bool top = a.blocks == 1 && a.count <= (uint64_t)B;
            if constexpr (V > 1) {
                if (store_columns16<R, V>(a, top, o * a.inner + i, id, l)) continue;
            }
#pragma unroll
            for (int c = 0; c < V; ++c) {
                if (top) store_result<R>(a, o * a.inner + i + c, l[c][0], a.extent);
                else ((acc*)a.partial)[id * V + c] = l[c][0];
            }
        }
    }
}

}  // namespace hr

#endif
