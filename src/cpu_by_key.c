/* The cpu device's by-key shape (device/call.h, HR_SHAPE_BY_KEY): `length` rows of `row` values,
 * row i reduced into bin keys[i]. A stable counting sort places the rows' values into the
 * workspace bin after bin, each bin as `row` runs (feature j's values of bin b contiguous, in
 * input order): feature j of bin b, holding count_b rows from sorted position start_b, is the run
 * from row * start_b + j * count_b. These num_bins * row runs follow each other, so they are the
 * CSR segments of one segment call (cpu_reduce.c), which writes result [b][j] with the bits of the
 * simple call over bin b's values of feature j in input order. argmin/argmax's indices, positions
 * in a run, become row indices through the sorted row order.
 *
 * Workspace: [the segment call's own][pad to 16][start: num_bins + 1][cursor: num_bins]
 * [order: length (argmin/argmax)][offsets: num_bins * row + 1 (row > 1; row 1 uses start)]
 * [the sorted values: length * row], the arrays uint64. The segment call asks the executor for
 * its own bytes, which are the workspace's first, so the arrays after them stay. */
#include "cpu_by_key.h"

#include <stdint.h>
#include <string.h>

#include "cpu_executor.h"

typedef struct by_key_layout {
    size_t own, start, cursor, order, offsets, values, total; /* byte positions past the pad */
} by_key_layout;

/* a + b, saturating: a size past SIZE_MAX fails as an allocation, never wraps. */
static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }
static size_t mul_sat(uint64_t a, size_t b) { return b != 0 && a > SIZE_MAX / b ? SIZE_MAX : (size_t)a * b; }

/* The segment call over the sorted copy at `values` with its offsets. */
static hr_call segments_call(const hr_call* call, const void* values, const uint64_t* offsets)
{
    hr_call s = *call;
    s.shape = HR_SHAPE_SEGMENTS;
    s.num_segments = call->num_bins * call->row;
    s.offsets = offsets;
    s.x = values;
    s.n = 0;
    s.length = call->length * call->row;
    s.keys = NULL;
    s.counts = NULL;
    return s;
}

static void layout_of(const hr_call* call, by_key_layout* l)
{
    const hr_call seg = segments_call(call, NULL, NULL);
    const int arg = hr_op_call(call->op) == HR_CALL_ARGREDUCE;
    l->own = hr_cpu_workspace_size(&seg);
    l->start = add_sat(l->own, 15); /* the pad: at most 15 bytes to the next 16-byte address */
    l->cursor = add_sat(l->start, mul_sat(call->num_bins + 1, 8));
    l->order = add_sat(l->cursor, mul_sat(call->num_bins, 8));
    l->offsets = add_sat(l->order, arg ? mul_sat(call->length, 8) : 0);
    l->values = add_sat(l->offsets, call->row > 1 ? mul_sat(call->num_bins * call->row + 1, 8) : 0);
    l->total = add_sat(l->values, mul_sat(call->n, (size_t)hr_dtype_bytes(call->in_dtype)));
}

size_t hr_cpu_by_key_workspace_size(const hr_call* call)
{
    if (hr_call_results(call) == 0) return 0;
    by_key_layout l;
    layout_of(call, &l);
    return l.total;
}

static inline uint64_t key_at(const hr_call* call, uint64_t i)
{
    return call->key_dtype == HIPREDUCE_I32 ? (uint64_t)((const int32_t*)call->keys)[i]
                                            : (uint64_t)((const int64_t*)call->keys)[i];
}

/* Places row i's values, sorted position p of bin b (start s, count c), into the copy. */
static void place_row(unsigned char* dst, const unsigned char* src, size_t elem, uint64_t row, uint64_t s, uint64_t c,
                      uint64_t p)
{
    unsigned char* at = dst + (s * row + (p - s)) * elem; /* feature 0's run, at the row's place */
    const size_t step = (size_t)c * elem;                 /* from one feature's run to the next */
    switch (elem) {
    case 1: for (uint64_t j = 0; j < row; ++j, at += step) *at = src[j]; break;
    case 2: for (uint64_t j = 0; j < row; ++j, at += step) memcpy(at, src + 2 * j, 2); break;
    case 4: for (uint64_t j = 0; j < row; ++j, at += step) memcpy(at, src + 4 * j, 4); break;
    case 8: for (uint64_t j = 0; j < row; ++j, at += step) memcpy(at, src + 8 * j, 8); break;
    default: for (uint64_t j = 0; j < row; ++j, at += step) memcpy(at, src + 16 * j, 16); break; /* c128 */
    }
}

hipreduce_status hr_cpu_run_by_key(hr_cpu* cpu, const hr_call* call)
{
    if (hr_call_results(call) == 0) return HIPREDUCE_STATUS_SUCCESS; /* num_bins 0: no result, no count */
    by_key_layout l;
    layout_of(call, &l);
    hipreduce_status status = HIPREDUCE_STATUS_SUCCESS;
    unsigned char* workspace = hr_cpu_workspace(cpu, l.total, &status);
    if (workspace == NULL) return status;
    unsigned char* arrays = workspace + l.own;
    arrays += (size_t)(-(uintptr_t)arrays & 15); /* the first array's byte position is l.start */
    uint64_t* start = (uint64_t*)arrays;
    uint64_t* cursor = (uint64_t*)(arrays + (l.cursor - l.start));
    const int arg = hr_op_call(call->op) == HR_CALL_ARGREDUCE;
    uint64_t* order = arg ? (uint64_t*)(arrays + (l.order - l.start)) : NULL;
    uint64_t* offsets = call->row > 1 ? (uint64_t*)(arrays + (l.offsets - l.start)) : start;
    unsigned char* values = arrays + (l.values - l.start);
    const uint64_t bins = call->num_bins, row = call->row;
    const size_t elem = (size_t)hr_dtype_bytes(call->in_dtype);

    /* start[b] = rows with a key below b (a count per key, then its running sum). */
    memset(start, 0, (size_t)(bins + 1) * 8);
    for (uint64_t i = 0; i < call->length; ++i) ++start[key_at(call, i) + 1];
    for (uint64_t b = 0; b < bins; ++b) start[b + 1] += start[b];
    memcpy(cursor, start, (size_t)bins * 8);
    /* Stable placement: rows in input order, each at its bin's next position. */
    const unsigned char* x = (const unsigned char*)call->x;
    for (uint64_t i = 0; i < call->length; ++i) {
        const uint64_t b = key_at(call, i), p = cursor[b]++;
        if (order) order[p] = i;
        place_row(values, x + i * row * elem, elem, row, start[b], start[b + 1] - start[b], p);
    }
    if (row > 1) {
        for (uint64_t b = 0; b < bins; ++b)
            for (uint64_t j = 0; j < row; ++j) offsets[b * row + j] = start[b] * row + j * (start[b + 1] - start[b]);
        offsets[bins * row] = start[bins] * row;
    }
    const hr_call seg = segments_call(call, values, offsets);
    status = hr_cpu_run(cpu, &seg);
    if (status != HIPREDUCE_STATUS_SUCCESS) return status;
    if (arg) /* a position in bin b's run of feature j -> the row index */
        for (uint64_t r = 0; r < bins * row; ++r)
            if (call->index[r] >= 0) call->index[r] = (int64_t)order[start[r / row] + (uint64_t)call->index[r]];
    if (call->counts)
        for (uint64_t b = 0; b < bins; ++b) call->counts[b] = (int64_t)(start[b + 1] - start[b]);
    return HIPREDUCE_STATUS_SUCCESS;
}
