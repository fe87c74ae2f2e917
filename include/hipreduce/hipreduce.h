/* libhipreduce: portable GPU reductions behind a C API.
 *
 * Reductions on an AMD GPU (HIP, wave32 or wave64), an NVIDIA GPU (CUDA backend) or
 * the CPU, through a handle (hipreduce_create) and these calls, each with a
 * workspace-size query of the same name plus _workspace_size:
 * - hipreduce_reduce: n elements, one operator, one result (sum, prod, min, max,
 *   and, or, xor, sum_abs, sum_squares, max_abs, nrm2);
 * - hipreduce_argreduce: argmin / argmax, the extreme value and its first index;
 * - hipreduce_dot: the sum of x[i] * y[i];
 * - hipreduce_reduce_axis / hipreduce_argreduce_axis: one axis of a tensor viewed as
 *   [outer][extent][inner], outer * inner results (rows, columns, any single axis);
 * - hipreduce_reduce_segments / hipreduce_argreduce_segments: ragged segments given
 *   by CSR offsets, one result per segment;
 * - plans (hipreduce_plan_create): any set of axes of a strided tensor, segments or by
 *   key, for every op, and the only call of var, std, var_mean, std_mean and aminmax.
 * The statistics mean, nansum, nanmean, count_nonzero, all, any, logsumexp, nanmin and
 * nanmax are hipreduce_reduce's ops too (the block "Statistics" below).
 * The caller names the input dtype and the result dtype (the accumulation dtype):
 *
 *   hipreduce_handle h;
 *   hipreduce_create(&h, HIPREDUCE_DEVICE_GPU, 0);
 *   float sum;
 *   hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_x, n, HIPREDUCE_F32, &sum, HIPREDUCE_RESULT_HOST);
 *   int64_t total;  // int8 input summed without overflow
 *   hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, d_b, n, HIPREDUCE_I64, &total, HIPREDUCE_RESULT_HOST);
 *   hipreduce_destroy(h);
 *
 * Result dtypes (every other (op, input, result) triple is OP_DTYPE_MISMATCH):
 * - sum, prod, sum_abs, sum_squares and dot: an integer input into the same or any
 *   wider integer of the same signedness, or into i64 or u64; f16 into f16, f32 or
 *   f64; bf16 into bf16, f32 or f64; f32 into f32 or f64; f64 into f64;
 * - min, max: the input dtype; and, or, xor: the input dtype, integers only;
 * - max_abs: the input dtype for floats, the unsigned type of the same width for
 *   integers (|-128| = 128 as u8); nrm2: f16, bf16, f32 or f64 into f32 or f64;
 * - argmin, argmax (hipreduce_argreduce): the value in the input dtype, an int64 index;
 *   nanargmin, nanargmax likewise, float inputs only (an integer has no NaN: argmin, argmax);
 * - the statistics: the block "Statistics" below;
 * - sum_exact and dot_exact (hipreduce_dot_op): float inputs only, into sum's float
 *   results (f16 into f16, f32 or f64; bf16 into bf16, f32 or f64; f32 into f32 or f64;
 *   f64 into f64);
 * - complex inputs (c64, c128): the block "Complex" below.
 * f16 is IEEE binary16 and bf16 is bfloat16, both passed as raw 16-bit values
 * (uint16_t); this header includes no GPU header.
 *
 * Semantics that do not depend on the reduction order (all algorithms):
 * - integer results are exact modulo 2^bits of the result dtype (two's complement):
 *   the input is sign- or zero-extended by its own signedness, so an i8 sum into i64
 *   is exact below 2^56 elements;
 * - floats accumulate in the result dtype (f16 and bf16 in f32, rounded once at the
 *   end, to nearest even); no multiply is fused with an add;
 * - float min/max/max_abs: any NaN in the input gives the canonical quiet NaN; -0.0
 *   orders below +0.0, so the result has the same bits in any order;
 * - argmin/argmax: the first index of the extreme value; any NaN gives the first
 *   NaN's index and the canonical NaN as value; -0.0 orders below +0.0;
 * - nrm2 = sqrt(sum of x*x) without overflow or underflow in between (as LAPACK's
 *   nrm2: f64 inputs of 1e200 or 1e-200 give finite, accurate norms); f16, bf16 and
 *   f32 inputs accumulate x*x exactly in f64;
 * - a NaN result (any op of the default algorithm, any float dtype) is the dtype's
 *   canonical quiet NaN: f16 0x7e00, bf16 0x7fc0, f32 0x7fc00000, f64 0x7ff8000000000000;
 * - n == 0 gives the identity: sum-likes, nrm2 and max_abs 0 (+0.0 for floats), prod
 *   1, min +inf or the type's maximum, max -inf or the type's minimum, all-ones / 0 / 0
 *   for and / or / xor; argmin/argmax index -1 with the min/max identity as value (the
 *   statistics: their block below).
 * Exact sums (sum_exact; dot_exact over the products x[i]*y[i], each taken exactly: a
 * NaN factor or infinity times zero gives NaN, infinity times a nonzero number an
 * infinity of the product's sign, a zero product the sign of x*y):
 * - any NaN, or +inf together with -inf, gives the canonical NaN; else any +inf or
 *   -inf gives that infinity;
 * - else the result is the exact real sum of the finite terms rounded once, to nearest
 *   even, into the result dtype (+inf or -inf when that rounding overflows): no
 *   intermediate rounding, overflow or lost carry at any n the API takes;
 * - an exact zero is +0.0, except -0.0 when n > 0 and every term is -0.0; n == 0
 *   gives +0.0;
 * - so the bits are a function of the multiset of terms only: any permutation, any
 *   slicing into rows or segments, any thread count and any device give them.
 * Complex (c64, c128: interleaved (re, im) pairs of f32 / f64, the layout of C99 float / double
 * complex, Fortran complex(4) / complex(8) and numpy complex64 / complex128; on a GPU 8-byte
 * aligned; the same bits on every device, as real sums):
 * - ops: sum, prod, dot (hipreduce_dot: the sum of x*y, BLAS's cdotu/zdotu), dotc
 *   (hipreduce_dot_op with HIPREDUCE_OP_DOTC: the sum of conj(x)*y, BLAS's cdotc/zdotc) and
 *   sum_exact, into c64 or c128 from c64 and into c128 from c128; sum_squares (the sum of |z|^2)
 *   into f32 or f64 from c64 and into f64 from c128; nrm2 (the root of the sum of |z|^2, BLAS's
 *   scnrm2/dznrm2) into f32 or f64. Every other op of a complex input, dotc of a real one and a
 *   complex result of a real input are OP_DTYPE_MISMATCH;
 * - sums, products and dots accumulate in the result's complex type (c64 into c128: the elements
 *   widened exactly) in the default order, a c64 element's tile that of an 8-byte element (2048)
 *   and a c128's that of a 16-byte one (1024, one element a chunk). Addition is per component;
 *   the product of x = a + bi and y = c + di is the textbook (ac - bd) + (ad + bc)i and
 *   conj(x)*y = (ac + bd) + (ad - bc)i, each of the four products and the two sums rounded once
 *   (no fused multiply-add, no C99 Annex G recovery of infinities: an infinite component times a
 *   zero one gives NaN), except that a factor whose bits are exactly 1 + 0i gives the other
 *   factor unchanged (so the product's identity is exact);
 * - error bounds, in the accumulator's unit roundoff u (2^-24 in c64, 2^-53 in c128) and L the
 *   longest chain of additions from an element to the result (levels x (4 x the elements of a
 *   16-byte chunk + 8): 16 a level for c64, 12 for c128; a level per tile): each component of a
 *   sum within L u / (1 - L u) times the sum of that component's magnitudes; of dot and dotc
 *   within (L + 2) u / (1 - (L + 2) u) times the sum of |ac| + |bd| (the real part) and of
 *   |ad| + |bc| (the imaginary part); a product of n factors within about sqrt(5) (n - 1) u of
 *   the product's modulus, barring overflow and underflow;
 * - sum_squares adds |z|^2 = re*re + im*im (from c64 into f64: exact squares, one rounding of
 *   their sum), as a sum; nrm2 is the real nrm2 over the components (above: no overflow or
 *   underflow in between; c64 squares exact in f64, c128 by Blue's scaled sums);
 * - sum_exact: each component the exact sum of that component of the elements, by the rules of
 *   exact sums above, so the bits depend on the multiset of elements only (the MPI component's
 *   exact sums take real inputs only: complex ones are NOT_SUPPORTED there);
 * - a NaN component of a result is its type's canonical NaN; a sum keeps each component apart
 *   ((1, NaN) + (2, 0) = (3, NaN)), products and dots mix them. n == 0 gives +0.0 + 0i (sums,
 *   dots, sum_exact), 1 + 0i (prod) and +0.0 (sum_squares, nrm2); a sum of -0.0 components keeps
 *   -0.0 in that component.
 * Statistics (AUTO only; the same bits on every device, as sums):
 * - results: mean takes sum's float triples (f16 into f16, f32 or f64; bf16 likewise; f32
 *   into f32 or f64; f64 into f64) and accumulates as sum does; nansum, nanmean, var, std,
 *   var_mean, std_mean, logsumexp, nanmin and nanmax take f16 into f16 or f32, bf16 into
 *   bf16 or f32, f32 into f32, f64 into f64, accumulating in f32 (f16, bf16 and f32 inputs)
 *   or f64; count_nonzero takes every dtype into i64, all and any every dtype into u8;
 *   aminmax takes every dtype into itself (its two results);
 * - mean = the sum's accumulator (the sum's order and bits before its rounding) divided by n
 *   in the accumulator's arithmetic (n rounded to it: exact below 2^24 in f32, 2^53 in f64),
 *   then rounded once as a sum is; n == 0 gives NaN;
 * - nansum = the sum with every NaN taken as +0.0 (numpy's nansum): the sum's order, +0.0
 *   when every element is NaN or n == 0; nanmean = nansum's accumulator divided by the count
 *   of non-NaN elements (rounded as mean's n), rounded once; no such element: NaN;
 * - count_nonzero = the number of elements that compare != 0 (a NaN does, -0.0 does not);
 *   all = 1 when that count is n (n == 0 included), else 0; any = 1 when it is > 0, else 0;
 * - nanmin, nanmax = min, max of the elements that are not NaN (-0.0 below +0.0): NaN (the
 *   canonical one) only when every element is NaN; n == 0 gives +inf, -inf;
 * - nanargmin, nanargmax = argmin, argmax of the elements that are not NaN: the first index of
 *   the least (greatest) of them, a NaN ranked past every value. A slice of NaNs only gives
 *   the canonical NaN and its first index, as argmin does (numpy raises there; the Python
 *   package does too); n == 0 gives argmin's and argmax's empty result;
 * - aminmax (plans only: the min at hipreduce_operands' values, the max at values2) = min and
 *   max in one pass, each with the bits that MIN and MAX give alone: any NaN gives the canonical
 *   NaN in both, -0.0 orders below +0.0, n == 0 gives MIN's and MAX's identities (+inf or the
 *   type's maximum, -inf or its minimum). Every lane and tree node holds the least and the
 *   greatest order key (an integer per element whose order is the value order, device/minmax.h),
 *   exact, so the bits depend on the multiset of elements only;
 * - logsumexp = log(sum of exp(x)) in one pass: every lane and tree node holds the largest
 *   element so far and the sum of exp(x - it), merged with the other side's sum scaled by
 *   exp(its largest - the larger); the result is largest + log(sum), with the library's own
 *   exp and log (device/stats.h: +, -, *, / and floor only, so the same bits everywhere).
 *   Any NaN gives NaN, else any +inf +inf, else every element -inf (or n == 0) -inf. For
 *   finite data, within (4 L + 8 + 3 ln n) u + u |result| of the exact value (u, L as for var
 *   below), before the final rounding into an f16 or bf16 result;
 * - var, std, var_mean, std_mean (plans only: hipreduce_reduction_desc's correction, and
 *   var_mean / std_mean's means at hipreduce_operands' values2): one pass. Every lane and tree
 *   node of the default order (or the strided order) holds (n, mean, m), m the mean of the
 *   squared deviations, each element entering as (1, x, x - x), merged by Chan's update
 *   (wa = na/n, wb = nb/n, d = mean_b - mean_a: mean = mean_a + d*wb, m = wa*m_a + wb*m_b +
 *   (wa*d)*(wb*d); device/stats.h). No intermediate holds a sum of squares or n times the
 *   variance, so data whose variance is finite gets it (f32 data near 1e20 included), and
 *   m is never negative. var = m * (n / max(n - correction, 0)): a divisor 0 gives +inf, or
 *   NaN when m is 0; std = the correctly rounded square root of var; the mean of var_mean is
 *   the merged mean (not mean's bits: another order of operations). n == 0, any NaN or any
 *   infinity give NaN for var and std; the mean is then NaN, or the infinity's sign when the
 *   infinities agree and there is no NaN. Error bound, for finite data of exact mean mu and
 *   exact m (the mean squared deviation) M, in the accumulator's unit roundoff u (2^-24 in
 *   f32, 2^-53 in f64) and L the longest chain of merges from an element to the result (the
 *   default order: levels x (64 / the input's element bytes + 8), a level per tile of the
 *   input's tile size (device/order.h); the strided order: levels x 35, a level per 256):
 *   |m_computed - M| <= 2 L u (M + sqrt(L) |mu| sqrt(M)) + L x the smallest normal, so var
 *   within n / (n - correction) times that plus 4 u var, and the mean within
 *   2 L u (|mu| + sqrt(M)), before the final rounding into an f16 or bf16 result.
 * The default algorithm (HIPREDUCE_ALGORITHM_AUTO) is also reproducible for
 * floating-point sums and products: its result is a function of (op, dtypes, n,
 * data) only, the same bits on every GPU, warp size, vendor and on the CPU device
 * (a NaN result too: canonical, whichever NaNs the input held and however the hardware
 * propagates them). Its order is written down in device/order.h.
 *
 * Every call validates its arguments before touching memory; a bad argument
 * returns its own status and writes nothing. The checks run in this order and the
 * first that fails decides the status: handle (NULL, destroyed or not a handle:
 * INVALID_HANDLE), operator, input dtype, result dtype, the (op, input, result)
 * triple, result location, pointers (result, value and index; input, x and y when
 * n > 0), byte-count overflow, then what only the executor knows (workspace size,
 * algorithm support). Every failure on a handle leaves a sentence on it that names
 * the argument and what would be accepted (hipreduce_last_error_message). Nothing in
 * the library prints or aborts. A runtime failure in the middle of a call
 * (allocation, launch) returns its status and leaves the handle usable. A handle
 * serves one call at a time: use one handle per host thread. A call that meets a
 * handle another thread is using returns HIPREDUCE_STATUS_HANDLE_BUSY at once and
 * writes nothing (a cheap check, not a lock: it never waits).
 *
 * The API is 0.x: it may change in incompatible ways until 1.0; each such change
 * bumps the minor version, which the soname carries (libhipreduce.so.0.3), and is
 * listed in CHANGELOG.md.
 */
