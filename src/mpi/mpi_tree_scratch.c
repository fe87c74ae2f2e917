/* The tree's scratch (mpi_internal.h): the sizes of every buffer its levels use, from bounds on
 * this rank's own length before the argument exchange (mpi_tree_early) or exactly, level by level,
 * after it (mpi_tree_late), in one zeroed block. */
#include <stdint.h>
#include <stdlib.h>

#include "mpi_internal.h"
#include "order.h"
#include "partials.h"
#include "rules.h"

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Products and sums of sizes, saturating (a saturated size is an allocation that fails). */
static uint64_t mul_sat(uint64_t a, uint64_t b) { return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

hipreduce_status mpi_tree_geometry(const mpi_call* c, mpi_tree_geo* t)
{
    uint64_t tile;
    size_t acc;
    const hipreduce_status s = hr_internal_partials_geometry(c->op, c->in, c->out, &tile, &acc);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    t->g = (mpi_geometry){c->inner > 1 ? HR_STRIDED_BLOCK : tile, c->inner, c->inner > 1};
    t->tile = t->g.tile;
    t->acc = acc;
    t->elem = (size_t)hr_dtype_bytes((int)c->in) * (size_t)c->inner;
    t->iacc = acc * (size_t)c->inner;
    t->dot = c->op == HIPREDUCE_OP_DOT || c->op == HIPREDUCE_OP_DOTC; /* two inputs */
    t->item0 = t->dot ? 2 * t->elem : t->elem;
    return HIPREDUCE_STATUS_SUCCESS;
}

mpi_level_part mpi_part_of(mpi_range me, uint64_t count, uint64_t tile)
{
    mpi_level_part p;
    p.t_lo = hr_tiles(me.lo, tile);
    p.t_hi = hr_tiles(me.hi, tile);
    p.owned = p.t_hi - p.t_lo;
    p.held = me.hi - me.lo;
    p.head_items = me.lo < me.hi ? min_u64(p.t_lo * tile, me.hi) - me.lo : 0;
    p.need_end = min_u64(p.t_hi * tile, count);
    p.tail_items = p.owned > 0 ? p.need_end - me.hi : 0;
    return p;
}

static void table_sizes(const mpi_call* c, uint64_t rows, uint64_t* b)
{
    const uint64_t outputs = rows * c->inner * (uint64_t)hr_op_outputs((int)c->op); /* var_mean: two a row */
    const uint64_t out_bytes = (uint64_t)hr_dtype_bytes((int)c->out);
    b[B_RANGES] = (uint64_t)c->ranks * sizeof(mpi_range);
    b[B_GOT] = (uint64_t)c->ranks * sizeof(uint64_t);
    b[B_FINAL] = mul_sat(add_sat(1, add_sat(mul_sat(outputs, out_bytes), 7) / 8), sizeof(uint64_t));
}

/* Bounds from this rank's own length n (before the exchange): a head of fewer than min(T, n + 1)
 * items, a tail of fewer than T, at most min(n, n / T + 1) tiles of a level, one tile of work. */
static void bound_sizes(const mpi_call* c, const mpi_tree_geo* t, uint64_t rows, uint64_t* b)
{
    const uint64_t n = c->n, T = t->tile, item = max_u64(t->item0, t->iacc);
    table_sizes(c, rows, b);
    for (int i = B_HEAD; i < B_COUNT; ++i) b[i] = 0;
    if (n == 0) return; /* owns no tile at any level */
    b[B_HEAD] = mul_sat(mul_sat(rows, min_u64(T - 1, n)), item);
    b[B_TAIL] = mul_sat(mul_sat(rows, T - 1), item);
    b[B_CUR] = b[B_NEXT] = mul_sat(mul_sat(rows, min_u64(n, n / T + 1)), t->iacc);
    b[B_WORK] = mul_sat(T, item);
    b[B_TAILROW] = mul_sat(T - 1, item);
}

/* The exact sizes, level by level, once every rank's length is known. */
static void exact_sizes(const mpi_call* c, const mpi_tree_geo* t, uint64_t rows, uint64_t* b)
{
    table_sizes(c, rows, b);
    for (int i = B_HEAD; i < B_COUNT; ++i) b[i] = 0;
    mpi_range me = {c->offset, c->offset + c->n};
    uint64_t count = c->total;
    const int single = t->g.strided && c->total == 1;
    for (int level = 0; !single && (count > 1 || (level == 0 && !t->g.strided)); ++level) {
        const mpi_level_part p = mpi_part_of(me, count, t->tile);
        const uint64_t item = level == 0 ? t->item0 : t->iacc;
        b[B_HEAD] = max_u64(b[B_HEAD], mul_sat(mul_sat(rows, p.head_items), item));
        b[B_TAIL] = max_u64(b[B_TAIL], mul_sat(mul_sat(rows, p.tail_items), item));
        b[B_NEXT] = b[B_CUR] = max_u64(b[B_NEXT], mul_sat(mul_sat(rows, p.owned), t->iacc));
        if (p.owned > 0 && p.tail_items > 0) {
            b[B_WORK] = max_u64(b[B_WORK], mul_sat(t->tile, item));
            b[B_TAILROW] = max_u64(b[B_TAILROW], mul_sat(p.tail_items, item));
        }
        me.lo = hr_tiles(me.lo, t->tile);
        me.hi = hr_tiles(me.hi, t->tile);
        count = hr_tiles(count, t->tile);
    }
}

/* One zeroed block for the sizes (16-byte aligned parts); 0 when it cannot be had. */
static int allocate(mpi_tree_scratch* s, const uint64_t* b)
{
    uint64_t total = 16;
    for (int i = 0; i < B_COUNT; ++i) total = add_sat(total, add_sat(b[i], 15) / 16 * 16);
    s->block = total <= (uint64_t)SIZE_MAX ? (unsigned char*)calloc(1, (size_t)total) : NULL;
    if (s->block == NULL) {
        mpi_set_message("allocation of this rank's %llu-byte scratch for the tree failed", (unsigned long long)total);
        return 0;
    }
    for (int i = 0; i < B_COUNT; ++i) s->bytes[i] = (size_t)b[i];
    return 1;
}

void* mpi_tree_part(const mpi_tree_scratch* s, int which)
{
    unsigned char* p = s->block;
    for (int i = 0; i < which; ++i) p += (s->bytes[i] + 15) / 16 * 16;
    return p;
}

enum { EARLY_FIXED = 1 << 20 }; /* bytes of bounded buffers always taken before the exchange */

int mpi_tree_early(const mpi_call* c, uint64_t rows, mpi_tree_scratch* s)
{
    mpi_tree_geo t;
    uint64_t b[B_COUNT];
    if (mpi_tree_geometry(c, &t) != HIPREDUCE_STATUS_SUCCESS) return 0; /* checked before: not reached */
    bound_sizes(c, &t, rows, b);
    const uint64_t fixed = add_sat(add_sat(b[B_HEAD], b[B_TAIL]), add_sat(b[B_WORK], b[B_TAILROW]));
    const uint64_t input = mul_sat(mul_sat(rows, c->n), t.elem);
    if (fixed > EARLY_FIXED && fixed > input) return 0;
    return allocate(s, b) ? 1 : -1;
}

hipreduce_status mpi_tree_late(const mpi_call* c, uint64_t rows, mpi_tree_scratch* s)
{
    mpi_tree_geo t;
    uint64_t b[B_COUNT];
    hipreduce_status mine = HIPREDUCE_STATUS_SUCCESS;
    if (s->block == NULL) {
        if (mpi_tree_geometry(c, &t) != HIPREDUCE_STATUS_SUCCESS) return HIPREDUCE_STATUS_INVALID_OP; /* checked before */
        exact_sizes(c, &t, rows, b);
        if (!allocate(s, b)) mine = HIPREDUCE_STATUS_ALLOCATION_FAILED;
    }
    return mpi_status_round(c->comm, mine);
}
