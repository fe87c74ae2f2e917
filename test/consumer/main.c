/* Uses the installed library on the cpu device: sums a few ints and checks the value. */
#include <hipreduce/hipreduce.h>

#include <stdio.h>

int main(void)
{
    const int32_t x[] = {3, -1, 4, 1, -5, 9, 2, 6};
    const int32_t expected = 19;
    int32_t sum = 0;
    hipreduce_handle h = NULL;

    hipreduce_status s = hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0);
    if (s == HIPREDUCE_STATUS_SUCCESS)
        s = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I32, x, sizeof x / sizeof x[0], HIPREDUCE_I32, &sum,
                             HIPREDUCE_RESULT_HOST);
    hipreduce_destroy(h);
    if (s != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "consumer: %s\n", hipreduce_status_string(s));
        return 1;
    }
    if (sum != expected) {
        fprintf(stderr, "consumer: sum %d, expected %d\n", (int)sum, (int)expected);
        return 1;
    }
    if (hipreduce_get_version() != HIPREDUCE_VERSION) {
        fprintf(stderr, "consumer: library version %u, headers %d\n", (unsigned)hipreduce_get_version(),
                HIPREDUCE_VERSION);
        return 1;
    }
    printf("consumer: hipreduce %s, sum %d: ok\n", HIPREDUCE_VERSION_STRING, (int)sum);
    return 0;
}
