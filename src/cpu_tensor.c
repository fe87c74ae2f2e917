/* The cpu device's tensor shape (device/call.h, HR_SHAPE_TENSOR): any set of axes of a strided
 * tensor. Result r is row r of the (kept..., reduced...) contiguous copy, reduced as a row: its
 * elements in the row-major order of the reduced axes, in the default order (device/order.h).
 *
 * Columns (the innermost kept axis has stride 1: column sums, a middle axis, transposes,
 * channels-last statistics) are read in place by the column kernels (cpu_tensor_columns.h), a
 * block of adjacent results at a time, every reduced position a contiguous run of the block's
 * elements. The default order of one slice is walked exactly: a tile's lane l takes positions
 * (c * 256 + l) * ci + v (c < 4, v < ci) from the identity, the 32-lane segments and then the 8
 * segment values combine in the segment tree, and the levels above take the tiles' partials as
 * their rows in the same geometry. So each result has the bits of the row path on its contiguous
 * copy. Order-free ops (integers, float min/max, argmin/argmax) fold the rows in index order.
 *
 * Any other layout (the innermost kept axis strided, dot, nrm2 of f64, the statistics' struct
 * accumulators, exact sums) gathers its rows, a block at a time, into the workspace and reduces
 * them by the row path (hr_cpu_run on an axis call).
 *
 * Workspace: columns of an order-dependent op longer than one tile: their level-1 partials,
 * [kept][tiles][cols] (every level above is reduced in place); the gather: [the row call's
 * own][the gathered block: x, then y for dot]. The row call asks the executor for its own
 * bytes, which are the workspace's first, so the block after them stays. */
#include <stdatomic.h>
#include <string.h>

#include "cpu_exact.h"
#include "cpu_executor.h"
#include "cpu_reduce.h"
#include "cpu_result.h"
#include "cpu_tensor_columns.h"
#include "order.h"

/* ---- columns, in place ---- */

/* A thread's scratch, on its stack: ordered columns' lanes (32), segment values (8) and top, each
 * HR_COL_LANE_BYTES; the others' states and accumulators (HR_COL_STATE_BYTES each at most). */
enum { HR_COL_SCRATCH = 41 * HR_COL_LANE_BYTES };

/* Dimensions walked in row-major order, steps in bytes. */
typedef struct walk_dims {
    int dims;
    uint64_t ext[HIPREDUCE_MAX_RANK];
    int64_t step[HIPREDUCE_MAX_RANK];
} walk_dims;

typedef struct walker {
    const walk_dims* d;
    uint64_t idx[HIPREDUCE_MAX_RANK];
    int64_t off;
} walker;

static void walk_at(walker* w, const walk_dims* d, uint64_t j)
{
    w->d = d;
    w->off = 0;
    for (int k = d->dims - 1; k >= 0; --k) {
        w->idx[k] = j % d->ext[k];
        j /= d->ext[k];
        w->off += (int64_t)w->idx[k] * d->step[k];
    }
}

/* Prefetches the bytes [p, p + bytes) into the caches. */
static inline void prefetch_run(const unsigned char* p, size_t bytes)
{
#if defined(__GNUC__) || defined(__clang__)
    for (size_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + b, 0, 3);
    __builtin_prefetch(p + bytes - 1, 0, 3);
#else
    (void)p, (void)bytes;
#endif
}

static inline void walk_next(walker* w)
{
    const walk_dims* d = w->d;
    int k = d->dims - 1;
    w->off += d->step[k];
    while (++w->idx[k] == d->ext[k] && k > 0) {
        w->off -= (int64_t)d->ext[k] * d->step[k];
        w->idx[k] = 0;
        --k;
        w->off += d->step[k];
    }
}

typedef struct col_job {
    const hr_call* call;
    hr_col_kernels k;
    int combine;
    size_t elem, acc;
    uint64_t cols, blocks, items, rows, tile, tiles;
    uint32_t cb, ci;
    walk_dims reduced;
    unsigned char* partials;
    atomic_uint_fast64_t next;
} col_job;

