/* large: more than 2^32 elements on GPU 0, where it has the memory. The inputs are random, with
 * the extreme values planted past index 2^32, so a 32-bit truncation of a length, tile index or
 * byte offset gives a wrong answer (constant data would hide it):
 *  - u8, 2^32 + 17 values in 1..254, 255 planted at 2^32 + 5 and 0 at 2^32 + 11: sum and xor
 *    (exact, modulo 2^8), min and max, for the three drivers;
 *  - 2^32 + 5 words (16 GiB): as f32 in (-2, 2) with 4.0 planted at 2^32 + 3 (max), as u32 for the
 *    exact sum modulo 2^32, and the f32 sum bit-identical to the cpu device over the same bytes;
 *  - exact sums' carries: 2^33 + 3 copies of FLT_MAX (32 GiB) summed exactly into f64 (an int64
 *    digit that dropped a carry gives another value) and into f32 (+inf), then with the last
 *    2^32 + 2 of them -0xfffffe 2^104, cancelling to 2^32 - 0xfffffd units of 2^104; the wanted
 *    values come from 64-bit integers.
 * Exits 77 (skipped) without a GPU, or when a part cannot get its memory (after running the
 * other part); a failure anywhere is exit 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_memory.h"
#include "hipreduce/hipreduce_study.h"

static int failures, skipped;

static void expect_u64(const char* what, hipreduce_status st, uint64_t got, uint64_t want)
{
    if (st != HIPREDUCE_STATUS_SUCCESS || got != want) {
        printf("FAIL %s: got %llu (status %s), want %llu\n", what, (unsigned long long)got,
               hipreduce_status_string(st), (unsigned long long)want);
        ++failures;
    } else {
        printf("ok   %s = %llu\n", what, (unsigned long long)got);
    }
}

/* xorshift64*: fast enough for 2^32 values on one core. */
static uint64_t next(uint64_t* s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static void bytes_part(hipreduce_handle gpu, hipreduce_handle cpu)
{
    const uint64_t n = (UINT64_C(1) << 32) + 17, at_max = (UINT64_C(1) << 32) + 5, at_min = (UINT64_C(1) << 32) + 11;
    unsigned char* h = malloc(n);
    unsigned char* d = h ? gm_alloc(n) : NULL;
    if (!h || !d) {
        printf("skipped: no room for %llu bytes (host or device)\n", (unsigned long long)n);
        ++skipped;
        free(h);
        gm_free(d);
        return;
    }
    uint64_t s = 42, sum = 0;
    unsigned xr = 0;
    for (uint64_t i = 0; i < n; ++i) {
        h[i] = (unsigned char)(1 + next(&s) % 254);
        if (i == at_max) h[i] = 255;
        if (i == at_min) h[i] = 0;
        sum += h[i];
        xr ^= h[i];
    }
    if (gm_to_device(d, h, n) != 0) {
        printf("FAIL upload of %llu bytes\n", (unsigned long long)n);
        ++failures;
    }
    const hipreduce_algorithm algorithms[] = {HIPREDUCE_ALGORITHM_AUTO, HIPREDUCE_ALGORITHM_MULTIPASS,
                                              HIPREDUCE_ALGORITHM_TWO_PASS};
    const struct { hipreduce_op op; uint64_t want; } ops[] = {
        {HIPREDUCE_OP_SUM, (uint8_t)sum}, {HIPREDUCE_OP_XOR, xr}, {HIPREDUCE_OP_MAX, 255}, {HIPREDUCE_OP_MIN, 0}};
    for (size_t a = 0; a < 3; ++a) {
        hipreduce_set_algorithm(gpu, algorithms[a]);
        for (size_t k = 0; k < 4; ++k) {
            char what[96];
            uint8_t r = 99;
            const hipreduce_status st = hipreduce_reduce(gpu, ops[k].op, HIPREDUCE_U8, d, n, HIPREDUCE_U8, &r, HIPREDUCE_RESULT_HOST);
            snprintf(what, sizeof what, "gpu %s u8 %s of 2^32+17", hipreduce_algorithm_name(algorithms[a]),
                     hipreduce_op_name(ops[k].op));
            expect_u64(what, st, r, ops[k].want);
        }
    }
    hipreduce_set_algorithm(gpu, HIPREDUCE_ALGORITHM_AUTO);
    for (size_t k = 0; k < 4; ++k) {
        char what[96];
        uint8_t r = 99;
        const hipreduce_status st = hipreduce_reduce(cpu, ops[k].op, HIPREDUCE_U8, h, n, HIPREDUCE_U8, &r, HIPREDUCE_RESULT_HOST);
        snprintf(what, sizeof what, "cpu u8 %s of 2^32+17", hipreduce_op_name(ops[k].op));
        expect_u64(what, st, r, ops[k].want);
    }
    gm_free(d);
    free(h);
}

static void words_part(hipreduce_handle gpu, hipreduce_handle cpu)
{
    const uint64_t n = (UINT64_C(1) << 32) + 5, at_max = (UINT64_C(1) << 32) + 3;
    float* h = malloc(n * 4);
    unsigned char* d = h ? gm_alloc(n * 4) : NULL;
    if (!h || !d) {
        printf("skipped: no room for 16 GiB (host or device)\n");
        ++skipped;
        free(h);
        gm_free(d);
        return;
    }
    uint64_t s = 7;
    uint32_t usum = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t r = next(&s);
        h[i] = i == at_max ? 4.0f : (float)((int64_t)(r >> 11) - (INT64_C(1) << 52)) * 0x1p-52f; /* (-1, 1) */
        uint32_t bits;
        memcpy(&bits, &h[i], 4);
        usum += bits;
    }
    if (gm_to_device(d, h, n * 4) != 0) {
        printf("FAIL upload of 16 GiB\n");
        ++failures;
    }
    uint32_t ru = 0;
    hipreduce_status st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_U32, d, n, HIPREDUCE_U32, &ru, HIPREDUCE_RESULT_HOST);
    expect_u64("gpu auto u32 sum of 2^32+5 words", st, ru, usum);
    float fmax = 0;
    uint32_t max_bits;
    st = hipreduce_reduce(gpu, HIPREDUCE_OP_MAX, HIPREDUCE_F32, d, n, HIPREDUCE_F32, &fmax, HIPREDUCE_RESULT_HOST);
    memcpy(&max_bits, &fmax, 4);
    expect_u64("gpu auto f32 max of 2^32+5, bits (4.0f = 0x40800000 planted at 2^32+3)", st, max_bits, 0x40800000);
    float fg = 0, fc = 1;
    st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d, n, HIPREDUCE_F32, &fg, HIPREDUCE_RESULT_HOST);
    const hipreduce_status sc = hipreduce_reduce(cpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, h, n, HIPREDUCE_F32, &fc, HIPREDUCE_RESULT_HOST);
    if (st != HIPREDUCE_STATUS_SUCCESS || sc != HIPREDUCE_STATUS_SUCCESS || memcmp(&fg, &fc, sizeof fg) != 0) {
        printf("FAIL auto f32 sum of 2^32+5: gpu %.9g (status %d), cpu %.9g (status %d)\n", fg, (int)st, fc, (int)sc);
        ++failures;
    } else {
        printf("ok   auto f32 sum of 2^32+5 = %.9g, bit-identical to the cpu device\n", fg);
    }
    gm_free(d);
    free(h);
}

