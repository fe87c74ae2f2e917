/* The embedding parent's program: links hipreduce::hipreduce and sums on the cpu device. */
#include <hipreduce/hipreduce.h>

int main(void)
{
    const float x[3] = {1, 2, 3};
    float sum = 0;
    hipreduce_handle h;
    if (hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) return 1;
    const hipreduce_status st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 3, HIPREDUCE_F32, &sum,
                                                 HIPREDUCE_RESULT_HOST);
    hipreduce_destroy(h);
    return st != HIPREDUCE_STATUS_SUCCESS || sum != 6.0f;
}