/* Whether the call's results are columns the kernels read in place; fills k. */
static int columns_of(const hr_cpu_levels* levels, const hr_call* call, hr_col_kernels* k)
{
    const hr_tensor* t = &call->tensor;
    if (t->kept < 1 || t->reduced < 1 || call->y != NULL || call->accumulators || hr_cpu_is_exact(call) ||
        t->xstride[t->kept - 1] != 1)
        return 0;
    hr_cpu_col_kernels(levels, call, hr_op_transform(call->op), hr_op_combine(call->op), k);
    return k->family != HR_COL_NONE;
}

/* Level-1 partials of ordered columns longer than a tile: [kept][tiles][cols]. */
static size_t columns_workspace(const hr_call* call, const hr_col_kernels* k)
{
    const uint64_t tiles = hr_tiles(call->extent, hr_tile_items((uint64_t)hr_dtype_bytes(call->in_dtype)));
    if (k->family != HR_COL_ORDERED || tiles <= 1) return 0;
    return (size_t)(call->outer * tiles) * (size_t)hr_acc_bytes(call->acc);
}

/* The tile of n rows from row `first` of src (rows at base + offset) into out: cb accumulators
 * of the default order's tile value. Lanes 32 at a time, each from its (chunk, element) rows;
 * a segment's lanes combine in the tree, then the 8 segment values. */
static void ordered_tile(const col_job* j, hr_col_lane_fn lane, const unsigned char* base, const walk_dims* src,
                         size_t item, uint64_t first, uint64_t n, uint32_t cb, unsigned char* scratch, unsigned char* out)
{
    const int cmb = j->combine;
    const size_t row = (size_t)cb * j->acc;
    const uint32_t ci = j->ci;
    unsigned char* lanes = scratch;
    unsigned char* segs = scratch + HR_SEGMENT * row;
    walker w[HR_TILE_CHUNKS];
    for (uint32_t c = 0; c < HR_TILE_CHUNKS; ++c)
        if ((uint64_t)c * HR_TILE_LANES * ci < n) walk_at(&w[c], src, first + (uint64_t)c * HR_TILE_LANES * ci);
    /* Lane l's rows are gathered while lane l - 1 is folded, and prefetched then: each row is a
     * run of cb elements on its own page (a row of a wide matrix), which the hardware's streams
     * would fetch only on demand. */
    const unsigned char* ptr[2][HR_TILE_CHUNKS * 16];
    uint32_t count[2] = {0, 0};
    const size_t run = (size_t)cb * item;
    const uint64_t used = hr_tiles(n < (uint64_t)HR_TILE_LANES * ci ? n : (uint64_t)HR_TILE_LANES * ci, (uint64_t)HR_SEGMENT * ci);
    for (uint64_t l = 0; l <= used * HR_SEGMENT; ++l) { /* segments past the rows: the identity */
        const uint32_t cur = (uint32_t)(l & 1);
        if (l < used * HR_SEGMENT) {
            uint32_t k = 0;
            for (uint32_t c = 0; c < HR_TILE_CHUNKS; ++c) {
                const uint64_t at = ((uint64_t)c * HR_TILE_LANES + l) * ci;
                for (uint32_t v = 0; v < ci && at + v < n; ++v) {
                    ptr[cur][k] = base + w[c].off;
                    prefetch_run(ptr[cur][k++], run);
                    walk_next(&w[c]);
                }
            }
            count[cur] = k;
        }
        if (l == 0) continue;
        const uint32_t prev = cur ^ 1u, li = (uint32_t)((l - 1) % HR_SEGMENT);
        if (count[prev] > 0) lane(cmb, ptr[prev], count[prev], cb, lanes + li * row);
        else j->k.fill(cmb, lanes + li * row, cb);
        if (li + 1 < HR_SEGMENT) continue;
        const uint32_t seg = (uint32_t)((l - 1) / HR_SEGMENT);
        for (uint32_t s = HR_SEGMENT / 2; s > 0; s /= 2)
            for (uint32_t i = 0; i < s; ++i) j->k.pair(cmb, lanes + i * row, lanes + (i + s) * row, cb);
        memcpy(segs + seg * row, lanes, row);
    }
    for (uint64_t seg = used; seg < HR_TILE_LANES / HR_SEGMENT; ++seg) j->k.fill(cmb, segs + seg * row, cb);
    for (uint32_t s = HR_TILE_LANES / HR_SEGMENT / 2; s > 0; s /= 2)
        for (uint32_t i = 0; i < s; ++i) j->k.pair(cmb, segs + i * row, segs + (i + s) * row, cb);
    memcpy(out, segs, row);
}

