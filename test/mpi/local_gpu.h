/* The GPU an MPI rank uses: the rank's place among the ranks of its node (MPI_COMM_TYPE_SHARED)
 * modulo the node's GPU count, so each rank has a GPU of its own where a node has as many GPUs as
 * ranks, and ranks share them round-robin otherwise. What a cluster code does with its launcher's
 * local rank, without depending on one launcher's variable. Makes the GPU current (for the
 * caller's own allocations) and returns its ordinal, or -1 without a GPU. Collective over comm:
 * every rank calls it, GPU rank or not. */
#ifndef HIPREDUCE_TEST_LOCAL_GPU_H
#define HIPREDUCE_TEST_LOCAL_GPU_H

#include <mpi.h>

#include "../gpu_memory.h"

static inline int local_gpu(MPI_Comm comm)
{
    const int gpus = gm_count();
    if (gpus <= 0) return -1;
    MPI_Comm node;
    int local = 0;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_free(&node);
    }
    const int ordinal = local % gpus;
    return gm_set_device(ordinal) == 0 ? ordinal : -1;
}

#endif
