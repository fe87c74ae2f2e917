/* api suite: the public C API on the cpu device. The op x dtype x size matrix against the
 * independent references of reference.c; every bad argument returns its status and writes
 * nothing; the handle calls, version, sizes and status strings. Exits non-zero on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce/hipreduce_study.h"
#include "reference.h"

#define SENTINEL 0xA5

static int result_untouched(const unsigned char* r, size_t from)
{
    for (size_t i = from; i < 16; ++i)
        if (r[i] != SENTINEL) return 0;
    return 1;
}

/* One matrix case on the cpu device: AUTO's canonical order, and the same bits whatever
 * algorithm the handle is set to. */
static int cpu_case(void* ctx, const ref_case* c)
{
    hipreduce_handle h = (hipreduce_handle)ctx;
    unsigned char got[16], again[16];
    memset(got, SENTINEL, sizeof got);
    int fails = 0;
    const hipreduce_status st = hipreduce_reduce(h, c->op, c->dtype, c->x, c->n, c->dtype, got, HIPREDUCE_RESULT_HOST);
    if (st != HIPREDUCE_STATUS_SUCCESS) {
        ref_report("FAIL cpu: %s %s n=%llu: status %s", ref_op_name(c->op), ref_dtype_name(c->dtype),
                   (unsigned long long)c->n, hipreduce_status_string(st));
        return 1;
    }
    fails += REF_EXPECT(result_untouched(got, ref_size(c->dtype))); /* exactly one element written */
    fails += ref_check("cpu", c->op, c->dtype, c->data, c->x, c->n, got, REF_CANONICAL);
    if (c->n <= 70000 && ref_is_float(c->dtype)) {
        /* Any algorithm, study ones included: the cpu runs AUTO's order. */
        const hipreduce_algorithm other = (hipreduce_algorithm)(1 + c->n % HIPREDUCE_ALGORITHM_TUTORIAL_V10);
        fails += REF_EXPECT(hipreduce_set_algorithm(h, other) == HIPREDUCE_STATUS_SUCCESS);
        fails += REF_EXPECT(hipreduce_reduce(h, c->op, c->dtype, c->x, c->n, c->dtype, again, HIPREDUCE_RESULT_HOST) ==
                            HIPREDUCE_STATUS_SUCCESS);
        fails += REF_EXPECT(ref_same_bits(c->dtype, got, again));
        fails += REF_EXPECT(hipreduce_set_algorithm(h, HIPREDUCE_ALGORITHM_AUTO) == HIPREDUCE_STATUS_SUCCESS);
    }
    return fails;
}

/* Results whose bits the header states, written out by hand. */
static int known_bits(hipreduce_handle h)
{
    int fails = 0;
    const float pz = 0.0f, nz = -0.0f;
    float f[5], r;
    double d[3], rd;
    uint32_t bits;
    uint64_t bits64;
#define F32_BITS(op, n, want)                                                                                  \
    (hipreduce_reduce(h, op, HIPREDUCE_F32, f, n, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST) == HIPREDUCE_STATUS_SUCCESS && \
     (memcpy(&bits, &r, 4), bits == (want)))
    f[0] = pz, f[1] = nz;
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MIN, 2, 0x80000000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MAX, 2, 0x00000000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 2, 0x00000000u));
    f[0] = nz, f[1] = pz;
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MIN, 2, 0x80000000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MAX, 2, 0x00000000u));
    f[0] = f[1] = f[2] = nz;
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 3, 0x80000000u)); /* a sum of -0.0 stays -0.0 */
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 0, 0x00000000u)); /* but the empty sum is +0.0 */
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_PROD, 0, 0x3f800000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MIN, 0, 0x7f800000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MAX, 0, 0xff800000u));
    bits = 0xffc00001u; /* a negative NaN with a payload, alone: canonicalised */
    memcpy(&f[0], &bits, 4);
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MIN, 1, 0x7fc00000u));
    /* Sums too, whichever operand's NaN x86 or a GPU would keep (-nan + nan, nan + -nan, nan - inf). */
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 1, 0x7fc00000u));
    bits = 0x7fc00002u;
    memcpy(&f[1], &bits, 4);
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 2, 0x7fc00000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_PROD, 2, 0x7fc00000u));
    memcpy(&f[0], &f[1], 4);
    bits = 0xffc00001u;
    memcpy(&f[1], &bits, 4);
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 2, 0x7fc00000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM_ABS, 2, 0x7fc00000u));
    f[0] = INFINITY, f[1] = -INFINITY;
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_SUM, 2, 0x7fc00000u));
    f[1] = 1.0f, f[2] = -3.0f;
    bits = 0x7f800001u; /* signalling NaN */
    memcpy(&f[3], &bits, 4);
    f[0] = 2.0f;
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MAX, 4, 0x7fc00000u));
    fails += REF_EXPECT(F32_BITS(HIPREDUCE_OP_MIN, 3, 0xc0400000u)); /* -3.0f */