/* Writes results g * cols + c0 .. + cb from their accumulators (ARG: with the reduced position of
 * each one's element, read where it lies). */
static void finish_columns(const col_job* j, uint64_t g, uint64_t c0, uint32_t cb, const unsigned char* base,
                           const unsigned char* accs)
{
    const hr_call* call = j->call;
    const size_t out = (size_t)hr_dtype_bytes(call->out_dtype);
    hr_call one = *call;
    for (uint32_t i = 0; i < cb; ++i) {
        const uint64_t r = g * j->cols + c0 + i;
        one.result = (unsigned char*)call->result + r * out;
        one.result2 = call->result2 ? (unsigned char*)call->result2 + r * out : NULL;
        if (j->k.family != HR_COL_ARG) {
            hr_cpu_finish(&one, j->combine, accs + i * j->acc, j->rows);
            continue;
        }
        /* hr_cpu_finish reads the value at x + index * elem: x is the winning element, index 0. */
        int64_t e, unused;
        unsigned char at[16];
        memcpy(&e, accs + i * j->acc + 8, sizeof e);
        memcpy(at, accs + i * j->acc, j->acc);
        memset(at + 8, 0, 8);
        walker w;
        walk_at(&w, &j->reduced, (uint64_t)e);
        one.x = base + i * j->elem + w.off;
        one.index = &unused;
        hr_cpu_finish(&one, j->combine, at, j->rows);
        memcpy(call->index + r, &e, sizeof e);
    }
}

