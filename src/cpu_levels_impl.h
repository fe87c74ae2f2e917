/* The level kernels' one source (see cpu_levels.h), included once per instruction set by
 * cpu_levels_<isa>.c, which first defines HR_TARGET (a function attribute, or nothing),
 * HR_LEVELS_TABLE (the table's name) and HR_LEVELS_ISA (its name as a string).
 *
 * One generic kernel source, parameterised by (source dtype, transform, accumulator kind,
 * combine) and instantiated for the cells of cpu_cells.h, which the build generates from
 * device/rules.h (src/gen/cpu_cells.c): exactly what the allowed triples use. The default
 * algorithm's order (device/order.h): inside a tile, lane l folds the transformed elements
 * tile_base + (c * HR_TILE_LANES + l) * ci + v in (c, v) order from the combine's identity,
 * then the segment tree combines the lanes. Float sums and products (of x, |x|, x*x, x*y;
 * nrm2's sums of squares) depend on that order and keep it. Every other combine gives the same
 * bits in any order (integers wrap; float min/max and argmin/argmax pick one element by a total
 * order, see cpu_ops.h), so those tiles are folded in memory order instead. */
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

#include "cpu_cells.h"
#include "cpu_levels.h"
#include "cpu_ops.h"
#include "plan.h"

#define HR_KERNEL HR_ALWAYS_INLINE HR_TARGET

/* A lane's ci elements unrolled whole, so that the lane loop around them vectorises: GCC left
 * the loop in place (and the lanes scalar) where an element costs more, e.g. f16 dot's two
 * conversions. */
#if defined(__GNUC__) || defined(__clang__)
#define HR_UNROLL_CHUNK _Pragma("GCC unroll 16")
#else
#define HR_UNROLL_CHUNK
#endif

enum {
    HR_LANE_BLOCK = 32, /* lanes per inner loop: short chains the out-of-order core overlaps */
    HR_FLAT_LANES = 32  /* accumulators of the order-free folds */
};

/* The segment tree over lane[0 .. HR_TILE_LANES): lane 0 ends up with the tile's value. */
#define HR_SEGMENT_TREE(K, cmb, lane)                                                                      \
    do {                                                                                                   \
        for (uint32_t seg = 0; seg < HR_TILE_LANES; seg += HR_SEGMENT)                                     \
            for (uint32_t s = HR_SEGMENT / 2; s > 0; s /= 2)                                               \
                for (uint32_t i = 0; i < s; ++i)                                                           \
                    lane[seg + i] = combine_##K(cmb, lane[seg + i], lane[seg + i + s]);                    \
        for (uint32_t s = HR_TILE_LANES / HR_SEGMENT / 2; s > 0; s /= 2)                                   \
            for (uint32_t i = 0; i < s; ++i)                                                               \
                lane[i * HR_SEGMENT] = combine_##K(cmb, lane[i * HR_SEGMENT], lane[(i + s) * HR_SEGMENT]); \
    } while (0)

/* The tile kernels, for source SN (an input dtype, or an accumulator kind at the levels above),
 * transform T, kind K and CI elements per chunk; each returns one tile's partial:
 *  ordered_: the canonical order, vectorised across lanes (lane l's accumulator is one vector
 *            lane; the ci elements of a chunk are de-interleaved by shuffles): whole chunks,
 *            then the lanes a partial chunk covers whole, then the one lane it covers in part;
 *  flat_:    order-free, memory order over HR_FLAT_LANES accumulators (integers, which wrap;
 *            argmin/argmax partials);
 *  keys_:    float min/max of x or |x|, order-free through the order keys of the source's own
 *            bits and a NaN flag, both plain integer vector operations;
 *  arg_:     argmin/argmax of input elements: each accumulator keeps the first of its best keys,
 *            so ties go to the smaller index. */
