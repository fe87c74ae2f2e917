/* Operators and dtypes as data: the one list that validation (src/types.c), the cpu device
 * (src/cpu_*), the GPU instance table (host/), the tests and the bench read. Plain C
 * preprocessor tables, so C and C++ (host and device) expand the same rows.
 *
 * A dtype row: X(enumerator, name, class, bytes)
 *   class: SIGNED, UNSIGNED (integers), HALF (f16/bf16: 16-bit storage, arithmetic in f32),
 *          FLOAT (f32/f64), COMPLEX (c64/c128: (re, im) pairs of f32/f64, device/complex.h).
 *
 * An operator row: X(enumerator, name, transform, combine, results, finish)
 *   transform: what an element becomes before it is combined (in the accumulator's type):
 *     IDENT   x;                      ABS     |x| (integers: two's-complement negation of the
 *     SQUARE  x * x (one rounding);           sign-extended value, so |INT8_MIN| = 128);
 *     PRODUCT x * y (dot: two inputs); KEY   the element's order key and index (argmin/argmax);
 *     CONJ    conj(x) * y (dotc: two complex inputs); SQUARE of a complex z: |z|^2 = re*re + im*im;
 *     NANZERO x, a NaN as +0.0 (into SUMN: also counted 1, a NaN 0);
 *     NONZERO 1 when x != 0 (a NaN is), else 0, into an integer count;
 *     PACK    the element as a struct accumulator of one element (MOM: mean x, m x - x, count 1;
 *             LSE: maximum x, sum 1; MM: its order key as both ends, device/minmax.h).
 *   combine: ADD, MUL (integers wrap), MIN, MAX (floats: any NaN gives the canonical NaN, -0.0
 *     below +0.0), AND, OR, XOR, NRM2 (a sum of squares kept overflow- and underflow-safe),
 *     ARGMIN, ARGMAX (better key wins, equal keys: the smaller index; a NaN's key beats every
 *     other), NANARGMIN, NANARGMAX (the same with a NaN's key the worst: NaNs skipped), EXACT (the exact sum,
 *     rounded once: device/exact.h; its own path on every device, not the tile levels),
 *     WELFORD (Chan's merge of (count, mean, mean square deviation): device/stats.h), LSE
 *     (logsumexp's running maximum and rescaled sum: device/stats.h), NANMIN, NANMAX (floats:
 *     as MIN and MAX with a NaN ranked past every value, the identity a NaN: NaN only when every
 *     element is), MINMAX (aminmax: the least and greatest order key, device/minmax.h; the same
 *     bits as MIN and MAX).
 *   results: which result dtypes a given input dtype allows (hr_result_allowed, rules.h):
 *     WIDE      integers: the same or a wider integer of the same signedness, or i64/u64;
 *               f16/bf16: itself, f32, f64; f32: f32, f64; f64: f64;
 *     SAME      the input dtype;            INT_SAME  the input dtype, integers only;
 *     MAGNITUDE floats: the input dtype; integers: the unsigned type of the same width;
 *     NORM      floats only, into f32 or f64;
 *     ARG       the input dtype (the value; the index is int64), through hipreduce_argreduce;
 *     NANARG    as ARG, floats only (f16, bf16, f32, f64: an integer has no NaN);
 *     FLOAT     floats only, as WIDE's floats (f16/bf16: itself, f32, f64; f32: f32, f64; f64: f64);
 *     STAT      floats only, one accumulator a dtype: f16/bf16: itself or f32; f32: f32; f64: f64;
 *     COUNT     every dtype, into i64;      TRUTH     every dtype, into u8 (0 or 1).
 *   finish: what the top accumulator becomes besides its rounding into the result dtype (the
 *     store's, at run time: an op that differs from another by its finish only shares its kernels):
 *     NONE; MEAN the accumulator / the slice's count (SUMN: / its own count); ALL count == n;
 *     ANY count != 0; VAR, STD, VAR_MEAN, STD_MEAN the moments' variance with the plan's
 *     correction, its root, and the mean as a second output (device/stats.h); MINMAX the min
 *     and, as a second output, the max (device/minmax.h).
 * Which call takes the op follows from the row: PRODUCT is hipreduce_dot's, ARG is
 * hipreduce_argreduce's, a finish with a correction or a second output only plans', everything
 * else hipreduce_reduce's.
 *
 * Adding an operator made of an existing transform and combine is one row here (and its tests);
 * a new transform or combine is one unit beside the others in device/transforms.h or
 * device/combines.h (GPU; device/stores.h for a combine with a finish of its own, as nrm2) and in
 * src/cpu_ops.h (cpu device).
 *
 * The columns' values are the enums below, the only ones: C (src/) and C++ (host/, device/) read
 * the same names. The rules derived from these rows (allowed triples, accumulators, call kinds,
 * tile sizes) are rules.h's functions. */
