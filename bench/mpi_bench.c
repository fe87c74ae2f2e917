/* hipreduce-mpi-bench: the reproducible collective sum (hipreduce_mpi_reduce) against what users
 * do today, a local hipreduce_reduce followed by MPI_Allreduce of the local result (whose bits
 * change with the rank count), and, on GPU ranks of a build with NCCL, the local result reduced by
 * ncclAllReduce in device memory. f32 sum into f32, median of reps timed calls after a warm-up,
 * the contenders taking turns call by call; times are the slowest rank's.
 *
 *   mpiexec -n P hipreduce-mpi-bench [--gpu] [--split] [--exact] [--reps=R] [--threads=T] [n ...]   (n: 1024, 2^24, ...)
 * Default sizes 2^10, 2^24, 2^28, n elements a rank; --split: n is the global length, split evenly
 * over the ranks, so runs with different rank counts reduce the same array (the printed hex shows
 * which sums keep their bits). --gpu: each rank reduces device memory on its node's GPU of its
 * local rank (one GPU a rank where there are enough; local_gpu below). --threads: the cpu device's
 * threads per rank (default 1: ranks on one node share its cores, and idle pool threads polling
 * beside a busy-waiting MPI rank skew the times; 0 = the library's default, every core). --exact:
 * the first contender is sum_exact (the exact sum rounded once: the ranks' accumulators added by
 * one integer MPI_Allreduce) instead of the reproducible sum.
 *
 *   mpiexec -n P hipreduce-mpi-bench --fields=F [--gpu] [--exact] [--reps=R] [--threads=T] [--csv=PATH] [n ...]
 * Many fields in one collective: F fields of n f64 elements a rank (default 32 x 2^20), summed by
 * hipreduce_mpi_reduce_fields (--exact: sum_exact) against F local hipreduce_reduce calls and one
 * MPI_Allreduce of the F local sums (what users do today, with bits that change with the rank
 * count), and against F separate hipreduce_mpi_reduce calls. --csv=PATH (rank 0) appends a row per
 * n: ranks,device,op,fields,n,fields_us,local_allreduce_us,ratio,separate_us,speedup. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_memory.h"
#include "hipreduce/hipreduce_mpi.h"
#ifdef HIPREDUCE_BENCH_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

/* The GPU of this rank: its place among its node's ranks modulo the node's GPUs, made current; -1
 * without a GPU. Collective over comm. */
static int local_gpu(MPI_Comm comm)
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

/* The global array: element g's value depends on g alone, so every split holds the same data. */
static float value_at(uint64_t g) { return (float)((g * 2654435761u) % 1000) * 0.001f - 0.5f; }

static int compare(const void* a, const void* b)
{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* Host data where the handle reads it: host itself (cpu device), or a device copy (gpu). */
static void* placed(int gpu, void* host, size_t bytes)
{
    void* d = host;
    if (gpu && ((d = gm_alloc(bytes)) == NULL || gm_to_device(d, host, bytes) != 0)) MPI_Abort(MPI_COMM_WORLD, 3);
    return d;
}

/* The slowest rank's time since start (collective); a failed call aborts the run. */
static double slowest_since(double start, hipreduce_status s, int rank)
{
    double mine = MPI_Wtime() - start, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "rank %d: status %s %s\n", rank, hipreduce_status_string(s), hipreduce_mpi_last_error_message());
        MPI_Abort(MPI_COMM_WORLD, 4);
    }
    return slowest;
}

