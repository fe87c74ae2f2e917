/* Planning math shared by the C API, the CPU executor and the GPU host code, for the order
 * that order.h defines: plain C, static inline, so every layer includes it downwards. */
#ifndef HIPREDUCE_PLAN_H
#define HIPREDUCE_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rules.h" /* hr_chunk_items, hr_tile_items, hr_tiles */

#ifdef __cplusplus
extern "C" {
#endif

/* The default algorithm's levels and its workspace, in two regions:
 *  - counters: one 32-bit arrival counter per element of every level >= 2. They must
 *    be zero when a launch starts; each launch leaves the counters it used at zero. A
 *    counter region is only ever used for counters, never for partials of another
 *    call, so leftovers of an earlier (op, dtype, n) cannot look like arrivals.
 *  - partials: the acc-typed elements of the levels between the input and the top.
 * hipreduce_workspace_size reports counter_bytes + partial_bytes (counters first). */
typedef struct hr_tree_plan {
    int levels;                             /* count[0 .. levels-1] are valid */
    uint64_t count[HR_MAX_LEVELS];          /* count[0] = n; count[k+1] = tiles of count[k]; top = 1 */
    uint64_t partial_offset[HR_MAX_LEVELS]; /* levels 1 .. levels-2, from the partials region's start */
    uint64_t counter_offset[HR_MAX_LEVELS]; /* levels 2 .. levels-1, from the counters region's start */
    uint64_t counter_bytes;
    uint64_t partial_bytes;
    uint64_t workspace_bytes;               /* counter_bytes + partial_bytes; 0 when one tile covers n */
} hr_tree_plan;

/* Fills plan for n elements reduced with tiles of tile_items, partials of
 * acc_size bytes. Returns 0, or -1 when the workspace size would overflow. */

/* Caller workspaces (hipreduce_set_workspace) have any address and a fixed size, so the executor
 * lays them out once per workspace, not per call:
 *   [0..15 bytes up to a 16-byte boundary][counters: hr_counter_capacity(bytes)][scratch]
 * The counter region's size depends only on the workspace's size, so bytes that hold arrival
 * counters never hold another call's partials: they are zeroed once when the workspace is set and
 * every launch leaves them zero. hr_workspace_need(scratch, counters) is the smallest workspace
 * size W such that every workspace of W or more bytes, at any address, holds a call's counters in
 * its counter region and its scratch after it (UINT64_MAX on overflow). */

/* Front/back double-buffer multi-pass: pass p reduces count[p] elements to
 * count[p+1] = ceil(count[p] / factor). passes = number of launches. */
typedef struct hr_multipass_plan {
    int passes;
    uint64_t count[66];  /* factor >= 2 needs at most 64 passes */
    uint64_t back_offset;                /* byte offset of the back buffer; the front is at 0 */
    uint64_t workspace_bytes;            /* front + back buffers */
} hr_multipass_plan;

/* Two-pass: a grid-stride first pass of `blocks` blocks (at most max_blocks, at
 * least 1, no more than the items_per_block-sized chunks of n), then one block. */
typedef struct hr_two_pass_plan {
    uint64_t blocks;
    uint64_t workspace_bytes; /* blocks partials */
} hr_two_pass_plan;

/* ---- the functions ---- */

/* Adds bytes to *total, 16-byte aligned; returns the offset or UINT64_MAX on overflow. */
static inline uint64_t hr_plan_reserve(uint64_t* total, uint64_t count, size_t elem_size)
{
    uint64_t offset = *total;
    if (count > (UINT64_MAX - 15) / elem_size) return UINT64_MAX;
    uint64_t bytes = (count * elem_size + 15) & ~(uint64_t)15;
    if (bytes > UINT64_MAX - offset) return UINT64_MAX;
    *total = offset + bytes;
    return offset;
}

static inline int hr_plan_tree(uint64_t n, uint64_t tile_items, size_t acc_size, hr_tree_plan* plan)
{
    memset(plan, 0, sizeof *plan);
    plan->count[0] = n;
    int k = 0;
    /* Any n >= 1 has a level of tiles, even when it is a single element. */
    while (plan->count[k] > 1 || (k == 0 && n == 1)) {
        if (k + 1 >= HR_MAX_LEVELS) return -1;
        plan->count[k + 1] = hr_tiles(plan->count[k], tile_items);
        ++k;
    }
    plan->levels = k + 1;
    /* Arrival counters for every level whose elements are finished by the last
     * arriving block: all levels from 2 up (level 1 comes straight from input tiles). */
    for (int level = 2; level < plan->levels; ++level) {
        plan->counter_offset[level] = hr_plan_reserve(&plan->counter_bytes, plan->count[level], sizeof(uint32_t));
        if (plan->counter_offset[level] == UINT64_MAX) return -1;
    }
    /* Partials of the levels between the input and the one-element top. */
    for (int level = 1; level + 1 < plan->levels; ++level) {
        plan->partial_offset[level] = hr_plan_reserve(&plan->partial_bytes, plan->count[level], acc_size);
        if (plan->partial_offset[level] == UINT64_MAX) return -1;
    }
    if (plan->partial_bytes > UINT64_MAX - plan->counter_bytes) return -1;
    plan->workspace_bytes = plan->counter_bytes + plan->partial_bytes;
    return 0;
}

static inline int hr_plan_multipass(uint64_t n, uint64_t factor, size_t acc_size, hr_multipass_plan* plan)
{
    memset(plan, 0, sizeof *plan);
    if (factor < 2) return -1;
    plan->count[0] = n;
    int p = 0;
    /* n == 0 and n == 1 still take one pass: it writes the identity or copies. */
    do {
        plan->count[p + 1] = n == 0 ? 1 : hr_tiles(plan->count[p], factor);
        ++p;
    } while (plan->count[p] > 1);
    plan->passes = p;
    /* Pass 0 reads the input and writes the front buffer; pass p > 0 reads the buffer
     * pass p-1 wrote and writes the other; the last pass writes the result. So the
     * front holds at most count[1] elements and the back count[2]. */
    uint64_t total = 0;
    if (hr_plan_reserve(&total, plan->passes > 1 ? plan->count[1] : 0, acc_size) == UINT64_MAX) return -1;
    plan->back_offset = hr_plan_reserve(&total, plan->passes > 2 ? plan->count[2] : 0, acc_size);
    if (plan->back_offset == UINT64_MAX) return -1;
    plan->workspace_bytes = total;
    return 0;
}

static inline int hr_plan_two_pass(uint64_t n, uint64_t items_per_block, uint64_t max_blocks, size_t acc_size,
                     hr_two_pass_plan* plan)
{
    memset(plan, 0, sizeof *plan);
    if (items_per_block == 0 || max_blocks == 0) return -1;
    uint64_t blocks = hr_tiles(n, items_per_block);
    if (blocks > max_blocks) blocks = max_blocks;
    if (blocks == 0) blocks = 1;
    plan->blocks = blocks;
    uint64_t total = 0;
    if (blocks > 1 && hr_plan_reserve(&total, blocks, acc_size) == UINT64_MAX) return -1;
    plan->workspace_bytes = total;
    return 0;
}

/* 256 bytes plus 1/1024 of the workspace, in 16-byte steps: the tree's counters are about
 * 4 / (acc_size * tile_items) <= 1/4096 of its partials plus 16 bytes per level. */
static inline uint64_t hr_counter_capacity(uint64_t workspace_bytes) { return 256 + (workspace_bytes / 16384) * 16; }

static inline uint64_t hr_workspace_need(uint64_t scratch_bytes, uint64_t counter_bytes)
{
    /* W - 15 - capacity(W) >= scratch + 16 at W keeps it >= scratch for every larger W: capacity
     * grows in steps of 16 bytes, never faster than W / 1024. */
    if (scratch_bytes > UINT64_MAX / 2 || counter_bytes > UINT64_MAX / 2) return UINT64_MAX;
    uint64_t w = scratch_bytes + 15 + 16 + 256;
    for (;;) {
        const uint64_t cap = hr_counter_capacity(w);
        if (cap >= counter_bytes && w - 15 - cap >= scratch_bytes + 16) return w;
        const uint64_t short_by = cap < counter_bytes ? (counter_bytes - cap) * 1024 : scratch_bytes + 16 + 15 + cap - w;
        if (short_by > UINT64_MAX / 4 - w) return UINT64_MAX;
        w += short_by + short_by / 1023 + 16;
    }
}

#ifdef __cplusplus
}
#endif

#endif
