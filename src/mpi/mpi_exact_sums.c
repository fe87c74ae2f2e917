/* Exact sums over the ranks (sum_exact, dot_exact): each rank's accumulators as words
 * (src/partials.h, device/exact.h: the digits a term can reach, then the flags), summed digit by
 * digit and the flags ORed by one MPI_Allreduce, then rounded once on every rank. Integer adds
 * are associative, so every rank count and split gives the single-process bits: they depend on
 * the multiset of terms only. The ranks' status bits ride in the flags word above bit 31. */
#include <stdint.h>
#include <string.h>

#include "exact.h"
#include "mpi_internal.h"
#include "partials.h"
#include "rules.h"

/* The user op: items of `words` int64 (from the datatype's size), digits added, the last ORed.
 * Normalised digits are below 2^32, so fewer than 2^31 ranks never overflow them. */
static void add_words(void* in, void* inout, int* len, MPI_Datatype* type)
{
    int size = 0;
    MPI_Type_size(*type, &size);
    const int words = size / (int)sizeof(int64_t);
    const int64_t* a = (const int64_t*)in;
    int64_t* b = (int64_t*)inout;
    for (int i = 0; i < *len; ++i, a += words, b += words) {
        for (int k = 0; k < words - 1; ++k) b[k] += a[k];
        b[words - 1] |= a[words - 1];
    }
}

/* Results per MPI_Allreduce: the same on every rank, so a failed rank takes part in every round. */
enum { CHUNK = 4096 };

size_t mpi_exact_bytes(const mpi_call* call, uint64_t results)
{
    const uint64_t item = (uint64_t)hr_exact_words((int)call->op, (int)call->in) * sizeof(int64_t);
    return results > (uint64_t)SIZE_MAX / item ? 0 : (size_t)(results * item);
}

hipreduce_status mpi_exact_start(const mpi_call* call, uint64_t results, int64_t* w, MPI_Request* requests,
                                 mpi_exact_state* st)
{
    const int words = hr_exact_words((int)call->op, (int)call->in);
    const size_t item = (size_t)words * sizeof(int64_t), elem = (size_t)hr_dtype_bytes((int)call->in);
    *st = (mpi_exact_state){.type = MPI_DATATYPE_NULL, .op = MPI_OP_NULL, .words = words, .results = results, .w = w,
                            .local = HIPREDUCE_STATUS_SUCCESS, .mpi = HIPREDUCE_STATUS_SUCCESS};
    memset(w, 0, (size_t)results * item);
    hipreduce_status local = HIPREDUCE_STATUS_SUCCESS;
    if (call->fields == NULL)
        local = hr_internal_partials_exact(call->handle, call->op, call->in, call->x, call->y, call->outer, call->n,
                                           call->inner, w);
    for (uint64_t f = 0; call->fields != NULL && f < results && local == HIPREDUCE_STATUS_SUCCESS; ++f)
        local = hr_internal_partials_exact(call->handle, call->op, call->in, mpi_row(call, f, elem),
                                           call->weights ? mpi_row_y(call, f, elem) : NULL, 1, mpi_row_n(call, f), 1,
                                           w + f * (uint64_t)words); /* one result a field */
    if (local != HIPREDUCE_STATUS_SUCCESS)
        mpi_set_message("this rank's local sums: %s", hipreduce_last_error_message(call->handle));
    st->local = local;
    int rc = MPI_Type_contiguous(words, MPI_INT64_T, &st->type);
    if (rc != MPI_SUCCESS) return st->mpi = mpi_error(rc, "MPI_Type_contiguous");
    if ((rc = MPI_Type_commit(&st->type)) != MPI_SUCCESS || (rc = MPI_Op_create(add_words, 1, &st->op)) != MPI_SUCCESS) {
        MPI_Type_free(&st->type);
        return st->mpi = mpi_error(rc, "MPI_Type_commit/MPI_Op_create");
    }
    const int64_t status_bits = local == HIPREDUCE_STATUS_SUCCESS ? 0 : (int64_t)1 << (32 + (unsigned)local);
    for (uint64_t done = 0, r = 0; rc == MPI_SUCCESS && done < results; done += CHUNK, ++r) {
        const uint64_t k = results - done < CHUNK ? results - done : CHUNK;
        int64_t* chunk = w + done * (uint64_t)words;
        if (local != HIPREDUCE_STATUS_SUCCESS) memset(chunk, 0, (size_t)k * item); /* a failed rank adds nothing */
        chunk[words - 1] |= status_bits;
        rc = requests ? MPI_Iallreduce(MPI_IN_PLACE, chunk, (int)k, st->type, st->op, call->comm, &requests[r])
                      : MPI_Allreduce(MPI_IN_PLACE, chunk, (int)k, st->type, st->op, call->comm);
    }
    if (rc != MPI_SUCCESS) st->mpi = mpi_error(rc, requests ? "MPI_Iallreduce" : "MPI_Allreduce");
    return st->mpi;
}

uint64_t mpi_exact_rounds(uint64_t results) { return (results + CHUNK - 1) / CHUNK; }

hipreduce_status mpi_exact_finish(const mpi_call* call, mpi_exact_state* st, hipreduce_status rounds, unsigned char* values)
{
    if (st->op != MPI_OP_NULL) MPI_Op_free(&st->op);
    if (st->type != MPI_DATATYPE_NULL) MPI_Type_free(&st->type);
    if (st->mpi != HIPREDUCE_STATUS_SUCCESS) return st->mpi;
    if (rounds != HIPREDUCE_STATUS_SUCCESS) return rounds;
    uint64_t agreed = 0;
    for (uint64_t done = 0; done < st->results; done += CHUNK)
        agreed |= (uint64_t)st->w[(done + 1) * (uint64_t)st->words - 1] >> 32; /* every chunk's first flags */
    const hipreduce_status s = mpi_agreed_status(agreed, st->local);
    if (s == HIPREDUCE_STATUS_SUCCESS) {
        const size_t vbytes = (size_t)hr_dtype_bytes((int)call->out);
        hr_exact a;
        for (uint64_t r = 0; r < st->results; ++r) {
            hr_exact_from_words(&a, (int)call->op, (int)call->in, st->w + r * (uint64_t)st->words);
            hr_exact_store(hr_exact_round(&a, (int)call->out), (int)call->out, values + r * vbytes);
        }
    }
    return s;
}

hipreduce_status mpi_exact_sums(const mpi_call* call, uint64_t results, int64_t* w, unsigned char* values)
{
    mpi_exact_state st;
    mpi_exact_start(call, results, w, NULL, &st);
    return mpi_exact_finish(call, &st, HIPREDUCE_STATUS_SUCCESS, values);
}
