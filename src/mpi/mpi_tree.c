/* The canonical tree (device/order.h) completed across ranks, for the ops whose accumulation is
 * a float: sum, prod, sum_abs, sum_squares, nrm2 and dot, and the statistics mean, nansum,
 * nanmean, var, std, var_mean, std_mean and logsumexp (their partials are accumulators: a sum, a
 * sum and its count, the moments, a maximum and its rescaled sum; the top's finish takes the
 * whole length as the count).
 *
 * The global tree's level k has L_k nodes (L_0 = the concatenation's length, L_{k+1} =
 * ceil(L_k / T), T the input's tile, up to one node). At every level each rank holds a contiguous
 * range of the level's nodes, the ranges in rank order (level 0: its slice). A tile of level k
 * belongs to the rank holding its first node; that rank computes its partial, so level k + 1's
 * ranges are again contiguous and in rank order: rank r's [lo, hi) becomes [ceil(lo/T),
 * ceil(hi/T)). The only nodes that move are each rank's head, the nodes before its first tile
 * boundary (fewer than T), sent to the owner of the tile they end: one message per rank per level
 * at most, received by the owners (a tile can span several small ranks, whose heads all go to its
 * owner). Every rank knows every range from the counts allgathered before (mpi_calls.c), so no
 * message carries sizes. The owner of the top node rounds it to the result, and one
 * MPI_Allreduce (bitwise OR: the others contribute zeros) gives every rank the result and the
 * ranks' status bits.
 *
 * Every buffer the levels use is allocated before the first level's message (mpi_tree_early's
 * bounds, before the argument exchange, or the exact sizes after it and a status round), so that
 * a rank that cannot allocate them stops every rank before any message; a rank whose own work
 * fails later still sends and receives every message, and its status bit rides on the final round.
 *
 * Per rank and level: at most one send and the receives of the heads that end in its tiles, each
 * under T items (level 0: elements, twice for dot; above: accumulators of 4 to 24 bytes), times
 * the rows of an axis call. Rounds: levels (log_T of the length: 3 for 2^36 f32) plus the final
 * allreduce, after the counts' allgather; bytes per rank O(T * rows * levels) plus the result.
 *
 * Scale: the only term that grows with the rank count P is the counts' allgather (32 P bytes
 * received); a tile spanning many small ranks brings its owner fewer than T items from fewer than
 * T senders, whatever P. An axis call sends all its rows (and columns) in the same messages, and
 * so does the fields call, whose rows (and dot's second rows) lie at their own pointers, each
 * from its range's first element (mpi_row, mpi_row_y).
 *
 * A rank's own tiles are reduced on its device: by the handle's public calls (rows of T elements
 * with the accumulator's dtype as the result: its partials exactly; var_mean's two results with
 * correction 0 for the moments) where such a call exists, and by the library-internal partials
 * (src/partials.h) on host memory otherwise (dot, which has no axis call; f64 nrm2, whose
 * accumulator is no dtype; nanmean's count and logsumexp's rescaled sum, which no result gives):
 * directly on a cpu-device handle, staged through host memory in chunks on a GPU handle. A
 * level-1 tile whose T^2 elements the rank holds whole is a subtree, so a row of T^2 elements
 * gives its level-2 node at once: a GPU rank copies about n / T^2 partials to the host, not n / T. The levels above reduce partials on the host.
 * Columns (inner > 1) follow the same plan with the strided order's blocks of 256 for tiles. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "op_table.h"
#include "order.h"
#include "partials.h"
#include "rules.h"

int mpi_needs_tree(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out)
{
    const int acc = hr_acc_of((int)op, (int)in, (int)out), combine = hr_op_combine((int)op);
    switch (acc) {
    case HR_ACC_F32:
    case HR_ACC_F64:
    case HR_ACC_NRM2_F64: return combine == HR_CB_ADD || combine == HR_CB_MUL || combine == HR_CB_NRM2;
    case HR_ACC_SUMN_F32:
    case HR_ACC_SUMN_F64:
    case HR_ACC_MOM_F32:
    case HR_ACC_MOM_F64:
    case HR_ACC_LSE_F32:
    case HR_ACC_LSE_F64:
    case HR_ACC_C64: /* complex sums, products and dots */
    case HR_ACC_C128: return 1;
    default: return 0;
    }
}

