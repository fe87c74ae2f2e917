/* What the randomized plan suites share (test_tensor.c, test_by_key.c): a failure count with the
 * first failures printed, a seeded xorshift generator, and the (op, in, out) case of a row. */
#ifndef HIPREDUCE_TEST_CHECK_H
#define HIPREDUCE_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "hipreduce/hipreduce.h"

static int failures;
#define CHECK(cond, ...)                                        \
    do {                                                        \
        if (!(cond)) {                                          \
            ++failures;                                         \
            if (failures <= 20) {                               \
                fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                   \
                fputc('\n', stderr);                            \
            }                                                   \
        }                                                       \
    } while (0)

static uint64_t rng = 0x9e3779b97f4a7c15u; /* a suite may seed it */
static inline uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static inline uint64_t below(uint64_t n) { return n ? next_random() % n : 0; }

/* The handles of a suite: references on a cpu handle, the calls under test on `run` (the same
 * handle, or GPU 0 when gpu). 0, or the exit status: 77 (skipped) without a GPU, 1 on failure. */
static inline int open_handles(int gpu, hipreduce_handle* cpu, hipreduce_handle* run)
{
    if (hipreduce_create(cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) return 1;
    *run = *cpu;
    if (!gpu) return 0;
    int devices = 0;
    if (hipreduce_get_device_count(&devices) != HIPREDUCE_STATUS_SUCCESS || devices == 0 ||
        hipreduce_create(run, HIPREDUCE_DEVICE_GPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        printf("no GPU: skipped\n");
        hipreduce_destroy(*cpu);
        return 77;
    }
    return 0;
}

typedef struct op_case {
    hipreduce_op op;
    hipreduce_dtype in, out;
} op_case;

#endif