#define HR_ORDERED_LANES(SN, T, K, cmb, lane, xc, yc, first, last, CI)                                     \
    for (uint32_t l = first; l < last; ++l) {                                                              \
        acc_##K acc = lane[l];                                                                             \
        HR_UNROLL_CHUNK for (uint32_t v = 0; v < (CI); ++v)                                                \
            acc = combine_##K(cmb, acc, HR_LIFT_##T(SN, K, xc, yc, ((size_t)l * (CI) + v) * sizeof(st_##SN))); \
        lane[l] = acc;                                                                                     \
    }

#define HR_DEFINE_ORDERED(SN, T, K, CI)                                                                    \
    HR_KERNEL acc_##K ordered_##SN##_##T##_##K##_##CI(int cmb, const unsigned char* x, const unsigned char* y, \
                                                      uint64_t items, acc_##K start)                       \
    {                                                                                                      \
        const uint32_t chunk_items = HR_TILE_LANES * (CI);                                                 \
        const uint32_t whole = (uint32_t)(items / chunk_items);                                            \
        const size_t chunk_bytes = (size_t)chunk_items * sizeof(st_##SN);                                  \
        acc_##K lane[HR_TILE_LANES];                                                                       \
        for (uint32_t l = 0; l < HR_TILE_LANES; ++l) lane[l] = start;                                      \
        for (uint32_t c = 0; c < whole; ++c) {                                                             \
            const unsigned char* xc = x + c * chunk_bytes;                                                 \
            const unsigned char* yc = y + c * chunk_bytes;                                                 \
            (void)yc;                                                                                      \
            for (uint32_t block = 0; block < HR_TILE_LANES; block += HR_LANE_BLOCK)                        \
                HR_ORDERED_LANES(SN, T, K, cmb, lane, xc, yc, block, block + HR_LANE_BLOCK, CI)            \
        }                                                                                                  \
        const uint32_t rest = (uint32_t)(items - (uint64_t)whole * chunk_items);                           \
        if (rest > 0) {                                                                                    \
            const unsigned char* xc = x + whole * chunk_bytes;                                             \
            const unsigned char* yc = y + whole * chunk_bytes;                                             \
            (void)yc;                                                                                      \
            HR_ORDERED_LANES(SN, T, K, cmb, lane, xc, yc, 0, rest / (CI), CI)                              \
            const size_t tail = (size_t)(rest - rest % (CI)) * sizeof(st_##SN);                            \
            acc_##K acc = lane[rest / (CI)];                                                               \
            for (uint32_t v = 0; v < rest % (CI); ++v)                                                     \
                acc = combine_##K(cmb, acc, HR_LIFT_##T(SN, K, xc, yc, tail + v * sizeof(st_##SN)));       \
            lane[rest / (CI)] = acc;                                                                       \
        }                                                                                                  \
        HR_SEGMENT_TREE(K, cmb, lane);                                                                     \
        return lane[0];                                                                                    \
    }

/* The NRM2_F64 kind's ordered kernel: the same order, its three sums kept in three lane arrays
 * (an array of structs stays scalar). */
#define HR_NRM2_LANES(SN, T, K, lane, xc, yc, first, last, CI)                                             \
    for (uint32_t l = first; l < last; ++l) {                                                              \
        double s = lane[0][l], m = lane[1][l], b = lane[2][l];                                             \
        HR_UNROLL_CHUNK for (uint32_t v = 0; v < (CI); ++v) {                                              \
            const acc_##K e = HR_LIFT_##T(SN, K, xc, yc, ((size_t)l * (CI) + v) * sizeof(st_##SN));        \
            s = s + e.sml, m = m + e.med, b = b + e.big;                                                   \
        }                                                                                                  \
        lane[0][l] = s, lane[1][l] = m, lane[2][l] = b;                                                    \
    }

#define HR_DEFINE_ORDERED_NRM2(SN, T, K, CI)                                                               \
    HR_KERNEL acc_##K ordered_##SN##_##T##_##K##_##CI(int cmb, const unsigned char* x, const unsigned char* y, \
                                                      uint64_t items, acc_##K start)                       \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        const uint32_t chunk_items = HR_TILE_LANES * (CI);                                                 \
        const uint32_t whole = (uint32_t)(items / chunk_items);                                            \
        const size_t chunk_bytes = (size_t)chunk_items * sizeof(st_##SN);                                  \
        double lane[3][HR_TILE_LANES];                                                                     \
        for (uint32_t l = 0; l < HR_TILE_LANES; ++l)                                                       \
            lane[0][l] = start.sml, lane[1][l] = start.med, lane[2][l] = start.big;                        \
        for (uint32_t c = 0; c < whole; ++c) {                                                             \
            const unsigned char* xc = x + c * chunk_bytes;                                                 \
            const unsigned char* yc = y + c * chunk_bytes;                                                 \
            (void)yc;                                                                                      \
            for (uint32_t block = 0; block < HR_TILE_LANES; block += HR_LANE_BLOCK)                        \
                HR_NRM2_LANES(SN, T, K, lane, xc, yc, block, block + HR_LANE_BLOCK, CI)                    \
        }                                                                                                  \
        const uint32_t rest = (uint32_t)(items - (uint64_t)whole * chunk_items);                           \
        if (rest > 0) {                                                                                    \
            const unsigned char* xc = x + whole * chunk_bytes;                                             \
            const unsigned char* yc = y + whole * chunk_bytes;                                             \
            (void)yc;                                                                                      \
            HR_NRM2_LANES(SN, T, K, lane, xc, yc, 0, rest / (CI), CI)                                      \
            const uint32_t l = rest / (CI);                                                                \
            const size_t tail = (size_t)(rest - rest % (CI)) * sizeof(st_##SN);                            \
            for (uint32_t v = 0; v < rest % (CI); ++v) {                                                   \
                const acc_##K e = HR_LIFT_##T(SN, K, xc, yc, tail + v * sizeof(st_##SN));                  \
                lane[0][l] = lane[0][l] + e.sml, lane[1][l] = lane[1][l] + e.med;                          \
                lane[2][l] = lane[2][l] + e.big;                                                           \
            }                                                                                              \
        }                                                                                                  \
        acc_##K r;                                                                                         \
        HR_SEGMENT_TREE(F64, HR_CB_ADD, lane[0]);                                                            \
        HR_SEGMENT_TREE(F64, HR_CB_ADD, lane[1]);                                                            \
        HR_SEGMENT_TREE(F64, HR_CB_ADD, lane[2]);                                                            \
        r.sml = lane[0][0], r.med = lane[1][0], r.big = lane[2][0];                                        \
        return r;                                                                                          \
    }

#define HR_DEFINE_FLAT(SN, T, K, CI)                                                                       \
    HR_KERNEL acc_##K flat_##SN##_##T##_##K##_##CI(int cmb, const unsigned char* x, const unsigned char* y,    \
                                                   uint64_t items)                                         \
    {                                                                                                      \
        (void)y;                                                                                           \
        acc_##K acc[HR_FLAT_LANES];                                                                        \
        for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) acc[j] = identity_##K(cmb);                           \
        uint64_t i = 0;                                                                                    \
        for (; i + HR_FLAT_LANES <= items; i += HR_FLAT_LANES)                                             \
            for (uint32_t j = 0; j < HR_FLAT_LANES; ++j)                                                   \
                acc[j] = combine_##K(cmb, acc[j], HR_LIFT_##T(SN, K, x, y, (i + j) * sizeof(st_##SN)));    \
        for (; i < items; ++i) acc[0] = combine_##K(cmb, acc[0], HR_LIFT_##T(SN, K, x, y, i * sizeof(st_##SN))); \
        for (uint32_t j = 1; j < HR_FLAT_LANES; ++j) acc[0] = combine_##K(cmb, acc[0], acc[j]);            \
        return acc[0];                                                                                     \
    }

#define HR_KEY_MASK_IDENT(B) ((B)~(B)0)
#define HR_KEY_MASK_ABS(B) ((B)((B)~(B)0 >> 1))
#define HR_DEFINE_KEYS(SN, T, K, CI)                                                                       \
    HR_KERNEL acc_##K keys_##SN##_##T##_##K##_##CI(int cmb, const unsigned char* x, uint64_t items)        \
    {                                                                                                      \
        const sb_##SN mask = HR_KEY_MASK_##T(sb_##SN);                                                     \
        sk_##SN best[HR_FLAT_LANES], nan[HR_FLAT_LANES];                                                   \
        const sk_##SN first = (sk_##SN)hr_order_key(sk_##SN, sb_##SN, bits_##SN(x) & mask);               \
        for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) best[j] = first, nan[j] = 0;                          \
        uint64_t i = 0;                                                                                    \
        for (; i + HR_FLAT_LANES <= items; i += HR_FLAT_LANES)                                             \
            for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) {                                                 \
                const sb_##SN bits = (sb_##SN)(bits_##SN(x + (i + j) * sizeof(st_##SN)) & mask);          \
                const sk_##SN key = (sk_##SN)hr_order_key(sk_##SN, sb_##SN, bits);                         \
                best[j] = (cmb == HR_CB_MIN ? key < best[j] : key > best[j]) ? key : best[j];                \
                nan[j] |= (sk_##SN)hr_is_nan_bits(sb_##SN, bits, inf_##SN());                              \
            }                                                                                              \
        for (; i < items; ++i) {                                                                           \
            const sb_##SN bits = (sb_##SN)(bits_##SN(x + i * sizeof(st_##SN)) & mask);                    \
            const sk_##SN key = (sk_##SN)hr_order_key(sk_##SN, sb_##SN, bits);                             \
            best[0] = (cmb == HR_CB_MIN ? key < best[0] : key > best[0]) ? key : best[0];                    \
            nan[0] |= (sk_##SN)hr_is_nan_bits(sb_##SN, bits, inf_##SN());                                  \
        }                                                                                                  \
        for (uint32_t j = 1; j < HR_FLAT_LANES; ++j) {                                                     \
            best[0] = (cmb == HR_CB_MIN ? best[j] < best[0] : best[j] > best[0]) ? best[j] : best[0];        \
            nan[0] |= nan[j];                                                                              \
        }                                                                                                  \
        if (nan[0]) return canonical_nan_##K();                                                            \
        return (acc_##K)of_bits_##SN((sb_##SN)hr_order_key(sk_##SN, sb_##SN, best[0]));                    \
    }

#define HR_DEFINE_ARG(SN, K, CI)                                                                           \
    HR_KERNEL acc_##K arg_##SN##_##K##_##CI(int cmb, const unsigned char* x, uint64_t items, uint64_t base)   \
    {                                                                                                      \
        const key_##K extreme = nan_key_##K(cmb);                                                                \
        key_##K best[HR_FLAT_LANES];                                                                       \
        at_##K at[HR_FLAT_LANES];                                                                          \
        const key_##K first = HR_LIFT_KEY(SN, K, x, extreme);                                              \
        for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) best[j] = first, at[j] = 0;                           \
        uint64_t i = 0;                                                                                    \
        for (; i + HR_FLAT_LANES <= items; i += HR_FLAT_LANES)                                             \
            for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) {                                                 \
                const unsigned char* p = x + (i + j) * sizeof(st_##SN);                                    \
                const key_##K key = HR_LIFT_KEY(SN, K, p, extreme);                                        \
                const int won = hr_combine_arg_max(cmb) ? key > best[j] : key < best[j];             \
                best[j] = won ? key : best[j];                                                             \
                at[j] = won ? (at_##K)(i + j) : at[j];                                                     \
            }                                                                                              \
        for (; i < items; ++i) {                                                                           \
            const unsigned char* p = x + i * sizeof(st_##SN);                                              \
            const key_##K key = HR_LIFT_KEY(SN, K, p, extreme);                                            \
            const int won = hr_combine_arg_max(cmb) ? key > best[0] : key < best[0];                 \
            best[0] = won ? key : best[0];                                                                 \
            at[0] = won ? (at_##K)i : at[0];                                                               \
        }                                                                                                  \
        for (uint32_t j = 1; j < HR_FLAT_LANES; ++j)                                                       \
            if (better_##K(cmb, best[j], (int64_t)at[j], best[0], (int64_t)at[0])) best[0] = best[j], at[0] = at[j]; \
        const acc_##K r = {best[0], (int64_t)(base + at[0])};                                              \
        return r;                                                                                          \
    }

/* ---- level functions: one per (source, transform, kind), one tile loop per combine, so that
 * each combine's switch folds away ---- */

#define HR_TILE_CASE(CMB, K, TILE_VALUE)                                                                   \
    case CMB:                                                                                              \
        for (uint64_t t = t0; t < t1; ++t) {                                                               \
            const uint64_t base = t * tile;                                                                \
            const uint64_t items = count - base < tile ? count - base : tile;                              \
            const unsigned char* xt = x + base * esize;                                                    \
            const unsigned char* yt = y + base * esize;                                                    \
            (void)xt, (void)yt;                                                                            \
            const acc_##K value = TILE_VALUE;                                                              \
            store_##K(out + t * sizeof(acc_##K), value);                                                   \
        }                                                                                                  \
        break;

/* Per accumulator family (a kind's implementation, cpu_ops.h): the tile kernels a cell needs
 * (HR_DEFS_<family>) and the one each combine runs (HR_TILE_<family>_<combine>).
 *   INT:   integers wrap or pick, so every combine folds in memory order (flat_);
 *   FLOAT: sums (ADD, and NRM2: a sum of squares from +0.0) and products keep the canonical order
 *          (ordered_, started from the combine's identity); min/max of x or |x| go through the
 *          order keys of the source's bits (keys_), of another transform through ordered_;
 *   NRM2:  f64 nrm2's three scaled sums, in the canonical order;
 *   STRUCT: the statistics' accumulators (cpu_ops.h, device/stats.h), in the canonical order
 *          (ordered_, lanes as structs: scalar code);
 *   KEY:   argmin/argmax: input elements through arg_ (transform KEY), partials through flat_. */
#define HR_FAMILY_I32 INT
#define HR_FAMILY_U32 INT
#define HR_FAMILY_I64 INT
#define HR_FAMILY_U64 INT
#define HR_FAMILY_F32 FLOAT
#define HR_FAMILY_F64 FLOAT
#define HR_FAMILY_NRM2_F64 NRM2
#define HR_FAMILY_KEY32 KEY
#define HR_FAMILY_KEY64 KEY
#define HR_FAMILY_SUMN_F32 STRUCT
#define HR_FAMILY_SUMN_F64 STRUCT
#define HR_FAMILY_MOM_F32 STRUCT
#define HR_FAMILY_MOM_F64 STRUCT
#define HR_FAMILY_LSE_F32 STRUCT
#define HR_FAMILY_LSE_F64 STRUCT
#define HR_CAT(a, b) HR_CAT_(a, b)
#define HR_CAT_(a, b) a##b
/* HR_FAMILY(K, PREFIX): PREFIX<family of K> */
#define HR_FAMILY(K, PREFIX) HR_CAT(PREFIX, HR_FAMILY_##K)

#define HR_DEFS_INT(SN, T, K, CI) HR_DEFINE_FLAT(SN, T, K, CI)
#define HR_TILE_INT(SN, T, K, CI, C) flat_##SN##_##T##_##K##_##CI(HR_CB_##C, xt, yt, items)

#define HR_DEFS_FLOAT(SN, T, K, CI) HR_DEFINE_ORDERED(SN, T, K, CI) HR_KEYS_DEF_##T(SN, T, K, CI)
#define HR_KEYS_DEF_IDENT(SN, T, K, CI) HR_DEFINE_KEYS(SN, T, K, CI)
#define HR_KEYS_DEF_ABS(SN, T, K, CI) HR_DEFINE_KEYS(SN, T, K, CI)
#define HR_KEYS_DEF_SQUARE(SN, T, K, CI)
#define HR_KEYS_DEF_PRODUCT(SN, T, K, CI)
#define HR_KEYS_DEF_NANZERO(SN, T, K, CI)
#define HR_TILE_FLOAT(SN, T, K, CI, C) HR_TILE_FLOAT_##C(SN, T, K, CI, HR_CB_##C)
#define HR_TILE_FLOAT_ORDERED(SN, T, K, CI, CMB) ordered_##SN##_##T##_##K##_##CI(CMB, xt, yt, items, identity_##K(CMB))
#define HR_TILE_FLOAT_ADD HR_TILE_FLOAT_ORDERED
#define HR_TILE_FLOAT_NRM2 HR_TILE_FLOAT_ORDERED /* combine_<K>(NRM2) adds, from identity +0.0 */
#define HR_TILE_FLOAT_MUL HR_TILE_FLOAT_ORDERED
#define HR_TILE_FLOAT_MIN(SN, T, K, CI, CMB) HR_TILE_FLOAT_PICK_##T(SN, T, K, CI, CMB)
#define HR_TILE_FLOAT_MAX HR_TILE_FLOAT_MIN
#define HR_TILE_FLOAT_NANMIN HR_TILE_FLOAT_ORDERED /* nanmin, nanmax: the canonical order's kernel */
#define HR_TILE_FLOAT_NANMAX HR_TILE_FLOAT_ORDERED
#define HR_TILE_FLOAT_PICK_IDENT(SN, T, K, CI, CMB) keys_##SN##_##T##_##K##_##CI(CMB, xt, items)
#define HR_TILE_FLOAT_PICK_ABS HR_TILE_FLOAT_PICK_IDENT
#define HR_TILE_FLOAT_PICK_SQUARE HR_TILE_FLOAT_ORDERED
#define HR_TILE_FLOAT_PICK_PRODUCT HR_TILE_FLOAT_ORDERED

#define HR_DEFS_STRUCT(SN, T, K, CI) HR_DEFINE_ORDERED(SN, T, K, CI)
#define HR_TILE_STRUCT(SN, T, K, CI, C) ordered_##SN##_##T##_##K##_##CI(HR_CB_##C, xt, yt, items, identity_##K(HR_CB_##C))

#define HR_DEFS_NRM2(SN, T, K, CI) HR_DEFINE_ORDERED_NRM2(SN, T, K, CI)
#define HR_TILE_NRM2(SN, T, K, CI, C) ordered_##SN##_##T##_##K##_##CI(HR_CB_##C, xt, yt, items, identity_##K(HR_CB_##C))

#define HR_DEFS_KEY(SN, T, K, CI) HR_ARG_DEF_##T(SN, K, CI)
#define HR_ARG_DEF_KEY(SN, K, CI) HR_DEFINE_ARG(SN, K, CI)
#define HR_ARG_DEF_IDENT(SN, K, CI) HR_DEFINE_FLAT(SN, IDENT, K, CI)
#define HR_TILE_KEY(SN, T, K, CI, C) HR_ARG_USE_##T(SN, K, CI, HR_CB_##C)
#define HR_ARG_USE_KEY(SN, K, CI, CMB) arg_##SN##_##K##_##CI(CMB, xt, items, base)
#define HR_ARG_USE_IDENT(SN, K, CI, CMB) flat_##SN##_IDENT_##K##_##CI(CMB, xt, yt, items)

#define HR_LEVEL_CASE(SN, T, K, CI, C) HR_TILE_CASE(HR_CB_##C, K, HR_FAMILY(K, HR_TILE_)(SN, T, K, CI, C))

/* A level function of source SN (an input dtype, or kind K at the levels above), transform T,
 * kind K, CI elements per chunk, for the combines CMBS (cpu_cells.h's sets). */
#define HR_DEFINE_LEVEL(NAME, SN, T, K, CI, CMBS)                                                          \
    HR_FAMILY(K, HR_DEFS_)(SN, T, K, CI)                                                                   \
    static HR_TARGET void NAME(int cmb, const void* src, const void* src_y, uint64_t count, uint64_t tile,  \
                               uint64_t t0, uint64_t t1, void* dst)                                        \
    {                                                                                                      \
        const unsigned char* x = (const unsigned char*)src;                                                \
        const unsigned char* y = (const unsigned char*)(src_y ? src_y : src); /* read only by dot */      \
        unsigned char* out = (unsigned char*)dst;                                                          \
        const size_t esize = sizeof(st_##SN);                                                              \
        switch (cmb) {                                                                                     \
            CMBS(HR_LEVEL_CASE, SN, T, K, CI)                                                              \
        default: break;                                                                                    \
        }                                                                                                  \
    }

/* ---- the instances: the cells of cpu_cells.h, generated at build time from device/rules.h
 * (every allowed triple's input dtype, transform, accumulator kind and combine) ---- */
#define HR_CI_1 16
#define HR_CI_2 8
#define HR_CI_4 4
#define HR_CI_8 2
#define HR_CI_16 1
#define HR_IN_DEFINE(E, SN, BYTES, T, K, CMBS) HR_DEFINE_LEVEL(in_##SN##_##T##_##K, SN, T, K, HR_CI_##BYTES, CMBS)
#define HR_IN_ROW(E, SN, BYTES, T, K, CMBS) [E][HR_TF_##T][HR_ACC_##K] = in_##SN##_##T##_##K,
HR_CPU_IN_CELLS(HR_IN_DEFINE)

/* Higher levels: partials of a kind. The ordered families keep the input's chunk geometry (one
 * function per element size); the order-free ones are one function for every geometry. */
#define HR_UP_KIND_INT(K, CMBS) HR_DEFINE_LEVEL(up_##K, K, IDENT, K, 0, CMBS)
#define HR_UP_KIND_KEY HR_UP_KIND_INT
#define HR_UP_KIND_FLOAT(K, CMBS)
#define HR_UP_KIND_NRM2(K, CMBS)
#define HR_UP_KIND_STRUCT(K, CMBS)
#define HR_UP_SIZE_INT(K, BYTES, CMBS)
#define HR_UP_SIZE_KEY(K, BYTES, CMBS)
#define HR_UP_SIZE_FLOAT(K, BYTES, CMBS) HR_DEFINE_LEVEL(up_##K##_##BYTES, K, IDENT, K, HR_CI_##BYTES, CMBS)
#define HR_UP_SIZE_NRM2 HR_UP_SIZE_FLOAT
#define HR_UP_SIZE_STRUCT HR_UP_SIZE_FLOAT
#define HR_UP_NAME_INT(K, BYTES) up_##K
#define HR_UP_NAME_KEY HR_UP_NAME_INT
#define HR_UP_NAME_FLOAT(K, BYTES) up_##K##_##BYTES
#define HR_UP_NAME_NRM2 HR_UP_NAME_FLOAT
#define HR_UP_NAME_STRUCT HR_UP_NAME_FLOAT
#define HR_UP_KIND(K, CMBS) HR_FAMILY(K, HR_UP_KIND_)(K, CMBS)
#define HR_UP_SIZE(K, BYTES, CMBS) HR_FAMILY(K, HR_UP_SIZE_)(K, BYTES, CMBS)
HR_CPU_KIND_CELLS(HR_UP_KIND)
HR_CPU_UP_CELLS(HR_UP_SIZE)
#define HR_SLOT_1 0
#define HR_SLOT_2 1
#define HR_SLOT_4 2
#define HR_SLOT_8 3
#define HR_SLOT_16 4
#define HR_UP_ROW(K, BYTES, CMBS) [HR_ACC_##K][HR_SLOT_##BYTES] = HR_FAMILY(K, HR_UP_NAME_)(K, BYTES),

/* The column kernels of the same instruction set. */
#define HR_COLUMNS_TABLE hr_columns_table
#include "cpu_columns_impl.h"

const hr_cpu_levels HR_LEVELS_TABLE = {
    .isa = HR_LEVELS_ISA,
    .columns = &HR_COLUMNS_TABLE,
    .in = {HR_CPU_IN_CELLS(HR_IN_ROW)},
    .up = {HR_CPU_UP_CELLS(HR_UP_ROW)},
};
