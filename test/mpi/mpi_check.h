/* What the mpi suites share: the failure report (each suite defines rank, ranks and failures), the
 * seeded hash their data and cuts come from, the input tile, the splits of a length over the ranks,
 * and the sum of every rank's failures and checks. */
#ifndef HIPREDUCE_TEST_MPI_CHECK_H
#define HIPREDUCE_TEST_MPI_CHECK_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hipreduce/hipreduce.h"

#define FAIL(...)                                                                 \
    do {                                                                          \
        if (failures < 20) {                                                      \
            fprintf(stderr, "[rank %d of %d] ", rank, ranks);                     \
            fprintf(stderr, __VA_ARGS__);                                         \
            fprintf(stderr, "\n");                                                \
        }                                                                         \
        ++failures;                                                               \
    } while (0)

static inline uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Elements of a tile of the default order (device/order.h) for input dtype d. */
static inline uint64_t tile_of(hipreduce_dtype d) { return 256u * 4u * (16u / (unsigned)hipreduce_dtype_size(d)); }

/* Every rank's count of n (nranks ranks), the same on every rank: pattern 0 even, 1 all on one
 * rank, 2 random cuts (with empty ranks), 3 cuts at multiples of the tile and of tile^2, -1/0/+1,
 * 4 one element on each of the first ranks and the rest on the last. */
enum { PATTERNS = 5 };
static inline void mpi_split(uint64_t n, int pattern, uint64_t seed, uint64_t tile, int nranks, uint64_t* counts)
{
    uint64_t* cut = (uint64_t*)malloc((size_t)(nranks + 1) * sizeof *cut);
    cut[0] = 0;
    cut[nranks] = n;
    for (int r = 1; r < nranks; ++r) {
        const uint64_t h = mix(seed ^ (uint64_t)r * 7919u ^ (uint64_t)pattern << 40);
        uint64_t c;
        switch (pattern) {
        case 0: c = n / nranks * r + ((uint64_t)r < n % nranks ? (uint64_t)r : n % nranks); break;
        case 1: c = r <= (int)(seed % nranks) ? 0 : n; break;
        case 2: c = (h % 3 == 0 && r > 1) ? cut[r - 1] : (n ? h % (n + 1) : 0); break;
        case 3: {
            const uint64_t unit = (h & 4) && n > tile * tile ? tile * tile : tile;
            const uint64_t k = n / unit + 1;
            c = (h % k) * unit + (h >> 8) % 3 - 1;
            if (c > n) c = (h % k) * unit;
            if (c > n) c = n;
            break;
        }
        default: c = (uint64_t)r < n ? (uint64_t)r : n;
        }
        cut[r] = c;
    }
    /* sorted cuts make the slices */
    for (int a = 1; a < nranks; ++a)
        for (int b = a + 1; b < nranks; ++b)
            if (cut[b] < cut[a]) { const uint64_t t = cut[a]; cut[a] = cut[b]; cut[b] = t; }
    for (int r = 0; r < nranks; ++r) counts[r] = cut[r + 1] - cut[r];
    free(cut);
}

/* This rank's slice of n under mpi_split: returns its first element, *count its length. */
static inline uint64_t mpi_slice(uint64_t n, int pattern, uint64_t seed, uint64_t tile, int rank, int nranks, uint64_t* count)
{
    uint64_t* counts = (uint64_t*)malloc((size_t)nranks * sizeof *counts);
    uint64_t first = 0;
    mpi_split(n, pattern, seed, tile, nranks, counts);
    for (int r = 0; r < rank; ++r) first += counts[r];
    *count = counts[rank];
    free(counts);
    return first;
}

/* Every rank's failures and checks summed (collective over MPI_COMM_WORLD); rank 0 prints them
 * after what ("mpi stats cpu quick, 3 ranks: ..."). Returns the suite's exit code. */
static inline int mpi_report(const char* what, int failures, int checks)
{
    int rank = 0, ranks = 0, all[2] = {0, 0};
    const int mine[2] = {failures, checks};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s, %d ranks: %d checks, %d failures\n", what, ranks, all[1], all[0]);
    return all[0] != 0;
}

#endif
