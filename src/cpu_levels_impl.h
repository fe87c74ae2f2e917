/* The level kernels' one source (see cpu_levels.h), included once per instruction set by
 * cpu_levels_<isa>.c, which first defines HR_TARGET (a function attribute, or nothing),
 * HR_LEVELS_TABLE (the table's name) and HR_LEVELS_ISA (its name as a string).
 *
 * The default algorithm's order (plan.h): inside a tile, lane l folds the elements
 * tile_base + (c * HR_TILE_LANES + l) * ci + v in (c, v) order from the operator's identity,
 * then the segment tree combines the lanes. Float sum and prod depend on that order, and keep
 * it: lane l's accumulator is one vector lane (the compiler vectorises the lane loop; the ci
 * elements of a chunk are de-interleaved by shuffles). Every other operator (integers, which
 * wrap, and float min/max, see cpu_ops.h) gives the same bits in any order, so those tiles
 * are folded in memory order over HR_FLAT_LANES independent accumulators instead. */
#ifndef HR_TARGET
#error "define HR_TARGET, HR_LEVELS_TABLE and HR_LEVELS_ISA before including cpu_levels_impl.h"
#endif

#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
/* The lane loops need GCC's -O3 (its full vectoriser cost model, complete unrolling of the
 * chunk loops): at -O2 (RelWithDebInfo, distribution packages) many stay scalar, up to 2.6x
 * slower. The pragma restates fp-contract=off; -O0 (Debug) builds are left as they are. Clang
 * vectorises them at -O2 already. */
#pragma GCC optimize("O3", "fp-contract=off")
#endif

#include "cpu_levels.h"
#include "cpu_ops.h"
#include "plan.h"

#define HR_KERNEL HR_ALWAYS_INLINE HR_TARGET

enum {
    HR_LANE_BLOCK = 32, /* lanes per inner loop: short chains the out-of-order core overlaps */
    HR_FLAT_LANES = 32  /* accumulators of the order-free fold */
};

/* The segment tree over lane[0 .. HR_TILE_LANES): lane 0 ends up with the tile's value. */
#define HR_SEGMENT_TREE(K, op, lane)                                                                       \
    do {                                                                                                   \
        for (uint32_t seg = 0; seg < HR_TILE_LANES; seg += HR_SEGMENT)                                     \
            for (uint32_t s = HR_SEGMENT / 2; s > 0; s /= 2)                                               \
                for (uint32_t i = 0; i < s; ++i)                                                           \
                    lane[seg + i] = combine_##K(op, lane[seg + i], lane[seg + i + s]);                     \
        for (uint32_t s = HR_TILE_LANES / HR_SEGMENT / 2; s > 0; s /= 2)                                   \
            for (uint32_t i = 0; i < s; ++i)                                                               \
                lane[i * HR_SEGMENT] = combine_##K(op, lane[i * HR_SEGMENT], lane[(i + s) * HR_SEGMENT]);  \
    } while (0)

/* Kernels for source elements of type S (loaded by load_LS) into accumulator kind K:
 *  ordered_NAME: a tile of `items` elements (full, or the last one of a level) in the canonical
 *                order, vectorised across lanes (CI = ci): whole chunks, then the lanes of a
 *                partial chunk that it covers whole, then the one lane it covers in part;
 *  flat_NAME:    any range, order-free (integer kinds). */
#define HR_ORDERED_LANES(K, op, lane, chunk, first, last, S, LS, CI)                                       \
    for (uint32_t l = first; l < last; ++l) {                                                              \
        acc_##K acc = lane[l];                                                                             \
        for (uint32_t v = 0; v < (CI); ++v)                                                                \
            acc = combine_##K(op, acc, (acc_##K)load_##LS(chunk + ((size_t)l * (CI) + v) * sizeof(S)));    \
        lane[l] = acc;                                                                                     \
    }