#ifndef HIPREDUCE_HIPREDUCE_H
#define HIPREDUCE_HIPREDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce_export.h"
#include "hipreduce/hipreduce_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. The numeric values are fixed and never renumbered. */
typedef enum hipreduce_status {
    HIPREDUCE_STATUS_SUCCESS = 0,
    HIPREDUCE_STATUS_INVALID_HANDLE = 1,     /* handle is NULL, destroyed, or not a hipreduce handle (where detectable) */
    HIPREDUCE_STATUS_INVALID_POINTER = 2,    /* NULL input (n > 0), result or out-pointer */
    HIPREDUCE_STATUS_INVALID_OP = 3,         /* op is not a hipreduce_op value */
    HIPREDUCE_STATUS_INVALID_DTYPE = 4,      /* dtype is not a hipreduce_dtype value; a by-key plan's key_dtype is not I32 or I64 */
    HIPREDUCE_STATUS_OP_DTYPE_MISMATCH = 5,  /* the (op, input dtype, result dtype) triple is not allowed (xor on f32, i32 sum into i16), or the op belongs to another call */
    HIPREDUCE_STATUS_SIZE_OVERFLOW = 6,      /* n * sizeof(dtype) does not fit in 64 bits */
    HIPREDUCE_STATUS_INVALID_LOCATION = 7,   /* result location not host/device, or not valid for the handle's device */
    HIPREDUCE_STATUS_INVALID_ALGORITHM = 8,  /* not a hipreduce_algorithm value */
    HIPREDUCE_STATUS_INVALID_DEVICE = 9,     /* unknown device kind, bad ordinal, or no GPU */
    HIPREDUCE_STATUS_ALLOCATION_FAILED = 10, /* host or device allocation failed */
    HIPREDUCE_STATUS_RUNTIME_ERROR = 11,     /* HIP/CUDA runtime failure: see hipreduce_last_error_message */
    HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL = 12, /* caller workspace smaller than the size query says */
    HIPREDUCE_STATUS_NOT_SUPPORTED = 13,     /* valid values, but this algorithm cannot do this call */
    HIPREDUCE_STATUS_INVALID_BLOCK_SIZE = 14, /* block size is neither 0 (the default) nor a power of two from 32 to 1024 */
    HIPREDUCE_STATUS_INVALID_OFFSETS = 15,    /* host-memory segment offsets that decrease; keys or offsets out of range */
    HIPREDUCE_STATUS_HANDLE_BUSY = 16,        /* another host thread is in a call on this handle */
    HIPREDUCE_STATUS_MPI_MISMATCH = 17,       /* libhipreduce_mpi: ranks passed different ops, dtypes or shapes, or another rank's arguments or work failed */
    HIPREDUCE_STATUS_MPI_ERROR = 18,          /* libhipreduce_mpi: an MPI call failed (see hipreduce_mpi_last_error_message) */
    HIPREDUCE_STATUS_INVALID_AXES = 19        /* a descriptor's rank above HIPREDUCE_MAX_RANK, an axis out of range or repeated, or a by-key row of 0 values */
} hipreduce_status;

