/* mpi_sum: a sum over MPI ranks whose bits do not depend on the rank count.
 *
 * Each rank fills its slice of a global array of N floats (the slices are uneven on purpose),
 * hipreduce_mpi_reduce sums the concatenation with the single-process order, and rank 0 prints
 * the sum and checks it against hipreduce_reduce over the whole array, which it rebuilds.
 *
 *   mpicc mpi_sum.c $(pkg-config --cflags --libs hipreduce-mpi) -o mpi_sum
 *   mpiexec -n 4 ./mpi_sum [N]          (any -n gives the same bits) */
#include <hipreduce/hipreduce_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float value_at(uint64_t i) { return (float)((i * 2654435761u) % 2001) * 0.001f - 1.0f; }

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;

    /* rank r holds [first, first + count): uneven slices, rank 0 the smallest */
    const uint64_t weight = (uint64_t)ranks * (ranks + 1) / 2;
    const uint64_t first = n * ((uint64_t)rank * (rank + 1) / 2) / weight;
    const uint64_t end = n * ((uint64_t)(rank + 1) * (rank + 2) / 2) / weight;
    float* x = malloc((end - first) * sizeof *x + 1);
    for (uint64_t i = first; i < end; ++i) x[i - first] = value_at(i);

    hipreduce_handle h; /* the cpu device; a GPU rank: HIPREDUCE_DEVICE_GPU and device memory */
    hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
    float sum;
    hipreduce_status s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, end - first,
                                              HIPREDUCE_F32, &sum, HIPREDUCE_RESULT_HOST);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "rank %d: %s (%s)\n", rank, hipreduce_status_string(s), hipreduce_mpi_last_error_message());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    float local, naive; /* what codes do today: its bits change with the rank count */
    hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, end - first, HIPREDUCE_F32, &local, HIPREDUCE_RESULT_HOST);
    MPI_Allreduce(&local, &naive, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    int same = 1;
    if (rank == 0) { /* the single-process value, for the check */
        float* all = malloc(n * sizeof *all + 1), single;
        for (uint64_t i = 0; i < n; ++i) all[i] = value_at(i);
        hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, all, n, HIPREDUCE_F32, &single, HIPREDUCE_RESULT_HOST);
        same = memcmp(&sum, &single, sizeof sum) == 0;
        printf("sum of %llu floats over %d ranks: %.9g (%a); single process: %a, %s\n", (unsigned long long)n, ranks,
               sum, sum, single, same ? "the same bits" : "DIFFERENT");
        printf("(local sums + MPI_Allreduce: %a)\n", naive);
        free(all);
    }
    hipreduce_destroy(h);
    free(x);
    MPI_Finalize();
    return same ? 0 : 1;
}
