/* The GPU executor's by-key shape (device/call.h, HR_SHAPE_BY_KEY): the rows are sorted by key,
 * stably (device/by_key.h's radix passes), the bins' CSR starts found in the sorted keys, and the
 * values copied in sorted order as num_bins * row segments (feature j of bin b: the run from
 * row * start_b + j * count_b, its values in input order), which the segment kernels then reduce:
 * each result the bits of the simple call on its bin's values. Rows whose key lies outside
 * [0, num_bins) sort after every bin and are not copied, counted or reduced.
 *
 * The region (each array 16-byte aligned): [the sorted values][offsets: num_bins * row + 1]
 * [start: num_bins + 1][counts: num_bins][keys][row indices][the previous pass's keys and row
 * indices (more than one pass)][the passes' places: BK_BUCKETS x blocks]. Keys and row indices
 * are 32-bit where num_bins and length allow (else 64-bit). */
#include "gpu_by_key.h"

#include "by_key.h"

namespace hr {

namespace {

struct bk_layout {
    bool narrow;       /* 32-bit keys and row indices */
    unsigned passes;   /* radix passes of 8 bits: enough for num_bins - 1, and one at least */
    unsigned blocks;   /* each pass's blocks */
    uint64_t per_block;
    uint64_t values, offsets, start, counts, keys[2], rows[2], places, total; /* byte positions */
};

/* pos + bytes (16-aligned) into *at, pos advanced; false on overflow. */
bool take(uint64_t* pos, uint64_t count, uint64_t elem, uint64_t* at)
{
    if (elem != 0 && count > (UINT64_MAX - 16) / elem) return false;
    const uint64_t bytes = round16(count * elem);
    if (bytes > UINT64_MAX - *pos) return false;
    *at = *pos;
    *pos += bytes;
    return true;
}

bool layout_of(const hr_call* call, const device_info& dev, bk_layout* l)
{
    *l = bk_layout{};
    l->narrow = call->num_bins <= UINT32_MAX && call->length <= (uint64_t)UINT32_MAX + 1;
    for (uint64_t v = call->num_bins ? call->num_bins - 1 : 0; v; v >>= 8) ++l->passes;
    if (l->passes == 0) l->passes = 1; /* one bin: the pass that sets the keys out of range apart */
    if (call->length == 0) l->passes = 0;
    const uint64_t tiles = (call->length + BK_THREADS - 1) / BK_THREADS;
    uint64_t blocks = tiles < resident_blocks(dev) ? tiles : resident_blocks(dev);
    if (blocks == 0) blocks = 1;
    const uint64_t max_tiles = UINT64_C(1) << 22; /* per_block below 2^31: the count kernel's 32-bit counters */
    if ((tiles + blocks - 1) / blocks > max_tiles) blocks = (tiles + max_tiles - 1) / max_tiles;
    if (blocks > UINT32_MAX) return false;
    const uint64_t block_tiles = (tiles + blocks - 1) / blocks;
    blocks = tiles == 0 ? 1 : (tiles + block_tiles - 1) / block_tiles; /* none starts past the end */
    l->per_block = (block_tiles ? block_tiles : 1) * BK_THREADS;
    l->blocks = (unsigned)blocks;
    const uint64_t results = call->num_bins * call->row, side = l->narrow ? 4 : 8;
    uint64_t pos = 0;
    bool ok = take(&pos, call->n, (uint64_t)hr_dtype_bytes(call->in_dtype), &l->values) &&
              take(&pos, results + 1, 8, &l->offsets) && take(&pos, call->num_bins + 1, 8, &l->start) &&
              take(&pos, call->num_bins, 8, &l->counts) && take(&pos, call->length, side, &l->keys[0]) &&
              take(&pos, call->length, side, &l->rows[0]);
    if (ok && l->passes > 1) ok = take(&pos, call->length, side, &l->keys[1]) && take(&pos, call->length, side, &l->rows[1]);
    ok = ok && take(&pos, (uint64_t)BK_BUCKETS * blocks, 8, &l->places);
    l->total = pos;
    return ok;
}

/* Blocks of BK_THREADS for a grid-stride kernel over count items. */
unsigned grid_of(uint64_t count, const device_info& dev)
{
    const uint64_t blocks = (count + BK_THREADS - 1) / BK_THREADS, cap = resident_blocks(dev) * 4;
    return (unsigned)(blocks == 0 ? 1 : blocks < cap ? blocks : cap);
}

/* The pass that leaves the sorted pairs: the last one's output. */
unsigned final_side(const bk_layout& l) { return l.passes ? (l.passes - 1) & 1 : 0; }

template <class K, class I> hipError_t sort(const hr_call* call, const bk_layout& l, unsigned char* region, hipStream_t stream)
{
    for (unsigned p = 0; p < l.passes; ++p) {
        bk_pass<K, I> a = {};
        a.raw = p == 0 ? call->keys : nullptr;
        a.raw64 = call->key_dtype == HIPREDUCE_I64;
        a.num_bins = call->num_bins;
        a.kin = p == 0 ? nullptr : (const K*)(region + l.keys[(p - 1) & 1]);
        a.rin = p == 0 ? nullptr : (const I*)(region + l.rows[(p - 1) & 1]);
        a.kout = (K*)(region + l.keys[p & 1]);
        a.rout = (I*)(region + l.rows[p & 1]);
        a.n = call->length;
        a.per_block = l.per_block;
        a.shift = 8 * p;
        a.blocks = l.blocks;
        a.places = (uint64_t*)(region + l.places);
        hipLaunchKernelGGL((bk_count_kernel<K, I>), dim3(l.blocks), dim3(BK_THREADS), 0, stream, a);
        hipLaunchKernelGGL(bk_scan_kernel, dim3(1), dim3(BK_SCAN_THREADS), 0, stream, a.places, (uint64_t)BK_BUCKETS * l.blocks);
        hipLaunchKernelGGL((bk_scatter_kernel<K, I>), dim3(l.blocks), dim3(BK_THREADS), 0, stream, a);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
    }
    return hipSuccess;
}

template <class T, class K, class I>
void gather(const hr_call* call, const bk_layout& l, unsigned char* region, hipStream_t stream, const device_info& dev)
{
    const unsigned side = final_side(l);
    bk_gather_args<T, K, I> a = {(const T*)call->x, (T*)(region + l.values), (const K*)(region + l.keys[side]),
                                 (const I*)(region + l.rows[side]), (const uint64_t*)(region + l.start),
                                 call->length, call->num_bins, call->row};
    hipLaunchKernelGGL((bk_gather_kernel<T, K, I>), dim3(grid_of(call->n, dev)), dim3(BK_THREADS), 0, stream, a);
}

template <class K, class I>
hipError_t prepare(const hr_call* call, const bk_layout& l, unsigned char* region, hipStream_t stream, const device_info& dev)
{
    hipError_t err = sort<K, I>(call, l, region, stream);
    if (err != hipSuccess) return err;
    uint64_t* start = (uint64_t*)(region + l.start);
    const K* keys = (const K*)(region + l.keys[final_side(l)]);
    hipLaunchKernelGGL((bk_starts_kernel<K>), dim3(grid_of(call->num_bins + 1, dev)), dim3(BK_THREADS), 0, stream, keys,
                       call->length, call->num_bins, start);
    const uint64_t results = call->num_bins * call->row;
    hipLaunchKernelGGL(bk_offsets_kernel, dim3(grid_of(results + 1, dev)), dim3(BK_THREADS), 0, stream,
                       (const uint64_t*)start, call->num_bins, call->row, (uint64_t*)(region + l.offsets),
                       (int64_t*)(region + l.counts));
    if (call->n > 0) switch (hr_dtype_bytes(call->in_dtype)) {
        case 1: gather<uint8_t, K, I>(call, l, region, stream, dev); break;
        case 2: gather<uint16_t, K, I>(call, l, region, stream, dev); break;
        case 4: gather<uint32_t, K, I>(call, l, region, stream, dev); break;
        case 8: gather<uint64_t, K, I>(call, l, region, stream, dev); break;
        default: gather<hr_c128, K, I>(call, l, region, stream, dev); break; /* 16 bytes: c128 */
        }
    return hipGetLastError();
}

}  // namespace

bool by_key_bytes(const hr_call* call, const device_info& dev, uint64_t* bytes)
{
    *bytes = 0;
    if (call->shape != HR_SHAPE_BY_KEY) return true;
    bk_layout l;
    if (!layout_of(call, dev, &l)) return false;
    *bytes = l.total;
    return true;
}

hr_call by_key_segments_call(const hr_call* call, unsigned char* region, const device_info& dev)
{
    bk_layout l;
    (void)layout_of(call, dev, &l); /* by_key_bytes has checked it */
    hr_call s = *call;
    s.shape = HR_SHAPE_SEGMENTS;
    s.num_segments = call->num_bins * call->row;
    s.offsets = region ? (const uint64_t*)(region + l.offsets) : nullptr;
    s.x = region ? region + l.values : nullptr;
    s.n = 0;
    s.length = call->n;
    s.keys = nullptr;
    s.counts = nullptr;
    return s;
}

hipError_t by_key_prepare(const hr_call* call, unsigned char* region, hipStream_t stream, const device_info& dev)
{
    bk_layout l;
    (void)layout_of(call, dev, &l);
    return l.narrow ? prepare<uint32_t, uint32_t>(call, l, region, stream, dev)
                    : prepare<uint64_t, uint64_t>(call, l, region, stream, dev);
}

hipError_t by_key_finish(const hr_call* call, unsigned char* region, int64_t* index, hipStream_t stream,
                         const device_info& dev)
{
    bk_layout l;
    (void)layout_of(call, dev, &l);
    const uint64_t results = call->num_bins * call->row;
    if (index && call->length > 0) {
        const uint64_t* start = (const uint64_t*)(region + l.start);
        const unsigned side = final_side(l);
        if (l.narrow)
            hipLaunchKernelGGL((bk_indices_kernel<uint32_t>), dim3(grid_of(results, dev)), dim3(BK_THREADS), 0, stream,
                               index, (const uint32_t*)(region + l.rows[side]), start, results, call->row);
        else
            hipLaunchKernelGGL((bk_indices_kernel<uint64_t>), dim3(grid_of(results, dev)), dim3(BK_THREADS), 0, stream,
                               index, (const uint64_t*)(region + l.rows[side]), start, results, call->row);
        const hipError_t err = hipGetLastError();
        if (err != hipSuccess) return err;
    }
    if (call->counts && call->num_bins > 0)
        return hipMemcpyAsync(call->counts, region + l.counts, call->num_bins * sizeof(int64_t),
                              call->location == HIPREDUCE_RESULT_HOST ? hipMemcpyDeviceToHost : hipMemcpyDeviceToDevice,
                              stream);
    return hipSuccess;
}

}  // namespace hr
