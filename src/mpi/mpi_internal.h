/* libhipreduce_mpi's internal pieces: the call as every rank describes it, the private
 * communicator, the error message, and the three mechanisms (mpi_associative.c, mpi_exact_sums.c, mpi_tree.c). */
#ifndef HIPREDUCE_MPI_INTERNAL_H
#define HIPREDUCE_MPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce_mpi.h"

/* A collective call as one rank sees it: a batch of `rows` contiguous slices (a full call: 1; an
 * axis call with inner == 1: outer) of n elements each on this rank, or, for the exact
 * mechanism, any local call's `results` outputs. */
typedef struct mpi_call {
    hipreduce_handle handle;
    MPI_Comm comm; /* the private duplicate */
    int rank, ranks;
    hipreduce_op op;
    hipreduce_dtype in, out;
    const unsigned char *x, *y; /* y: dot's */
    const void* const* fields;  /* the fields call's rows, a pointer each; NULL: row b at x + b n */
    const void* const* weights; /* the weighted fields call's second inputs (dot), a pointer a row */
    const uint64_t* ranges;     /* the fields call's [begin, end) a row (NULL: [0, n)); n: their common length */
    uint64_t n;                 /* this rank's elements per row (its extent for an axis call) */
    uint64_t outer, inner;      /* an axis call's; 1, 1 for a full call */
    const uint64_t* counts;     /* every rank's n, in rank order */
    uint64_t offset, total;     /* this rank's first element in the concatenation, and the length */
    double correction;          /* var, std and their means (the statistics call); 0 otherwise */
} mpi_call;

/* A field's first item at p (NULL stays NULL: an empty field's pointer may be NULL). */
static inline const unsigned char* mpi_field_at(const void* p, const uint64_t* ranges, uint64_t b, size_t elem)
{
    return p == NULL || ranges == NULL ? (const unsigned char*)p : (const unsigned char*)p + ranges[2 * b] * elem;
}

/* Row b of the call's input (elem: the bytes of a row's item, the input dtype's times inner). */
static inline const unsigned char* mpi_row(const mpi_call* c, uint64_t b, size_t elem)
{
    return c->fields ? mpi_field_at(c->fields[b], c->ranges, b, elem) : c->x + b * c->n * elem;
}

/* Row b of dot's second input. */
static inline const unsigned char* mpi_row_y(const mpi_call* c, uint64_t b, size_t elem)
{
    return c->weights ? mpi_field_at(c->weights[b], c->ranges, b, elem) : c->y + b * c->n * elem;
}

/* Row b's elements on this rank. */
static inline uint64_t mpi_row_n(const mpi_call* c, uint64_t b)
{
    return c->ranges ? c->ranges[2 * b + 1] - c->ranges[2 * b] : c->n;
}

/* Words a rank puts into the argument exchange (mpi_args.c). */
enum { MPI_RECORD_WORDS = 5 };

/* The public calls' kinds, and what a rank passes to one (mpi_calls.c). */
typedef enum mpi_kind { KIND_REDUCE = 1, KIND_ARGREDUCE, KIND_DOT, KIND_AXIS, KIND_ARGAXIS, KIND_FIELDS, KIND_STATS } mpi_kind;
typedef struct mpi_args {
    mpi_kind kind;
    hipreduce_handle handle;
    hipreduce_op op;
    hipreduce_dtype in, out;
    const void *x, *y;
    uint64_t outer, extent, inner; /* full calls: 1, n, 1 */
    void* result;                  /* results or values */
    int64_t* index;
    hipreduce_location location;
    const void* const* fields; /* KIND_FIELDS: outer pointers of extent elements each */
    double correction;         /* KIND_STATS: var's and std's */
    void* result2;             /* KIND_STATS: the two-output ops' second results */
    const void* const* weights; /* KIND_FIELDS: NULL, or dot's second inputs, a pointer a field */
    const uint64_t* ranges;     /* KIND_FIELDS: NULL, or [begin, end) of each field within extent */
    int started;                /* KIND_FIELDS: the non-blocking start (exact sums only), its request at request */
    hipreduce_mpi_request* request;
} mpi_args;

