/* The cpu device's one call path (cpu_reduce.h): a validated call of any shape in the default
 * algorithm's orders (device/order.h), exactly, for every allowed (op, in, out) triple,
 * argmin/argmax and dot. A full reduction is the axis call (1, n, 1): one contiguous result.
 *
 * The op row (device/op_table.h) gives the transform and the combine, the call its accumulator
 * kind (hr_acc_of); they pick the level kernels (cpu_levels.h). A contiguous result (a full
 * reduction, a row of an axis call with inner == 1, a segment) reduces its slice alone: level 0
 * cuts it into tiles of hr_tile_items(input element size) elements, counted from the slice's
 * first element, each tile one partial (an accumulator); every higher level reduces the partials
 * with the same tile geometry until one remains, which is rounded once to the result dtype
 * (cpu_result.h). So a row or a segment has the bits of the full reduction of its slice, and
 * n >= 1 always runs at least one tile (n == 1 gives op(identity, t(x[0]))).
 *
 * A slice of one tile is one level-0 call. A longer one is reduced with bounded memory: level 0
 * runs a batch of up to `tile` tiles at a time (exactly the inputs of one level-2 tile) into a
 * buffer of level-1 partials, on the pool's threads (cpu_executor.h: the partials do not depend
 * on the thread count); a full buffer (or the level's last partials) is reduced by the level
 * kernel into one partial appended to the next level's buffer, and so on up. So each level holds
 * at most one tile of partials (a stack of HR_MAX_LEVELS tiles at most), every partial is
 * computed by the same kernel from the same inputs as a one-pass level would, and the top has
 * their bits. The stack's size depends on the slice's length only through its levels, so
 * segments (whose lengths the size query does not know) size it for the longest slice the API
 * allows.
 *
 * Results whose slice is one tile at most need no stack: the pool's threads take them in blocks
 * (each is the same bits whichever thread writes it); the longer ones, and a call's one result,
 * follow on the calling thread, their level 0 on the pool.
 *
 * Strided results (inner > 1) are cpu_segments_strided.c's. */
#include "cpu_reduce.h"

#include <stdatomic.h>
#include <string.h>

#include "cpu_by_key.h"
#include "cpu_exact.h"
#include "cpu_executor.h"
#include "cpu_ops.h"
#include "cpu_result.h"
#include "cpu_segments_strided.h"
#include "plan.h"

enum { HR_CPU_SLICE_GRAIN = 64 }; /* results a thread takes at a time */

/* The tile levels of a slice of count >= 1 elements: count[k + 1] = tiles of count[k], up to
 * count[levels] == 1 (levels >= 1: one level-0 tile at least, as the full reduction runs; at
 * most 6 for 2^64 elements in tiles of 2048 or more). */
typedef struct slice_levels {
    int levels;
    uint64_t count[HR_MAX_LEVELS + 1];
} slice_levels;

static void levels_of(uint64_t count, uint64_t tile, slice_levels* s)
{
    s->count[0] = count;
    s->levels = 0;
    do {
        s->count[s->levels + 1] = hr_tiles(s->count[s->levels], tile);
        ++s->levels;
    } while (s->count[s->levels] > 1);
}

/* Bytes of the partial stack of a slice: one buffer per level strictly between the input and
 * the top, of at most one tile of partials. */
static size_t stack_bytes(uint64_t count, uint64_t tile, size_t acc)
{
    if (count <= tile) return 0; /* one tile at most: no level between the input and the top */
    slice_levels s;
    levels_of(count, tile, &s);
    size_t bytes = 0;
    for (int k = 1; k < s.levels; ++k) bytes += (size_t)(s.count[k] < tile ? s.count[k] : tile) * acc;
    return bytes;
}

/* hr_cpu_workspace_size, with the input's tile (hr_tile_items of its element size) and the
 * accumulator's bytes given. */
static size_t workspace_need(const hr_call* call, uint64_t tile, size_t acc)
{
    if (call->shape == HR_SHAPE_SEGMENTS) {
        /* Any segment: the longest input whose bytes fit (api_calls.c's bound). */
        const size_t elem = (size_t)hr_dtype_bytes(call->in_dtype);
        const uint64_t longest = (SIZE_MAX < UINT64_MAX ? (uint64_t)SIZE_MAX : UINT64_MAX) / elem;
        return call->num_segments == 0 ? 0 : stack_bytes(longest, tile, acc);
    }
    if (call->outer == 0 || call->inner == 0) return 0;
    if (call->inner == 1) return stack_bytes(call->extent, tile, acc);
    return hr_cpu_strided_workspace_size(call);
}