/* A finite f32's value as m 2^e with m an integer. */
static void f32_parts(uint32_t bits, int64_t* m, int* e)
{
    const int field = (int)((bits >> 23) & 0xff);
    *m = (int64_t)((bits & 0x7fffff) | (field ? 0x800000u : 0));
    if (bits >> 31) *m = -*m;
    *e = (field ? field : 1) - 150;
}

static void expect_exact(const char* what, hipreduce_status st, double got, double want)
{
    if (st != HIPREDUCE_STATUS_SUCCESS || memcmp(&got, &want, sizeof got) != 0) {
        printf("FAIL %s: got %a (status %s), want %a\n", what, got, hipreduce_status_string(st), want);
        ++failures;
    } else {
        printf("ok   %s = %a\n", what, got);
    }
}

/* Sets n f32 values of device memory d, from element `from` on, to the bits `bits` (through a
 * 256 MiB host buffer). */
static int fill_f32(unsigned char* d, uint64_t from, uint64_t n, uint32_t bits)
{
    const uint64_t chunk = UINT64_C(1) << 26;
    uint32_t* h = malloc(chunk * 4);
    if (!h) return -1;
    for (uint64_t i = 0; i < chunk; ++i) h[i] = bits;
    int rc = 0;
    for (uint64_t at = from; at < from + n && rc == 0; at += chunk) {
        const uint64_t k = from + n - at < chunk ? from + n - at : chunk;
        rc = gm_to_device(d + at * 4, h, k * 4);
    }
    free(h);
    return rc;
}

