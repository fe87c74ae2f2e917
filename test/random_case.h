/* The random suite's cases (test_random.c): a case is a function of (seed, index) only. Either an
 * original (op, dtype) reduction with result dtype = input dtype, checked by reference.c, or a typed
 * one: any allowed (op, input dtype, result dtype) triple of hipreduce_reduce,
 * hipreduce_argreduce or hipreduce_dot, f16/bf16 included, checked by typed_ref.c. */
#ifndef HIPREDUCE_TEST_RANDOM_CASE_H
#define HIPREDUCE_TEST_RANDOM_CASE_H

#include <stdint.h>

#include "hipreduce/hipreduce.h"
#include "reference.h"

/* Float values: the case's mode, and the special classes mixed into the base values. */
enum { F_FILL, F_MIX, F_WIDE, F_SUBNORMAL, F_MODES };
enum { I_FILL, I_BITS, I_EXTREME, I_SMALL, I_MODES };
enum { S_NAN = 1, S_PINF = 2, S_NINF = 4, S_ZERO = 8, S_SUB = 16, S_HUGE = 32, S_TINY = 64, S_ALL = 127 };

typedef struct rcase {
    uint64_t seed, index, vseed, n;
    hipreduce_op op;
    hipreduce_dtype dtype; /* the input dtype */
    hipreduce_dtype out;   /* the result dtype (= dtype unless typed) */
    int typed;             /* checked by typed_ref.c (hipreduce_reduce/argreduce/dot of any triple) */
    unsigned offset;       /* bytes past a 16-byte-aligned address */
    int mode;
    ref_data data;         /* F_FILL / I_FILL: ref_fill's pattern */
    unsigned special;      /* S_* classes mixed in (float F_MIX) */
    uint64_t density;      /* F_MIX: 0 one special element, 1 all, k one in k */
} rcase;

rcase rc_make(uint64_t seed, uint64_t index);
/* One line naming everything the case depends on (a static buffer). */
const char* rc_describe(const rcase* c);
/* The case's n input elements, from vseed (dot's y: another vseed), element-aligned at x. */
void rc_fill(const rcase* c, uint64_t vseed, void* x);

#endif