size_t hr_cpu_workspace_size(const hr_call* call)
{
    if (call->shape == HR_SHAPE_TENSOR) return hr_cpu_tensor_workspace_size(call); /* cpu_tensor.c */
    if (call->shape == HR_SHAPE_BY_KEY) return hr_cpu_by_key_workspace_size(call); /* cpu_by_key.c */
    if (hr_cpu_is_exact(call)) return 0; /* each thread's accumulator is on its stack */
    return workspace_need(call, hr_tile_items((uint64_t)hr_dtype_bytes(call->in_dtype)),
                          (size_t)hr_acc_bytes(call->acc));
}

/* Reduces the count >= 1 elements at x (and y, dot's second input, or NULL) into top (one
 * accumulator), with the stack at `stack` (stack_bytes(count) bytes). */
static void reduce_slice(hr_cpu* cpu, const hr_cpu_kernels* k, const unsigned char* x, const unsigned char* y,
                         uint64_t count, unsigned char* stack, unsigned char* top)
{
    if (count <= k->tile) { /* one level-0 tile is the top */
        k->in(k->combine, x, y, count, k->tile, 0, 1, top);
        return;
    }
    const size_t acc = k->acc;
    slice_levels s;
    levels_of(count, k->tile, &s);
    unsigned char* buffer[HR_MAX_LEVELS + 1];
    uint64_t filled[HR_MAX_LEVELS + 1] = {0}, made[HR_MAX_LEVELS + 1] = {0};
    buffer[1] = stack;
    for (int j = 2; j < s.levels; ++j)
        buffer[j] = buffer[j - 1] + (size_t)(s.count[j - 1] < k->tile ? s.count[j - 1] : k->tile) * acc;
    for (uint64_t t0 = 0; t0 < s.count[1]; t0 += k->tile) {
        const uint64_t batch = s.count[1] - t0 < k->tile ? s.count[1] - t0 : k->tile;
        const uint64_t first = t0 * k->tile; /* the batch's first element */
        hr_cpu_level0(cpu, k, x + first * k->elem, y ? y + first * k->elem : NULL, count - first, batch, buffer[1]);
        if (k->transform == HR_TF_KEY) /* indices from the batch's start: make them the slice's */
            for (uint64_t p = 0; p < batch; ++p) {
                int64_t index;
                memcpy(&index, buffer[1] + p * acc + 8, sizeof index); /* KEY32/KEY64: index at byte 8 */
                index += (int64_t)first;
                memcpy(buffer[1] + p * acc + 8, &index, sizeof index);
            }
        filled[1] = batch;
        /* buffer[j] holds a whole tile of level j (full, or the level's last): one partial above. */
        for (int j = 1;; ++j) {
            unsigned char* dst = j + 1 == s.levels ? top : buffer[j + 1] + filled[j + 1] * acc;
            k->up(k->combine, buffer[j], NULL, filled[j], k->tile, 0, 1, dst);
            filled[j] = 0;
            if (j + 1 == s.levels) break;
            ++filled[j + 1];
            ++made[j + 1];
            if (filled[j + 1] < k->tile && made[j + 1] < s.count[j + 1]) break;
        }
    }
}

/* Result r of a contiguous call: the slice of count elements from element `first`. */
static void finish_slice(hr_cpu* cpu, const hr_call* call, const hr_cpu_kernels* k, uint64_t r, uint64_t first,
                         uint64_t count, unsigned char* stack)
{
    const hr_call* at = call; /* the call itself for the slice at its start (a full reduction) */
    hr_call one;
    if (r != 0 || first != 0) {
        one = *call;
        one.x = (const unsigned char*)call->x + first * k->elem;
        one.y = call->y ? (const unsigned char*)call->y + first * k->elem : NULL;
        one.result = (unsigned char*)call->result + r * (size_t)hr_dtype_bytes(call->out_dtype);
        one.result2 = call->result2 ? (unsigned char*)call->result2 + r * (size_t)hr_dtype_bytes(call->out_dtype) : NULL;
        one.index = call->index ? call->index + r : NULL;
        at = &one;
    }
    if (count == 0) {
        hr_cpu_finish_empty(at, k->transform, k->combine);
        return;
    }
    unsigned char top[32]; /* the largest accumulator is 24 bytes */
    reduce_slice(cpu, k, (const unsigned char*)at->x, (const unsigned char*)at->y, count, stack, top);
    hr_cpu_finish(at, k->combine, top, count);
}

