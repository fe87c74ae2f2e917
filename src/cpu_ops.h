/* The cpu device's operators as data: accumulator kinds (identity, combine), unaligned loads
 * and stores, float order keys, and the dtype table. Shared by the executor (cpu_reduce.c) and
 * the level kernels (cpu_levels.h).
 *
 * Accumulators: 8/16-bit integers in 32 bits (the same result modulo 2^bits, exact for
 * min/max/bitwise), wider types in their own width; integer sum/prod wrap through the unsigned
 * twin (no signed overflow). Floats in plain float/double arithmetic, built with
 * -ffp-contract=off. Every access to caller memory or the workspace goes through memcpy
 * (compilers make it a plain load or store), so no pointer needs any alignment. */
#ifndef HIPREDUCE_CPU_OPS_H
#define HIPREDUCE_CPU_OPS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hipreduce/hipreduce.h"

#if defined(__GNUC__) || defined(__clang__)
#define HR_ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define HR_ALWAYS_INLINE static __forceinline
#else
#define HR_ALWAYS_INLINE static inline
#endif

enum { SUM = HIPREDUCE_OP_SUM, PROD = HIPREDUCE_OP_PROD, MIN = HIPREDUCE_OP_MIN, MAX = HIPREDUCE_OP_MAX,
       AND = HIPREDUCE_OP_AND, OR = HIPREDUCE_OP_OR, XOR = HIPREDUCE_OP_XOR };

/* load_T(p) / store_T(p, v): one element at any address. */
#define HR_DEFINE_ACCESS(NAME, T)                                                                          \
    HR_ALWAYS_INLINE T load_##NAME(const unsigned char* p)                                                 \
    {                                                                                                      \
        T v;                                                                                               \
        memcpy(&v, p, sizeof v);                                                                           \
        return v;                                                                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE void store_##NAME(unsigned char* p, T v) { memcpy(p, &v, sizeof v); }
HR_DEFINE_ACCESS(i8, int8_t)
HR_DEFINE_ACCESS(u8, uint8_t)
HR_DEFINE_ACCESS(i16, int16_t)
HR_DEFINE_ACCESS(u16, uint16_t)
HR_DEFINE_ACCESS(i32, int32_t)
HR_DEFINE_ACCESS(u32, uint32_t)
HR_DEFINE_ACCESS(i64, int64_t)
HR_DEFINE_ACCESS(u64, uint64_t)
HR_DEFINE_ACCESS(f32, float)
HR_DEFINE_ACCESS(f64, double)

/* ---- accumulator kinds: identity and combine, one macro per class ---- */

#define HR_INT_KIND(K, T, U, LO, HI)                                                                       \
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
 * -0.0 orders below +0.0. Both rules make min/max commutative and associative bit for bit, so
 * their result does not depend on the order (the level kernels use that, see cpu_levels.h).
 * key_K maps a float's bits to a signed integer in the same total order (-0.0 below +0.0,
 * NaNs beyond the infinities); it is its own inverse. */
#define HR_FLOAT_KIND(K, T, BITS, SBITS, NAN_BITS, INF_BITS)                                               \
    typedef T acc_##K;                                                                                     \
    typedef SBITS key_##K;                                                                                 \
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
        case SUM: return -(T)0; /* the exact additive identity: a sum of -0.0 stays -0.0 */                \
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
    }                                                                                                      \
    HR_ALWAYS_INLINE SBITS key_of_bits_##K(SBITS bits)                                                     \
    {                                                                                                      \
        const SBITS magnitude = (SBITS)(~(BITS)0 >> 1);                                                    \
        return bits ^ (-(SBITS)((BITS)bits >> (8 * sizeof(BITS) - 1)) & magnitude);                        \
    }                                                                                                      \
    HR_ALWAYS_INLINE SBITS is_nan_bits_##K(SBITS bits)                                                     \
    {                                                                                                      \
        return ((BITS)bits & (~(BITS)0 >> 1)) > (BITS)(INF_BITS);                                          \
    }                                                                                                      \
    HR_ALWAYS_INLINE T from_key_##K(SBITS key)                                                             \
    {                                                                                                      \
        const SBITS bits = key_of_bits_##K(key);                                                           \
        T v;                                                                                               \
        memcpy(&v, &bits, sizeof v);                                                                       \
        return v;                                                                                          \
    }

HR_INT_KIND(i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
HR_INT_KIND(u32, uint32_t, uint32_t, 0, UINT32_MAX)
HR_INT_KIND(i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
HR_INT_KIND(u64, uint64_t, uint64_t, 0, UINT64_MAX)
HR_FLOAT_KIND(f32, float, uint32_t, int32_t, UINT32_C(0x7fc00000), UINT32_C(0x7f800000))
HR_FLOAT_KIND(f64, double, uint64_t, int64_t, UINT64_C(0x7ff8000000000000), UINT64_C(0x7ff0000000000000))

/* ---- the dtype table: adding a dtype is one row here (and one in types.c) ----
 * value, name, element type, accumulator kind, lowest and highest value (the n == 0 max/min). */
#define HR_CPU_DTYPES(X)                                                                                   \
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

#endif
