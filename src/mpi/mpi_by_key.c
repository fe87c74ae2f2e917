/* hipreduce_mpi_reduce_by_key (include/hipreduce/hipreduce_mpi.h): the ranks' rows reduced by key
 * with the single-process bits for every op, by moving each row to the rank that owns its bin.
 *
 * Bins are dealt out in contiguous blocks, one per rank. Each rank sends its rows, in its input
 * order, to their bins' owners (one MPI_Alltoallv); an owner receives them in rank order, so each
 * of its bins holds exactly that bin's rows of the concatenated input, in input order. Its local
 * by-key plan over them then gives each bin the bits of the single-process call (a bin's result
 * depends on its rows in input order only), and one MPI_Allgatherv hands every rank all bins.
 * Splitting the canonical tree of each bin over the ranks instead would exchange each bin's
 * boundary nodes separately, per bin and level; moving the rows costs one pass over the data and
 * serves every op alike (argmin/argmax: the owner maps its local row indices back to global ones).
 *
 * Rounds: an MPI_Allgather of 4 words a rank (the arguments and every rank's verdict), an
 * MPI_Alltoall of the row counts, a status round (the receive buffers), the MPI_Alltoallv of rows
 * and keys (and global row indices for argmin/argmax), a status round (the local plans), the
 * MPI_Allgatherv of the results. MPI's counts are ints: a rank sends or receives at most INT_MAX
 * rows, num_bins and a row's bytes are at most INT_MAX (SIZE_OVERFLOW otherwise). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "partials.h"
#include "rules.h"

/* The first bin of rank r's block: num_bins split as evenly as possible, in rank order. */
static uint64_t block_start(uint64_t num_bins, int ranks, int r)
{
    const uint64_t q = num_bins / (uint64_t)ranks, rem = num_bins % (uint64_t)ranks;
    return q * (uint64_t)r + ((uint64_t)r < rem ? (uint64_t)r : rem);
}

static int owner_of(uint64_t bin, uint64_t num_bins, int ranks)
{
    const uint64_t q = num_bins / (uint64_t)ranks, rem = num_bins % (uint64_t)ranks;
    return bin < rem * (q + 1) ? (int)(bin / (q + 1)) : (int)(rem + (bin - rem * (q + 1)) / q);
}

static uint64_t key_at(const void* keys, hipreduce_dtype kd, uint64_t i)
{
    return kd == HIPREDUCE_I32 ? (uint64_t)(int64_t)((const int32_t*)keys)[i] : (uint64_t)((const int64_t*)keys)[i];
}

typedef struct by_key_call {
    hipreduce_handle handle;
    hipreduce_op op;
    hipreduce_dtype in, out, key_dtype;
    const void *values, *keys;
    uint64_t length, row, num_bins;
    void* results;
    int64_t *indices, *counts;
    hipreduce_location location;
} by_key_call;

/* The local plan of `length` rows into num_bins bins (validates as the single-process plan). */
static hipreduce_status plan_of(hipreduce_handle h, const by_key_call* a, uint64_t length, uint64_t num_bins,
                                hipreduce_dtype key_dtype, hipreduce_plan* plan)
{
    hipreduce_reduction_desc d;
    memset(&d, 0, sizeof d);
    d.op = a->op;
    d.in_dtype = a->in;
    d.out_dtype = a->out;
    d.layout = HIPREDUCE_LAYOUT_BY_KEY;
    d.order = HIPREDUCE_ORDER_LOGICAL;
    d.length = length;
    d.num_bins = num_bins;
    d.row = a->row;
    d.key_dtype = key_dtype;
    return hipreduce_plan_create(h, &d, plan);
}

/* This rank's verdict on its own arguments, as the single-process plan's (its checks, then the
 * pointers, then the keys' range read on the host into *host_keys; *host_values: the rows on the
 * host, the caller's own memory on a cpu-device handle). */