#undef F32_BITS
    d[0] = 1.0, d[1] = -0.0;
    bits64 = UINT64_C(0xfff8000000000000);
    memcpy(&d[2], &bits64, 8);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_MIN, HIPREDUCE_F64, d, 3, HIPREDUCE_F64, &rd, HIPREDUCE_RESULT_HOST) == 0 &&
                        (memcpy(&bits64, &rd, 8), bits64 == UINT64_C(0x7ff8000000000000)));
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_MIN, HIPREDUCE_F64, d, 2, HIPREDUCE_F64, &rd, HIPREDUCE_RESULT_HOST) == 0 &&
                        (memcpy(&bits64, &rd, 8), bits64 == UINT64_C(0x8000000000000000)));
    /* Integer identities and wrapping. */
    int8_t i8[3] = {100, 100, -128}, r8 = 0;
    uint16_t u16[2] = {0xffff, 0x0003}, r16 = 0;
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, i8, 2, HIPREDUCE_I8, &r8, 0) == 0 && r8 == -56);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_PROD, HIPREDUCE_I8, i8, 3, HIPREDUCE_I8, &r8, 0) == 0 && r8 == 0);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_MIN, HIPREDUCE_I8, i8, 0, HIPREDUCE_I8, &r8, 0) == 0 && r8 == 127);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_MAX, HIPREDUCE_I8, i8, 0, HIPREDUCE_I8, &r8, 0) == 0 && r8 == -128);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_AND, HIPREDUCE_I8, NULL, 0, HIPREDUCE_I8, &r8, 0) == 0 && r8 == -1);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_U16, u16, 2, HIPREDUCE_U16, &r16, 0) == 0 && r16 == 2);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_PROD, HIPREDUCE_U16, u16, 2, HIPREDUCE_U16, &r16, 0) == 0 && r16 == 0xfffd);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_MIN, HIPREDUCE_U16, u16, 0, HIPREDUCE_U16, &r16, 0) == 0 && r16 == 0xffff);
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_XOR, HIPREDUCE_U16, u16, 2, HIPREDUCE_U16, &r16, 0) == 0 && r16 == 0xfffc);
    uint64_t u64[2] = {UINT64_MAX, 2}, r64 = 0;
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_U64, u64, 2, HIPREDUCE_U64, &r64, 0) == 0 && r64 == 1);
    int64_t i64[2] = {INT64_MAX, 1}, s64 = 0;
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I64, i64, 2, HIPREDUCE_I64, &s64, 0) == 0 && s64 == INT64_MIN);
    return fails;
}

