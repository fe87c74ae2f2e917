/* Axis and segment reductions on the cpu device (device/order.h's orders).
 *
 * Contiguous results (rows, inner == 1, and every segment) are the full reduction of their slice
 * alone: the same level kernels (cpu_levels.h) over the same tiles, counted from the slice's
 * first element. A slice of one tile is one level-0 call. A longer one is reduced with bounded
 * memory: level 0 runs a batch of up to `tile` tiles at a time (exactly the inputs of one level-2
 * tile) into a buffer of level-1 partials, on the pool's threads like the full reduction's level
 * 0; a full buffer (or the level's last partials) is reduced by the level kernel into one partial
 * appended to the next level's buffer, and so on up. So each level holds at most one tile of
 * partials (a stack of HR_MAX_LEVELS tiles at most), every partial is computed by the same kernel
 * from the same inputs as in the full reduction, and the top has its bits. The stack's size
 * depends on the slice's length only through its levels, so segments (whose lengths the size
 * query does not know) size it for the longest slice the API allows.
 *
 * Results whose slice is one tile at most need no stack: the pool's threads take them in blocks
 * (each is the same bits whichever thread writes it); the longer ones follow on the calling
 * thread, their level 0 on the pool.
 *
 * Strided results (inner > 1) are cpu_segments_strided.c's. */
#include "cpu_reduce.h"

#include <stdatomic.h>
#include <string.h>

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
    if (count == 0) return 0;
    slice_levels s;
    levels_of(count, tile, &s);
    size_t bytes = 0;
    for (int k = 1; k < s.levels; ++k) bytes += (size_t)(s.count[k] < tile ? s.count[k] : tile) * acc;
    return bytes;
}

/* The partial stack of a slice of up to max_count elements. */
static size_t max_stack_bytes(const hr_call* call, uint64_t max_count)
{
    const size_t elem = hipreduce_dtype_size((hipreduce_dtype)call->in_dtype);
    return stack_bytes(max_count, hr_tile_items(elem), (size_t)hr_acc_bytes(call->acc));
}

size_t hr_cpu_shaped_workspace_size(const hr_call* call)
{
    if (call->shape == HR_SHAPE_SEGMENTS) {
        /* Any segment: the longest input whose bytes fit (api.c's bound). */
        const size_t elem = hipreduce_dtype_size((hipreduce_dtype)call->in_dtype);
        const uint64_t longest = (SIZE_MAX < UINT64_MAX ? (uint64_t)SIZE_MAX : UINT64_MAX) / elem;
        return call->num_segments == 0 ? 0 : max_stack_bytes(call, longest);
    }
    if (call->outer == 0 || call->inner == 0) return 0;
    if (call->inner == 1) return max_stack_bytes(call, call->extent);
    return hr_cpu_strided_workspace_size(call);
}

/* Reduces the count >= 1 elements at x into top (one accumulator), with the stack at `stack`
 * (stack_bytes(count) bytes). */
static void reduce_slice(hr_cpu* cpu, const hr_cpu_kernels* k, size_t acc, const unsigned char* x, uint64_t count,
                         unsigned char* stack, unsigned char* top)
{
    slice_levels s;
    levels_of(count, k->tile, &s);
    if (s.levels == 1) {
        k->in(k->combine, x, NULL, count, k->tile, 0, 1, top);
        return;
    }
    unsigned char* buffer[HR_MAX_LEVELS + 1];
    uint64_t filled[HR_MAX_LEVELS + 1] = {0}, made[HR_MAX_LEVELS + 1] = {0};
    buffer[1] = stack;
    for (int j = 2; j < s.levels; ++j)
        buffer[j] = buffer[j - 1] + (size_t)(s.count[j - 1] < k->tile ? s.count[j - 1] : k->tile) * acc;
    for (uint64_t t0 = 0; t0 < s.count[1]; t0 += k->tile) {
        const uint64_t batch = s.count[1] - t0 < k->tile ? s.count[1] - t0 : k->tile;
        const uint64_t first = t0 * k->tile; /* the batch's first element */
        hr_cpu_level0(cpu, k, x + first * k->elem, NULL, count - first, batch, buffer[1]);
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

/* Result r of a contiguous call: the slice of count elements at x. */
static void finish_slice(hr_cpu* cpu, const hr_call* call, const hr_cpu_kernels* k, uint64_t r, const unsigned char* x,
                         uint64_t count, unsigned char* stack)
{
    hr_call one = *call;
    one.x = x;
    one.result = (unsigned char*)call->result + r * hipreduce_dtype_size((hipreduce_dtype)call->out_dtype);
    one.index = call->index ? call->index + r : NULL;
    if (count == 0) {
        hr_cpu_finish_empty(&one, k->transform, k->combine);
        return;
    }
    unsigned char top[32]; /* the largest accumulator is 24 bytes */
    reduce_slice(cpu, k, (size_t)hr_acc_bytes(call->acc), x, count, stack, top);
    hr_cpu_finish(&one, k->combine, top);
}

/* Result r's slice of a contiguous call: its first element and its length. */
static void slice_of(const hr_call* call, uint64_t r, uint64_t* first, uint64_t* count)
{
    if (call->shape == HR_SHAPE_AXIS) {
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
    const unsigned char* x = (const unsigned char*)job->call->x;
    for (;;) {
        const uint64_t r0 = (uint64_t)atomic_fetch_add_explicit(&job->next, HR_CPU_SLICE_GRAIN, memory_order_relaxed);
        if (r0 >= job->results) return;
        const uint64_t r1 = job->results - r0 < HR_CPU_SLICE_GRAIN ? job->results : r0 + HR_CPU_SLICE_GRAIN;
        for (uint64_t r = r0; r < r1; ++r) {
            uint64_t first, count;
            slice_of(job->call, r, &first, &count);
            if (count <= job->k->tile) finish_slice(job->cpu, job->call, job->k, r, x + first * job->k->elem, count, NULL);
        }
    }
}

hipreduce_status hr_cpu_run_shaped(hr_cpu* cpu, const hr_call* call)
{
    hr_cpu_kernels k;
    const hipreduce_status supported = hr_cpu_kernels_of(cpu, call, &k);
    if (supported != HIPREDUCE_STATUS_SUCCESS) return supported;
    const int strided = call->shape == HR_SHAPE_AXIS && call->inner > 1;
    if (strided && !hr_cpu_strided_supported(call, k.transform)) return HIPREDUCE_STATUS_NOT_SUPPORTED;
    const uint64_t results = hr_call_results(call);
    if (results == 0) return HIPREDUCE_STATUS_SUCCESS;
    /* The workspace first: a call that fails writes nothing. */
    const size_t need = hr_cpu_shaped_workspace_size(call);
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
    const int axis = call->shape == HR_SHAPE_AXIS;
    if (!axis || call->extent <= k.tile) {
        /* about one tile of work per result at most */
        short_slices_job job = {.cpu = cpu, .call = call, .k = &k, .results = results};
        atomic_init(&job.next, 0);
        hr_cpu_parallel(cpu, results, run_short_slices, &job);
    }
    if (axis && call->extent <= k.tile) return HIPREDUCE_STATUS_SUCCESS;
    const unsigned char* x = (const unsigned char*)call->x;
    for (uint64_t r = 0; r < results; ++r) {
        uint64_t first, count;
        slice_of(call, r, &first, &count);
        if (count > k.tile) finish_slice(cpu, call, &k, r, x + first * k.elem, count, workspace);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}
