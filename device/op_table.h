/* Operators and dtypes as data: the one list that validation (src/types.c), the cpu device
 * (src/cpu_*), the GPU instance table (host/), the tests and the bench read. Plain C
 * preprocessor tables, so C and C++ (host and device) expand the same rows.
 *
 * A dtype row: X(enumerator, name, class, bytes)
 *   class: SIGNED, UNSIGNED (integers), HALF (f16/bf16: 16-bit storage, arithmetic in f32),
 *          FLOAT (f32/f64).
 *
 * An operator row: X(enumerator, name, transform, combine, results)
 *   transform: what an element becomes before it is combined (in the accumulator's type):
 *     IDENT   x;                      ABS     |x| (integers: two's-complement negation of the
 *     SQUARE  x * x (one rounding);           sign-extended value, so |INT8_MIN| = 128);
 *     PRODUCT x * y (dot: two inputs); KEY   the element's order key and index (argmin/argmax).
 *   combine: ADD, MUL (integers wrap), MIN, MAX (floats: any NaN gives the canonical NaN, -0.0
 *     below +0.0), AND, OR, XOR, NRM2 (a sum of squares kept overflow- and underflow-safe),
 *     ARGMIN, ARGMAX (better key wins, equal keys: the smaller index).
 *   results: which result dtypes a given input dtype allows (hr_result_allowed in types.c):
 *     WIDE      integers: the same or a wider integer of the same signedness, or i64/u64;
 *               f16/bf16: itself, f32, f64; f32: f32, f64; f64: f64;
 *     SAME      the input dtype;            INT_SAME  the input dtype, integers only;
 *     MAGNITUDE floats: the input dtype; integers: the unsigned type of the same width;
 *     NORM      floats only, into f32 or f64;
 *     ARG       the input dtype (the value; the index is int64), through hipreduce_argreduce.
 * Which call takes the op follows from the row: PRODUCT is hipreduce_dot's, ARG is
 * hipreduce_argreduce's, everything else hipreduce_reduce's.
 *
 * Adding an operator made of an existing transform and combine is one row here (and its tests);
 * a new transform or combine is one function beside the others in device/ops.h (GPU) and in
 * src/cpu_ops.h (cpu device). */
#ifndef HIPREDUCE_OP_TABLE_H
#define HIPREDUCE_OP_TABLE_H

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
    X(HIPREDUCE_F64, f64, FLOAT, 8)

#define HR_OP_ROWS(X)                                                  \
    X(HIPREDUCE_OP_SUM, sum, IDENT, ADD, WIDE)                         \
    X(HIPREDUCE_OP_PROD, prod, IDENT, MUL, WIDE)                       \
    X(HIPREDUCE_OP_MIN, min, IDENT, MIN, SAME)                         \
    X(HIPREDUCE_OP_MAX, max, IDENT, MAX, SAME)                         \
    X(HIPREDUCE_OP_AND, and, IDENT, AND, INT_SAME)                     \
    X(HIPREDUCE_OP_OR, or, IDENT, OR, INT_SAME)                        \
    X(HIPREDUCE_OP_XOR, xor, IDENT, XOR, INT_SAME)                     \
    X(HIPREDUCE_OP_SUM_ABS, sum_abs, ABS, ADD, WIDE)                   \
    X(HIPREDUCE_OP_SUM_SQUARES, sum_squares, SQUARE, ADD, WIDE)        \
    X(HIPREDUCE_OP_MAX_ABS, max_abs, ABS, MAX, MAGNITUDE)              \
    X(HIPREDUCE_OP_NRM2, nrm2, SQUARE, NRM2, NORM)                     \
    X(HIPREDUCE_OP_ARGMIN, argmin, KEY, ARGMIN, ARG)                   \
    X(HIPREDUCE_OP_ARGMAX, argmax, KEY, ARGMAX, ARG)                   \
    X(HIPREDUCE_OP_DOT, dot, PRODUCT, ADD, WIDE)

/* Slots of tables indexed by enumerator value. */
enum { HR_DTYPE_SLOTS = 12, HR_OP_SLOTS = 14 };

/* The accumulator a (op, input, result) triple reduces in (hr_acc_of in types.c decides; the cpu
 * device and the GPU instance table both follow it):
 *   integer ADD/MUL/AND/OR/XOR and integer ABS+MAX: U32 when the result has <= 32 bits, else U64
 *     (the input is sign- or zero-extended by its own signedness; results are exact modulo 2^bits);
 *   integer MIN/MAX (IDENT): I32/U32 for <= 32-bit inputs, else I64/U64 (the input's signedness);
 *   float ADD/MUL/MIN/MAX: F64 when the result is f64 (or the input is), else F32 (f16/bf16 in f32);
 *   NRM2: F64 from f16/bf16/f32 (x*x is exact in f64: no scaling needed), NRM2_F64 (three scaled
 *     sums, LAPACK 3.10's dnrm2) from f64;
 *   ARGMIN/ARGMAX: KEY32 (an int32 order key + int64 index) for <= 32-bit inputs, else KEY64. */
typedef enum hr_acc_kind {
    HR_ACC_NONE = 0,
    HR_ACC_I32,
    HR_ACC_U32,
    HR_ACC_I64,
    HR_ACC_U64,
    HR_ACC_F32,
    HR_ACC_F64,
    HR_ACC_NRM2_F64,
    HR_ACC_KEY32,
    HR_ACC_KEY64,
    HR_ACC_KINDS
} hr_acc_kind;

#endif