/* Operators. Bitwise ops apply to integer dtypes only. ARGMIN, ARGMAX, NANARGMIN and
 * NANARGMAX are hipreduce_argreduce's, DOT is hipreduce_dot's (and hipreduce_dot_op's), DOT_EXACT is
 * hipreduce_dot_op's; the others are hipreduce_reduce's. */
typedef enum hipreduce_op {
    HIPREDUCE_OP_SUM = 0,
    HIPREDUCE_OP_PROD = 1,
    HIPREDUCE_OP_MIN = 2,
    HIPREDUCE_OP_MAX = 3,
    HIPREDUCE_OP_AND = 4,
    HIPREDUCE_OP_OR = 5,
    HIPREDUCE_OP_XOR = 6,
    HIPREDUCE_OP_SUM_ABS = 7,     /* sum of |x| */
    HIPREDUCE_OP_SUM_SQUARES = 8, /* sum of x*x */
    HIPREDUCE_OP_MAX_ABS = 9,     /* max of |x| */
    HIPREDUCE_OP_NRM2 = 10,       /* sqrt(sum of x*x), overflow- and underflow-safe */
    HIPREDUCE_OP_ARGMIN = 11,     /* value and first index of the minimum */
    HIPREDUCE_OP_ARGMAX = 12,     /* value and first index of the maximum */
    HIPREDUCE_OP_DOT = 13,        /* sum of x*y over two inputs */
    HIPREDUCE_OP_SUM_EXACT = 14,  /* the exact sum, rounded once (floats; the rules above) */
    HIPREDUCE_OP_DOT_EXACT = 15,  /* the exact sum of the exact products x*y, rounded once (hipreduce_dot_op) */
    /* The statistics (their rules: the block "Statistics" below). */
    HIPREDUCE_OP_MEAN = 16,          /* sum / n, one division in the sum's accumulator */
    HIPREDUCE_OP_NANSUM = 17,        /* sum with each NaN taken as +0.0 */
    HIPREDUCE_OP_NANMEAN = 18,       /* nansum / the count of non-NaN elements */
    HIPREDUCE_OP_COUNT_NONZERO = 19, /* elements != 0 (NaN counts), into i64 */
    HIPREDUCE_OP_ALL = 20,           /* 1 when every element is != 0, else 0, into u8 */
    HIPREDUCE_OP_ANY = 21,           /* 1 when some element is != 0, else 0, into u8 */
    HIPREDUCE_OP_VAR = 22,           /* variance with desc.correction (plans only) */
    HIPREDUCE_OP_STD = 23,           /* sqrt of VAR (plans only) */
    HIPREDUCE_OP_VAR_MEAN = 24,      /* VAR into values and MEAN into values2, one pass (plans only) */
    HIPREDUCE_OP_STD_MEAN = 25,      /* STD into values and MEAN into values2, one pass (plans only) */
    HIPREDUCE_OP_LOGSUMEXP = 26,     /* log(sum of exp(x)), one pass */
    HIPREDUCE_OP_NANMIN = 27,        /* min with NaNs skipped (all NaN: NaN) */
    HIPREDUCE_OP_NANMAX = 28,        /* max with NaNs skipped (all NaN: NaN) */
    HIPREDUCE_OP_AMINMAX = 29,       /* MIN into values and MAX into values2, one pass (plans only) */
    HIPREDUCE_OP_DOTC = 30,          /* sum of conj(x)*y over two complex inputs (hipreduce_dot_op) */
    HIPREDUCE_OP_NANARGMIN = 31,     /* argmin with NaNs skipped (hipreduce_argreduce; floats) */
    HIPREDUCE_OP_NANARGMAX = 32      /* argmax with NaNs skipped (hipreduce_argreduce; floats) */
} hipreduce_op;