/* The fields call's length on this rank as the exchange carries it: extent without ranges, else
 * the ranges' common length, or their largest where they differ (*uniform 0: the associative
 * ops and exact sums only; uniform may be NULL). Validated ranges. */
uint64_t mpi_fields_extent(const mpi_args* a, int* uniform);

/* mpi_args.c. This rank's verdict on its own arguments, in the core call's order (a message
 * where it can say more than the status). */
hipreduce_status mpi_local_check(const mpi_args* a);
/* The core's validation of these arguments through its size query (the workspace the local
 * calls need, for the associative mechanism and exact sums). */
hipreduce_status mpi_core_check(const mpi_args* a, size_t* bytes);
/* The ranks' agreement, one MPI_Allgather of MPI_RECORD_WORDS words a rank: every rank gets the
 * same verdict. records: the cached receive buffer (mpi_private_comm); on success its last
 * `ranks` words are every rank's extent (counts), and offset, total and *late (whether any rank's
 * tree scratch comes late) are set. A failing rank's own message was recorded before. */
hipreduce_status mpi_agree(const mpi_args* a, hipreduce_status own, int late_here, MPI_Comm comm, int ranks, int rank,
                           uint64_t* records, uint64_t* offset, uint64_t* total, int* late);

/* The private duplicate of comm, errors returning, and the exchange's receive buffer (ranks x
 * (MPI_RECORD_WORDS + 1) words), both made by the first call on comm (collective, with one round
 * that agrees on whether every rank could allocate them) and cached on comm. */
hipreduce_status mpi_private_comm(MPI_Comm comm, MPI_Comm* dup, uint64_t** records);

/* Records the message of this thread's failing call (printf-style); "" resets it. */
void mpi_set_message(const char* format, ...);
/* Whether this thread's call has recorded a message. */
int mpi_has_message(void);
/* MPI_ERROR with MPI's message for code, from the named MPI call. */
hipreduce_status mpi_error(int code, const char* what);

/* Status bits agreed in a round: bit s set by a rank whose local work failed with s. own, with a
 * message if none was recorded, where this rank failed; MPI_MISMATCH ("another rank failed")
 * where another did. */
hipreduce_status mpi_agreed_status(uint64_t bits, hipreduce_status own);
/* A round of nothing but the ranks' statuses (one MPI_Allreduce of a word): mpi_agreed_status. */
hipreduce_status mpi_status_round(MPI_Comm comm, hipreduce_status local);

/* Exactly associative ops: this rank's local results (values of `out` bytes each and, for
 * argmin/argmax, local indices made global by `index_offset`; aminmax: the minima, then as many
 * maxima), combined over the ranks in place by one MPI_Allreduce that also agrees on the status
 * (local: this rank's status so far). The combines are the ops' own, exact: sums and products
 * modulo 2^bits, bitwise ops, min/max (nanmin/nanmax: a NaN loses, a rank without elements too),
 * all as and, any as or, argmin/argmax. */
hipreduce_status mpi_associative_combine(const mpi_call* call, hipreduce_status local, uint64_t results,
                                   unsigned char* values, int64_t* indices, int64_t index_offset);

/* sum_exact and dot_exact (mpi_exact_sums.c): bytes of the accumulators of `results` results (0
 * where they do not fit a size_t). */
size_t mpi_exact_bytes(const mpi_call* call, uint64_t results);
/* This rank's accumulators of the call's `results` into w (mpi_exact_bytes, allocated by the
 * caller before the argument exchange), summed over the ranks by one MPI_Allreduce that also
 * agrees on the status, rounded into values (results of `out`) on every rank. */
hipreduce_status mpi_exact_sums(const mpi_call* call, uint64_t results, int64_t* w, unsigned char* values);
/* Its two halves, for the non-blocking call: this rank's accumulators and the rounds started
 * (requests: mpi_exact_rounds(results) of them for MPI_Iallreduce; NULL: MPI_Allreduce, done on
 * return), the state kept in st; then, once every round completed (rounds: MPI_ERROR where their
 * completion failed), the agreed status and the values, the MPI objects freed. */
typedef struct mpi_exact_state {
    MPI_Datatype type;
    MPI_Op op;
    int words;
    uint64_t results;
    int64_t* w;
    hipreduce_status local, mpi; /* this rank's sums; the rounds' start */
} mpi_exact_state;
hipreduce_status mpi_exact_start(const mpi_call* call, uint64_t results, int64_t* w, MPI_Request* requests,
                                 mpi_exact_state* st);
