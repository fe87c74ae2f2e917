/* hipreduce-mpi-bench: the reproducible collective sum (hipreduce_mpi_reduce) against what users
 * do today, a local hipreduce_reduce followed by MPI_Allreduce of the local result (whose bits
 * change with the rank count). f32 sum into f32, n elements per rank, median of reps timed calls
 * after a warm-up, both contenders taking turns call by call; times are the slowest rank's.
 *
 *   mpiexec -n P hipreduce-mpi-bench [--gpu] [--reps=R] [--threads=T] [n ...]   (n: 1024, 2^24, ...)
 * Default sizes 2^10, 2^24, 2^28. --gpu: each rank reduces device memory of GPU 0 (needs a GPU
 * build; ranks share the GPU). --threads: the cpu device's threads per rank (default 1: ranks on
 * one node share its cores, and idle pool threads polling beside a busy-waiting MPI rank skew
 * the times; 0 = the library's default, every core). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test/gpu_memory.h"
#include "hipreduce/hipreduce_mpi.h"

static int compare(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static uint64_t parse_size(const char* s)
{
    if (strncmp(s, "2^", 2) == 0) return 1ull << atoi(s + 2);
    return strtoull(s, NULL, 10);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks, gpu = 0, reps = 20, threads = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    uint64_t sizes[16] = {1u << 10, 1u << 24, 1u << 28};
    int count = 3, given = 0;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--gpu") == 0) gpu = 1;
        else if (strncmp(argv[a], "--reps=", 7) == 0) reps = atoi(argv[a] + 7);
        else if (strncmp(argv[a], "--threads=", 10) == 0) threads = atoi(argv[a] + 10);
        else if (given < 16) sizes[given++] = parse_size(argv[a]);
    }
    if (given) count = given;
    if (reps < 1) reps = 1;
    if (gpu && gm_count() == 0) {
        if (rank == 0) fprintf(stderr, "no GPU\n");
        MPI_Finalize();
        return 77;
    }
    hipreduce_handle h;
    if (hipreduce_create(&h, gpu ? HIPREDUCE_DEVICE_GPU : HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "hipreduce_create: %s\n", hipreduce_create_error_message());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    hipreduce_set_threads(h, (unsigned)threads);
    if (rank == 0)
        printf("# %d ranks, %s (%d threads a rank), f32 sum, median of %d; times of the slowest rank\n%12s %14s %14s %8s\n", ranks,
               gpu ? "GPU" : "cpu device", threads, reps, "n/rank", "repro_us", "local+allred_us", "ratio");
    for (int c = 0; c < count; ++c) {
        const uint64_t n = sizes[c];
        float* x = (float*)malloc((size_t)n * sizeof *x);
        if (x == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
        for (uint64_t i = 0; i < n; ++i) x[i] = (float)((i * 2654435761u + (uint64_t)rank * 40503u) % 1000) * 0.001f - 0.5f;
        void* dx = x;
        if (gpu && ((dx = gm_alloc(n * sizeof *x)) == NULL || gm_to_device(dx, x, n * sizeof *x) != 0))
            MPI_Abort(MPI_COMM_WORLD, 3);
        double* t[2];
        t[0] = (double*)malloc((size_t)reps * sizeof(double));
        t[1] = (double*)malloc((size_t)reps * sizeof(double));
        float r0 = 0, r1 = 0, local;
        for (int rep = -2; rep < reps; ++rep)
            for (int k = 0; k < 2; ++k) {
                MPI_Barrier(MPI_COMM_WORLD);
                const double start = MPI_Wtime();
                hipreduce_status s;
                if (k == 0) {
                    s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_F32, dx, n, HIPREDUCE_F32, &r0,
                                             HIPREDUCE_RESULT_HOST);
                } else {
                    s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, dx, n, HIPREDUCE_F32, &local, HIPREDUCE_RESULT_HOST);
                    MPI_Allreduce(&local, &r1, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                }
                double mine = MPI_Wtime() - start, slowest;
                MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                if (s != HIPREDUCE_STATUS_SUCCESS) {
                    fprintf(stderr, "rank %d: status %s %s\n", rank, hipreduce_status_string(s), hipreduce_mpi_last_error_message());
                    MPI_Abort(MPI_COMM_WORLD, 4);
                }
                if (rep >= 0) t[k][rep] = slowest;
            }
        qsort(t[0], (size_t)reps, sizeof(double), compare);
        qsort(t[1], (size_t)reps, sizeof(double), compare);
        const double a = t[0][reps / 2] * 1e6, b = t[1][reps / 2] * 1e6;
        if (rank == 0) printf("%12llu %14.1f %14.1f %8.3f   (sums %.9g, %.9g)\n", (unsigned long long)n, a, b, a / b, r0, r1);
        if (gpu) gm_free(dx);
        free(x), free(t[0]), free(t[1]);
    }
    hipreduce_destroy(h);
    MPI_Finalize();
    return 0;
}