/* Element types. */
typedef enum hipreduce_dtype {
    HIPREDUCE_I8 = 0,
    HIPREDUCE_U8 = 1,
    HIPREDUCE_I16 = 2,
    HIPREDUCE_U16 = 3,
    HIPREDUCE_I32 = 4,
    HIPREDUCE_U32 = 5,
    HIPREDUCE_I64 = 6,
    HIPREDUCE_U64 = 7,
    HIPREDUCE_F16 = 8,  /* IEEE binary16, as raw uint16_t bits */
    HIPREDUCE_BF16 = 9, /* bfloat16 (the top half of an f32), as raw uint16_t bits */
    HIPREDUCE_F32 = 10,
    HIPREDUCE_F64 = 11,
    HIPREDUCE_C64 = 12, /* complex: interleaved (re, im) f32 pairs (C99 float complex, numpy complex64) */
    HIPREDUCE_C128 = 13 /* complex: interleaved (re, im) f64 pairs (double complex, numpy complex128) */
} hipreduce_dtype;

/* Where the handle runs. */
typedef enum hipreduce_device_kind {
    HIPREDUCE_DEVICE_CPU = 0, /* host memory, reduced by the calling thread and a pool (hipreduce_set_threads) */
    HIPREDUCE_DEVICE_GPU = 1  /* device memory of one HIP/CUDA device */
} hipreduce_device_kind;

/* Where the one-element result is written.
 * HOST: host memory; the call returns once the value is there.
 * DEVICE: device memory (GPU handles only); stream-ordered, returns at once. */
typedef enum hipreduce_location {
    HIPREDUCE_RESULT_HOST = 0,
    HIPREDUCE_RESULT_DEVICE = 1
} hipreduce_location;

/* Algorithms. AUTO is the library's algorithm and the default: the only reproducible one
 * for floats, and the only one that runs the typed reductions and the axis and segment
 * calls. Every other value is a study algorithm (hipreduce/hipreduce_study.h). */
typedef enum hipreduce_algorithm {
    /* Single launch: fixed tiles per dtype, each lane accumulates a fixed set of
     * elements, lanes combined by a fixed tree, tile partials combined by the
     * last block to finish. Same bits on every device and the CPU. */
    HIPREDUCE_ALGORITHM_AUTO = 0
    /* The study algorithms (values 1 .. 24) are in hipreduce/hipreduce_study.h, an opt-in header. */
} hipreduce_algorithm;

typedef struct hipreduce_handle_s* hipreduce_handle;

/* Library version as MAJOR*10000 + MINOR*100 + PATCH (HIPREDUCE_VERSION at build time). */
HIPREDUCE_EXPORT uint32_t hipreduce_get_version(void);

/* A short constant English description of a status; never NULL. */
HIPREDUCE_EXPORT const char* hipreduce_status_string(hipreduce_status status);

/* Size in bytes of one element of dtype, 0 for an unknown dtype. */
HIPREDUCE_EXPORT size_t hipreduce_dtype_size(hipreduce_dtype dtype);

/* The library's f16 / bf16 conversions (raw uint16_t values, as the calls take them): to
 * f32 exactly, from f32 rounded to nearest even with overflow to infinity and any NaN
 * to the canonical NaN (0x7e00, 0x7fc0): the rounding every f16/bf16 result gets. */
HIPREDUCE_EXPORT float hipreduce_f16_to_f32(uint16_t h);
HIPREDUCE_EXPORT uint16_t hipreduce_f32_to_f16(float f);
HIPREDUCE_EXPORT float hipreduce_bf16_to_f32(uint16_t h);
HIPREDUCE_EXPORT uint16_t hipreduce_f32_to_bf16(float f);

/* Short constant names ("sum", "f32", "auto", ...), NULL for an unknown value. */
HIPREDUCE_EXPORT const char* hipreduce_op_name(hipreduce_op op);
HIPREDUCE_EXPORT const char* hipreduce_dtype_name(hipreduce_dtype dtype);
HIPREDUCE_EXPORT const char* hipreduce_algorithm_name(hipreduce_algorithm algorithm);