/* The fields mode: a row per n of F f64 fields a rank; the contenders take turns call by call. */
static void fields_bench(hipreduce_handle h, int rank, int ranks, int gpu, hipreduce_op op, int nfields,
                         const uint64_t* sizes, int count, int reps, const char* csv)
{
    FILE* out = rank == 0 && csv ? fopen(csv, "a") : NULL;
    if (rank == 0)
        printf("# fields: %d f64 fields of n elements a rank, %s, median of %d; times of the slowest rank\n"
               "%12s %12s %14s %8s %12s %8s\n", nfields, hipreduce_op_name(op), reps, "n", "fields_us",
               "local+allred_us", "ratio", "separate_us", "speedup");
    for (int c = 0; c < count; ++c) {
        const uint64_t n = sizes[c];
        const void** fields = (const void**)malloc((size_t)nfields * sizeof *fields);
        double *results = (double*)malloc((size_t)nfields * sizeof(double)), *local = (double*)malloc((size_t)nfields * sizeof(double));
        double** host = (double**)malloc((size_t)nfields * sizeof *host);
        if (!fields || !results || !local || !host) MPI_Abort(MPI_COMM_WORLD, 2);
        for (int f = 0; f < nfields; ++f) {
            if ((host[f] = (double*)malloc((size_t)n * sizeof(double) + 1)) == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
            for (uint64_t i = 0; i < n; ++i) host[f][i] = value_at((uint64_t)rank * n + i + (uint64_t)f * 7919u);
            fields[f] = placed(gpu, host[f], n * sizeof(double));
        }
        double* t[3];
        for (int k = 0; k < 3; ++k) t[k] = (double*)malloc((size_t)reps * sizeof(double));
        for (int rep = -2; rep < reps; ++rep)
            for (int k = 0; k < 3; ++k) {
                MPI_Barrier(MPI_COMM_WORLD);
                const double start = MPI_Wtime();
                hipreduce_status s = HIPREDUCE_STATUS_SUCCESS;
                if (k == 0) {
                    s = hipreduce_mpi_reduce_fields(h, MPI_COMM_WORLD, op, HIPREDUCE_F64, (uint64_t)nfields, fields, n,
                                                    HIPREDUCE_F64, results, HIPREDUCE_RESULT_HOST);
                } else if (k == 1) {
                    for (int f = 0; f < nfields && s == HIPREDUCE_STATUS_SUCCESS; ++f)
                        s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F64, fields[f], n, HIPREDUCE_F64, &local[f],
                                             HIPREDUCE_RESULT_HOST);
                    MPI_Allreduce(local, results, nfields, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                } else {
                    for (int f = 0; f < nfields && s == HIPREDUCE_STATUS_SUCCESS; ++f)
                        s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, op, HIPREDUCE_F64, fields[f], n, HIPREDUCE_F64,
                                                 &results[f], HIPREDUCE_RESULT_HOST);
                }
                const double slowest = slowest_since(start, s, rank);
                if (rep >= 0) t[k][rep] = slowest;
            }
        double med[3];
        for (int k = 0; k < 3; ++k) {
            qsort(t[k], (size_t)reps, sizeof(double), compare);
            med[k] = t[k][reps / 2] * 1e6;
        }
        if (rank == 0)
            printf("%12llu %12.1f %14.1f %8.3f %12.1f %8.2f\n", (unsigned long long)n, med[0], med[1], med[0] / med[1],
                   med[2], med[2] / med[0]);
        if (out)
            fprintf(out, "%d,%s,%s,%d,%llu,%.1f,%.1f,%.3f,%.1f,%.2f\n", ranks, gpu ? "gpu" : "cpu", hipreduce_op_name(op),
                    nfields, (unsigned long long)n, med[0], med[1], med[0] / med[1], med[2], med[2] / med[0]);
        for (int f = 0; f < nfields; ++f) {
            if (gpu) gm_free((void*)fields[f]);
            free(host[f]);
        }
        free(fields), free(results), free(local), free(host), free(t[0]), free(t[1]), free(t[2]);
    }
    if (out) fclose(out);
}

static uint64_t parse_size(const char* s)
{
    if (strncmp(s, "2^", 2) == 0) return 1ull << atoi(s + 2);
    return strtoull(s, NULL, 10);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks, gpu = 0, split = 0, reps = 20, threads = 1, nfields = 0;
    const char* csv = NULL;
    hipreduce_op op = HIPREDUCE_OP_SUM;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    uint64_t sizes[16] = {1u << 10, 1u << 24, 1u << 28};
    int count = 3, given = 0;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--gpu") == 0) gpu = 1;
        else if (strcmp(argv[a], "--split") == 0) split = 1;
        else if (strcmp(argv[a], "--exact") == 0) op = HIPREDUCE_OP_SUM_EXACT;
        else if (strncmp(argv[a], "--reps=", 7) == 0) reps = atoi(argv[a] + 7);
        else if (strncmp(argv[a], "--threads=", 10) == 0) threads = atoi(argv[a] + 10);
        else if (strncmp(argv[a], "--fields=", 9) == 0) nfields = atoi(argv[a] + 9);
        else if (strncmp(argv[a], "--csv=", 6) == 0) csv = argv[a] + 6;
        else if (given < 16) sizes[given++] = parse_size(argv[a]);
    }
    if (nfields > 0 && !given) sizes[0] = 1u << 20, count = 1;
    if (given) count = given;
    if (reps < 1) reps = 1;
    if (gpu && gm_count() == 0) {
        if (rank == 0) fprintf(stderr, "no GPU\n");
        MPI_Finalize();
        return 77;
    }
    const int ordinal = gpu ? local_gpu(MPI_COMM_WORLD) : 0;
    /* distinct GPUs in use: NCCL needs one a rank */
    unsigned long long bit = gpu && ordinal >= 0 && ordinal < 64 ? 1ull << ordinal : 0, used = 0;
    MPI_Allreduce(&bit, &used, 1, MPI_UNSIGNED_LONG_LONG, MPI_BOR, MPI_COMM_WORLD);
    int gpus = 0;
    for (; used; used &= used - 1) ++gpus;
    hipreduce_handle h;
    if (ordinal < 0 ||
        hipreduce_create(&h, gpu ? HIPREDUCE_DEVICE_GPU : HIPREDUCE_DEVICE_CPU, ordinal) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "hipreduce_create: %s\n", hipreduce_create_error_message());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (nfields > 0) {
        hipreduce_set_threads(h, (unsigned)threads);
        fields_bench(h, rank, ranks, gpu, op, nfields, sizes, count, reps, csv);
        hipreduce_destroy(h);
        MPI_Finalize();
        return 0;
    }
    int contenders = 2;