static hipreduce_status local_check(const by_key_call* a, int arg, const void** host_values, void** owned_values,
                                    const void** host_keys, void** owned_keys)
{
    hipreduce_plan plan = NULL;
    hipreduce_status s = plan_of(a->handle, a, a->length, a->num_bins, a->key_dtype, &plan);
    hipreduce_plan_destroy(plan);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        mpi_set_message("this rank's arguments: %s (%s)", hipreduce_status_string(s),
                        a->handle ? hipreduce_last_error_message(a->handle) : "no handle");
        return s;
    }
    if (a->location != HIPREDUCE_RESULT_HOST && a->location != HIPREDUCE_RESULT_DEVICE) {
        mpi_set_message("this rank's location %d is not HOST or DEVICE", (int)a->location);
        return HIPREDUCE_STATUS_INVALID_LOCATION;
    }
    if ((a->length > 0 && (a->values == NULL || a->keys == NULL)) ||
        (a->num_bins > 0 && (a->results == NULL || (arg && a->indices == NULL)))) {
        mpi_set_message("this rank's %s is NULL", a->length > 0 && a->values == NULL ? "values"
                                                  : a->length > 0 && a->keys == NULL ? "keys"
                                                  : a->results == NULL                ? "results"
                                                                                      : "indices");
        return HIPREDUCE_STATUS_INVALID_POINTER;
    }
    const uint64_t rb = a->row * (uint64_t)hr_dtype_bytes((int)a->in), kb = (uint64_t)hr_dtype_bytes((int)a->key_dtype);
    *host_values = a->values;
    *host_keys = a->keys;
    if (a->length > 0 && !mpi_reads_host(a->handle)) {
        *owned_values = malloc((size_t)(a->length * rb));
        *owned_keys = malloc((size_t)(a->length * kb));
        if (*owned_values == NULL || *owned_keys == NULL) {
            mpi_set_message("allocation of this rank's host copy of %llu rows failed", (unsigned long long)a->length);
            return HIPREDUCE_STATUS_ALLOCATION_FAILED;
        }
        s = mpi_to_host(a->handle, a->values, a->length * rb, *owned_values);
        if (s == HIPREDUCE_STATUS_SUCCESS) s = mpi_to_host(a->handle, a->keys, a->length * kb, *owned_keys);
        if (s != HIPREDUCE_STATUS_SUCCESS) {
            mpi_set_message("copying this rank's rows to the host: %s", hipreduce_last_error_message(a->handle));
            return s;
        }
        *host_values = *owned_values;
        *host_keys = *owned_keys;
    }
    for (uint64_t i = 0; i < a->length; ++i) {
        const uint64_t k = key_at(*host_keys, a->key_dtype, i);
        if (k >= a->num_bins) {
            mpi_set_message("this rank's key %lld of row %llu is outside [0, %llu)", (long long)k, (unsigned long long)i,
                            (unsigned long long)a->num_bins);
            return HIPREDUCE_STATUS_INVALID_OFFSETS;
        }
    }
    if (a->num_bins > INT_MAX || rb > INT_MAX || a->row * (uint64_t)hr_dtype_bytes((int)a->out) > INT_MAX) {
        mpi_set_message("num_bins %llu or a row's bytes exceed MPI's int counts", (unsigned long long)a->num_bins);
        return HIPREDUCE_STATUS_SIZE_OVERFLOW;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

/* The ranks' agreement: every rank's record (4 words) in one MPI_Allgather; failures decide first,
 * then differing arguments. lengths (NULL on a rank that failed already): every rank's rows. */
static hipreduce_status agree(const by_key_call* a, hipreduce_status own, MPI_Comm comm, int ranks, uint64_t* records,
                              uint64_t* lengths)
{
    const uint64_t mine[4] = {(uint64_t)own | (uint64_t)a->op << 8 | (uint64_t)a->in << 16 | (uint64_t)a->out << 24 |
                                  (uint64_t)a->key_dtype << 32,
                              a->row, a->num_bins, a->length};
    const int rc = MPI_Allgather(mine, 4, MPI_UINT64_T, records, 4, MPI_UINT64_T, comm);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Allgather (the arguments)");
    uint64_t bits = 0;
    int differ = 0;
    for (int r = 0; r < ranks; ++r) {
        const uint64_t* w = records + 4 * (size_t)r;
        if (w[0] & 0xff) bits |= 1ull << (w[0] & 0x3f);
        differ |= (w[0] >> 8) != (records[0] >> 8) || w[1] != records[1] || w[2] != records[2];
        if (lengths) lengths[r] = w[3];
    }
    if (bits != 0) return mpi_agreed_status(bits, own);
    if (differ) {
        mpi_set_message("the ranks passed different ops, dtypes, rows or num_bins");
        return HIPREDUCE_STATUS_MPI_MISMATCH;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Every buffer whose size a rank knows before the agreement, allocated before it (a failure rides
 * on it): the counts and displacements, the rows in owner order and their keys (and global row
 * indices), every bin's results, counts and indices. */
typedef struct by_key_buffers {
    uint64_t *lengths, *words; /* every rank's rows; rows sent to and received from each rank, cursors */
    int* ints;                 /* MPI's counts and displacements: send, receive, bins */
    int64_t* skeys;
    unsigned char *send, *res;
    int64_t *cnt, *idx;
} by_key_buffers;

/* The exchange and the owners' plans, after the agreement: every rank's results (all bins) in
 * b->res, counts in b->cnt, global indices in b->idx (argmin/argmax). */
static hipreduce_status exchange(const by_key_call* a, MPI_Comm comm, int ranks, int rank, const by_key_buffers* b,
                                 const unsigned char* values, const void* keys, int arg)
{
    const size_t rb = (size_t)(a->row * (uint64_t)hr_dtype_bytes((int)a->in));
    const size_t ob = arg ? rb : (size_t)(a->row * (uint64_t)hr_dtype_bytes((int)a->out));
    uint64_t offset = 0, *sc = b->words, *rc = b->words + ranks, *at = b->words + 2 * (size_t)ranks;
    for (int r = 0; r < rank; ++r) offset += b->lengths[r];
    const uint64_t lo = block_start(a->num_bins, ranks, rank), mine = block_start(a->num_bins, ranks, rank + 1) - lo;
    for (uint64_t i = 0; i < a->length; ++i) ++sc[owner_of(key_at(keys, a->key_dtype, i), a->num_bins, ranks)];
    for (int r = 1; r < ranks; ++r) at[r] = at[r - 1] + sc[r - 1];
    for (uint64_t i = 0; i < a->length; ++i) { /* rows in owner order, each owner's in input order */
        const uint64_t k = key_at(keys, a->key_dtype, i);
        const int o = owner_of(k, a->num_bins, ranks);
        const uint64_t j = at[o]++;
        memcpy(b->send + j * rb, values + i * rb, rb);
        b->skeys[j] = (int64_t)(k - block_start(a->num_bins, ranks, o));
        if (arg) b->skeys[a->length + j] = (int64_t)(offset + i);
    }
    int rcode = MPI_Alltoall(sc, 1, MPI_UINT64_T, rc, 1, MPI_UINT64_T, comm);
    if (rcode != MPI_SUCCESS) return mpi_error(rcode, "MPI_Alltoall (the row counts)");
    uint64_t received = 0;
    for (int r = 0; r < ranks; ++r) received += rc[r];
    hipreduce_status s = HIPREDUCE_STATUS_SUCCESS;
    unsigned char* recv = NULL;
    int64_t *rkeys = NULL, *lidx = NULL;
    if (received > INT_MAX) {
        mpi_set_message("this rank receives %llu rows, past MPI's int counts", (unsigned long long)received);
        s = HIPREDUCE_STATUS_SIZE_OVERFLOW;
    } else {
        recv = (unsigned char*)malloc((size_t)received * rb + 1);
        rkeys = (int64_t*)malloc((size_t)received * (arg ? 16 : 8) + 1);
        lidx = (int64_t*)malloc((size_t)(mine * a->row) * sizeof *lidx + 1);
        if (!recv || !rkeys || !lidx) {
            mpi_set_message("allocation of this rank's %llu received rows failed", (unsigned long long)received);
            s = HIPREDUCE_STATUS_ALLOCATION_FAILED;
        }
    }
    s = mpi_status_round(comm, s);
    MPI_Datatype row_type = MPI_DATATYPE_NULL, bin_type = MPI_DATATYPE_NULL;
    int *isc = b->ints, *isd = isc + ranks, *irc = isd + ranks, *ird = irc + ranks, *ibc = ird + ranks, *ibd = ibc + ranks;
    if (s == HIPREDUCE_STATUS_SUCCESS) {
        for (int r = 0; r < ranks; ++r) {
            isc[r] = (int)sc[r], irc[r] = (int)rc[r];
            isd[r] = r ? isd[r - 1] + isc[r - 1] : 0;
            ird[r] = r ? ird[r - 1] + irc[r - 1] : 0;
        }
        rcode = MPI_Type_contiguous((int)rb, MPI_BYTE, &row_type);
        if (rcode == MPI_SUCCESS) rcode = MPI_Type_commit(&row_type);
        if (rcode == MPI_SUCCESS) rcode = MPI_Alltoallv(b->send, isc, isd, row_type, recv, irc, ird, row_type, comm);
        if (rcode == MPI_SUCCESS) rcode = MPI_Alltoallv(b->skeys, isc, isd, MPI_INT64_T, rkeys, irc, ird, MPI_INT64_T, comm);
        if (rcode == MPI_SUCCESS && arg)
            rcode = MPI_Alltoallv(b->skeys + a->length, isc, isd, MPI_INT64_T, rkeys + received, irc, ird, MPI_INT64_T,
                                  comm);
        if (rcode != MPI_SUCCESS) s = mpi_error(rcode, "MPI_Alltoallv (the rows)");
    }
    if (s == HIPREDUCE_STATUS_SUCCESS) { /* the owner's bins [lo, lo + mine): its plan on the host */
        hipreduce_handle h = a->handle;
        hipreduce_status local = mpi_reads_host(h) ? HIPREDUCE_STATUS_SUCCESS : hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
        hipreduce_plan plan = NULL;
        if (local != HIPREDUCE_STATUS_SUCCESS) {
            h = NULL;
            mpi_set_message("a cpu-device handle for this rank's bins: %s", hipreduce_create_error_message());
        } else if (mine > 0) {
            hipreduce_operands ops;
            memset(&ops, 0, sizeof ops);
            ops.x = recv;
            ops.keys = rkeys;
            ops.values = b->res + lo * ob;
            ops.indices = arg ? lidx : NULL;
            ops.counts = b->cnt + lo;
            local = plan_of(h, a, received, mine, HIPREDUCE_I64, &plan);
            if (local == HIPREDUCE_STATUS_SUCCESS) local = hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST);
            if (local != HIPREDUCE_STATUS_SUCCESS)
                mpi_set_message("this rank's plan over its bins: %s (%s)", hipreduce_status_string(local),
                                hipreduce_last_error_message(h));
            for (uint64_t j = 0; arg && local == HIPREDUCE_STATUS_SUCCESS && j < mine * a->row; ++j)
                b->idx[lo * a->row + j] = lidx[j] < 0 ? -1 : rkeys[received + (uint64_t)lidx[j]];
        }
        hipreduce_plan_destroy(plan);
        if (h != NULL && h != a->handle) hipreduce_destroy(h);
        s = mpi_status_round(comm, local);
    }
    if (s == HIPREDUCE_STATUS_SUCCESS) { /* every owner's block to every rank */
        for (int r = 0; r < ranks; ++r) {
            ibd[r] = (int)block_start(a->num_bins, ranks, r);
            ibc[r] = (int)block_start(a->num_bins, ranks, r + 1) - ibd[r];
        }
        rcode = MPI_Type_contiguous((int)ob, MPI_BYTE, &bin_type);
        if (rcode == MPI_SUCCESS) rcode = MPI_Type_commit(&bin_type);
        if (rcode == MPI_SUCCESS) rcode = MPI_Allgatherv(MPI_IN_PLACE, 0, bin_type, b->res, ibc, ibd, bin_type, comm);
        if (rcode == MPI_SUCCESS) rcode = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT64_T, b->cnt, ibc, ibd, MPI_INT64_T, comm);
        if (rcode == MPI_SUCCESS && arg) {
            for (int r = 0; r < ranks; ++r) ibc[r] *= (int)a->row, ibd[r] *= (int)a->row; /* num_bins x row <= INT_MAX */
            rcode = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT64_T, b->idx, ibc, ibd, MPI_INT64_T, comm);
        }
        if (rcode != MPI_SUCCESS) s = mpi_error(rcode, "MPI_Allgatherv (the results)");
    }
    if (row_type != MPI_DATATYPE_NULL) MPI_Type_free(&row_type);
    if (bin_type != MPI_DATATYPE_NULL) MPI_Type_free(&bin_type);
    free(recv), free(rkeys), free(lidx);
    return s;
}