/* The rank holding node i of a level (ranges in rank order; i inside one of them). */
static int holder(const mpi_range* ranges, int ranks, uint64_t i)
{
    int a = 0, b = ranks - 1; /* the largest rank whose lo <= i */
    while (a < b) {
        const int m = a + (b - a + 1) / 2;
        if (ranges[m].lo <= i) a = m;
        else b = m - 1;
    }
    return a;
}

/* One level's exchange. Messages hold rows x k items of `item` bytes, row by row. This rank's
 * head (k = head_items, at head) goes to the owner of its tile; the heads that end in this
 * rank's last tile arrive, in rank order, message after message at tail, their sizes in got[]
 * (a count of messages in *messages). MPI errors: the status, with MPI's message. */
static hipreduce_status exchange(const mpi_call* c, const mpi_range* ranges, uint64_t level_count, uint64_t tile,
                                 int level, uint64_t rows, size_t item, const unsigned char* head,
                                 uint64_t head_items, unsigned char* tail, uint64_t* got, int* messages)
{
    const mpi_range me = ranges[c->rank];
    MPI_Datatype type; /* one item of every row: counts stay small */
    if (rows * item > INT_MAX) { /* the same on every rank: no message of this level has moved */
        mpi_set_message("an axis call's %llu rows of %zu-byte items exceed an MPI count", (unsigned long long)rows, item);
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    }
    int rc = MPI_Type_contiguous((int)(rows * item), MPI_BYTE, &type);
    if (rc == MPI_SUCCESS && (rc = MPI_Type_commit(&type)) != MPI_SUCCESS) MPI_Type_free(&type);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Type_contiguous");
    const int tag = 0x4852 + level;
    MPI_Request send = MPI_REQUEST_NULL;
    if (head_items > 0)
        rc = MPI_Isend(head, (int)head_items, type, holder(ranges, c->ranks, me.lo / tile * tile), tag, c->comm, &send);
    *messages = 0;
    const uint64_t t_lo = hr_tiles(me.lo, tile), t_hi = hr_tiles(me.hi, tile);
    if (rc == MPI_SUCCESS && t_lo < t_hi) {
        const uint64_t need_end = t_hi * tile < level_count ? t_hi * tile : level_count;
        uint64_t at = 0;
        for (int r = c->rank + 1; r < c->ranks && rc == MPI_SUCCESS; ++r) {
            if (ranges[r].lo == ranges[r].hi) continue;
            if (ranges[r].lo >= need_end) break;
            const uint64_t k = (ranges[r].hi < need_end ? ranges[r].hi : need_end) - ranges[r].lo;
            rc = MPI_Recv(tail + at * rows * item, (int)k, type, r, tag, c->comm, MPI_STATUS_IGNORE);
            got[(*messages)++] = k;
            at += k;
        }
    }
    const int wait_rc = MPI_Wait(&send, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = wait_rc;
    MPI_Type_free(&type);
    return rc == MPI_SUCCESS ? HIPREDUCE_STATUS_SUCCESS : mpi_error(rc, "the boundary exchange (MPI_Isend/MPI_Recv)");
}

/* Row b's part of the received tail: the messages' row-b items one after the other (each
 * message holds its rows one after the other), into dst. */
static void tail_row(const unsigned char* tail, const uint64_t* got, int messages, uint64_t rows, size_t item,
                     uint64_t b, unsigned char* dst)
{
    for (int m = 0; m < messages; ++m) {
        memcpy(dst, tail + b * got[m] * item, (size_t)got[m] * item);
        dst += got[m] * item;
        tail += got[m] * rows * item;
    }
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

hipreduce_status mpi_tree_reduce(const mpi_call* c, uint64_t rows, int late, mpi_tree_scratch* s, void* result)
{
    mpi_tree_geo t;
    hipreduce_status local = mpi_tree_geometry(c, &t);
    if (local != HIPREDUCE_STATUS_SUCCESS) return local; /* validated before: the same on every rank */
    if (late && (local = mpi_tree_late(c, rows, s)) != HIPREDUCE_STATUS_SUCCESS) return local;
    const mpi_geometry g = t.g;
    const uint64_t tile = t.tile;
    const size_t acc = t.acc, elem = t.elem, iacc = t.iacc, item0 = t.item0;
    const int dot = t.dot;
    const size_t out_bytes = (size_t)hr_dtype_bytes((int)c->out);
    const uint64_t outputs = rows * g.inner;
    const int nout = hr_op_outputs((int)c->op);
    mpi_range* ranges = (mpi_range*)mpi_tree_part(s, B_RANGES);
    uint64_t* got = (uint64_t*)mpi_tree_part(s, B_GOT);
    uint64_t* final = (uint64_t*)mpi_tree_part(s, B_FINAL);
    const uint64_t result_words = s->bytes[B_FINAL] / sizeof *final;
    unsigned char* head = (unsigned char*)mpi_tree_part(s, B_HEAD);
    unsigned char* tail = (unsigned char*)mpi_tree_part(s, B_TAIL);
    unsigned char* work = (unsigned char*)mpi_tree_part(s, B_WORK);
    unsigned char* tb = (unsigned char*)mpi_tree_part(s, B_TAILROW);
    unsigned char *cur = (unsigned char*)mpi_tree_part(s, B_CUR), *next = (unsigned char*)mpi_tree_part(s, B_NEXT);
    /* Level-1 tiles [a1, b1) / tile whose tile^2 elements this rank holds whole: their level-2
     * nodes come from the handle at once (rows of tile^2), `middle` per row at shortcut (where it
     * cannot be allocated, they come level by level as the others). */
    unsigned char* shortcut = NULL;
    uint64_t a1 = 0, b1 = 0, middle = 0;
    hipreduce_op op0;
    hipreduce_dtype out0;
    const int public0 = mpi_public_level0(c->op, c->in, c->out, &op0, &out0);
    for (int r = 0; r < c->ranks; ++r) {
        ranges[r].lo = r == 0 ? 0 : ranges[r - 1].hi;
        ranges[r].hi = ranges[r].lo + c->counts[r];
    }
    hipreduce_status mpi_status = HIPREDUCE_STATUS_SUCCESS;
    uint64_t level_count = c->total;
    /* The strided order's result is its first level of one element: a one-element extent is
     * that element, transformed, so its holder's local call is the single-process call. */
    const int single = g.strided && c->total == 1;
    /* Every level's messages move whatever this rank's work gave: a rank whose work failed keeps
     * the exchange in step, and its status bit goes into the final round. */
    for (int level = 0; !single && (level_count > 1 || (level == 0 && !g.strided)); ++level) {
        const mpi_range me = ranges[c->rank];
        const mpi_level_part lp = mpi_part_of(me, level_count, tile);
        const uint64_t t_lo = lp.t_lo, t_hi = lp.t_hi, owned = lp.owned, held = lp.held;
        const uint64_t head_items = lp.head_items, need_end = lp.need_end, tail_items = lp.tail_items;
        const size_t item = level == 0 ? item0 : iacc;
        /* the head, row by row (level 0: staged from the handle's memory; dot: x's, then y's) */
        for (uint64_t b = 0; b < rows && head_items > 0 && local == HIPREDUCE_STATUS_SUCCESS; ++b) {
            unsigned char* h = head + b * head_items * item;
            if (level == 0) {
                local = mpi_to_host(c->handle, mpi_row(c, b, elem), head_items * elem, h);
                if (local == HIPREDUCE_STATUS_SUCCESS && dot)
                    local = mpi_to_host(c->handle, mpi_row_y(c, b, elem), head_items * elem, h + head_items * elem);
            } else {
                memcpy(h, cur + b * held * iacc, (size_t)(head_items * iacc));
            }
        }
        int messages = 0;
        mpi_status = exchange(c, ranges, level_count, tile, level, rows, item, head, head_items, tail, got, &messages);
        if (mpi_status != HIPREDUCE_STATUS_SUCCESS) break;
        /* this rank's tiles: the local ones, then the last one if it straddles into the tail */
        const uint64_t local_end = min_u64(need_end, me.hi); /* == need_end unless the last tile straddles */
        const uint64_t straddles = owned > 0 && tail_items > 0;
        const uint64_t local_tiles_n = owned - straddles;
        const uint64_t local_count = local_tiles_n > 0 ? min_u64(local_end, (t_lo + local_tiles_n) * tile) - t_lo * tile : 0;
        const uint64_t skip = owned > 0 ? t_lo * tile - me.lo : 0; /* the head, gone */
        if (level == 0 && public0 && local_tiles_n > 0) {
            /* whole level-1 tiles of full level-0 tiles: [a1, b1) in level-1 nodes */
            const uint64_t full0 = local_count == local_tiles_n * tile ? local_tiles_n : local_tiles_n - 1;
            a1 = hr_tiles(t_lo, tile) * tile;
            b1 = (t_lo + full0) / tile * tile;
            middle = a1 < b1 ? (b1 - a1) / tile : 0;
            if (middle > 0 && (shortcut = (unsigned char*)malloc((size_t)(rows * middle * iacc))) == NULL) middle = 0;
        }
        for (uint64_t b = 0; b < rows && local == HIPREDUCE_STATUS_SUCCESS; ++b) {
            unsigned char* dst = next + b * owned * iacc;
            if (level == 0 && middle > 0) {
                /* level-1 nodes before a1 and from b1 on; tile^2 rows give the middle's level-2 nodes */
                const unsigned char* xb = mpi_row(c, b, elem) + skip * elem;
                const uint64_t before = a1 - t_lo, from = b1 - t_lo;
                local = mpi_local_tiles(c, &g, xb, NULL, before * tile, before, acc, dst);
                if (local == HIPREDUCE_STATUS_SUCCESS)
                    local = mpi_public_rows(c, &g, xb + before * tile * elem, middle, tile * tile, acc,
                                            shortcut + b * middle * iacc);
                if (local == HIPREDUCE_STATUS_SUCCESS)
                    local = mpi_local_tiles(c, &g, xb + from * tile * elem, NULL, local_count - from * tile,
                                        local_tiles_n - from, acc, dst + from * iacc);
            } else if (level == 0) {
                const unsigned char* xb = mpi_row(c, b, elem) + skip * elem;
                const unsigned char* yb = dot ? mpi_row_y(c, b, elem) + skip * elem : NULL;
                local = mpi_local_tiles(c, &g, xb, yb, local_count, local_tiles_n, acc, dst);
            } else if (level == 1 && middle > 0) {
                /* the level-1 tiles [a1, b1) / tile: their nodes came with level 0 */
                const uint64_t from = b1 - me.lo;
                memcpy(dst, shortcut + b * middle * iacc, (size_t)(middle * iacc));
                local = mpi_host_tiles(c, &g, level, cur + (b * held + from) * iacc, NULL, local_count - (b1 - a1),
                                   local_tiles_n - middle, dst + middle * iacc);
            } else {
                local = mpi_host_tiles(c, &g, level, cur + (b * held + skip) * iacc, NULL, local_count, local_tiles_n, dst);
            }
            if (local != HIPREDUCE_STATUS_SUCCESS || !straddles) continue;
            /* the straddling tile: its local part and the tail, on the host */
            const uint64_t first = (t_hi - 1) * tile, mine = me.hi - first, count = need_end - first;
            tail_row(tail, got, messages, rows, item, b, tb);
            if (level == 0) {
                local = mpi_to_host(c->handle, mpi_row(c, b, elem) + (first - me.lo) * elem, mine * elem, work);
                if (local == HIPREDUCE_STATUS_SUCCESS && dot)
                    local = mpi_to_host(c->handle, mpi_row_y(c, b, elem) + (first - me.lo) * elem, mine * elem,
                                    work + count * elem);
                /* the tail's items, message by message: x's part then y's part of each */
                uint64_t at = 0;
                const unsigned char* p = tb;
                for (int m = 0; m < messages; ++m) {
                    memcpy(work + (mine + at) * elem, p, (size_t)(got[m] * elem));
                    if (dot) memcpy(work + (count + mine + at) * elem, p + got[m] * elem, (size_t)(got[m] * elem));
                    p += got[m] * item;
                    at += got[m];
                }
            } else {
                memcpy(work, cur + (b * held + (first - me.lo)) * iacc, (size_t)(mine * iacc));
                memcpy(work + mine * iacc, tb, (size_t)(tail_items * iacc));
            }
            if (local == HIPREDUCE_STATUS_SUCCESS)
                local = mpi_host_tiles(c, &g, level, work, dot && level == 0 ? work + count * elem : NULL, count, 1,
                                   dst + (owned - 1) * iacc);
        }
        if (local != HIPREDUCE_STATUS_SUCCESS && !mpi_has_message())
            mpi_set_message("this rank's tiles at level %d failed: %s (the handle's last message: %s)", level,
                            hipreduce_status_string(local), hipreduce_last_error_message(c->handle));
        unsigned char* const spent = cur; /* the level below's nodes: the next level's output */
        cur = next;
        next = spent;
        for (int r = 0; r < c->ranks; ++r) {
            ranges[r].lo = hr_tiles(ranges[r].lo, tile);
            ranges[r].hi = hr_tiles(ranges[r].hi, tile);
        }
        level_count = hr_tiles(level_count, tile);
    }
    free(shortcut);
    if (mpi_status != HIPREDUCE_STATUS_SUCCESS) return mpi_status;
    /* the top: held by the rank whose range at the top level is [0, 1); the second outputs
     * (var_mean, std_mean) after the first */
    unsigned char* values = (unsigned char*)(final + 1);
    unsigned char* values2 = values + outputs * out_bytes;
    final[0] = local == HIPREDUCE_STATUS_SUCCESS ? 0 : 1ull << (unsigned)local;
    if (local == HIPREDUCE_STATUS_SUCCESS && ranges[c->rank].lo < ranges[c->rank].hi) {
        if (single)
            local = mpi_axis_call(c->handle, c->op, c->in, c->x, rows, 1, g.inner, c->correction, c->out, values, values2);
        for (uint64_t r = 0; r < outputs && !single && local == HIPREDUCE_STATUS_SUCCESS; ++r) {
            unsigned char value[16], value2[16];
            local = hr_internal_partials_finish(c->op, c->in, c->out, cur + r * acc, c->total, c->correction, value,
                                                value2);
            memcpy(values + r * out_bytes, value, out_bytes);
            if (nout > 1) memcpy(values2 + r * out_bytes, value2, out_bytes);
        }
        if (local != HIPREDUCE_STATUS_SUCCESS) {
            final[0] = 1ull << (unsigned)local;
            mpi_set_message("this rank's top of the tree failed: %s (the handle's last message: %s)",
                            hipreduce_status_string(local), hipreduce_last_error_message(c->handle));
        }
    }
    hipreduce_status agreed = HIPREDUCE_STATUS_SUCCESS;
    for (uint64_t done = 0; done < result_words && agreed == HIPREDUCE_STATUS_SUCCESS; done += 1u << 24) {
        const uint64_t k = min_u64(result_words - done, 1u << 24);
        const int rc = MPI_Allreduce(MPI_IN_PLACE, final + done, (int)k, MPI_UINT64_T, MPI_BOR, c->comm);
        if (rc != MPI_SUCCESS) agreed = mpi_error(rc, "MPI_Allreduce");
    }
    if (agreed == HIPREDUCE_STATUS_SUCCESS) agreed = mpi_agreed_status(final[0], local);
    if (agreed == HIPREDUCE_STATUS_SUCCESS) memcpy(result, values, (size_t)(outputs * out_bytes) * nout);
    return agreed;
}