#ifdef HIPREDUCE_BENCH_NCCL
    ncclComm_t nccl = NULL;
    float* d_sum = NULL; /* [0] the local result, [1] NCCL's */
    if (gpu && gpus == ranks) {
        ncclUniqueId id;
        if (rank == 0) ncclGetUniqueId(&id);
        MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (ncclCommInitRank(&nccl, ranks, id, rank) != ncclSuccess || cudaMalloc((void**)&d_sum, 2 * sizeof(float)) != cudaSuccess)
            MPI_Abort(MPI_COMM_WORLD, 5);
        contenders = 3;
    }
#endif
    hipreduce_set_threads(h, (unsigned)threads);
    if (rank == 0)
        printf("# %d ranks, %s (%d GPUs, %d threads a rank), f32 %s, n %s, median of %d; times of the slowest rank\n"
               "%12s %12s %12s %8s %12s %8s   %s\n",
               ranks, gpu ? "GPU" : "cpu device", gpus, threads, hipreduce_op_name(op), split ? "global" : "a rank", reps,
               "n", op == HIPREDUCE_OP_SUM ? "repro_us" : "exact_us", "allred_us", "ratio", "nccl_us", "ratio",
               "sums: ours, local sum + MPI_Allreduce");
    for (int c = 0; c < count; ++c) {
        const uint64_t global = split ? sizes[c] : sizes[c] * (uint64_t)ranks;
        const uint64_t first = split ? global * (uint64_t)rank / (uint64_t)ranks : sizes[c] * (uint64_t)rank;
        const uint64_t n = split ? global * (uint64_t)(rank + 1) / (uint64_t)ranks - first : sizes[c];
        float* x = (float*)malloc((size_t)n * sizeof *x + 1);
        if (x == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
        for (uint64_t i = 0; i < n; ++i) x[i] = value_at(first + i);
        void* dx = placed(gpu, x, n * sizeof *x);
        double* t[3];
        for (int k = 0; k < 3; ++k) t[k] = (double*)malloc((size_t)reps * sizeof(double));
        float r0 = 0, r1 = 0, local;
        for (int rep = -2; rep < reps; ++rep)
            for (int k = 0; k < contenders; ++k) {
                MPI_Barrier(MPI_COMM_WORLD);
                const double start = MPI_Wtime();
                hipreduce_status s;
                if (k == 0) {
                    s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, op, HIPREDUCE_F32, dx, n, HIPREDUCE_F32, &r0,
                                             HIPREDUCE_RESULT_HOST);
                } else if (k == 1) {
                    s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, dx, n, HIPREDUCE_F32, &local, HIPREDUCE_RESULT_HOST);
                    MPI_Allreduce(&local, &r1, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                } else {
#ifdef HIPREDUCE_BENCH_NCCL /* on the handle's stream (the default one), the result read as the others are */
                    float r2;
                    s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, dx, n, HIPREDUCE_F32, d_sum, HIPREDUCE_RESULT_DEVICE);
                    if (ncclAllReduce(d_sum, d_sum + 1, 1, ncclFloat, ncclSum, nccl, 0) != ncclSuccess ||
                        cudaMemcpy(&r2, d_sum + 1, sizeof r2, cudaMemcpyDeviceToHost) != cudaSuccess)
                        MPI_Abort(MPI_COMM_WORLD, 6);
#else
                    s = HIPREDUCE_STATUS_NOT_SUPPORTED;
#endif
                }
                const double slowest = slowest_since(start, s, rank);
                if (rep >= 0) t[k][rep] = slowest;
            }
        double med[3] = {0, 0, 0};
        for (int k = 0; k < contenders; ++k) {
            qsort(t[k], (size_t)reps, sizeof(double), compare);
            med[k] = t[k][reps / 2] * 1e6;
        }
        char nccl_cols[32] = "           -        -";
        if (contenders == 3) snprintf(nccl_cols, sizeof nccl_cols, "%12.1f %8.3f", med[2], med[0] / med[2]);
        if (rank == 0)
            printf("%12llu %12.1f %12.1f %8.3f %s   %a %a\n", (unsigned long long)(split ? global : n), med[0], med[1],
                   med[0] / med[1], nccl_cols, r0, r1);
        if (gpu) gm_free(dx);
        free(x), free(t[0]), free(t[1]), free(t[2]);
    }
#ifdef HIPREDUCE_BENCH_NCCL
    if (nccl) ncclCommDestroy(nccl), cudaFree(d_sum);
#endif
    hipreduce_destroy(h);
    MPI_Finalize();
    return 0;
}
