/* What the suites on GPU handles share (test_mpi, test_mpi_fields, test_mpi_stats, each run as
 * `suite [cpu|gpu|mixed] [quick]`): their state, their start (the mode, the skip without a GPU, the
 * two handles), the place of a rank's slice, and their end. */
#ifndef HIPREDUCE_TEST_MPI_SUITE_H
#define HIPREDUCE_TEST_MPI_SUITE_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "hipreduce/hipreduce.h"
#include "local_gpu.h"
#include "mpi_check.h"

static int rank, ranks, quick, on_gpu, failures, checks;
static const char* mode;
static hipreduce_handle cpu, mine; /* the reference's handle (the single process) and this rank's */

/* MPI_Init, then the state from argv: gpu, every rank's handle a GPU's; mixed, the odd ranks';
 * cpu, none. Returns -1 to go on, with both handles made (one GPU a rank where the node has enough,
 * else ranks share them: local_gpu.h), or the exit code after MPI_Finalize: 77 where a GPU mode
 * finds a rank without a GPU. A handle that cannot be made aborts every rank. */
static inline int suite_start(int* argc, char*** argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    mode = *argc > 1 ? (*argv)[1] : "cpu";
    quick = *argc > 2 && strcmp((*argv)[2], "quick") == 0;
    on_gpu = strcmp(mode, "gpu") == 0 || (strcmp(mode, "mixed") == 0 && rank % 2 == 1);
    int ordinal = 0;
    if (strcmp(mode, "cpu") != 0) {
        int have = gm_count() > 0, all = 0;
        MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) {
            if (rank == 0) printf("no GPU: skipped\n");
            MPI_Finalize();
            return 77;
        }
        ordinal = local_gpu(MPI_COMM_WORLD); /* collective */
        unsigned long long mine_bit = on_gpu && ordinal >= 0 && ordinal < 64 ? 1ull << ordinal : 0, used = 0;
        MPI_Allreduce(&mine_bit, &used, 1, MPI_UNSIGNED_LONG_LONG, MPI_BOR, MPI_COMM_WORLD);
        int gpus_used = 0;
        for (; used; used &= used - 1) ++gpus_used;
        if (rank == 0) printf("GPU ranks on %d GPU(s) of %d\n", gpus_used, gm_count());
    }
    if (hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS || (on_gpu && ordinal < 0) ||
        hipreduce_create(&mine, on_gpu ? HIPREDUCE_DEVICE_GPU : HIPREDUCE_DEVICE_CPU, on_gpu ? ordinal : 0) !=
            HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "[rank %d] hipreduce_create failed: %s\n", rank, hipreduce_create_error_message());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return -1;
}

/* The end: every rank's counts summed and printed after the suite's name, the handles destroyed,
 * MPI_Finalize. Returns the exit code. */
static inline int suite_end(const char* name)
{
    char what[96];
    snprintf(what, sizeof what, "%s %s%s", name, mode, quick ? " quick" : "");
    const int rc = mpi_report(what, failures, checks);
    hipreduce_destroy(mine);
    hipreduce_destroy(cpu);
    MPI_Finalize();
    return rc;
}

/* A slice where this rank's handle reads: host itself, or a device copy (unplace frees it). */
static inline void* place(const void* host, size_t bytes)
{
    if (!on_gpu) return (void*)host;
    void* dev = gm_alloc(bytes ? bytes : 1);
    if (dev == NULL || gm_to_device(dev, host, bytes) != 0) FAIL("device copy of %zu bytes failed", bytes);
    return dev;
}
static inline void unplace(void* placed)
{
    if (on_gpu && placed != NULL) gm_free(placed);
}

#endif
