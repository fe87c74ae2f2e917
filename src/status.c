/* Status strings and the run-time version: the two calls that need no handle. */
#include "hipreduce/hipreduce.h"

static const char* const status_table[] = {
    [HIPREDUCE_STATUS_SUCCESS] = "success",
    [HIPREDUCE_STATUS_INVALID_HANDLE] = "invalid handle (NULL, destroyed, or not a hipreduce handle)",
    [HIPREDUCE_STATUS_INVALID_POINTER] = "invalid pointer (NULL input with n > 0, NULL result or out-pointer)",
    [HIPREDUCE_STATUS_INVALID_OP] = "invalid operator",
    [HIPREDUCE_STATUS_INVALID_DTYPE] = "invalid dtype",
    [HIPREDUCE_STATUS_OP_DTYPE_MISMATCH] = "operator, input dtype and result dtype do not go together (or the operator belongs to another call)",
    [HIPREDUCE_STATUS_SIZE_OVERFLOW] = "n * sizeof(dtype) overflows the byte count",
    [HIPREDUCE_STATUS_INVALID_LOCATION] = "invalid result location for this handle",
    [HIPREDUCE_STATUS_INVALID_ALGORITHM] = "invalid algorithm",
    [HIPREDUCE_STATUS_INVALID_DEVICE] = "invalid device (unknown kind, bad ordinal or no GPU)",
    [HIPREDUCE_STATUS_ALLOCATION_FAILED] = "allocation failed",
    [HIPREDUCE_STATUS_RUNTIME_ERROR] = "GPU runtime error (hipreduce_last_error_message has the runtime's message)",
    [HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL] = "caller workspace smaller than hipreduce_workspace_size",
    [HIPREDUCE_STATUS_NOT_SUPPORTED] = "not supported by the handle for this call (the study algorithms run the seven original ops with in == out; HIPREDUCE_ALGORITHM_AUTO runs every call)",
    [HIPREDUCE_STATUS_INVALID_BLOCK_SIZE] = "invalid block size (must be 0 for the default, or a power of two from 32 to 1024)",
    [HIPREDUCE_STATUS_INVALID_OFFSETS] = "segment offsets decrease, or reach past the input's length",
    [HIPREDUCE_STATUS_HANDLE_BUSY] = "handle in use by another host thread (one call at a time per handle)",
    [HIPREDUCE_STATUS_MPI_MISMATCH] = "ranks passed different arguments to a collective call, or another rank failed",
    [HIPREDUCE_STATUS_MPI_ERROR] = "MPI error (see hipreduce_mpi_last_error_message)",
    [HIPREDUCE_STATUS_INVALID_AXES] = "invalid axes (rank above HIPREDUCE_MAX_RANK, or an axis out of range or repeated)",
};

const char* hipreduce_status_string(hipreduce_status status)
{
    const int s = (int)status;
    if (s < 0 || s >= (int)(sizeof status_table / sizeof status_table[0]) || status_table[s] == NULL)
        return "unknown status";
    return status_table[s];
}

uint32_t hipreduce_get_version(void) { return (uint32_t)HIPREDUCE_VERSION; }
