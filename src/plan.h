/* Planning math shared by the C API, the CPU executor and the GPU host code, for the order
 * that device/order.h defines. */
#ifndef HIPREDUCE_PLAN_H
#define HIPREDUCE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "order.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elements per 16-byte chunk and per tile for an element of elem_size bytes. */
uint32_t hr_chunk_items(size_t elem_size);
uint64_t hr_tile_items(size_t elem_size);

/* Tiles needed to cover count elements (0 for count 0). */
uint64_t hr_tiles(uint64_t count, uint64_t tile_items);

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
int hr_plan_tree(uint64_t n, uint64_t tile_items, size_t acc_size, hr_tree_plan* plan);

/* Caller workspaces (hipreduce_set_workspace) have any address and a fixed size, so the executor
 * lays them out once per workspace, not per call:
 *   [0..15 bytes up to a 16-byte boundary][counters: hr_counter_capacity(bytes)][scratch]
 * The counter region's size depends only on the workspace's size, so bytes that hold arrival
 * counters never hold another call's partials: they are zeroed once when the workspace is set and
 * every launch leaves them zero. hr_workspace_need(scratch, counters) is the smallest workspace
 * size W such that every workspace of W or more bytes, at any address, holds a call's counters in
 * its counter region and its scratch after it (UINT64_MAX on overflow). */
uint64_t hr_counter_capacity(uint64_t workspace_bytes);
uint64_t hr_workspace_need(uint64_t scratch_bytes, uint64_t counter_bytes);

/* Front/back double-buffer multi-pass: pass p reduces count[p] elements to
 * count[p+1] = ceil(count[p] / factor). passes = number of launches. */
typedef struct hr_multipass_plan {
    int passes;
    uint64_t count[66];  /* factor >= 2 needs at most 64 passes */
    uint64_t back_offset;                /* byte offset of the back buffer; the front is at 0 */
    uint64_t workspace_bytes;            /* front + back buffers */
} hr_multipass_plan;
int hr_plan_multipass(uint64_t n, uint64_t factor, size_t acc_size, hr_multipass_plan* plan);

/* Two-pass: a grid-stride first pass of `blocks` blocks (at most max_blocks, at
 * least 1, no more than the items_per_block-sized chunks of n), then one block. */
typedef struct hr_two_pass_plan {
    uint64_t blocks;
    uint64_t workspace_bytes; /* blocks partials */
} hr_two_pass_plan;
int hr_plan_two_pass(uint64_t n, uint64_t items_per_block, uint64_t max_blocks, size_t acc_size,
                     hr_two_pass_plan* plan);

#ifdef __cplusplus
}
#endif

#endif
