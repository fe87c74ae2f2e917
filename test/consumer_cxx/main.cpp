// Uses the installed library from C++ on the cpu device (and, built WITH_MPI, its MPI component on
// however many ranks it runs): sums a few ints and checks the value.
#ifdef WITH_MPI
#include <hipreduce/hipreduce_mpi.h>
#else
#include <hipreduce/hipreduce.h>
#endif

#include <cstdio>
#include <vector>

#ifdef WITH_MPI
#define WITH_MPI_NAME ", mpi"
#else
#define WITH_MPI_NAME ""
#endif

int main(int argc, char** argv)
{
    const std::vector<int32_t> x = {3, -1, 4, 1, -5, 9, 2, 6};
    int32_t sum = 0;
    int32_t expected = 19;
#ifdef WITH_MPI
    MPI_Init(&argc, &argv);
#endif
    hipreduce_handle h = nullptr;
    hipreduce_status s = hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
#ifdef WITH_MPI
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    expected *= ranks;  // every rank holds the same slice
    if (s == HIPREDUCE_STATUS_SUCCESS)
        s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_I32, x.data(), x.size(), HIPREDUCE_I32,
                                 &sum, HIPREDUCE_RESULT_HOST);
    if (s != HIPREDUCE_STATUS_SUCCESS) std::fprintf(stderr, "consumer (C++, mpi): %s\n", hipreduce_mpi_last_error_message());
#else
    (void)argc, (void)argv;
    if (s == HIPREDUCE_STATUS_SUCCESS)
        s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I32, x.data(), x.size(), HIPREDUCE_I32, &sum,
                             HIPREDUCE_RESULT_HOST);
#endif
    hipreduce_destroy(h);
#ifdef WITH_MPI
    MPI_Finalize();
#endif
    if (s != HIPREDUCE_STATUS_SUCCESS || sum != expected) {
        std::fprintf(stderr, "consumer (C++): %s, sum %d, expected %d\n", hipreduce_status_string(s), (int)sum,
                     (int)expected);
        return 1;
    }
    std::printf("consumer (C++%s): hipreduce %s, sum %d: ok\n", WITH_MPI_NAME, HIPREDUCE_VERSION_STRING, (int)sum);
    return 0;
}