/* The GPU backend this library was built with: "cuda", "amd", or "cpu" (no GPU
 * backend: only HIPREDUCE_DEVICE_CPU handles can be created). Never NULL. */
HIPREDUCE_EXPORT const char* hipreduce_backend_name(void);

/* Number of GPUs the backend's runtime sees (0 on the cpu backend, or when the
 * runtime cannot start: hipreduce_create_error_message then says why). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_get_device_count(int* count);

/* Creates a handle for the CPU (device_ordinal ignored) or for GPU device_ordinal.
 * The GPU handle uses the default stream until hipreduce_set_stream; each call
 * makes its device current and restores the caller's current device before it
 * returns. On failure *handle is left untouched and hipreduce_create_error_message
 * says why. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_create(hipreduce_handle* handle,
                                                   hipreduce_device_kind kind,
                                                   int device_ordinal);

/* Why the last hipreduce_create (or hipreduce_get_device_count) on this host thread
 * failed, e.g. the runtime's message or "device ordinal 3 out of range (2 GPUs)";
 * "" after a success. Thread-local, valid until the thread's next such call. */
HIPREDUCE_EXPORT const char* hipreduce_create_error_message(void);

/* Frees the handle and the workspace it owns. NULL is accepted. Using a handle after
 * destroying it is undefined; the library clears a tag before freeing, so the
 * common mistake (a second destroy, a call after destroy) usually returns
 * INVALID_HANDLE, but memory reused by the allocator can defeat that. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_destroy(hipreduce_handle handle);

/* Stream for later calls: a hipStream_t or cudaStream_t, NULL for the default
 * stream. Work already enqueued on the old stream may still be using the handle's
 * workspace: the new stream is ordered after it (an event recorded on the old
 * stream that the new one waits for; no host synchronisation), so switching streams
 * between calls is always safe, provided the old stream still exists (the event is
 * recorded on it: destroy a stream only after switching the handle away from it). A
 * runtime failure there returns its status and keeps the old stream. The CPU device
 * ignores the stream. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_set_stream(hipreduce_handle handle, void* stream);

/* Algorithm for later calls (default AUTO). The CPU device always runs AUTO's order. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_set_algorithm(hipreduce_handle handle,
                                                          hipreduce_algorithm algorithm);
HIPREDUCE_EXPORT hipreduce_status hipreduce_get_algorithm(hipreduce_handle handle,
                                                          hipreduce_algorithm* algorithm);


/* Host threads a CPU handle's later calls may use, the calling thread included:
 * 0 (the default) = the cores this process may run on (its CPU affinity), 1 = the
 * calling thread only; counts above 256 are clamped to 256. A call uses no more
 * threads than give each at least 256 KiB of input, so inputs under 512 KiB never
 * wake a worker. The handle starts its workers on the first call that uses them
 * and joins them in hipreduce_destroy or when the count changes; after a call its
 * workers poll for the next one for about 100 us, then sleep. The result's bits do
 * not depend on the count. If threads cannot be started, calls run on fewer (at
 * worst the calling thread alone). As for every call, one host thread at a time per
 * handle. GPU handles accept and ignore the count; hipreduce_get_threads reports the
 * CPU handle's count after those rules (0 on a GPU handle). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_set_threads(hipreduce_handle handle, unsigned threads);
HIPREDUCE_EXPORT hipreduce_status hipreduce_get_threads(hipreduce_handle handle, unsigned* threads);

/* Reduces n elements of in_dtype at input with op and writes one element of
 * out_dtype to result (the triples above). On a GPU handle, input is device memory
 * aligned to its element size (as every element of a hipMalloc/cudaMalloc array is:
 * the loads are typed, as in CUB); result is host or device memory as location says.
 * On a CPU handle both are host memory and location must be HIPREDUCE_RESULT_HOST;
 * neither needs any alignment (an i32 input may start at an odd address). The input
 * is never written. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_reduce(hipreduce_handle handle,
                                                   hipreduce_op op,
                                                   hipreduce_dtype in_dtype,
                                                   const void* input,
                                                   uint64_t n,
                                                   hipreduce_dtype out_dtype,
                                                   void* result,
                                                   hipreduce_location location);

/* argmin / argmax of n elements of dtype: writes the extreme value (one element of
 * dtype) to value and its first index to index, both in the location's memory space
 * (rules in the header's introduction; n == 0 gives index -1). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_argreduce(hipreduce_handle handle,
                                                      hipreduce_op op,
                                                      hipreduce_dtype dtype,
                                                      const void* input,
                                                      uint64_t n,
                                                      void* value,
                                                      int64_t* index,
                                                      hipreduce_location location);

/* Dot product: the sum of x[i] * y[i] over n elements of in_dtype each, accumulated in
 * out_dtype (sum's result dtypes), each product rounded once in out_dtype's arithmetic
 * (f16/bf16 in f32, where it is exact). x and y follow hipreduce_reduce's input rules. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_dot(hipreduce_handle handle,
                                                hipreduce_dtype in_dtype,
                                                const void* x,
                                                const void* y,
                                                uint64_t n,
                                                hipreduce_dtype out_dtype,
                                                void* result,
                                                hipreduce_location location);

/* hipreduce_dot with the op named: HIPREDUCE_OP_DOT (hipreduce_dot itself),
 * HIPREDUCE_OP_DOT_EXACT (the exact dot product: the rules of exact sums above, over
 * f16, bf16, f32 or f64 inputs into sum's float results) or HIPREDUCE_OP_DOTC (c64 and c128
 * inputs: the sum of conj(x[i]) * y[i], the block "Complex" above). Any other op is
 * OP_DTYPE_MISMATCH. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_dot_op(hipreduce_handle handle,
                                                   hipreduce_op op,
                                                   hipreduce_dtype in_dtype,
                                                   const void* x,
                                                   const void* y,
                                                   uint64_t n,
                                                   hipreduce_dtype out_dtype,
                                                   void* result,
                                                   hipreduce_location location);

/* Workspace, in bytes, that the call with these arguments needs with the handle's
 * algorithm: device memory on a GPU handle; host memory on a CPU handle (its tile
 * partials: at most about n * sizeof(in_dtype) / 256, 0 when n fits one tile). The
 * same validation as the call, minus location, with `bytes` as the pointer. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_workspace_size(hipreduce_handle handle,
                                                           hipreduce_op op,
                                                           hipreduce_dtype in_dtype,
                                                           uint64_t n,
                                                           hipreduce_dtype out_dtype,
                                                           size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_argreduce_workspace_size(hipreduce_handle handle,
                                                                     hipreduce_op op,
                                                                     hipreduce_dtype dtype,
                                                                     uint64_t n,
                                                                     size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_dot_workspace_size(hipreduce_handle handle,
                                                               hipreduce_dtype in_dtype,
                                                               uint64_t n,
                                                               hipreduce_dtype out_dtype,
                                                               size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_dot_op_workspace_size(hipreduce_handle handle,
                                                                  hipreduce_op op,
                                                                  hipreduce_dtype in_dtype,
                                                                  uint64_t n,
                                                                  hipreduce_dtype out_dtype,
                                                                  size_t* bytes);

/* Reductions along one axis and over segments (every op of hipreduce_reduce with its result
 * dtypes, sum_exact included, and argmin/argmax; not dot).
 *
 * Axis: input is a contiguous tensor viewed as [outer][extent][inner]; the call reduces
 * `extent` and writes outer * inner results, laid out [outer][inner]. inner == 1 reduces
 * rows, outer == 1 columns; any single-axis reduction of a contiguous N-d tensor maps onto
 * it (outer = product of the dimensions before the axis, inner = of those after).
 * Segments: segment s is input[offsets[s] .. offsets[s+1]) (CSR: num_segments + 1 uint64
 * offsets, non-decreasing, in the input's memory space: host on a CPU handle, device on a
 * GPU handle); the input is input[0 .. offsets[num_segments]).
 * extent == 0 and empty segments give the n == 0 result (the identity; argmin/argmax index
 * -1); outer * inner == 0 or num_segments == 0 writes nothing. argmin/argmax indices are
 * int64 positions along the reduced axis (from the segment's start for segments).
 *
 * Order (AUTO, the same bits on every device and the CPU):
 * - a contiguous result (inner == 1, and every segment) has exactly the bits of
 *   hipreduce_reduce / hipreduce_argreduce over that row or segment alone, whatever its
 *   length, position, alignment and neighbours;
 * - a strided result (inner > 1), over s[e] = input[o][e][i], e = 0 .. extent-1, is reduced
 *   in levels: level 0 is s (each element transformed: |x|, x*x, its key); element b of
 *   level k+1 reduces elements [256b, 256b + 256) of level k (the last block may be
 *   shorter): 8 lanes, lane j folding elements 256b + 8t + j for t = 0, 1, .. in turn
 *   from the identity, then lane j += lane j+4 (j < 4), j += j+2 (j < 2), 0 += 1; the
 *   level with one element is the result, rounded once to out_dtype (device/order.h).
 * Other algorithms: NOT_SUPPORTED on a GPU handle (the CPU device always runs AUTO's order).
 *
 * Validation: as hipreduce_reduce, with the pointers results (values and indices),
 * input (axis: when outer * extent * inner > 0; segments: when num_segments > 0) and
 * offsets (when num_segments > 0); then SIZE_OVERFLOW
 * when outer * extent * inner elements, outer * inner results or num_segments + 1
 * offsets do not fit in 64-bit byte counts; then, on a CPU handle, INVALID_OFFSETS when
 * the offsets decrease and SIZE_OVERFLOW when offsets[num_segments] elements do not fit. On a GPU handle the offsets are read by the kernel only (no
 * device round trip), so they are not checked: there a segment whose end lies below its
 * start is empty, and every offset is clamped to offsets[num_segments], so nothing
 * outside input[0 .. offsets[num_segments]), the offsets and the results is ever read
 * or written. results (and values, indices) are host or device memory as location says;
 * with HOST on a GPU handle the results are staged in the workspace and copied back.
 * Speed (GPU): segments are balanced by work, not by segment: short ones by groups of
 * threads, long ones tile by tile over the whole device, whatever the length distribution,
 * in stream-ordered launches that read the offsets on the device (capturable); the
 * workspace depends on num_segments only (24 bytes a segment plus a fixed 2-6 MiB). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_reduce_axis(hipreduce_handle handle,
                                                        hipreduce_op op,
                                                        hipreduce_dtype in_dtype,
                                                        const void* input,
                                                        uint64_t outer,
                                                        uint64_t extent,
                                                        uint64_t inner,
                                                        hipreduce_dtype out_dtype,
                                                        void* results,
                                                        hipreduce_location location);
HIPREDUCE_EXPORT hipreduce_status hipreduce_argreduce_axis(hipreduce_handle handle,
                                                           hipreduce_op op,
                                                           hipreduce_dtype dtype,
                                                           const void* input,
                                                           uint64_t outer,
                                                           uint64_t extent,
                                                           uint64_t inner,
                                                           void* values,
                                                           int64_t* indices,
                                                           hipreduce_location location);
HIPREDUCE_EXPORT hipreduce_status hipreduce_reduce_segments(hipreduce_handle handle,
                                                            hipreduce_op op,
                                                            hipreduce_dtype in_dtype,
                                                            const void* input,
                                                            uint64_t num_segments,
                                                            const uint64_t* offsets,
                                                            hipreduce_dtype out_dtype,
                                                            void* results,
                                                            hipreduce_location location);
HIPREDUCE_EXPORT hipreduce_status hipreduce_argreduce_segments(hipreduce_handle handle,
                                                               hipreduce_op op,
                                                               hipreduce_dtype dtype,
                                                               const void* input,
                                                               uint64_t num_segments,
                                                               const uint64_t* offsets,
                                                               void* values,
                                                               int64_t* indices,
                                                               hipreduce_location location);
/* Their workspace sizes (the same validation as the call, minus location and the input,
 * offsets and result pointers; HOST results on a GPU handle count their staging). A
 * segments size depends on num_segments only. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_reduce_axis_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                                       hipreduce_dtype in_dtype, uint64_t outer,
                                                                       uint64_t extent, uint64_t inner,
                                                                       hipreduce_dtype out_dtype, size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_argreduce_axis_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                                          hipreduce_dtype dtype, uint64_t outer,
                                                                          uint64_t extent, uint64_t inner,
                                                                          size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_reduce_segments_workspace_size(hipreduce_handle handle, hipreduce_op op,
                                                                           hipreduce_dtype in_dtype,
                                                                           uint64_t num_segments,
                                                                           hipreduce_dtype out_dtype, size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_argreduce_segments_workspace_size(hipreduce_handle handle,
                                                                              hipreduce_op op,
                                                                              hipreduce_dtype dtype,
                                                                              uint64_t num_segments,
                                                                              size_t* bytes);
/* ================================================================================
 * Descriptors and plans: any set of axes of a strided tensor, or CSR segments
 *
 * One entry point for every call shape (cuTENSOR's model): describe the reduction once
 * (hipreduce_reduction_desc), create a plan (validated, dimensions coalesced, strategy
 * chosen), then run it as often as needed with the data pointers. Every op runs through
 * it: reductions, argmin/argmax (values and int64 indices), dot (two inputs of the same
 * extents, each with its own strides), the exact sums and the statistics (var, std,
 * var_mean, std_mean and aminmax only here: the correction is the descriptor's, the means of
 * var_mean and std_mean and aminmax's maxima go to the operands' values2).
 *
 * Tensor: rank 0 .. HIPREDUCE_MAX_RANK, extents, and strides in elements (any sign; 0
 * repeats an element, a broadcast). The operand pointer x (and y) points at element
 * (0, .., 0); the tensor may lie anywhere around it. axes[0 .. num_axes) are the reduced
 * axes (any subset, any order in the list, no repeats); the others are kept. Results: one
 * per kept index, written contiguously in the row-major order of the kept axes (a rank-0
 * tensor and num_axes == rank give one result).
 *
 * Order (HIPREDUCE_ORDER_LOGICAL, the default): for each kept index, the reduced elements
 * are taken in the row-major order of the reduced axes (as if the tensor were permuted to
 * (kept..., reduced...) and made contiguous) and reduced in the default order of
 * hipreduce_reduce. So every result has the bits of hipreduce_reduce (argreduce, dot) over
 * that contiguous copy of its elements: the bits depend on the logical values, the reduced
 * axes and the op only, never on the strides. A tensor, its transposed or channels-last
 * copy and a strided view of it give the same bits; coalescing never changes them.
 * argmin/argmax indices count positions in that row-major sequence of reduced elements.
 * HIPREDUCE_ORDER_STRIDED: the strided order of hipreduce_reduce_axis with inner > 1 (its
 * comment above), for tensors whose dimensions coalesce to a contiguous [outer][extent]
 * [inner] with the one reduced axis in the middle; other tensors are NOT_SUPPORTED with it.
 *
 * Segments (layout HIPREDUCE_LAYOUT_SEGMENTS): a 1-D input of `length` elements and
 * num_segments CSR segments, as hipreduce_reduce_segments, with the same bits. The offsets
 * are an operand. Knowing the input's length, a plan on a CPU handle checks the offsets
 * against it (INVALID_OFFSETS for offsets past the input); a GPU reads the offsets in its
 * kernels only and clamps them to offsets[num_segments], as hipreduce_reduce_segments does.
 *
 * By key (layout HIPREDUCE_LAYOUT_BY_KEY; order LOGICAL only): values [length][row],
 * contiguous (operand x), and keys[length] of key_dtype (HIPREDUCE_I32 or HIPREDUCE_I64;
 * operand keys, in the input's memory space) in any order, with any repetition. Results
 * [num_bins][row]: result [b][j] is the reduction of values[i][j] over the rows i with
 * keys[i] == b, taken in input order, with the bits of hipreduce_reduce (argreduce) over
 * those values alone, so the same on every device, warp width and thread count, run after
 * run (sum_exact's do not even depend on the rows' order). A bin without a row gets the
 * n == 0 result (the identity; argmin/argmax index -1); argmin/argmax indices are the row
 * index i of the first extreme in input order. counts (optional: num_bins int64, where the
 * results go) receives each bin's number of rows. Every op of hipreduce_reduce and
 * argmin/argmax; dot has no by-key form. num_bins 0 is valid and writes nothing. A key
 * outside [0, num_bins): on a CPU handle the run returns INVALID_OFFSETS, naming the first
 * such key, before anything is written; a GPU reads the keys in its kernels only and skips
 * such rows (neither reduced nor counted), reading and writing nothing outside the operands.
 * Both devices sort the rows by key (stably) into a workspace copy of the values whose bins
 * are CSR segments, reduced as hipreduce_reduce_segments does: the workspace grows with
 * length x (row x the value's size + 32 bytes) and num_bins x row x 32 bytes.
 *
 * Validation at hipreduce_plan_create, first failing check decides: handle, desc/plan
 * pointers (INVALID_POINTER), layout, order and reserved fields (NOT_SUPPORTED), op, dtypes
 * and the triple as the simple calls check them, a correction other than 0 for an op
 * that takes none (NOT_SUPPORTED), then the shape: rank above
 * HIPREDUCE_MAX_RANK, an axis out of range or repeated (INVALID_AXES), element counts,
 * result counts or byte offsets that overflow 64 bits (SIZE_OVERFLOW); by key: dot
 * (OP_DTYPE_MISMATCH), key_dtype (INVALID_DTYPE), row 0 (INVALID_AXES), then the sizes
 * (SIZE_OVERFLOW). Running checks the handle, the location and the operand pointers (x,
 * and y for dot, when there is an element to read; values; indices for argmin/argmax;
 * values2 for var_mean, std_mean and aminmax; offsets for segments; keys for by key when length >
 * 0), then, by key on a CPU handle,
 * the keys' range (INVALID_OFFSETS).
 * A plan holds no device memory and no pointer into the handle: it may be run on any
 * handle, from any thread (one call at a time per handle, as every call), and destroyed at
 * any time after its last run was issued. Running a plan is stream-ordered like the simple
 * calls and, with a workspace set (hipreduce_set_workspace) of its workspace size,
 * allocates nothing and may be captured into a graph.
 *
 * Strategy (the bits do not depend on it): a tensor whose reduced elements of each result
 * coalesce to one contiguous run and whose results are evenly spaced runs through the row
 * kernels directly (full reductions and rows included). A GPU reads every other layout in
 * place through its strides: where the innermost kept axis is the fastest in memory (column
 * sums, transposes, channels-last), blocks of neighbouring results at a time; otherwise a
 * tile of one result at a time, with vector loads along contiguous runs; only dot and the
 * exact sums gather into workspace as the (kept..., reduced...) contiguous copy and reduce
 * it as rows. The cpu device reads in place where the innermost kept axis has stride 1 and
 * gathers the others, one block of rows at a time.
 * ================================================================================ */