#define HR_DEFINE_ORDERED(NAME, S, LS, K, CI)                                                              \
    HR_KERNEL acc_##K ordered_##NAME(int op, const unsigned char* x, uint64_t items)                       \
    {                                                                                                      \
        const uint32_t chunk_items = HR_TILE_LANES * (CI);                                                 \
        const uint32_t whole = (uint32_t)(items / chunk_items);                                            \
        acc_##K lane[HR_TILE_LANES];                                                                       \
        for (uint32_t l = 0; l < HR_TILE_LANES; ++l) lane[l] = identity_##K(op);                           \
        for (uint32_t c = 0; c < whole; ++c) {                                                             \
            const unsigned char* chunk = x + (size_t)c * chunk_items * sizeof(S);                          \
            for (uint32_t block = 0; block < HR_TILE_LANES; block += HR_LANE_BLOCK)                        \
                HR_ORDERED_LANES(K, op, lane, chunk, block, block + HR_LANE_BLOCK, S, LS, CI)              \
        }                                                                                                  \
        const uint32_t rest = (uint32_t)(items - (uint64_t)whole * chunk_items);                           \
        if (rest > 0) {                                                                                    \
            const unsigned char* chunk = x + (size_t)whole * chunk_items * sizeof(S);                      \
            HR_ORDERED_LANES(K, op, lane, chunk, 0, rest / (CI), S, LS, CI)                                \
            const unsigned char* tail = chunk + (size_t)(rest - rest % (CI)) * sizeof(S);                  \
            acc_##K acc = lane[rest / (CI)];                                                               \
            for (uint32_t v = 0; v < rest % (CI); ++v)                                                     \
                acc = combine_##K(op, acc, (acc_##K)load_##LS(tail + (size_t)v * sizeof(S)));              \
            lane[rest / (CI)] = acc;                                                                       \
        }                                                                                                  \
        HR_SEGMENT_TREE(K, op, lane);                                                                      \
        return lane[0];                                                                                    \
    }

#define HR_DEFINE_FLAT(NAME, S, LS, K)                                                                     \
    HR_KERNEL acc_##K flat_##NAME(int op, const unsigned char* x, uint64_t items)                          \
    {                                                                                                      \
        acc_##K acc[HR_FLAT_LANES];                                                                        \
        for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) acc[j] = identity_##K(op);                            \
        uint64_t i = 0;                                                                                    \
        for (; i + HR_FLAT_LANES <= items; i += HR_FLAT_LANES)                                             \
            for (uint32_t j = 0; j < HR_FLAT_LANES; ++j)                                                   \
                acc[j] = combine_##K(op, acc[j], (acc_##K)load_##LS(x + (i + j) * sizeof(S)));             \
        for (; i < items; ++i) acc[0] = combine_##K(op, acc[0], (acc_##K)load_##LS(x + i * sizeof(S)));    \
        for (uint32_t j = 1; j < HR_FLAT_LANES; ++j) acc[0] = combine_##K(op, acc[0], acc[j]);             \
        return acc[0];                                                                                     \
    }

/* Float min/max, order-free, through the integer keys of cpu_ops.h: the extreme key and
 * whether any element was a NaN, both plain integer vector operations. S is the kind's float
 * type (loaded as its key type LK). */
#define HR_DEFINE_FLAT_KEYS(NAME, LK, K)                                                                   \
    HR_KERNEL acc_##K flat_##NAME(int op, const unsigned char* x, uint64_t items)                          \
    {                                                                                                      \
        key_##K best[HR_FLAT_LANES], nan[HR_FLAT_LANES];                                                   \
        const key_##K first = key_of_bits_##K(load_##LK(x));                                               \
        for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) best[j] = first, nan[j] = 0;                          \
        uint64_t i = 0;                                                                                    \
        for (; i + HR_FLAT_LANES <= items; i += HR_FLAT_LANES)                                             \
            for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) {                                                 \
                const key_##K bits = load_##LK(x + (i + j) * sizeof(key_##K));                             \
                const key_##K key = key_of_bits_##K(bits);                                                 \
                best[j] = (op == MIN ? key < best[j] : key > best[j]) ? key : best[j];                     \
                nan[j] |= is_nan_bits_##K(bits);                                                           \
            }                                                                                              \
        for (; i < items; ++i) {                                                                           \
            const key_##K bits = load_##LK(x + i * sizeof(key_##K));                                       \
            const key_##K key = key_of_bits_##K(bits);                                                     \
            best[0] = (op == MIN ? key < best[0] : key > best[0]) ? key : best[0];                         \
            nan[0] |= is_nan_bits_##K(bits);                                                               \
        }                                                                                                  \
        for (uint32_t j = 1; j < HR_FLAT_LANES; ++j) {                                                     \
            best[0] = (op == MIN ? best[j] < best[0] : best[j] > best[0]) ? best[j] : best[0];             \
            nan[0] |= nan[j];                                                                              \
        }                                                                                                  \
        return nan[0] ? canonical_nan_##K() : from_key_##K(best[0]);                                       \
    }

/* level_NAME: the hr_cpu_level_fn. One loop per op, so that combine's switch folds away. */
#define HR_LEVEL_LOOP(K, TILE_VALUE)                                                                       \
    for (uint64_t t = t0; t < t1; ++t) {                                                                   \
        const uint64_t base = t * tile;                                                                    \
        const uint64_t items = count - base < tile ? count - base : tile;                                  \
        const acc_##K value = TILE_VALUE;                                                                  \
        store_##K(out + t * sizeof(acc_##K), value);                                                       \
    }
