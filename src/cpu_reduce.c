/* The CPU executor: the default algorithm's order (plan.h), exactly, for every op and dtype.
 *
 * Level 0 cuts the input into tiles of hr_tile_items(sizeof input element) elements; each tile
 * becomes one partial. Every higher level reduces the partials with the same tile geometry (that
 * of the input dtype), in place, until one remains. n >= 1 always runs at least one tile pass, so
 * n == 1 gives op(identity, x[0]) (min/max of a lone NaN is the canonical NaN); n == 0 gives the
 * dtype's identity (+0.0 for float sums).
 *
 * Inside a tile, lane l folds the elements tile_base + (c * HR_TILE_LANES + l) * chunk_items + v in
 * (c, v) order, starting from the operator's identity (-0.0 for float sums: the exact additive
 * identity, so a sum of -0.0 stays -0.0); then the segment tree: in each 32-lane segment lane i =
 * op(lane i, lane i + s) for s = 16 .. 1, then over the segment results s = 4, 2, 1.
 *
 * Accumulators: 8/16-bit integers in 32 bits (the same result modulo 2^bits, exact for
 * min/max/bitwise), wider types in their own width; integer sum/prod wrap through the unsigned
 * twin (no signed overflow). Floats in plain float/double arithmetic, built with
 * -ffp-contract=off. The final conversion to a signed narrow type keeps the low bits (as every
 * supported compiler defines it).
 */
#include "cpu_reduce.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#if defined(__GNUC__) || defined(__clang__)
#define HR_ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define HR_ALWAYS_INLINE static __forceinline
#else
#define HR_ALWAYS_INLINE static inline
#endif

enum { SUM = HIPREDUCE_OP_SUM, PROD = HIPREDUCE_OP_PROD, MIN = HIPREDUCE_OP_MIN, MAX = HIPREDUCE_OP_MAX,
       AND = HIPREDUCE_OP_AND, OR = HIPREDUCE_OP_OR, XOR = HIPREDUCE_OP_XOR };

/* ---- accumulator kinds: identity and combine, one macro per class ---- */

#define HR_INT_KIND(K, T, U, LO, HI)                                                                         \
    typedef T acc_##K;                                                                                     \
    HR_ALWAYS_INLINE T identity_##K(int op)                                                                \
    {                                                                                                      \
        switch (op) {                                                                                      \
        case PROD: return 1;                                                                               \
        case MIN: return HI;                                                                               \
        case MAX: return LO;                                                                               \
        case AND: return (T) ~(U)0;                                                                        \
        default: return 0;                                                                                 \
        }                                                                                                  \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int op, T a, T b)                                                       \
    {                                                                                                      \
        switch (op) {                                                                                      \
        case SUM: return (T)((U)a + (U)b);                                                                 \
        case PROD: return (T)((U)a * (U)b);                                                                \
        case MIN: return b < a ? b : a;                                                                    \
        case MAX: return a < b ? b : a;                                                                    \
        case AND: return (T)(a & b);                                                                       \
        case OR: return (T)(a | b);                                                                        \
        default: return (T)(a ^ b);                                                                        \
        }                                                                                                  \
    }

/* Float min/max: any NaN gives the canonical quiet NaN; equal values differ only as +-0.0, and
 * -0.0 orders below +0.0. Both rules make min/max commutative and associative bit for bit. */