#define HIPREDUCE_MAX_RANK 8

typedef enum hipreduce_layout {
    HIPREDUCE_LAYOUT_TENSOR = 0,  /* a strided tensor, reduced over `axes` */
    HIPREDUCE_LAYOUT_SEGMENTS = 1, /* a 1-D input of `length` elements in CSR segments */
    HIPREDUCE_LAYOUT_BY_KEY = 2    /* `length` rows of `row` values, each row reduced into bin keys[i] */
} hipreduce_layout;

typedef enum hipreduce_order {
    HIPREDUCE_ORDER_LOGICAL = 0, /* the same bits for every layout (above) */
    HIPREDUCE_ORDER_STRIDED = 1  /* hipreduce_reduce_axis's strided order (above) */
} hipreduce_order;

typedef struct hipreduce_reduction_desc {
    hipreduce_op op;
    hipreduce_dtype in_dtype;
    hipreduce_dtype out_dtype;                 /* argmin/argmax: in_dtype */
    hipreduce_layout layout;
    hipreduce_order order;
    int rank;                                  /* TENSOR: 0 .. HIPREDUCE_MAX_RANK */
    uint64_t extents[HIPREDUCE_MAX_RANK];
    int64_t x_strides[HIPREDUCE_MAX_RANK];     /* in elements */
    int64_t y_strides[HIPREDUCE_MAX_RANK];     /* dot and dot_exact: the second input's */
    int num_axes;                              /* TENSOR: 0 .. rank */
    int axes[HIPREDUCE_MAX_RANK];
    uint64_t num_segments;                     /* SEGMENTS */
    uint64_t length;                           /* SEGMENTS: elements of the input; BY_KEY: rows */
    uint64_t num_bins;                         /* BY_KEY: results [num_bins][row] */
    uint64_t row;                              /* BY_KEY: values a row (>= 1; contiguous rows) */
    hipreduce_dtype key_dtype;                 /* BY_KEY: HIPREDUCE_I32 or HIPREDUCE_I64 */
    double correction;                         /* VAR, STD, VAR_MEAN, STD_MEAN: the divisor is
                                                * max(n - correction, 0) (numpy's ddof; 1: the
                                                * sample variance); 0 for every other op */
    uint64_t reserved[5];                      /* zero (room for later fields) */
} hipreduce_reduction_desc;