/* Result r's slice of a contiguous call: its first element and its length (a full reduction is
 * the row of (1, n, 1)). */
static void slice_of(const hr_call* call, uint64_t r, uint64_t* first, uint64_t* count)
{
    if (call->shape != HR_SHAPE_SEGMENTS) {
        *first = r * call->extent;
        *count = call->extent;
    } else {
        *first = call->offsets[r];
        *count = call->offsets[r + 1] - call->offsets[r];
    }
}

typedef struct short_slices_job {
    hr_cpu* cpu;
    const hr_call* call;
    const hr_cpu_kernels* k;
    uint64_t results;
    atomic_uint_fast64_t next; /* the first result no thread has taken yet */
} short_slices_job;

/* The results whose slice is one tile at most, in blocks claimed from the job. */
static void run_short_slices(void* ctx, unsigned worker)
{
    short_slices_job* job = (short_slices_job*)ctx;
    (void)worker;
    uint64_t r0, r1;
    while (hr_cpu_claim(&job->next, job->results, HR_CPU_SLICE_GRAIN, &r0, &r1))
        for (uint64_t r = r0; r < r1; ++r) {
            uint64_t first, count;
            slice_of(job->call, r, &first, &count);
            if (count <= job->k->tile) finish_slice(job->cpu, job->call, job->k, r, first, count, NULL);
        }
}

hipreduce_status hr_cpu_run(hr_cpu* cpu, const hr_call* call)
{
    if (call->shape == HR_SHAPE_TENSOR) return hr_cpu_run_tensor(cpu, call); /* rows gathered: cpu_tensor.c */
    if (call->shape == HR_SHAPE_BY_KEY) return hr_cpu_run_by_key(cpu, call); /* sorted into segments: cpu_by_key.c */
    if (hr_cpu_is_exact(call)) return hr_cpu_run_exact(cpu, call); /* no tile levels: cpu_exact.c */
    hr_cpu_kernels k;
    const hipreduce_status supported = hr_cpu_kernels_of(cpu, call, &k);
    if (supported != HIPREDUCE_STATUS_SUCCESS) return supported;
    const int segments = call->shape == HR_SHAPE_SEGMENTS;
    const int strided = !segments && call->inner > 1;
    if (strided && !hr_cpu_strided_supported(call, k.transform)) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    const uint64_t results = hr_call_results(call);
    if (results == 0) return HIPREDUCE_STATUS_SUCCESS;
    /* The workspace first: a call that fails writes nothing. */
    const size_t need = workspace_need(call, k.tile, k.acc);
    unsigned char* workspace = NULL;
    if (need > 0) {
        hipreduce_status status = HIPREDUCE_STATUS_SUCCESS;
        workspace = hr_cpu_workspace(cpu, need, &status);
        if (workspace == NULL) return status;
    }
    if (strided) {
        hr_cpu_run_strided(call, k.transform, k.combine, workspace);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    /* One result, or rows longer than a tile: each on the calling thread (its level 0 on the
     * pool). Otherwise the results of one tile at most first, in blocks on the pool. */
    const int each_here = results == 1 || (!segments && call->extent > k.tile);
    if (!each_here) {
        short_slices_job job = {.cpu = cpu, .call = call, .k = &k, .results = results};
        atomic_init(&job.next, 0);
        hr_cpu_parallel(cpu, results, run_short_slices, &job);
        if (!segments) return HIPREDUCE_STATUS_SUCCESS; /* rows of one tile at most: all done */
    }
    for (uint64_t r = 0; r < results; ++r) {
        uint64_t first, count;
        slice_of(call, r, &first, &count);
        if (each_here || count > k.tile) finish_slice(cpu, call, &k, r, first, count, workspace);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