/* Each bad argument: its status, and the result buffer untouched. */
static int bad_arguments(hipreduce_handle h)
{
    int fails = 0;
    unsigned char r[16];
    const float x[4] = {1, 2, 3, 4};
    const void* dummy = x; /* never read: validation fails first */
    struct {
        const char* what;
        hipreduce_handle h;
        int op, dtype;
        const void* in;
        uint64_t n;
        void* out;
        int loc;
        hipreduce_status want;
    } cases[] = {
        {"NULL handle", NULL, 0, HIPREDUCE_F32, x, 4, r, 0, HIPREDUCE_STATUS_INVALID_HANDLE},
        {"NULL handle first", NULL, 99, 99, NULL, 4, NULL, 9, HIPREDUCE_STATUS_INVALID_HANDLE},
        {"op 99", h, 99, HIPREDUCE_F32, x, 4, r, 0, HIPREDUCE_STATUS_INVALID_OP},
        {"op -1", h, -1, HIPREDUCE_F32, x, 4, r, 0, HIPREDUCE_STATUS_INVALID_OP},
        {"op before dtype", h, 1000, 8, x, 4, r, 0, HIPREDUCE_STATUS_INVALID_OP},
        {"dtype 14", h, 0, 14, x, 4, r, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"dtype -1", h, 0, -1, x, 4, r, 0, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"dtype before location", h, 0, 14, x, 4, r, 5, HIPREDUCE_STATUS_INVALID_DTYPE},
        {"and f32", h, HIPREDUCE_OP_AND, HIPREDUCE_F32, x, 4, r, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"or f64", h, HIPREDUCE_OP_OR, HIPREDUCE_F64, x, 2, r, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"xor f32", h, HIPREDUCE_OP_XOR, HIPREDUCE_F32, x, 4, r, 0, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"mismatch before location", h, HIPREDUCE_OP_XOR, HIPREDUCE_F32, x, 4, r, 7,
         HIPREDUCE_STATUS_OP_DTYPE_MISMATCH},
        {"location 2", h, 0, HIPREDUCE_F32, x, 4, r, 2, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"location -1", h, 0, HIPREDUCE_F32, x, 4, r, -1, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"device result on cpu", h, 0, HIPREDUCE_F32, x, 4, r, 1, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"location before pointer", h, 0, HIPREDUCE_F32, NULL, 4, NULL, 1, HIPREDUCE_STATUS_INVALID_LOCATION},
        {"NULL result", h, 0, HIPREDUCE_F32, x, 4, NULL, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"NULL result, n 0", h, 0, HIPREDUCE_F32, NULL, 0, NULL, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"NULL input, n 1", h, 0, HIPREDUCE_I8, NULL, 1, r, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"pointer before size", h, 0, HIPREDUCE_F64, NULL, UINT64_MAX, r, 0, HIPREDUCE_STATUS_INVALID_POINTER},
        {"n*2 overflows", h, 0, HIPREDUCE_I16, dummy, UINT64_MAX / 2 + 1, r, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        {"n*4 overflows", h, 0, HIPREDUCE_F32, dummy, UINT64_MAX / 4 + 1, r, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        {"n*8 overflows", h, 3, HIPREDUCE_U64, dummy, UINT64_MAX, r, 0, HIPREDUCE_STATUS_SIZE_OVERFLOW},
        {"n*8 overflows by one", h, 0, HIPREDUCE_F64, dummy, (UINT64_MAX >> 3) + 1, r, 0,
         HIPREDUCE_STATUS_SIZE_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        memset(r, SENTINEL, sizeof r);
        const hipreduce_status st = hipreduce_reduce(cases[i].h, (hipreduce_op)cases[i].op,
                                                     (hipreduce_dtype)cases[i].dtype, cases[i].in, cases[i].n, (hipreduce_dtype)cases[i].dtype,
                                                     cases[i].out, (hipreduce_location)cases[i].loc);
        if (st != cases[i].want || !result_untouched(r, 0)) {
            ref_report("FAIL bad argument '%s': status %d (%s), want %d; result %s", cases[i].what, (int)st,
                       hipreduce_status_string(st), (int)cases[i].want,
                       result_untouched(r, 0) ? "untouched" : "WRITTEN");
            ++fails;
        }
    }
    /* Float n = 0 with a NULL input is valid: the identity. */
    float empty = 1;
    fails += REF_EXPECT(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, NULL, 0, HIPREDUCE_F32, &empty, 0) == 0 && empty == 0);
    return fails;
}

/* The handle's other calls. */
static int handle_calls(hipreduce_handle h)
{
    int fails = 0;
    hipreduce_handle other = (hipreduce_handle)(uintptr_t)0x1234;
    fails += REF_EXPECT(hipreduce_create(NULL, HIPREDUCE_DEVICE_CPU, 0) == HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_create(&other, (hipreduce_device_kind)2, 0) == HIPREDUCE_STATUS_INVALID_DEVICE);
    fails += REF_EXPECT(hipreduce_create(&other, (hipreduce_device_kind)-1, 0) == HIPREDUCE_STATUS_INVALID_DEVICE);
    fails += REF_EXPECT(hipreduce_create(&other, HIPREDUCE_DEVICE_GPU, -1) == HIPREDUCE_STATUS_INVALID_DEVICE);
    fails += REF_EXPECT(hipreduce_create(&other, HIPREDUCE_DEVICE_GPU, 1 << 20) == HIPREDUCE_STATUS_INVALID_DEVICE);
    fails += REF_EXPECT(other == (hipreduce_handle)(uintptr_t)0x1234); /* untouched on failure */
    fails += REF_EXPECT(hipreduce_create(&other, HIPREDUCE_DEVICE_CPU, 12345) == 0 && other != NULL);
    fails += REF_EXPECT(hipreduce_destroy(other) == HIPREDUCE_STATUS_SUCCESS);
    fails += REF_EXPECT(hipreduce_destroy(NULL) == HIPREDUCE_STATUS_SUCCESS);

    hipreduce_algorithm a = (hipreduce_algorithm)77;
    fails += REF_EXPECT(hipreduce_get_algorithm(h, &a) == 0 && a == HIPREDUCE_ALGORITHM_AUTO); /* the default */
    fails += REF_EXPECT(hipreduce_get_algorithm(NULL, &a) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_get_algorithm(h, NULL) == HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_set_algorithm(NULL, HIPREDUCE_ALGORITHM_AUTO) == HIPREDUCE_STATUS_INVALID_HANDLE);
    for (int v = HIPREDUCE_ALGORITHM_AUTO; v <= HIPREDUCE_ALGORITHM_TUTORIAL_V10; ++v)
        fails += REF_EXPECT(hipreduce_set_algorithm(h, (hipreduce_algorithm)v) == 0 &&
                            hipreduce_get_algorithm(h, &a) == 0 && a == (hipreduce_algorithm)v);
    fails += REF_EXPECT(hipreduce_set_algorithm(h, (hipreduce_algorithm)(HIPREDUCE_ALGORITHM_TUTORIAL_V10 + 1)) ==
                        HIPREDUCE_STATUS_INVALID_ALGORITHM);
    fails += REF_EXPECT(hipreduce_set_algorithm(h, (hipreduce_algorithm)-1) == HIPREDUCE_STATUS_INVALID_ALGORITHM);
    fails += REF_EXPECT(hipreduce_get_algorithm(h, &a) == 0 && a == HIPREDUCE_ALGORITHM_TUTORIAL_V10); /* kept */
    fails += REF_EXPECT(hipreduce_set_algorithm(h, HIPREDUCE_ALGORITHM_AUTO) == 0);

    const unsigned good_blocks[] = {0, 32, 64, 128, 256, 512, 1024}, bad_blocks[] = {1, 16, 31, 33, 96, 2048, 4096};
    for (int i = 0; i < 7; ++i) {
        fails += REF_EXPECT(hipreduce_set_block_size(h, good_blocks[i]) == HIPREDUCE_STATUS_SUCCESS);
        fails += REF_EXPECT(hipreduce_set_block_size(h, bad_blocks[i]) == HIPREDUCE_STATUS_INVALID_BLOCK_SIZE);
    }
    fails += REF_EXPECT(hipreduce_set_block_size(NULL, 256) == HIPREDUCE_STATUS_INVALID_HANDLE);

    size_t bytes = 12345;
    /* The cpu device's host workspace: one f32 partial per 4096-element tile. */
    fails += REF_EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, 1 << 20, HIPREDUCE_F32, &bytes) == 0 &&
                        bytes == (1 << 20) / 4096 * sizeof(float));
    bytes = 12345;
    fails += REF_EXPECT(hipreduce_workspace_size(NULL, 0, HIPREDUCE_F32, 1, HIPREDUCE_F32, &bytes) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_workspace_size(h, (hipreduce_op)99, HIPREDUCE_F32, 1, HIPREDUCE_F32, &bytes) == HIPREDUCE_STATUS_INVALID_OP);
    fails += REF_EXPECT(hipreduce_workspace_size(h, 0, (hipreduce_dtype)14, 1, (hipreduce_dtype)14, &bytes) == HIPREDUCE_STATUS_INVALID_DTYPE);
    fails += REF_EXPECT(hipreduce_workspace_size(h, HIPREDUCE_OP_AND, HIPREDUCE_F64, 1, HIPREDUCE_F64, &bytes) ==
                        HIPREDUCE_STATUS_OP_DTYPE_MISMATCH);
    fails += REF_EXPECT(hipreduce_workspace_size(h, 0, HIPREDUCE_F32, 1, HIPREDUCE_F32, NULL) == HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_workspace_size(h, 0, HIPREDUCE_F32, UINT64_MAX, HIPREDUCE_F32, &bytes) == HIPREDUCE_STATUS_SIZE_OVERFLOW);
    fails += REF_EXPECT(bytes == 12345); /* failures write nothing */

    char ws[64];
    fails += REF_EXPECT(hipreduce_set_workspace(NULL, NULL, 0) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_set_workspace(h, NULL, 16) == HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_set_workspace(h, ws, sizeof ws) == HIPREDUCE_STATUS_SUCCESS); /* ignored on cpu */
    fails += REF_EXPECT(hipreduce_set_workspace(h, NULL, 0) == HIPREDUCE_STATUS_SUCCESS);
    fails += REF_EXPECT(hipreduce_set_stream(NULL, NULL) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_set_stream(h, NULL) == HIPREDUCE_STATUS_SUCCESS);
    fails += REF_EXPECT(strcmp(hipreduce_last_error_message(NULL), "") == 0);
    fails += REF_EXPECT(strcmp(hipreduce_last_error_message(h), "") == 0);

    fails += REF_EXPECT(hipreduce_get_version() == HIPREDUCE_VERSION);
    fails += REF_EXPECT(HIPREDUCE_VERSION ==
                        HIPREDUCE_VERSION_MAJOR * 10000 + HIPREDUCE_VERSION_MINOR * 100 + HIPREDUCE_VERSION_PATCH);
    for (int i = 0; i < REF_NDTYPES; ++i) {
        fails += REF_EXPECT(hipreduce_dtype_size(ref_dtypes[i]) == ref_size(ref_dtypes[i]));
        fails += REF_EXPECT(strcmp(hipreduce_dtype_name(ref_dtypes[i]), ref_dtype_name(ref_dtypes[i])) == 0);
    }
    for (int i = 0; i < REF_NOPS; ++i) fails += REF_EXPECT(strcmp(hipreduce_op_name(ref_ops[i]), ref_op_name(ref_ops[i])) == 0);
    fails += REF_EXPECT(hipreduce_op_name((hipreduce_op)99) == NULL && hipreduce_dtype_name((hipreduce_dtype)14) == NULL);
    fails += REF_EXPECT(strcmp(hipreduce_algorithm_name(HIPREDUCE_ALGORITHM_MULTIPASS), "multipass") == 0);
    fails += REF_EXPECT(hipreduce_dtype_size((hipreduce_dtype)14) == 0 && hipreduce_dtype_size((hipreduce_dtype)99) == 0);
    fails += REF_EXPECT(strcmp(hipreduce_status_string((hipreduce_status)1000), "") != 0);
    return fails;
}