/* One block of columns: cb results of kept group g from column c0. */
static void run_block(col_job* j, uint64_t g, uint64_t c0, uint32_t cb, unsigned char* scratch)
{
    const hr_call* call = j->call;
    const hr_tensor* t = &call->tensor;
    const int64_t kept = t->kept > 1 ? hr_tensor_offset(t, t->xstride, 0, t->kept - 1, g) : 0;
    const unsigned char* base = (const unsigned char*)call->x + (kept + (int64_t)c0) * (int64_t)j->elem;
    const int cmb = j->combine;
    if (j->k.family == HR_COL_ORDERED) {
        unsigned char* top = scratch + (HR_SEGMENT + HR_TILE_LANES / HR_SEGMENT) * (size_t)cb * j->acc;
        if (j->tiles == 1) {
            ordered_tile(j, j->k.lane, base, &j->reduced, j->elem, 0, j->rows, cb, scratch, top);
            finish_columns(j, g, c0, cb, base, top);
            return;
        }
        const size_t stride = (size_t)j->cols * j->acc;
        unsigned char* p = j->partials + (g * j->tiles * j->cols + c0) * j->acc;
        for (uint64_t tt = 0; tt < j->tiles; ++tt) {
            const uint64_t first = tt * j->tile, n = j->rows - first < j->tile ? j->rows - first : j->tile;
            ordered_tile(j, j->k.lane, base, &j->reduced, j->elem, first, n, cb, scratch, p + tt * stride);
        }
        walk_dims up = {.dims = 1, .step = {(int64_t)stride}};
        for (uint64_t count = j->tiles; count > 1;) { /* partial t' of a level replaces row t' <= t' * tile */
            up.ext[0] = count;
            const uint64_t above = hr_tiles(count, j->tile);
            for (uint64_t tt = 0; tt < above; ++tt) {
                const uint64_t first = tt * j->tile, n = count - first < j->tile ? count - first : j->tile;
                ordered_tile(j, j->k.up, p, &up, j->acc, first, n, cb, scratch, top);
                memcpy(p + tt * stride, top, (size_t)cb * j->acc);
            }
            count = above;
        }
        finish_columns(j, g, c0, cb, base, p);
        return;
    }
    /* Order-free: every row in index order, HR_COL_FLAT_ROWS at a time, into one state a result. */
    unsigned char* state = scratch;
    unsigned char* accs = scratch + (size_t)cb * j->k.state;
    if (j->k.family != HR_COL_ARG) j->k.fill(cmb, state, cb);
    const unsigned char* ptr[HR_COL_FLAT_ROWS];
    walker w;
    walk_at(&w, &j->reduced, 0);
    for (uint64_t r0 = 0; r0 < j->rows; r0 += HR_COL_FLAT_ROWS) {
        const uint32_t m = j->rows - r0 < HR_COL_FLAT_ROWS ? (uint32_t)(j->rows - r0) : HR_COL_FLAT_ROWS;
        for (uint32_t q = 0; q < m; ++q, walk_next(&w)) ptr[q] = base + w.off;
        if (j->k.family == HR_COL_ARG) j->k.arg(cmb, ptr, m, r0, r0 == 0, cb, state);
        else j->k.fold(cmb, ptr, m, cb, state);
    }
    if (j->k.top != NULL) j->k.top(cmb, state, cb, accs);
    else accs = state;
    finish_columns(j, g, c0, cb, base, accs);
}

static void run_columns_job(void* ctx, unsigned worker)
{
    col_job* j = (col_job*)ctx;
    (void)worker;
    _Alignas(64) unsigned char scratch[HR_COL_SCRATCH];
    uint64_t i0, i1;
    while (hr_cpu_claim(&j->next, j->items, 1, &i0, &i1))
        for (uint64_t i = i0; i < i1; ++i) {
            const uint64_t g = i / j->blocks, c0 = (i % j->blocks) * j->cb;
            run_block(j, g, c0, j->cols - c0 < j->cb ? (uint32_t)(j->cols - c0) : j->cb, scratch);
        }
}

static hipreduce_status run_columns(hr_cpu* cpu, const hr_call* call, const hr_col_kernels* k)
{
    const hr_tensor* t = &call->tensor;
    col_job* j = &(col_job){.call = call, .k = *k, .combine = hr_op_combine(call->op)};
    j->elem = (size_t)hr_dtype_bytes(call->in_dtype);
    j->acc = (size_t)hr_acc_bytes(call->acc);
    j->cols = t->extent[t->kept - 1];
    j->rows = call->extent;
    j->tile = hr_tile_items(j->elem);
    j->ci = hr_chunk_items(j->elem);
    j->tiles = hr_tiles(j->rows, j->tile);
    j->reduced.dims = t->reduced;
    for (int d = 0; d < t->reduced; ++d) {
        j->reduced.ext[d] = t->extent[t->kept + d];
        j->reduced.step[d] = t->xstride[t->kept + d] * (int64_t)j->elem;
    }
    /* Columns a block: the scratch's lanes (ordered) or states and accumulators; then blocks enough
     * for every thread when the columns allow it (bits do not depend on the blocks). */
    uint64_t cb = k->family == HR_COL_ORDERED ? HR_COL_LANE_BYTES / j->acc : HR_COL_STATE_BYTES / k->state;
    const uint64_t want = 4u * hr_cpu_threads(cpu);
    if (j->cols / want >= 64 && j->cols / want < cb) cb = (j->cols / want + 15) / 16 * 16;
    if (cb > j->cols) cb = j->cols;
    j->cb = (uint32_t)cb;
    j->blocks = hr_tiles(j->cols, cb);
    j->items = (call->outer / j->cols) * j->blocks;
    const size_t need = columns_workspace(call, k);
    if (need > 0) {
        hipreduce_status status = HIPREDUCE_STATUS_SUCCESS;
        j->partials = hr_cpu_workspace(cpu, need, &status);
        if (j->partials == NULL) return status;
    }
    atomic_init(&j->next, 0);
    hr_cpu_parallel(cpu, j->items > 1 ? call->n / j->tile : 0, run_columns_job, j);
    return HIPREDUCE_STATUS_SUCCESS;
}