/* The outputs, once every rank succeeded (a failing copy to device memory fails this rank alone). */
static hipreduce_status write_outputs(const by_key_call* a, const by_key_buffers* b, int arg)
{
    const size_t vb = (size_t)(a->num_bins * a->row) * (size_t)hr_dtype_bytes((int)(arg ? a->in : a->out));
    const size_t ib = (size_t)(a->num_bins * a->row) * sizeof(int64_t), cb = (size_t)a->num_bins * sizeof(int64_t);
    if (a->location == HIPREDUCE_RESULT_HOST) {
        memcpy(a->results, b->res, vb);
        if (arg) memcpy(a->indices, b->idx, ib);
        if (a->counts) memcpy(a->counts, b->cnt, cb);
        return HIPREDUCE_STATUS_SUCCESS;
    }
    hipreduce_status s = hr_internal_partials_copy(a->handle, a->results, b->res, vb, 1);
    if (s == HIPREDUCE_STATUS_SUCCESS && arg) s = hr_internal_partials_copy(a->handle, a->indices, b->idx, ib, 1);
    if (s == HIPREDUCE_STATUS_SUCCESS && a->counts) s = hr_internal_partials_copy(a->handle, a->counts, b->cnt, cb, 1);
    if (s != HIPREDUCE_STATUS_SUCCESS)
        mpi_set_message("copying the results to device memory: %s", hipreduce_last_error_message(a->handle));
    return s;
}