#if defined(__SANITIZE_ADDRESS__)
#define HR_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HR_TEST_ASAN 1
#endif
#endif

/* The handle tag, creation errors, the device count and the backend name. */
static int handle_tag_and_backend(void)
{
    int fails = 0;
    float r = 0, x[4] = {1, 2, 3, 4};
    /* A pointer that is not a handle: every call refuses it, destroy frees nothing. */
    uint64_t foreign[16] = {0};
    const hipreduce_handle bogus = (hipreduce_handle)foreign;
    fails += REF_EXPECT(hipreduce_reduce(bogus, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST) ==
                        HIPREDUCE_STATUS_INVALID_HANDLE && r == 0);
    fails += REF_EXPECT(hipreduce_set_stream(bogus, NULL) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_set_workspace(bogus, NULL, 0) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(hipreduce_destroy(bogus) == HIPREDUCE_STATUS_INVALID_HANDLE);
    fails += REF_EXPECT(strcmp(hipreduce_last_error_message(bogus), "") == 0);
#if defined(HR_TEST_ASAN)
    printf("api: a destroyed handle is not passed again under AddressSanitizer (a use after free)\n");
#else
    /* A destroyed handle passed again (best effort, documented): the cleared tag is refused. */
    hipreduce_handle gone = NULL;
    fails += REF_EXPECT(hipreduce_create(&gone, HIPREDUCE_DEVICE_CPU, 0) == 0);
    fails += REF_EXPECT(hipreduce_destroy(gone) == HIPREDUCE_STATUS_SUCCESS);
    fails += REF_EXPECT(hipreduce_reduce(gone, HIPREDUCE_OP_SUM, HIPREDUCE_F32, x, 4, HIPREDUCE_F32, &r, HIPREDUCE_RESULT_HOST) ==
                        HIPREDUCE_STATUS_INVALID_HANDLE && r == 0);
    fails += REF_EXPECT(hipreduce_destroy(gone) == HIPREDUCE_STATUS_INVALID_HANDLE);
#endif
    /* Creation errors keep their cause; a success clears it. */
    hipreduce_handle h = NULL;
    fails += REF_EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_GPU, 1 << 20) == HIPREDUCE_STATUS_INVALID_DEVICE);
    fails += REF_EXPECT(strlen(hipreduce_create_error_message()) > 0);
    printf("api: create(GPU 1<<20): %s\n", hipreduce_create_error_message());
    fails += REF_EXPECT(hipreduce_create(&h, (hipreduce_device_kind)7, 0) == HIPREDUCE_STATUS_INVALID_DEVICE &&
                        strstr(hipreduce_create_error_message(), "kind") != NULL);
    fails += REF_EXPECT(hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) == 0 && strcmp(hipreduce_create_error_message(), "") == 0);
    fails += REF_EXPECT(hipreduce_destroy(h) == 0);
    /* Device count and backend. */
    int count = -1;
    fails += REF_EXPECT(hipreduce_get_device_count(NULL) == HIPREDUCE_STATUS_INVALID_POINTER);
    fails += REF_EXPECT(hipreduce_get_device_count(&count) == 0 && count >= 0);
    const char* backend = hipreduce_backend_name();
    fails += REF_EXPECT(backend != NULL && (strcmp(backend, "cuda") == 0 || strcmp(backend, "amd") == 0 ||
                                            strcmp(backend, "cpu") == 0 || strcmp(backend, "emu") == 0));
    if (backend && strcmp(backend, "cpu") == 0) fails += REF_EXPECT(count == 0);
    printf("api: backend %s, %d GPU(s)%s%s\n", backend ? backend : "?", count, count ? "" : " ",
           count ? "" : hipreduce_create_error_message());
    fails += REF_EXPECT(strstr(hipreduce_status_string(HIPREDUCE_STATUS_INVALID_BLOCK_SIZE), "0 for the default") != NULL);
    return fails;
}

