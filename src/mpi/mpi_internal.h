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
    uint64_t n;                 /* this rank's elements per row (its extent for an axis call) */
    uint64_t outer, inner;      /* an axis call's; 1, 1 for a full call */
    const uint64_t* counts;     /* every rank's n, in rank order */
    uint64_t offset, total;     /* this rank's first element in the concatenation, and the length */
} mpi_call;

/* The private duplicate of comm (created on first use, cached on comm), errors returning. */
hipreduce_status mpi_private_comm(MPI_Comm comm, MPI_Comm* dup);

/* Records the message of this thread's failing call (printf-style); "" resets it. */
void mpi_set_message(const char* format, ...);
/* MPI_ERROR with MPI's message for code, from the named MPI call. */
hipreduce_status mpi_error(int code, const char* what);

/* Status bits agreed in the final round: bit s set by a rank whose local work failed with s. */
hipreduce_status mpi_agreed_status(uint64_t bits, hipreduce_status own);

/* Exactly associative ops: this rank's local results (values of `out` bytes each and, for
 * argmin/argmax, local indices made global by `index_offset`), combined over the ranks in
 * place by one MPI_Allreduce that also agrees on the status (local: this rank's status so far). */
hipreduce_status mpi_associative_combine(const mpi_call* call, hipreduce_status local, uint64_t results,
                                   unsigned char* values, int64_t* indices, int64_t index_offset);

/* sum_exact and dot_exact (mpi_exact_sums.c): this rank's accumulators of the call's `results`,
 * summed over the ranks by one MPI_Allreduce that also agrees on the status, rounded into values
 * (results of `out`) on every rank. */
hipreduce_status mpi_exact_sums(const mpi_call* call, uint64_t results, unsigned char* values);

/* Float sums, products, sum_abs, sum_squares, nrm2 and dot: the canonical tree over the ranks
 * for each of the call's `rows` rows; writes rows results of `out` to result on every rank. */
hipreduce_status mpi_tree_reduce(const mpi_call* call, uint64_t rows, void* result);

/* The order's geometry: contiguous tiles (inner == 1) or the strided order's blocks of 256
 * along the extent, each node `inner` columns wide. */
typedef struct mpi_geometry {
    uint64_t tile, inner;
    int strided;
} mpi_geometry;

/* mpi_tiles.c: a rank's own tiles.
 * The public call (op0, out0) whose result is a tile's partial; 0 where none is. */
int mpi_public_level0(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, hipreduce_op* op0,
                      hipreduce_dtype* out0);
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

/* Whether (op, in, out) is reduced by the tree (float accumulation) rather than exactly. */
int mpi_needs_tree(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out);

#endif