hipreduce_status hipreduce_mpi_reduce_by_key(hipreduce_handle handle, MPI_Comm comm, hipreduce_op op,
                                             hipreduce_dtype in_dtype, const void* values, const void* keys,
                                             hipreduce_dtype key_dtype, uint64_t length, uint64_t row,
                                             uint64_t num_bins, hipreduce_dtype out_dtype, void* results,
                                             int64_t* indices, int64_t* counts, hipreduce_location location)
{
    mpi_set_message("");
    MPI_Comm dup;
    uint64_t* records;
    hipreduce_status s = mpi_private_comm(comm, &dup, &records); /* records: 6 words a rank, 4 used here */
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    int ranks = 0, rank = 0, rc;
    if ((rc = MPI_Comm_size(dup, &ranks)) != MPI_SUCCESS || (rc = MPI_Comm_rank(dup, &rank)) != MPI_SUCCESS)
        return mpi_error(rc, "MPI_Comm_size/rank");
    const by_key_call a = {.handle = handle, .op = op, .in = in_dtype, .out = out_dtype, .key_dtype = key_dtype,
                           .values = values, .keys = keys, .length = length, .row = row, .num_bins = num_bins,
                           .results = results, .indices = indices, .counts = counts, .location = location};
    const int arg = op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX;
    const void *host_values = NULL, *host_keys = NULL;
    void *owned_values = NULL, *owned_keys = NULL;
    by_key_buffers b = {0};
    hipreduce_status own = local_check(&a, arg, &host_values, &owned_values, &host_keys, &owned_keys);
    if (own == HIPREDUCE_STATUS_SUCCESS && arg && num_bins * row > INT_MAX) {
        mpi_set_message("num_bins x row = %llu indices exceed MPI's int counts", (unsigned long long)(num_bins * row));
        own = HIPREDUCE_STATUS_SIZE_OVERFLOW;
    }
    if (own == HIPREDUCE_STATUS_SUCCESS) {
        const size_t rb = (size_t)(row * (uint64_t)hr_dtype_bytes((int)in_dtype));
        const size_t vb = (size_t)(row * (uint64_t)hr_dtype_bytes((int)(arg ? in_dtype : out_dtype)));
        b.lengths = (uint64_t*)calloc((size_t)ranks * 4, sizeof *b.lengths);
        b.words = b.lengths ? b.lengths + ranks : NULL;
        b.ints = (int*)calloc((size_t)ranks * 6, sizeof *b.ints);
        b.skeys = (int64_t*)malloc((size_t)length * (arg ? 16 : 8) + 1);
        b.send = (unsigned char*)malloc((size_t)length * rb + 1);
        b.res = (unsigned char*)malloc((size_t)num_bins * vb + 1);
        b.cnt = (int64_t*)malloc((size_t)num_bins * sizeof *b.cnt + 1);
        b.idx = arg ? (int64_t*)malloc((size_t)(num_bins * row) * sizeof *b.idx + 1) : NULL;
        if (!b.lengths || !b.ints || !b.skeys || !b.send || !b.res || !b.cnt || (arg && !b.idx)) {
            mpi_set_message("allocation of this rank's buffers (%llu rows, %llu bins) failed", (unsigned long long)length,
                            (unsigned long long)num_bins);
            own = HIPREDUCE_STATUS_ALLOCATION_FAILED;
        }
    }
    s = agree(&a, own, dup, ranks, records, b.lengths);
    if (s == HIPREDUCE_STATUS_SUCCESS && num_bins > 0)
        s = exchange(&a, dup, ranks, rank, &b, (const unsigned char*)host_values, host_keys, arg);
    if (s == HIPREDUCE_STATUS_SUCCESS && num_bins > 0) s = write_outputs(&a, &b, arg);
    free(owned_values), free(owned_keys);
    free(b.lengths), free(b.ints), free(b.skeys), free(b.send), free(b.res), free(b.cnt), free(b.idx);
    return s;
}