/* ---- the gather ---- */

enum { HR_CPU_GATHER_BYTES = 1 << 20 }; /* a block of gathered rows: at least one row */

/* Rows gathered at a time. */
static uint64_t block_rows(const hr_call* call)
{
    const uint64_t row_bytes = call->extent * (uint64_t)hr_dtype_bytes(call->in_dtype);
    const uint64_t rows = row_bytes == 0 ? call->outer : HR_CPU_GATHER_BYTES / row_bytes;
    return rows == 0 ? 1 : rows < call->outer ? rows : call->outer;
}

/* The row call of `rows` rows at `x` (and y): what the block's reduction runs. */
static hr_call row_call(const hr_call* call, uint64_t rows, const void* x, const void* y)
{
    hr_call row = *call;
    row.shape = HR_SHAPE_AXIS;
    row.outer = rows;
    row.inner = 1;
    row.n = rows * call->extent;
    row.x = x;
    row.y = y;
    return row;
}

/* Bytes of a gathered block of rows: x's, and y's for dot. */
static size_t gather_bytes(const hr_call* call, uint64_t rows)
{
    const int inputs = hr_op_call(call->op) == HR_CALL_DOT ? 2 : 1;
    return (size_t)(rows * call->extent * (uint64_t)hr_dtype_bytes(call->in_dtype)) * (size_t)inputs;
}

size_t hr_cpu_tensor_workspace_size(const hr_call* call)
{
    hr_col_kernels k;
    if (columns_of(&hr_cpu_levels_baseline, call, &k)) return columns_workspace(call, &k); /* every variant has the same cells */
    const uint64_t rows = block_rows(call);
    const hr_call row = row_call(call, rows, NULL, NULL);
    return hr_cpu_workspace_size(&row) + gather_bytes(call, rows);
}

/* One element of elem bytes (1, 2, 4, 8 or 16), as one load and one store. */
static inline void copy_element(unsigned char* dst, const unsigned char* src, size_t elem)
{
    switch (elem) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, 16); break;
    }
}

/* Rows walked together when the kept axis is the inner one in memory: their writes, a row apart
 * (often a multiple of 4 KiB), must share an L1 set's ways; 8 rows: 4096 x 4096 f32 column sums
 * 58-86 ms against 500-560 row by row and 240-900 with 256 rows (a loaded 2-core host). */
enum { HR_GATHER_ROWS = 8 };

/* Copies rows [r0, r0 + rows) of the contiguous copy of `base` (strides s) to dst. The walk goes
 * along whichever of the innermost kept and reduced dimensions has the smaller stride, so that
 * the reads follow memory: row by row for rows, across 8 rows at a time for columns and
 * transposes (the block's writes stay in cache either way). */