#ifndef HIPREDUCE_OP_TABLE_H
#define HIPREDUCE_OP_TABLE_H

#include "hipreduce/hipreduce.h" /* the enumerators the rows name */

#define HR_DTYPE_ROWS(X)                 \
    X(HIPREDUCE_I8, i8, SIGNED, 1)       \
    X(HIPREDUCE_U8, u8, UNSIGNED, 1)     \
    X(HIPREDUCE_I16, i16, SIGNED, 2)     \
    X(HIPREDUCE_U16, u16, UNSIGNED, 2)   \
    X(HIPREDUCE_I32, i32, SIGNED, 4)     \
    X(HIPREDUCE_U32, u32, UNSIGNED, 4)   \
    X(HIPREDUCE_I64, i64, SIGNED, 8)     \
    X(HIPREDUCE_U64, u64, UNSIGNED, 8)   \
    X(HIPREDUCE_F16, f16, HALF, 2)       \
    X(HIPREDUCE_BF16, bf16, HALF, 2)     \
    X(HIPREDUCE_F32, f32, FLOAT, 4)      \
    X(HIPREDUCE_F64, f64, FLOAT, 8)      \
    X(HIPREDUCE_C64, c64, COMPLEX, 8)    \
    X(HIPREDUCE_C128, c128, COMPLEX, 16)

#define HR_OP_ROWS(X)                                                                  \
    X(HIPREDUCE_OP_SUM, sum, IDENT, ADD, WIDE, NONE)                                   \
    X(HIPREDUCE_OP_PROD, prod, IDENT, MUL, WIDE, NONE)                                 \
    X(HIPREDUCE_OP_MIN, min, IDENT, MIN, SAME, NONE)                                   \
    X(HIPREDUCE_OP_MAX, max, IDENT, MAX, SAME, NONE)                                   \
    X(HIPREDUCE_OP_AND, and, IDENT, AND, INT_SAME, NONE)                               \
    X(HIPREDUCE_OP_OR, or, IDENT, OR, INT_SAME, NONE)                                  \
    X(HIPREDUCE_OP_XOR, xor, IDENT, XOR, INT_SAME, NONE)                               \
    X(HIPREDUCE_OP_SUM_ABS, sum_abs, ABS, ADD, WIDE, NONE)                             \
    X(HIPREDUCE_OP_SUM_SQUARES, sum_squares, SQUARE, ADD, WIDE, NONE)                  \
    X(HIPREDUCE_OP_MAX_ABS, max_abs, ABS, MAX, MAGNITUDE, NONE)                        \
    X(HIPREDUCE_OP_NRM2, nrm2, SQUARE, NRM2, NORM, NONE)                               \
    X(HIPREDUCE_OP_ARGMIN, argmin, KEY, ARGMIN, ARG, NONE)                             \
    X(HIPREDUCE_OP_ARGMAX, argmax, KEY, ARGMAX, ARG, NONE)                             \
    X(HIPREDUCE_OP_DOT, dot, PRODUCT, ADD, WIDE, NONE)                                 \
    X(HIPREDUCE_OP_SUM_EXACT, sum_exact, IDENT, EXACT, FLOAT, NONE)                    \
    X(HIPREDUCE_OP_DOT_EXACT, dot_exact, PRODUCT, EXACT, FLOAT, NONE)                  \
    X(HIPREDUCE_OP_MEAN, mean, IDENT, ADD, FLOAT, MEAN)                                \
    X(HIPREDUCE_OP_NANSUM, nansum, NANZERO, ADD, STAT, NONE)                           \
    X(HIPREDUCE_OP_NANMEAN, nanmean, NANZERO, ADD, STAT, MEAN)                         \
    X(HIPREDUCE_OP_COUNT_NONZERO, count_nonzero, NONZERO, ADD, COUNT, NONE)            \
    X(HIPREDUCE_OP_ALL, all, NONZERO, ADD, TRUTH, ALL)                                 \
    X(HIPREDUCE_OP_ANY, any, NONZERO, ADD, TRUTH, ANY)                                 \
    X(HIPREDUCE_OP_VAR, var, PACK, WELFORD, STAT, VAR)                                 \
    X(HIPREDUCE_OP_STD, std, PACK, WELFORD, STAT, STD)                                 \
    X(HIPREDUCE_OP_VAR_MEAN, var_mean, PACK, WELFORD, STAT, VAR_MEAN)                  \
    X(HIPREDUCE_OP_STD_MEAN, std_mean, PACK, WELFORD, STAT, STD_MEAN)                  \
    X(HIPREDUCE_OP_LOGSUMEXP, logsumexp, PACK, LSE, STAT, NONE)                        \
    X(HIPREDUCE_OP_NANMIN, nanmin, IDENT, NANMIN, STAT, NONE)                          \
    X(HIPREDUCE_OP_NANMAX, nanmax, IDENT, NANMAX, STAT, NONE)                          \
    X(HIPREDUCE_OP_AMINMAX, aminmax, PACK, MINMAX, SAME, MINMAX)                      \
    X(HIPREDUCE_OP_DOTC, dotc, CONJ, ADD, WIDE, NONE)                                  \
    X(HIPREDUCE_OP_NANARGMIN, nanargmin, KEY, NANARGMIN, NANARG, NONE)                 \
    X(HIPREDUCE_OP_NANARGMAX, nanargmax, KEY, NANARGMAX, NANARG, NONE)

