/* The default algorithm's tensor shape (device/call.h, HR_SHAPE_TENSOR; device/tensor.h's kernels):
 * one launch per level of the default order, no copy of the tensor. Level 0 reads the tensor by
 * its columns where a kept dimension is the fastest in memory, else by its tiles; each level's
 * partials are laid out for the next level's kernel (many slices: [tile][slice], read by columns;
 * few: [slice][tile], read as rows). The workspace is those partials. */
#ifndef HIPREDUCE_TENSOR_DRIVER_H
#define HIPREDUCE_TENSOR_DRIVER_H

#include "default_driver.h"
#include "tensor.h"

namespace hr {

/* Whether level 0 reads by columns: the innermost kept dimension moves through memory in steps of
 * at most tensor_column_stride_max elements, less than any reduced one, and holds enough slices
 * to fill a segment's loads (host/tuning.h). */
inline bool tensor_by_columns(const hr_tensor& t)
{
    if (t.kept == 0) return false;
    const uint64_t step = (uint64_t)(t.xstride[t.kept - 1] < 0 ? -t.xstride[t.kept - 1] : t.xstride[t.kept - 1]);
    if (step == 0 || step > tensor_column_stride_max || t.extent[t.kept - 1] < tensor_columns_min) return false;
    for (int d = t.kept; d < t.kept + t.reduced; ++d) {
        const uint64_t s = (uint64_t)(t.xstride[d] < 0 ? -t.xstride[d] : t.xstride[d]);
        if (s <= step) return false;
    }
    return true;
}

/* Whether the tiles kernel's level 0 reads whole chunks by 16-byte loads: the reduced innermost
 * dimension is contiguous and a whole number of chunks, every other stride a whole number of
 * chunks, the origin at a 16-byte boundary. */
inline bool tensor_vector(const hr_tensor& t, const void* x, int items)
{
    const int dims = t.kept + t.reduced;
    if (t.reduced == 0 || t.xstride[dims - 1] != 1 || t.extent[dims - 1] % (uint64_t)items != 0) return false;
    for (int d = 0; d < dims - 1; ++d)
        if (t.xstride[d] % items != 0) return false;
    return ((uintptr_t)x & 15) == 0;
}

template <auto Kernel> void launch_tensor(const reduce_call& c, const tensor_args& a, uint64_t units)
{
    hipLaunchKernelGGL(Kernel, dim3(grid_over<Kernel>(units, 1, *c.dev)), dim3(HR_TILE_LANES), 0, c.stream, a);
}

template <class R, int W> hipError_t run_tensor(const reduce_call& c, call_need* need)
{
    using acc = typename R::acc;
    constexpr uint64_t items = tile_items<R>();
    const hr_tensor& t = *c.tensor;
    const uint64_t results = c.outer;
    /* count[k]: a slice's elements (k 0) or partials at level k; levels until one is left. */
    uint64_t count[HR_MAX_LEVELS + 1] = {c.extent}, offset[HR_MAX_LEVELS + 1] = {0}, bytes = 0;
    int levels = 1;
    while (count[levels - 1] > items) {
        count[levels] = (count[levels - 1] + items - 1) / items;
        offset[levels] = bytes;
        bytes += round16(results * count[levels] * sizeof(acc));
        ++levels;
    }
    need->partials = bytes;
    if (c.size_only || results == 0) return hipSuccess;
    const bool columns0 = tensor_by_columns(t);
    const bool upper_columns = results >= tensor_columns_min; /* the kernel of every level above 0 */
    for (int k = 0; k < levels; ++k) {
        const bool columns = k == 0 ? columns0 : upper_columns;
        tensor_args a = {};
        static_cast<result_args&>(a) = results_of(c);
        a.x = k == 0 ? c.input : (const void*)(c.workspace + offset[k]);
        a.results = results;
        a.count = count[k];
        a.slice = c.extent;
        a.tiles = k + 1 < levels ? count[k + 1] : 1;
        a.columns = results;
        if (k == 0) {
            const int kept = columns ? t.kept - 1 : t.kept;
            a.kept = hr_dims_of(t.extent, t.xstride, 0, kept, results);
            a.reduced = hr_dims_of(t.extent, t.xstride, t.kept, t.reduced, c.extent);
            a.runs = t.reduced > 0 && t.extent[t.kept + t.reduced - 1] % (uint64_t)chunk_items<R>() == 0;
            a.vector = !columns && tensor_vector(t, c.input, chunk_items<R>());
            if (columns) {
                a.columns = t.extent[t.kept - 1];
                a.column_stride = t.xstride[t.kept - 1];
            }
        } else if (upper_columns) {
            a.in_r = 1;
            a.in_t = results;
        } else {
            a.in_r = count[k];
            a.in_t = 1;
        }
        if (k + 1 < levels) {
            a.partial = c.workspace + offset[k + 1];
            a.out_r = upper_columns ? 1 : a.tiles;
            a.out_t = upper_columns ? results : 1;
        }
        const uint64_t units = columns ? results / a.columns * ((a.columns + HR_SEGMENT - 1) / HR_SEGMENT) * a.tiles
                                       : results * a.tiles;
        if (columns && k == 0) launch_tensor<tensor_columns_kernel<R, W, true>>(c, a, units);
        else if (columns) launch_tensor<tensor_columns_kernel<R, W, false>>(c, a, units);
        else if (k == 0) launch_tensor<tensor_tiles_kernel<R, W, true>>(c, a, units);
        else launch_tensor<tensor_tiles_kernel<R, W, false>>(c, a, units);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
    }
    return hipSuccess;
}

}  // namespace hr

#endif