#define HR_FLOAT_KIND(K, T, BITS, NAN_BITS)                                                                  \
    typedef T acc_##K;                                                                                     \
    HR_ALWAYS_INLINE T canonical_nan_##K(void)                                                             \
    {                                                                                                      \
        const BITS bits = NAN_BITS;                                                                        \
        T v;                                                                                               \
        memcpy(&v, &bits, sizeof v);                                                                       \
        return v;                                                                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE T identity_##K(int op)                                                                \
    {                                                                                                      \
        switch (op) {                                                                                      \
        case SUM: return -(T)0;                                                                            \
        case PROD: return 1;                                                                               \
        case MIN: return (T)HUGE_VAL;                                                                      \
        default: return -(T)HUGE_VAL;                                                                      \
        }                                                                                                  \
    }                                                                                                      \
    HR_ALWAYS_INLINE T combine_##K(int op, T a, T b)                                                       \
    {                                                                                                      \
        switch (op) {                                                                                      \
        case SUM: return a + b;                                                                            \
        case PROD: return a * b;                                                                           \
        default:                                                                                           \
            if (a != a || b != b) return canonical_nan_##K();                                              \
            if (a == b) return (signbit(a) != 0) == (op == MIN) ? a : b;                                   \
            return (a < b) == (op == MIN) ? a : b;                                                         \
        }                                                                                                  \
    }

HR_INT_KIND(i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
HR_INT_KIND(u32, uint32_t, uint32_t, 0, UINT32_MAX)
HR_INT_KIND(i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
HR_INT_KIND(u64, uint64_t, uint64_t, 0, UINT64_MAX)
HR_FLOAT_KIND(f32, float, uint32_t, UINT32_C(0x7fc00000))
HR_FLOAT_KIND(f64, double, uint64_t, UINT64_C(0x7ff8000000000000))

/* ---- one tile and one level, for a source element type S and accumulator kind K ---- */

/* The segment tree over lane[0 .. HR_TILE_LANES): lane 0 ends up with the tile's value. */
#define HR_SEGMENT_TREE(K, op, lane)                                                                         \
    do {                                                                                                   \
        for (uint32_t seg = 0; seg < HR_TILE_LANES; seg += HR_SEGMENT)                                     \
            for (uint32_t s = HR_SEGMENT / 2; s > 0; s /= 2)                                               \
                for (uint32_t i = 0; i < s; ++i)                                                           \
                    lane[seg + i] = combine_##K(op, lane[seg + i], lane[seg + i + s]);                     \
        for (uint32_t s = HR_TILE_LANES / HR_SEGMENT / 2; s > 0; s /= 2)                                   \
            for (uint32_t i = 0; i < s; ++i)                                                               \
                lane[i * HR_SEGMENT] = combine_##K(op, lane[i * HR_SEGMENT], lane[(i + s) * HR_SEGMENT]);  \
    } while (0)

/* level_NAME(op, src, count, ci, dst): dst[t] = tile t of src[0 .. count). dst may alias src
 * (tile t reads indices >= t, and dst[t] is written after tile t is read). */
#define HR_DEFINE_LEVEL(NAME, S, K)                                                                          \
    HR_ALWAYS_INLINE acc_##K tile_##NAME(int op, const S* x, uint64_t count, uint64_t base, uint32_t ci)  \
    {                                                                                                      \
        acc_##K lane[HR_TILE_LANES];                                                                       \
        for (uint32_t l = 0; l < HR_TILE_LANES; ++l) {                                                     \
            acc_##K acc = identity_##K(op);                                                                \
            for (uint32_t c = 0; c < HR_TILE_CHUNKS; ++c) {                                                \
                const uint64_t first = base + ((uint64_t)c * HR_TILE_LANES + l) * ci;                      \
                for (uint32_t v = 0; v < ci && first + v < count; ++v)                                     \
                    acc = combine_##K(op, acc, (acc_##K)x[first + v]);                                     \
            }                                                                                              \
            lane[l] = acc;                                                                                 \
        }                                                                                                  \
        HR_SEGMENT_TREE(K, op, lane);                                                                      \
        return lane[0];                                                                                    \
    }                                                                                                      \
    static void level_##NAME(int op, const void* src, uint64_t count, uint32_t ci, acc_##K* dst)          \
    {                                                                                                      \
        const S* x = (const S*)src;                                                                        \
        const uint64_t tile = (uint64_t)HR_TILE_LANES * HR_TILE_CHUNKS * ci;                               \
        const uint64_t tiles = hr_tiles(count, tile);                                                      \
        /* One loop per op, so that combine's switch folds away inside each. */                            \
        switch (op) {                                                                                      \
        HR_LEVEL_CASE(NAME, SUM) HR_LEVEL_CASE(NAME, PROD) HR_LEVEL_CASE(NAME, MIN)                        \
        HR_LEVEL_CASE(NAME, MAX) HR_LEVEL_CASE(NAME, AND) HR_LEVEL_CASE(NAME, OR)                          \
        HR_LEVEL_CASE(NAME, XOR)                                                                           \
        default: break;                                                                                    \
        }                                                                                                  \
    }
#define HR_LEVEL_CASE(NAME, OP)                                                                              \
    case OP:                                                                                               \
        for (uint64_t t = 0; t < tiles; ++t) dst[t] = tile_##NAME(OP, x, count, t * tile, ci);             \
        break;

/* Float kinds have no bitwise ops: their combine never sees them, but the level switch still
 * names them; their cases are unreachable (api.c rejects and/or/xor on floats). */

/* Upper levels: partials of each accumulator kind. */
HR_DEFINE_LEVEL(acc_i32, int32_t, i32)
HR_DEFINE_LEVEL(acc_u32, uint32_t, u32)
HR_DEFINE_LEVEL(acc_i64, int64_t, i64)
HR_DEFINE_LEVEL(acc_u64, uint64_t, u64)
HR_DEFINE_LEVEL(acc_f32, float, f32)
HR_DEFINE_LEVEL(acc_f64, double, f64)

/* ---- the dtype table: adding a dtype is one row here (and one in types.c) ----
 * value, name, element type, accumulator kind, lowest and highest value (the n == 0 max/min). */
#define HR_CPU_DTYPES(X)                                                                                     \
    X(HIPREDUCE_I8, i8, int8_t, i32, INT8_MIN, INT8_MAX)                                                   \
    X(HIPREDUCE_U8, u8, uint8_t, u32, 0, UINT8_MAX)                                                        \
    X(HIPREDUCE_I16, i16, int16_t, i32, INT16_MIN, INT16_MAX)                                              \
    X(HIPREDUCE_U16, u16, uint16_t, u32, 0, UINT16_MAX)                                                    \
    X(HIPREDUCE_I32, i32, int32_t, i32, INT32_MIN, INT32_MAX)                                              \
    X(HIPREDUCE_U32, u32, uint32_t, u32, 0, UINT32_MAX)                                                    \
    X(HIPREDUCE_I64, i64, int64_t, i64, INT64_MIN, INT64_MAX)                                              \
    X(HIPREDUCE_U64, u64, uint64_t, u64, 0, UINT64_MAX)                                                    \
    X(HIPREDUCE_F32, f32, float, f32, -HUGE_VALF, HUGE_VALF)                                               \
    X(HIPREDUCE_F64, f64, double, f64, -HUGE_VAL, HUGE_VAL)

#define HR_DEFINE_DTYPE(VALUE, NAME, S, K, LO, HI)                                                           \
    HR_DEFINE_LEVEL(in_##NAME, S, K)                                                                       \
    static hipreduce_status reduce_##NAME(int op, const void* input, uint64_t n, void* result)            \
    {                                                                                                      \
        S out;                                                                                             \
        if (n == 0) {                                                                                      \
            /* The dtype's identity; for float sums +0.0, not the lanes' -0.0. */                          \
            out = op == MIN ? (S)(HI) : op == MAX ? (S)(LO) : op == SUM ? (S)0 : (S)identity_##K(op);     \
            memcpy(result, &out, sizeof out);                                                              \
            return HIPREDUCE_STATUS_SUCCESS;                                                               \
        }                                                                                                  \
        const uint32_t ci = hr_chunk_items(sizeof(S));                                                     \
        const uint64_t tile = hr_tile_items(sizeof(S));                                                    \
        uint64_t count = hr_tiles(n, tile);                                                                \
        acc_##K* partial = (acc_##K*)malloc((size_t)count * sizeof *partial);                             \
        if (partial == NULL) return HIPREDUCE_STATUS_ALLOCATION_FAILED;                                    \
        level_in_##NAME(op, input, n, ci, partial);                                                        \
        while (count > 1) {                                                                                \
            level_acc_##K(op, partial, count, ci, partial);                                                \
            count = hr_tiles(count, tile);                                                                 \
        }                                                                                                  \
        out = (S)partial[0];                                                                               \
        free(partial);                                                                                     \
        memcpy(result, &out, sizeof out);                                                                  \
        return HIPREDUCE_STATUS_SUCCESS;                                                                   \
    }

HR_CPU_DTYPES(HR_DEFINE_DTYPE)

hipreduce_status hr_cpu_reduce(hipreduce_op op, hipreduce_dtype dtype, const void* input, uint64_t n,
                               void* result)
{
#define HR_DISPATCH(VALUE, NAME, S, K, LO, HI)                                                               \
    case VALUE: return reduce_##NAME((int)op, input, n, result);
    switch (dtype) {
        HR_CPU_DTYPES(HR_DISPATCH)
    default: return HIPREDUCE_STATUS_INVALID_DTYPE;
    }
#undef HR_DISPATCH
}