/* Three levels of tiles for f32 (4096^2 + 1 elements) against the model. */
static int three_levels(hipreduce_handle h)
{
    const uint64_t n = ref_tile_items(HIPREDUCE_F32) * ref_tile_items(HIPREDUCE_F32) + 1;
    float* x = (float*)malloc((size_t)n * sizeof *x);
    if (!x) return REF_EXPECT(x != NULL);
    int fails = 0;
    const hipreduce_op ops[2] = {HIPREDUCE_OP_SUM, HIPREDUCE_OP_PROD};
    for (int k = 0; k < 2; ++k) {
        float got;
        ref_fill(ops[k], HIPREDUCE_F32, REF_DATA_RANDOM, n, 42 + k, x);
        fails += REF_EXPECT(hipreduce_reduce(h, ops[k], HIPREDUCE_F32, x, n, HIPREDUCE_F32, &got, 0) == 0);
        fails += ref_check("cpu 3 levels", ops[k], HIPREDUCE_F32, REF_DATA_RANDOM, x, n, &got, REF_CANONICAL);
    }
    free(x);
    return fails;
}

/* Inputs at every element-misaligned address: the same bits as the aligned
 * copy, and right. Under UBSan (-fsanitize=alignment) a typed load of a misaligned element
 * aborts this test. */
