/* Ragged segments (a CSR matrix's rows): one sum and one argmax per segment, offsets in the
 * input's memory space. Empty segments give 0 (argmax: index -1); indices count from the
 * segment's start. Runs on GPU 0 where there is one, else on the cpu device. */
#include "example.h"

int main(int argc, char** argv)
{
    hipreduce_handle h = example_open(argc, argv);
    enum { SEGMENTS = 6 };
    const uint64_t offsets[SEGMENTS + 1] = {0, 3, 3, 10, 11, 5000, 5004}; /* lengths 3, 0, 7, 1, 4989, 4 */
    const uint64_t n = offsets[SEGMENTS];
    float* x = (float*)malloc(n * sizeof *x);
    for (uint64_t i = 0; i < n; ++i) x[i] = (float)(i % 10);
    void* d_x = example_upload(h, x, n * sizeof *x);
    void* d_offsets = example_upload(h, offsets, sizeof offsets);

    float sums[SEGMENTS], tops[SEGMENTS];
    int64_t where[SEGMENTS];
    CHECK(h, hipreduce_reduce_segments(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_x, SEGMENTS, (const uint64_t*)d_offsets,
                                       HIPREDUCE_F32, sums, HIPREDUCE_RESULT_HOST));
    CHECK(h, hipreduce_argreduce_segments(h, HIPREDUCE_OP_ARGMAX, HIPREDUCE_F32, d_x, SEGMENTS,
                                          (const uint64_t*)d_offsets, tops, where, HIPREDUCE_RESULT_HOST));
    int ok = 1;
    for (int s = 0; s < SEGMENTS; ++s) {
        float expect = 0;
        int64_t first = -1;
        for (uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
            expect += x[i]; /* small integers: exact in any order */
            if (first < 0 || x[i] > x[offsets[s] + (uint64_t)first]) first = (int64_t)(i - offsets[s]);
        }
        ok &= sums[s] == expect && where[s] == first;
        printf("segment %d: length %llu, sum %.0f, argmax at %lld\n", s, (unsigned long long)(offsets[s + 1] - offsets[s]),
               sums[s], (long long)where[s]);
    }
    example_free(h, d_x);
    example_free(h, d_offsets);
    free(x);
    CHECK(h, hipreduce_destroy(h));
    printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