/* ---- the columns ---- */
enum { HR_CLASS_NONE = 0, HR_CLASS_SIGNED, HR_CLASS_UNSIGNED, HR_CLASS_HALF, HR_CLASS_FLOAT, HR_CLASS_COMPLEX };
/* A class's rows only: HR_IF_HALF(CLASS, text) is text for a HALF row and nothing for the others;
 * HR_IF_FLOATING likewise for HALF and FLOAT rows. Code per dtype of a class (a half format's
 * converters, a float's NaN test) expands the dtype rows through these, so a new dtype of an
 * existing class is a row here, never a case elsewhere. */
#define HR_IF_HALF(CLASS, ...) HR_IF_HALF_##CLASS(__VA_ARGS__)
#define HR_IF_HALF_SIGNED(...)
#define HR_IF_HALF_UNSIGNED(...)
#define HR_IF_HALF_HALF(...) __VA_ARGS__
#define HR_IF_HALF_FLOAT(...)
#define HR_IF_HALF_COMPLEX(...)
#define HR_IF_FLOATING(CLASS, ...) HR_IF_FLOATING_##CLASS(__VA_ARGS__)
#define HR_IF_FLOATING_SIGNED(...)
#define HR_IF_FLOATING_UNSIGNED(...)
#define HR_IF_FLOATING_HALF(...) __VA_ARGS__
#define HR_IF_FLOATING_FLOAT(...) __VA_ARGS__
#define HR_IF_FLOATING_COMPLEX(...)
typedef enum hr_transform {
    HR_TF_IDENT, HR_TF_ABS, HR_TF_SQUARE, HR_TF_PRODUCT, HR_TF_KEY, HR_TF_NANZERO, HR_TF_NONZERO, HR_TF_PACK, HR_TF_CONJ, HR_TRANSFORMS
} hr_transform;
typedef enum hr_combine {
    HR_CB_ADD, HR_CB_MUL, HR_CB_MIN, HR_CB_MAX, HR_CB_AND, HR_CB_OR, HR_CB_XOR, HR_CB_NRM2, HR_CB_ARGMIN, HR_CB_ARGMAX,
    HR_CB_EXACT, HR_CB_WELFORD, HR_CB_LSE, HR_CB_NANMIN, HR_CB_NANMAX, HR_CB_MINMAX, HR_CB_NANARGMIN, HR_CB_NANARGMAX,
    HR_COMBINES
} hr_combine;
typedef enum hr_results {
    HR_RS_WIDE, HR_RS_SAME, HR_RS_INT_SAME, HR_RS_MAGNITUDE, HR_RS_NORM, HR_RS_ARG, HR_RS_NANARG, HR_RS_FLOAT, HR_RS_STAT,
    HR_RS_COUNT, HR_RS_TRUTH
} hr_results;
typedef enum hr_finish {
    HR_FN_NONE, HR_FN_MEAN, HR_FN_ALL, HR_FN_ANY, HR_FN_VAR, HR_FN_STD, HR_FN_VAR_MEAN, HR_FN_STD_MEAN, HR_FN_MINMAX
} hr_finish;

