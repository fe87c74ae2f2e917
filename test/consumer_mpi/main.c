/* Uses the installed MPI component on the cpu device, on however many ranks it runs: every rank
 * sums the same few ints, and checks the global sum. */
#include <hipreduce/hipreduce_mpi.h>

#include <stdio.h>

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int32_t x[] = {3, -1, 4, 1, -5, 9, 2, 6};
    const int64_t expected = 19 * (int64_t)ranks;
    int64_t sum = 0;
    hipreduce_handle h = NULL;
    hipreduce_status s = hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
    if (s == HIPREDUCE_STATUS_SUCCESS)
        s = hipreduce_mpi_reduce(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, HIPREDUCE_I32, x, sizeof x / sizeof x[0],
                                 HIPREDUCE_I64, &sum, HIPREDUCE_RESULT_HOST);
    if (s != HIPREDUCE_STATUS_SUCCESS) fprintf(stderr, "consumer (mpi): %s\n", hipreduce_mpi_last_error_message());
    hipreduce_destroy(h);
    MPI_Finalize();
    if (s != HIPREDUCE_STATUS_SUCCESS || sum != expected) {
        fprintf(stderr, "consumer (mpi): %s, sum %lld, expected %lld\n", hipreduce_status_string(s), (long long)sum,
                (long long)expected);
        return 1;
    }
    printf("consumer (mpi): hipreduce %s, sum %lld over %d ranks: ok\n", HIPREDUCE_VERSION_STRING, (long long)sum, ranks);
    return 0;
}