/* The data of one run. */
typedef struct hipreduce_operands {
    const void* x;           /* the input (dot: the first) */
    const void* y;           /* dot and dot_exact: the second input; NULL otherwise */
    const uint64_t* offsets; /* SEGMENTS: num_segments + 1 offsets, in the input's memory space */
    void* values;            /* results (argmin/argmax: the values) */
    int64_t* indices;        /* argmin/argmax: the indices; NULL otherwise */
    const void* keys;        /* BY_KEY: `length` keys of key_dtype, in the input's memory space */
    int64_t* counts;         /* BY_KEY, optional: num_bins counts of the keys, where values go; or NULL */
    void* values2;           /* VAR_MEAN, STD_MEAN, AMINMAX: the second results (the means, the
                              * maxima), as many as values and of out_dtype, where values go; NULL
                              * otherwise (not read) */
    void* reserved[1];       /* NULL (room for later outputs) */
} hipreduce_operands;

typedef struct hipreduce_plan_s* hipreduce_plan;

/* Fills desc with the reduction of all `rank` axes of a contiguous row-major tensor, op
 * and dtypes given: a starting point to edit (strides, axes). rank above
 * HIPREDUCE_MAX_RANK or a NULL desc/extents (rank > 0) is INVALID_POINTER/INVALID_AXES;
 * nothing else is checked here. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_desc_init(hipreduce_reduction_desc* desc, hipreduce_op op,
                                                     hipreduce_dtype in_dtype, hipreduce_dtype out_dtype,
                                                     int rank, const uint64_t* extents);
HIPREDUCE_EXPORT hipreduce_status hipreduce_plan_create(hipreduce_handle handle,
                                                       const hipreduce_reduction_desc* desc,
                                                       hipreduce_plan* plan);
/* Results a run writes (values, and indices for argmin/argmax). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_plan_results(hipreduce_plan plan, uint64_t* results);
/* The workspace a run of the plan needs on this handle with results at `location`. */
HIPREDUCE_EXPORT hipreduce_status hipreduce_plan_workspace_size(hipreduce_handle handle, hipreduce_plan plan,
                                                               hipreduce_location location, size_t* bytes);
