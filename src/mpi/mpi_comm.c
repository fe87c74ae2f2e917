/* The private communicator and the thread's error message. */
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

hipreduce_status mpi_error(int code, const char* what)
{
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", code);
    mpi_set_message("%s failed: %s", what, text);
    return HIPREDUCE_STATUS_MPI_ERROR;
}

/* The attribute that caches the duplicate on the caller's communicator: freed with it. */
static int keyval = MPI_KEYVAL_INVALID;

static int free_duplicate(MPI_Comm comm, int key, void* value, void* extra)
{
    (void)comm, (void)key, (void)extra;
    MPI_Comm* dup = (MPI_Comm*)value;
    const int rc = MPI_Comm_free(dup);
    free(dup);
    return rc;
}

hipreduce_status mpi_private_comm(MPI_Comm comm, MPI_Comm* out)
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
        (rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_duplicate, &keyval, NULL)) != MPI_SUCCESS)
        return mpi_error(rc, "MPI_Comm_create_keyval");
    void* value = NULL;
    int found = 0;
    if ((rc = MPI_Comm_get_attr(comm, keyval, &value, &found)) != MPI_SUCCESS) return mpi_error(rc, "MPI_Comm_get_attr");
    if (found) {
        *out = *(MPI_Comm*)value;
        return HIPREDUCE_STATUS_SUCCESS;
    }
    MPI_Comm* dup = (MPI_Comm*)malloc(sizeof *dup);
    if (dup == NULL) {
        mpi_set_message("allocation of the communicator's cache failed");
        return HIPREDUCE_STATUS_ALLOCATION_FAILED;
    }
    /* Collective: every rank reaches this at the same call, the first on comm. */
    if ((rc = MPI_Comm_dup(comm, dup)) != MPI_SUCCESS) {
        free(dup);
        return mpi_error(rc, "MPI_Comm_dup");
    }
    MPI_Comm_set_errhandler(*dup, MPI_ERRORS_RETURN);
    if ((rc = MPI_Comm_set_attr(comm, keyval, dup)) != MPI_SUCCESS) {
        MPI_Comm_free(dup);
        free(dup);
        return mpi_error(rc, "MPI_Comm_set_attr");
    }
    *out = *dup;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status mpi_agreed_status(uint64_t bits, hipreduce_status own)
{
    if (own != HIPREDUCE_STATUS_SUCCESS) return own;
    if (bits == 0) return HIPREDUCE_STATUS_SUCCESS;
    int s = 0;
    while (!(bits >> s & 1)) ++s;
    mpi_set_message("another rank failed: %s", hipreduce_status_string((hipreduce_status)s));
    return HIPREDUCE_STATUS_MPI_MISMATCH;
}