#define HR_INT_CASE(NAME, S, K, OP)                                                                        \
    case OP: HR_LEVEL_LOOP(K, flat_##NAME(OP, x + base * sizeof(S), items)) break;
#define HR_ORDERED_CASE(NAME, S, K, OP)                                                                    \
    case OP: HR_LEVEL_LOOP(K, ordered_##NAME(OP, x + base * sizeof(S), items)) break;

#define HR_DEFINE_INT_LEVEL(NAME, S, LS, K)                                                                \
    HR_DEFINE_FLAT(NAME, S, LS, K)                                                                         \
    static HR_TARGET void level_##NAME(int op, const void* src, uint64_t count, uint64_t tile,             \
                                       uint64_t t0, uint64_t t1, void* dst)                                \
    {                                                                                                      \
        const unsigned char* x = (const unsigned char*)src;                                                \
        unsigned char* out = (unsigned char*)dst;                                                          \
        switch (op) {                                                                                      \
        HR_INT_CASE(NAME, S, K, SUM) HR_INT_CASE(NAME, S, K, PROD) HR_INT_CASE(NAME, S, K, MIN)            \
        HR_INT_CASE(NAME, S, K, MAX) HR_INT_CASE(NAME, S, K, AND) HR_INT_CASE(NAME, S, K, OR)              \
        HR_INT_CASE(NAME, S, K, XOR)                                                                       \
        default: break;                                                                                    \
        }                                                                                                  \
    }

/* Float kinds: sum/prod ordered, min/max by keys; there are no bitwise ops on floats. */
#define HR_DEFINE_FLOAT_LEVEL(NAME, S, LS, LK, K, CI)                                                      \
    HR_DEFINE_ORDERED(NAME, S, LS, K, CI)                                                                  \
    HR_DEFINE_FLAT_KEYS(NAME, LK, K)                                                                       \
    static HR_TARGET void level_##NAME(int op, const void* src, uint64_t count, uint64_t tile,             \
                                       uint64_t t0, uint64_t t1, void* dst)                                \
    {                                                                                                      \
        const unsigned char* x = (const unsigned char*)src;                                                \
        unsigned char* out = (unsigned char*)dst;                                                          \
        switch (op) {                                                                                      \
        HR_ORDERED_CASE(NAME, S, K, SUM) HR_ORDERED_CASE(NAME, S, K, PROD)                                 \
        HR_INT_CASE(NAME, S, K, MIN) HR_INT_CASE(NAME, S, K, MAX)                                          \
        default: break;                                                                                    \
        }                                                                                                  \
    }

/* Level 0, one per dtype: element type S into its accumulator kind. */
HR_DEFINE_INT_LEVEL(in_i8, int8_t, i8, i32)
HR_DEFINE_INT_LEVEL(in_u8, uint8_t, u8, u32)
HR_DEFINE_INT_LEVEL(in_i16, int16_t, i16, i32)
HR_DEFINE_INT_LEVEL(in_u16, uint16_t, u16, u32)
HR_DEFINE_INT_LEVEL(in_i32, int32_t, i32, i32)
HR_DEFINE_INT_LEVEL(in_u32, uint32_t, u32, u32)
HR_DEFINE_INT_LEVEL(in_i64, int64_t, i64, i64)
HR_DEFINE_INT_LEVEL(in_u64, uint64_t, u64, u64)
HR_DEFINE_FLOAT_LEVEL(in_f32, float, f32, i32, f32, 4)
HR_DEFINE_FLOAT_LEVEL(in_f64, double, f64, i64, f64, 2)

/* Higher levels, one per accumulator kind. Float partials keep their input dtype's tiles
 * (f32: ci = 4, f64: ci = 2), the only ones their levels ever see. */
HR_DEFINE_INT_LEVEL(up_i32, int32_t, i32, i32)
HR_DEFINE_INT_LEVEL(up_u32, uint32_t, u32, u32)
HR_DEFINE_INT_LEVEL(up_i64, int64_t, i64, i64)
HR_DEFINE_INT_LEVEL(up_u64, uint64_t, u64, u64)
#define level_up_f32 level_in_f32
#define level_up_f64 level_in_f64

#define HR_LEVEL_ROW_IN(VALUE, NAME, S, K, LO, HI) [VALUE] = level_in_##NAME,
#define HR_LEVEL_ROW_UP(VALUE, NAME, S, K, LO, HI) [VALUE] = level_up_##K,
const hr_cpu_levels HR_LEVELS_TABLE = {
    HR_LEVELS_ISA,
    {HR_CPU_DTYPES(HR_LEVEL_ROW_IN)},
    {HR_CPU_DTYPES(HR_LEVEL_ROW_UP)},
};