static void gather(const hr_call* call, const unsigned char* base, const int64_t* s, uint64_t r0, uint64_t rows,
                   unsigned char* dst)
{
    const hr_tensor* t = &call->tensor;
    const size_t elem = (size_t)hr_dtype_bytes(call->in_dtype);
    const int last = t->kept + t->reduced - 1;
    const uint64_t reduced = call->extent;
    const int64_t reduced_step = t->reduced ? s[last] : 0;
    const int64_t kept_step = t->kept ? s[t->kept - 1] : 0;
    const uint64_t mag_r = (uint64_t)(reduced_step < 0 ? -reduced_step : reduced_step);
    const uint64_t mag_k = (uint64_t)(kept_step < 0 ? -kept_step : kept_step);
    if (t->kept && t->reduced && rows > 1 && mag_k < mag_r) {
        int64_t row[HR_GATHER_ROWS];
        for (uint64_t c0 = 0; c0 < rows; c0 += HR_GATHER_ROWS) {
            const uint64_t count = rows - c0 < HR_GATHER_ROWS ? rows - c0 : HR_GATHER_ROWS;
            for (uint64_t i = 0; i < count; ++i) row[i] = hr_tensor_offset(t, s, 0, t->kept, r0 + c0 + i);
            unsigned char* out = dst + c0 * reduced * elem;
            for (uint64_t j = 0; j < reduced; ++j) {
                const int64_t at = hr_tensor_offset(t, s, t->kept, t->reduced, j);
                for (uint64_t i = 0; i < count; ++i)
                    copy_element(out + (i * reduced + j) * elem, base + (row[i] + at) * (int64_t)elem, elem);
            }
        }
        return;
    }
    /* Row by row: the innermost reduced dimension is walked by its stride, the others by the index. */
    const uint64_t inner = t->reduced ? t->extent[last] : 1;
    const int64_t step = reduced_step * (int64_t)elem;
    const uint64_t outer_reduced = reduced / inner;
    for (uint64_t r = r0; r < r0 + rows; ++r) {
        const int64_t row = hr_tensor_offset(t, s, 0, t->kept, r);
        for (uint64_t o = 0; o < outer_reduced; ++o) {
            const unsigned char* p =
                base + (row + (t->reduced > 1 ? hr_tensor_offset(t, s, t->kept, t->reduced - 1, o) : 0)) * (int64_t)elem;
            if (step == (int64_t)elem) {
                memcpy(dst, p, inner * elem);
                dst += inner * elem;
                continue;
            }
            for (uint64_t i = 0; i < inner; ++i, p += step, dst += elem) copy_element(dst, p, elem);
        }
    }
}

hipreduce_status hr_cpu_run_tensor(hr_cpu* cpu, const hr_call* call)
{
    hr_col_kernels k;
    if (columns_of(hr_cpu_levels_of(cpu), call, &k)) return run_columns(cpu, call, &k);
    const uint64_t rows = block_rows(call);
    const hr_call first = row_call(call, rows, NULL, NULL);
    const size_t own = hr_cpu_workspace_size(&first);
    hipreduce_status status = HIPREDUCE_STATUS_SUCCESS;
    unsigned char* workspace = hr_cpu_workspace(cpu, own + gather_bytes(call, rows), &status);
    if (workspace == NULL) return status;
    unsigned char* bx = workspace + own;
    unsigned char* by = bx + (size_t)(rows * call->extent * (uint64_t)hr_dtype_bytes(call->in_dtype));
    const size_t out_bytes = (size_t)hr_dtype_bytes(call->out_dtype);
    for (uint64_t r0 = 0; r0 < call->outer; r0 += rows) {
        const uint64_t count = call->outer - r0 < rows ? call->outer - r0 : rows;
        gather(call, (const unsigned char*)call->x, call->tensor.xstride, r0, count, bx);
        if (call->y) gather(call, (const unsigned char*)call->y, call->tensor.ystride, r0, count, by);
        hr_call block = row_call(call, count, bx, call->y ? by : NULL);
        block.result = (unsigned char*)call->result + r0 * out_bytes;
        block.result2 = call->result2 ? (unsigned char*)call->result2 + r0 * out_bytes : NULL;
        block.index = call->index ? call->index + r0 : NULL;
        status = hr_cpu_run(cpu, &block);
        if (status != HIPREDUCE_STATUS_SUCCESS) return status;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
