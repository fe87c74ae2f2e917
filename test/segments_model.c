/* The strided order of axis reductions (inner > 1), modelled from its contract (device/order.h,
 * docs/DESIGN.md) independently of src/ and device/: level 0 is the column's transformed
 * elements; element b of level k+1 folds elements [256b, 256b + 256) of level k in 8 lanes
 * (lane j: elements 256b + 8t + j in increasing t, from the identity), then lanes j += j+4,
 * j += j+2, j += j+1; the first level of one element is the result, rounded once to the result
 * dtype. The accumulators are typed_model.c's (typed_ref.h's tm_*). Only float
 * sum, prod, sum_abs, sum_squares and nrm2 depend on the order; the rest use typed_ref's exact
 * references. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h" /* ref_report */
#include "segments_run.h"

enum { BLOCK = 256, LANES = 8 };

/* One block of a level: 8 lanes over [base, end), then the three combining steps. */
static tm_acc block(hipreduce_op op, tm_kind k, const tm_acc* level, uint64_t base, uint64_t end)
{
    tm_acc lane[LANES];
    for (int j = 0; j < LANES; ++j) lane[j] = tm_identity(op, k);
    for (uint64_t e = base; e < end; ++e) lane[(e - base) % LANES] = tm_combine(op, k, lane[(e - base) % LANES], level[e]);
    for (int step = LANES / 2; step >= 1; step /= 2)
        for (int j = 0; j < step; ++j) lane[j] = tm_combine(op, k, lane[j], lane[j + step]);
    return lane[0];
}

/* The model's bits; 0 with a report when out of memory. */
static uint64_t strided_model(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* s, uint64_t extent)
{
    const tm_kind k = tm_kind_of(op, in, out);
    if (extent == 0) return tm_result_bits(op, out, k, tm_identity(op, k), 1);
    tm_acc* level = (tm_acc*)malloc((size_t)extent * sizeof *level);
    if (!level) {
        ref_report("strided model: out of memory for %llu elements", (unsigned long long)extent);
        return 0;
    }
    for (uint64_t e = 0; e < extent; ++e) level[e] = tm_transform(op, in, k, s, NULL, e);
    /* In place: block b reads entries >= 256b >= b before entry b is written. */
    for (uint64_t count = extent; count > 1; count = (count + BLOCK - 1) / BLOCK)
        for (uint64_t b = 0; b * BLOCK < count; ++b)
            level[b] = block(op, k, level, b * BLOCK, b * BLOCK + BLOCK < count ? b * BLOCK + BLOCK : count);
    const uint64_t bits = tm_result_bits(op, out, k, level[0], 0);
    free(level);
    return bits;
}

static int order_dependent(hipreduce_op op, hipreduce_dtype in)
{
    return tr_is_float(in) && (op == HIPREDUCE_OP_SUM || op == HIPREDUCE_OP_PROD || op == HIPREDUCE_OP_SUM_ABS ||
                               op == HIPREDUCE_OP_SUM_SQUARES || op == HIPREDUCE_OP_NRM2);
}

tr_expect sg_strided_expected(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* s, uint64_t extent)
{
    if (!order_dependent(op, in)) return tr_expected(op, in, out, s, NULL, extent);
    const tr_expect e = {strided_model(op, in, out, s, extent), -1};
    return e;
}

/* ---- the model against orders computed by hand ---- */

static int example(const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const double* v,
                   uint64_t n, uint64_t want)
{
    float f[300];
    double d[300];
    for (uint64_t i = 0; i < n; ++i) f[i] = (float)v[i], d[i] = v[i];
    const uint64_t got = sg_strided_expected(op, in, out, in == HIPREDUCE_F32 ? (const void*)f : (const void*)d, n).bits;
    if (got == want) return 0;
    ref_report("FAIL strided model example %s: 0x%llx, want 0x%llx", what, (unsigned long long)got,
               (unsigned long long)want);
    return 1;
}

int sg_model_examples(void)
{
    const hipreduce_op SUM = HIPREDUCE_OP_SUM;
    const hipreduce_dtype F32 = HIPREDUCE_F32, F64 = HIPREDUCE_F64;
    double v[300];
    int fails = 0;
    /* 2^24, then eight 1s: lane 0 folds elements 0 and 8, 2^24 + 1 -> 2^24 (ties to even); lanes
     * 1..7 hold 1 each; ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7)) = 2^24 + 6 exactly (a
     * sequential sum would give 2^24). */
    v[0] = 0x1p24;
    for (int i = 1; i < 9; ++i) v[i] = 1;
    fails += example("lanes", SUM, F32, F32, v, 9, 0x4b800003); /* 16777222 = 0x4b800003 */
    /* 257 elements: block 0 of level 1 is elements 0..255, block 1 element 256; the result is
     * block 0 + block 1 (lanes 0 and 1 of the single level-2 block). With 2^24 at 256 and 1s
     * elsewhere, block 0 = 256 exactly, 256 + 2^24 is exact: 2^24 + 256. */
    for (int i = 0; i < 257; ++i) v[i] = 1;
    v[256] = 0x1p24;
    fails += example("two levels", SUM, F32, F32, v, 257, 0x4b800080); /* 16777472 */
    /* and in f64: 2^53 first, then 1s in lanes 1..7 and lane 0 (element 8): (2^53 + 1) -> 2^53 */
    v[0] = 0x1p53;
    for (int i = 1; i < 9; ++i) v[i] = 1;
    uint64_t want;
    const double w = 0x1p53 + 6;
    memcpy(&want, &w, 8);
    fails += example("lanes f64", SUM, F64, F64, v, 9, want);
    /* The identity is -0.0: a column of -0.0 sums to -0.0; extent 0 gives +0.0. */
    v[0] = v[1] = v[2] = -0.0;
    fails += example("-0.0", SUM, F32, F32, v, 3, 0x80000000);
    fails += example("empty", SUM, F32, F32, v, 0, 0);
    fails += example("empty prod", HIPREDUCE_OP_PROD, F32, F32, v, 0, 0x3f800000);
    printf("strided model examples: %d failures\n", fails);
    return fails;
}
