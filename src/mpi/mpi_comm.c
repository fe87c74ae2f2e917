/* The private communicator with its cached records, the thread's error message, and the round
 * that agrees on the ranks' statuses. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_internal.h"

static _Thread_local char message[512];

const char* hipreduce_mpi_last_error_message(void) { return message; }

void mpi_set_message(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
}

int mpi_has_message(void) { return message[0] != '\0'; }

hipreduce_status mpi_error(int code, const char* what)
{
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", code);
    mpi_set_message("%s failed: %s", what, text);
    return HIPREDUCE_STATUS_MPI_ERROR;
}

/* What the attribute on the caller's communicator holds: the duplicate, and the buffer that
 * receives the argument exchange (MPI_RECORD_WORDS words a rank, then a word a rank for the
 * lengths), so that no call allocates before that exchange. Freed with the communicator. */
typedef struct comm_cache {
    MPI_Comm dup;
    uint64_t records[];
} comm_cache;

static int keyval = MPI_KEYVAL_INVALID;

static int free_cache(MPI_Comm comm, int key, void* value, void* extra)
{
    (void)comm, (void)key, (void)extra;
    comm_cache* cache = (comm_cache*)value;
    const int rc = MPI_Comm_free(&cache->dup);
    free(cache);
    return rc;
}

/* The first call on comm: the duplicate (collective), then this rank's cache, then one round in
 * which every rank says whether it has its cache; where one has not, every rank frees its
 * duplicate (collective again) and the next call starts over. */
static hipreduce_status create_cache(MPI_Comm comm, comm_cache** out)
{
    MPI_Comm dup;
    int rc, ranks = 0;
    if ((rc = MPI_Comm_dup(comm, &dup)) != MPI_SUCCESS) return mpi_error(rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if ((rc = MPI_Comm_size(dup, &ranks)) != MPI_SUCCESS) ranks = 0;
    const size_t bytes = sizeof(comm_cache) + (size_t)ranks * (MPI_RECORD_WORDS + 1) * sizeof(uint64_t);
    comm_cache* cache = rc == MPI_SUCCESS ? (comm_cache*)malloc(bytes) : NULL;
    if (cache != NULL) {
        cache->dup = dup;
        if (MPI_Comm_set_attr(comm, keyval, cache) != MPI_SUCCESS) {
            free(cache);
            cache = NULL;
        }
    }
    int failed = cache == NULL, any = failed;
    rc = MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, dup);
    if (rc == MPI_SUCCESS && !any) {
        *out = cache;
        return HIPREDUCE_STATUS_SUCCESS;
    }
    if (cache != NULL) MPI_Comm_delete_attr(comm, keyval); /* frees the duplicate and the cache */
    else MPI_Comm_free(&dup);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Allreduce (the communicator's cache)");
    if (failed) {
        mpi_set_message("allocation of the communicator's cache (%zu bytes) failed", bytes);
        return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    }
    mpi_set_message("another rank failed: it could not allocate the communicator's cache");
    return HIPREDUCE_STATUS_MPI_MISMATCH;
}

hipreduce_status mpi_private_comm(MPI_Comm comm, MPI_Comm* dup, uint64_t** records)
{
    int ready = 0, finished = 0;
    MPI_Initialized(&ready);
    MPI_Finalized(&finished);
    if (!ready || finished) {
        mpi_set_message("MPI is not initialized (or already finalized)");
        return HIPREDUCE_STATUS_MPI_ERROR;
    }
    if (comm == MPI_COMM_NULL) {
        mpi_set_message("the communicator is MPI_COMM_NULL");
        return HIPREDUCE_STATUS_MPI_ERROR;
    }
    int rc;
    if (keyval == MPI_KEYVAL_INVALID &&
        (rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_cache, &keyval, NULL)) != MPI_SUCCESS)
        return mpi_error(rc, "MPI_Comm_create_keyval");
    void* value = NULL;
    int found = 0;
    if ((rc = MPI_Comm_get_attr(comm, keyval, &value, &found)) != MPI_SUCCESS) return mpi_error(rc, "MPI_Comm_get_attr");
    comm_cache* cache = (comm_cache*)value;
    if (!found) {
        const hipreduce_status s = create_cache(comm, &cache);
        if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    }
    *dup = cache->dup;
    *records = cache->records;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status mpi_agreed_status(uint64_t bits, hipreduce_status own)
{
    if (own != HIPREDUCE_STATUS_SUCCESS) {
        if (!mpi_has_message()) mpi_set_message("this rank's part of the call failed: %s", hipreduce_status_string(own));
        return own;
    }
    if (bits == 0) return HIPREDUCE_STATUS_SUCCESS;
    int s = 0;
    while (!(bits >> s & 1)) ++s;
    mpi_set_message("another rank failed: %s", hipreduce_status_string((hipreduce_status)s));
    return HIPREDUCE_STATUS_MPI_MISMATCH;
}

hipreduce_status mpi_status_round(MPI_Comm comm, hipreduce_status local)
{
    uint64_t bits = local == HIPREDUCE_STATUS_SUCCESS ? 0 : 1ull << (unsigned)local;
    const int rc = MPI_Allreduce(MPI_IN_PLACE, &bits, 1, MPI_UINT64_T, MPI_BOR, comm);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Allreduce (the ranks' statuses)");
    return mpi_agreed_status(bits, local);
}