static void carries_part(hipreduce_handle gpu)
{
    const uint64_t n = (UINT64_C(1) << 33) + 3, tail = (UINT64_C(1) << 32) + 2;
    const uint32_t top = 0x7f7fffffu, neg = 0xff7ffffeu; /* FLT_MAX = 0xffffff 2^104, -0xfffffe 2^104 */
    unsigned char* d = gm_alloc(n * 4);
    if (!d) {
        printf("skipped: no room for 32 GiB on the device\n");
        ++skipped;
        return;
    }
    if (fill_f32(d, 0, n, top) != 0) {
        printf("FAIL filling 32 GiB\n");
        ++failures;
        gm_free(d);
        return;
    }
    int64_t m_top, m_neg;
    int e_top, e_neg;
    f32_parts(top, &m_top, &e_top);
    f32_parts(neg, &m_neg, &e_neg);
    double got = 0;
    hipreduce_status st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, d, n, HIPREDUCE_F64, &got, HIPREDUCE_RESULT_HOST);
    /* m_top n < 2^58: the conversion is the one rounding, to nearest even */
    expect_exact("gpu sum_exact f32 -> f64 of 2^33+3 copies of FLT_MAX", st, got,
                 ldexp((double)(uint64_t)(m_top * (int64_t)n), e_top));
    float got32 = 0;
    st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, d, n, HIPREDUCE_F32, &got32, HIPREDUCE_RESULT_HOST);
    expect_exact("gpu sum_exact f32 -> f32 of the same (overflows)", st, (double)got32, HUGE_VAL);
    if (fill_f32(d, n - tail, tail, neg) != 0 || e_top != e_neg) {
        printf("FAIL refilling the tail (or the test's own constants)\n");
        ++failures;
    }
    st = hipreduce_reduce(gpu, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F32, d, n, HIPREDUCE_F64, &got, HIPREDUCE_RESULT_HOST);
    /* 0xffffff (2^32 + 1) - 0xfffffe (2^32 + 2) = 2^32 - 0xfffffd: sums near 2^56 cancel to 2^32 */
    expect_exact("gpu sum_exact f32 -> f64 of 2^32+1 x FLT_MAX and 2^32+2 x -0xfffffe 2^104", st, got,
                 ldexp((double)(m_top * (int64_t)(n - tail) + m_neg * (int64_t)tail), e_top));
    gm_free(d);
}

int main(void)
{
    if (gm_count() == 0) {
        printf("large: skipped: no GPU\n");
        return 77;
    }
    hipreduce_handle gpu, cpu;
    if (hipreduce_create(&gpu, HIPREDUCE_DEVICE_GPU, 0) != HIPREDUCE_STATUS_SUCCESS ||
        hipreduce_create(&cpu, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        printf("FAIL: a GPU is visible but the handles cannot be created: %s\n", hipreduce_create_error_message());
        return 1;
    }
    printf("large: %s\n", gm_device_name(0));
    bytes_part(gpu, cpu);
    words_part(gpu, cpu);
    carries_part(gpu);
    hipreduce_destroy(gpu);
    hipreduce_destroy(cpu);
    printf("large: %d failure(s), %d part(s) skipped\n", failures, skipped);
    return failures ? 1 : skipped ? 77 : 0;
}