uint64_t mpi_exact_rounds(uint64_t results);
hipreduce_status mpi_exact_finish(const mpi_call* call, mpi_exact_state* st, hipreduce_status rounds,
                                  unsigned char* values);

/* The tree's scratch (mpi_tree_scratch.c): every buffer its levels use, in one block allocated
 * before the first level's message, so that a rank that cannot allocate it still takes part in a
 * round that says so and no rank waits for its messages. */
typedef struct mpi_tree_scratch {
    unsigned char* block;
    size_t bytes[9]; /* each buffer's size, in the order of the B_ names below */
} mpi_tree_scratch;

/* Before the argument exchange (call->n, inner, ranks and the op known; counts not yet): this
 * rank's scratch for bounds from its own facts where they are small (a few tiles, or no more
 * than its input: every full call), so that its failure rides on the exchange. 1 when allocated,
 * -1 when that allocation failed, 0 when the bound is too large: the scratch then comes after
 * the exchange, with the exact sizes, followed by a status round on every rank (`late`). */
int mpi_tree_early(const mpi_call* call, uint64_t rows, mpi_tree_scratch* scratch);

/* Float sums, products, sum_abs, sum_squares, nrm2, dot and the statistics whose accumulation is
 * a float (mean, nansum, nanmean, var/std and their means, logsumexp): the canonical tree over the
 * ranks for each of the call's `rows` rows; writes rows results of `out` to result on every rank
 * (two-output ops: then as many second results).
 * late: some rank's scratch comes now (every rank takes the status round); the scratch stays the
 * caller's to free (its block). */
hipreduce_status mpi_tree_reduce(const mpi_call* call, uint64_t rows, int late, mpi_tree_scratch* scratch,
                                 void* result);

/* The order's geometry: contiguous tiles (inner == 1) or the strided order's blocks of 256
 * along the extent, each node `inner` columns wide. */
typedef struct mpi_geometry {
    uint64_t tile, inner;
    int strided;
} mpi_geometry;

/* mpi_tiles.c: a rank's own tiles.
 * How a tile's partial comes from a public call (op0 into out0): PUBLIC_VALUE its result,
 * PUBLIC_MOMENTS var_mean's two results (and the tile's count); 0 where no call gives it. */
enum { PUBLIC_VALUE = 1, PUBLIC_MOMENTS = 2 };
int mpi_public_level0(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, hipreduce_op* op0,
                      hipreduce_dtype* out0);
/* The partials of `rows` consecutive slices of `extent` items of level 0 at x (the strided
 * geometry: [rows][extent][inner], rows * inner partials) from the public call, into dst in the
 * accumulator's layout (acc bytes each). */
hipreduce_status mpi_public_rows(const mpi_call* c, const mpi_geometry* g, const unsigned char* x, uint64_t rows,
                                 uint64_t extent, size_t acc, unsigned char* dst);
/* The local axis call of any reduce or plan op on host outputs: [outer][extent][inner] reduced
 * along the extent (inner > 1: the strided order; outer = inner = 1: a full reduction), through
 * hipreduce_reduce_axis or a plan (mpi_axis_plan: LOGICAL for inner == 1, else STRIDED), values2
 * for the two-output ops. */
hipreduce_status mpi_axis_call(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, const void* x, uint64_t outer,
                               uint64_t extent, uint64_t inner, double correction, hipreduce_dtype out, void* values,
                               void* values2);
hipreduce_status mpi_axis_plan(hipreduce_handle h, hipreduce_op op, hipreduce_dtype in, uint64_t outer, uint64_t extent,
                               uint64_t inner, double correction, hipreduce_dtype out, hipreduce_plan* plan);
/* Whether the handle's data is host memory the component reads itself (a cpu-device handle). */
int mpi_reads_host(hipreduce_handle h);
/* bytes of the handle's memory at src to host memory at dst. */
hipreduce_status mpi_to_host(hipreduce_handle h, const void* src, uint64_t bytes, void* dst);
/* Partials of tiles [0, tiles) of a level on the host (count items of g->inner columns). */
hipreduce_status mpi_host_tiles(const mpi_call* c, const mpi_geometry* g, int level, const unsigned char* x,
                                const unsigned char* y, uint64_t count, uint64_t tiles, unsigned char* dst);