static int misaligned_inputs(hipreduce_handle h)
{
    int fails = 0;
    for (int di = 0; di < REF_NDTYPES; ++di) {
        const hipreduce_dtype d = ref_dtypes[di];
        const size_t size = ref_size(d);
        const uint64_t t = ref_tile_items(d);
        const uint64_t sizes[] = {1, 2, 7, 33, t - 1, t + 3, 3 * t + 5, 40 * t + 1};
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
            const uint64_t n = sizes[si];
            unsigned char* aligned = (unsigned char*)malloc((size_t)n * size);
            unsigned char* shifted = (unsigned char*)malloc((size_t)n * size + 16);
            if (!aligned || !shifted) {
                free(aligned);
                free(shifted);
                return fails + REF_EXPECT(aligned && shifted);
            }
            for (int oi = 0; oi < REF_NOPS; ++oi) {
                const hipreduce_op op = ref_ops[oi];
                if (!ref_op_applies(op, d)) continue;
                ref_fill(op, d, REF_DATA_RANDOM, n, 777 + n + (uint64_t)op, aligned);
                unsigned char want[16], got[16];
                fails += REF_EXPECT(hipreduce_reduce(h, op, d, aligned, n, d, want, HIPREDUCE_RESULT_HOST) == 0);
                fails += ref_check("cpu aligned", op, d, REF_DATA_RANDOM, aligned, n, want, REF_CANONICAL);
                /* 1 .. 15 bytes past a malloc'd (16-byte aligned) block: every misalignment. */
                for (size_t offset = 1; offset < 16; offset += offset < size ? 1 : 4) {
                    memcpy(shifted + offset, aligned, (size_t)n * size);
                    memset(got, SENTINEL, sizeof got);
                    const hipreduce_status st = hipreduce_reduce(h, op, d, shifted + offset, n, d, got, HIPREDUCE_RESULT_HOST);
                    if (st != HIPREDUCE_STATUS_SUCCESS || !ref_same_bits(d, want, got)) {
                        ref_report("FAIL misaligned input: %s %s n=%llu at +%zu: status %s, %s", ref_op_name(op),
                                   ref_dtype_name(d), (unsigned long long)n, offset, hipreduce_status_string(st),
                                   st == HIPREDUCE_STATUS_SUCCESS ? "bits differ from the aligned call" : "");
                        ++fails;
                    }
                }
            }
            free(aligned);
            free(shifted);
        }
    }
    return fails;
}