/* An accumulator row: X(kind, bytes). The accumulator a (op, input, result) triple reduces in is
 * hr_acc_of's choice (rules.h); the cpu device's kernels and the GPU instance table both follow it.
 *   I32, U32, I64, U64  integers (U: sums, products, bitwise, |x| max, wrapping; I: signed min/max);
 *   F32, F64            floats (f16/bf16 in F32);
 *   NRM2_F64            f64 nrm2's three scaled sums of squares (Blue's algorithm, LAPACK 3.10);
 *   KEY32, KEY64        argmin/argmax (nan-: too): an order key and an int64 index (key, padding, index);
 *   EXACT               sum_exact/dot_exact: a superaccumulator (device/exact.h's hr_exact, whose
 *                       size this is); reduced by its own path, never by the tile levels;
 *   SUMN_F32, SUMN_F64  nanmean: a float sum and a uint64 count (sum, padding to 8, count);
 *   MOM_F32, MOM_F64    var/std: mean, mean square deviation and a uint64 count (device/stats.h);
 *   LSE_F32, LSE_F64    logsumexp: the running maximum and the sum of exp(x - maximum);
 *   MM32, MM64          aminmax: the least and greatest order key (inputs of up to 4 bytes, of 8;
 *                       device/minmax.h);
 *   C64, C128           complex sums, products and dots: a (re, im) pair of f32 / f64
 *                       (device/complex.h). */
#define HR_ACC_ROWS(X) \
    X(I32, 4)          \
    X(U32, 4)          \
    X(I64, 8)          \
    X(U64, 8)          \
    X(F32, 4)          \
    X(F64, 8)          \
    X(NRM2_F64, 24)    \
    X(KEY32, 16)       \
    X(KEY64, 16)       \
    X(EXACT, 1104)     \
    X(SUMN_F32, 16)    \
    X(SUMN_F64, 16)    \
    X(MOM_F32, 16)     \
    X(MOM_F64, 24)     \
    X(LSE_F32, 8)      \
    X(LSE_F64, 16)     \
    X(MM32, 8)         \
    X(MM64, 16)        \
    X(C64, 8)          \
    X(C128, 16)

#define HR_ACC_ENUMERATOR(K, BYTES) HR_ACC_##K,
typedef enum hr_acc_kind { HR_ACC_NONE = 0, HR_ACC_ROWS(HR_ACC_ENUMERATOR) HR_ACC_KINDS } hr_acc_kind;
#undef HR_ACC_ENUMERATOR

/* ---- counts, derived from the rows ---- */
#define HR_COUNT_ROW(...) +1
/* Slots of tables indexed by enumerator value: the rows' enumerators are 0 .. count - 1 (checked
 * below, and against the public enums by the unit test). */
enum { HR_DTYPE_SLOTS = 0 HR_DTYPE_ROWS(HR_COUNT_ROW), HR_OP_SLOTS = 0 HR_OP_ROWS(HR_COUNT_ROW) };

#ifdef __cplusplus
#define HR_STATIC_ASSERT(cond, what) static_assert(cond, what)
#else
#define HR_STATIC_ASSERT(cond, what) _Static_assert(cond, what)
#endif
#define HR_DTYPE_ROW_CHECK(E, NAME, CLASS, BYTES) HR_STATIC_ASSERT((int)(E) >= 0 && (int)(E) < HR_DTYPE_SLOTS, "dtype row " #NAME " out of the slots");
#define HR_OP_ROW_CHECK(E, NAME, T, C, R, F) HR_STATIC_ASSERT((int)(E) >= 0 && (int)(E) < HR_OP_SLOTS, "op row " #NAME " out of the slots");
HR_DTYPE_ROWS(HR_DTYPE_ROW_CHECK)
HR_OP_ROWS(HR_OP_ROW_CHECK)
/* The rows cover the public enums exactly: their last values (a row added at the end moves these;
 * the unit test checks every name). */
HR_STATIC_ASSERT(HR_DTYPE_SLOTS == HIPREDUCE_C128 + 1, "a dtype of the public enum has no row in op_table.h");
HR_STATIC_ASSERT(HR_OP_SLOTS == HIPREDUCE_OP_NANARGMAX + 1, "an op of the public enum has no row in op_table.h");
#undef HR_DTYPE_ROW_CHECK
#undef HR_OP_ROW_CHECK

#endif