/* Partials of level-0 tiles [0, tiles) in the handle's memory at x (and y, dot's). */
hipreduce_status mpi_local_tiles(const mpi_call* c, const mpi_geometry* g, const unsigned char* x,
                                 const unsigned char* y, uint64_t count, uint64_t tiles, size_t acc,
                                 unsigned char* dst);

/* mpi_tree_scratch.c: the tree's geometry and the sizes of its buffers. */
typedef struct mpi_range {
    uint64_t lo, hi;
} mpi_range;

/* The call's geometry: the tile, the accumulator, a level-0 element and message item (dot: x's
 * and y's), an item above (inner columns each). */
typedef struct mpi_tree_geo {
    mpi_geometry g;
    uint64_t tile;
    size_t acc, elem, iacc, item0;
    int dot;
} mpi_tree_geo;

/* Validated before: the same status on every rank. */
hipreduce_status mpi_tree_geometry(const mpi_call* call, mpi_tree_geo* geo);

/* This rank's part of a level whose nodes it holds in me, of count nodes in all: its tiles
 * [t_lo, t_hi), its head (the nodes before its first tile boundary, sent away) and its tail (the
 * nodes of later ranks that its last tile needs, received). */
typedef struct mpi_level_part {
    uint64_t t_lo, t_hi, owned, held, head_items, need_end, tail_items;
} mpi_level_part;

mpi_level_part mpi_part_of(mpi_range me, uint64_t count, uint64_t tile);

/* The scratch's buffers, in this order in its block: every rank's range and received count, the
 * final round's words, the head sent, the tail received, two levels of nodes, a straddling tile's
 * work and one row of the tail. */
enum { B_RANGES, B_GOT, B_FINAL, B_HEAD, B_TAIL, B_CUR, B_NEXT, B_WORK, B_TAILROW, B_COUNT };

/* The start of buffer `which` in the scratch's block. */
void* mpi_tree_part(const mpi_tree_scratch* scratch, int which);
/* After the exchange, where some rank's scratch comes late: this rank's, if it has none yet, with
 * the exact sizes, then the status round (every rank). */
hipreduce_status mpi_tree_late(const mpi_call* call, uint64_t rows, mpi_tree_scratch* scratch);

/* Whether (op, in, out) is reduced by the tree (an order-dependent float accumulation) rather
 * than exactly. */
int mpi_needs_tree(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out);

/* A call's state between its phases (mpi_run.c): the caller's arguments, the call as this rank
 * sees it, and this rank's buffers. */
typedef struct mpi_run {
    mpi_args a;
    mpi_call call;
    unsigned char* values; /* the results (two-output ops: then the second ones) */
    int64_t *indices, *words; /* argmin/argmax's; the exact sums' accumulators */
    mpi_tree_scratch scratch;
    uint64_t results;
    int args_call, exact, tree, late;
    MPI_Request* requests;           /* the non-blocking start's: its rounds (mpi_exact_rounds) */
    hipreduce_mpi_request request;   /* and the request it returns */
} mpi_run;

/* A started call: its state, the exact sums' rounds in flight (mpi_start.c). */
struct hipreduce_mpi_request_s {
    mpi_run run;
    mpi_exact_state exact;
    char message[512]; /* this rank's local sums' failure, the wait's message */
};
/* The private communicator, this rank's checks and buffers, and the argument exchange: every
 * rank's same verdict (r is set up whatever it is; mpi_run_deliver frees it). */
hipreduce_status mpi_run_prepare(const mpi_args* a, MPI_Comm comm, mpi_run* r);
/* Where s is a success, the results written to the caller's outputs (a copy to device memory
 * failing fails this rank alone); every buffer freed. Returns s or the copy's status. */
hipreduce_status mpi_run_deliver(mpi_run* r, hipreduce_status s);
/* A blocking call: prepare, the op's mechanism, deliver. */
hipreduce_status mpi_run_call(const mpi_args* a, MPI_Comm comm);

#endif