/* HIPREDUCE_TEST_THREADS=N runs the suite on a handle set to N threads (unset: the default). */
static int set_test_threads(hipreduce_handle h)
{
    const char* env = getenv("HIPREDUCE_TEST_THREADS");
    if (env == NULL || *env == '\0') return 0;
    char* end = NULL;
    const unsigned long threads = strtoul(env, &end, 10);
    if (*end != '\0' || threads > 256) {
        ref_report("FAIL: HIPREDUCE_TEST_THREADS='%s' is not a thread count", env);
        return 1;
    }
    unsigned got = 0;
    int fails = REF_EXPECT(hipreduce_set_threads(h, (unsigned)threads) == HIPREDUCE_STATUS_SUCCESS);
    fails += REF_EXPECT(hipreduce_get_threads(h, &got) == HIPREDUCE_STATUS_SUCCESS && got >= 1);
    fails += REF_EXPECT(threads == 0 || got == threads);
    printf("api: %u thread%s per call\n", got, got == 1 ? "" : "s");
    return fails;
}

int main(void)
{
    hipreduce_handle h = NULL;
    if (hipreduce_create(&h, HIPREDUCE_DEVICE_CPU, 0) != HIPREDUCE_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL: cannot create a cpu handle\n");
        return 1;
    }
    int fails = 0;
    fails += set_test_threads(h);
    fails += handle_calls(h);
    fails += handle_tag_and_backend();
    fails += bad_arguments(h);
    fails += known_bits(h);
    fails += ref_for_each_case((UINT64_C(1) << 22) + 1, cpu_case, h);
    fails += three_levels(h);
    fails += misaligned_inputs(h);
    hipreduce_destroy(h);
    printf("api: %d failures\n", fails);
    return fails ? 1 : 0;
}
