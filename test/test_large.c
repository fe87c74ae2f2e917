/* large: more than 2^32 elements on GPU 0, where it has the memory. Inputs are made
 * with memset (every byte the same), so the integer results are known in closed form
 * and 64-bit lengths, tile indices and byte offsets past 4 GiB are exercised for real.
 * The f32 sum is checked bit-for-bit against the cpu device over the same bytes.
 * Exits 77 (skipped) without a GPU or without the memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "hipreduce/hipreduce.h"

static int failures;

static void expect_u64(const char* what, uint64_t got, uint64_t want)
{
    if (got != want) {
        printf("FAIL %s: got %llu, want %llu\n", what, (unsigned long long)got, (unsigned long long)want);
        ++failures;
    } else {
        printf("ok   %s = %llu\n", what, (unsigned long long)got);
    }
}

int main(void)
{
    if (gm_count() == 0) {
        printf("no GPU: skipped\n");
        return 77;
    }
    hipreduce_handle gpu, cpu;
    if (hipreduce_create(&gpu, HIPREDUCE_DEVICE_GPU, 0) != HIPREDUCE_STATUS_SUCCESS ||
        hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        printf("cannot create handles: skipped\n");
        return 77;
    }
    /* u8: 2^32 + 17 bytes of 0x03. */
    const uint64_t n8 = (UINT64_C(1) << 32) + 17;
    unsigned char* d8 = gm_alloc(n8);
    if (!d8) {
        printf("no room for %llu bytes on %s: skipped\n", (unsigned long long)n8, gm_device_name(0));
        return 77;
    }
    if (gm_memset(d8, 3, n8) != 0) return 1;
    const hipreduce_algorithm algorithms[] = {HIPREDUCE_ALGORITHM_AUTO, HIPREDUCE_ALGORITHM_MULTIPASS,
                                              HIPREDUCE_ALGORITHM_TWO_PASS};
    for (size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; ++a) {
        char what[96];
        uint8_t r8 = 0;
        hipreduce_set_algorithm(gpu, algorithms[a]);
        hipreduce_status st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_U8, d8, n8, &r8, HIPREDUCE_RESULT_HOST);
        snprintf(what, sizeof what, "%s u8 sum of 2^32+17 threes (status %d)", hipreduce_algorithm_name(algorithms[a]),
                 (int)st);
        expect_u64(what, st == HIPREDUCE_STATUS_SUCCESS ? r8 : 999, (uint8_t)(3 * n8));
        st = hipreduce_reduce(gpu, HIPREDUCE_OP_XOR, HIPREDUCE_U8, d8, n8, &r8, HIPREDUCE_RESULT_HOST);
        snprintf(what, sizeof what, "%s u8 xor (status %d)", hipreduce_algorithm_name(algorithms[a]), (int)st);
        expect_u64(what, st == HIPREDUCE_STATUS_SUCCESS ? r8 : 999, n8 & 1 ? 3 : 0);
    }
    gm_free(d8);
    hipreduce_set_algorithm(gpu, HIPREDUCE_ALGORITHM_AUTO);

    /* i32 and f32: 2^32 + 5 words of 0x3c3c3c3c (16 GiB). */
    const uint64_t n32 = (UINT64_C(1) << 32) + 5;
    unsigned char* d32 = gm_alloc(n32 * 4);
    unsigned char* h32 = malloc(n32 * 4);
    if (!d32 || !h32) {
        printf("no room for 16 GiB (device or host): the 32-bit part is skipped\n");
    } else {
        if (gm_memset(d32, 0x3c, n32 * 4) != 0) return 1;
        memset(h32, 0x3c, n32 * 4);
        uint32_t ri = 0;
        hipreduce_status st =
            hipreduce_reduce(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_U32, d32, n32, &ri, HIPREDUCE_RESULT_HOST);
        expect_u64("auto u32 sum of 2^32+5 words", st == HIPREDUCE_STATUS_SUCCESS ? ri : 0,
                   (uint32_t)(UINT32_C(0x3c3c3c3c) * (uint32_t)n32));
        float fg = 0, fc = 1;
        st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d32, n32, &fg, HIPREDUCE_RESULT_HOST);
        hipreduce_status sc = hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, h32, n32, &fc, HIPREDUCE_RESULT_HOST);
        if (st != HIPREDUCE_STATUS_SUCCESS || sc != HIPREDUCE_STATUS_SUCCESS || memcmp(&fg, &fc, sizeof fg) != 0) {
            printf("FAIL auto f32 sum of 2^32+5: gpu %.9g (status %d), cpu %.9g (status %d)\n", fg, (int)st, fc,
                   (int)sc);
            ++failures;
        } else {
            printf("ok   auto f32 sum of 2^32+5 = %.9g, bit-identical to the cpu device\n", fg);
        }
    }
    gm_free(d32);
    free(h32);
    hipreduce_destroy(gpu);
    hipreduce_destroy(cpu);
    printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