HIPREDUCE_EXPORT hipreduce_status hipreduce_plan_run(hipreduce_handle handle, hipreduce_plan plan,
                                                    const hipreduce_operands* operands,
                                                    hipreduce_location location);
/* Frees the plan. NULL is accepted. */
HIPREDUCE_EXPORT void hipreduce_plan_destroy(hipreduce_plan plan);

/* Gives the handle caller-owned device workspace to use instead of its own, so
 * that no later call allocates (for graph capture). Any address works (no alignment
 * is required: the library aligns its regions inside, and the size query counts
 * that slack), and it needs no initialisation: this call zeroes the default
 * algorithm's arrival counters in it once, stream-ordered on the handle's current
 * stream; every call leaves them zero again (a call that fails at run time
 * re-zeroes them), so calls themselves launch nothing but their kernels. Do not
 * write into the workspace while it is set. A call whose workspace_size exceeds
 * `bytes` returns HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL. NULL with 0 bytes returns to
 * handle-owned workspace (NULL with bytes > 0 is HIPREDUCE_STATUS_INVALID_POINTER).
 * The memory must stay valid while calls that use it are in flight. Without it, the
 * handle's own workspace grows on the first call that needs more (an allocation,
 * after a synchronisation of the stream when it replaces a smaller one); later calls
 * of the same or smaller size neither allocate nor synchronise on the device-result
 * path. On a CPU handle the workspace is host memory, at any address, needing no
 * initialisation and no care between calls; with it, or once the handle's own has
 * grown to a call's size, calls allocate nothing (the handle's threads are
 * started, once, by the first call that uses them). */
HIPREDUCE_EXPORT hipreduce_status hipreduce_set_workspace(hipreduce_handle handle,
                                                          void* workspace,
                                                          size_t bytes);

/* Why the handle's most recent call failed: a sentence naming the argument and what
 * would be accepted ("sum of f32: result dtype i64 not allowed, use f32 or f64",
 * "argmax is an argreduce op: call hipreduce_argreduce"), or the HIP/CUDA runtime's
 * message for a RUNTIME_ERROR; "" after a call that succeeded, and for NULL or
 * invalid handles (their status says all). HANDLE_BUSY leaves the message alone.
 * Valid until the next call on the handle. */
HIPREDUCE_EXPORT const char* hipreduce_last_error_message(hipreduce_handle handle);

#ifdef __cplusplus
}
#endif

#endif /* HIPREDUCE_HIPREDUCE_H */
