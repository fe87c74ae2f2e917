/* The level kernels' one source (see cpu_levels.h), included once per instruction set by
 * cpu_levels_<isa>.c, which first defines HR_TARGET (a function attribute, or nothing),
 * HR_LEVELS_TABLE (the table's name) and HR_LEVELS_ISA (its name as a string).
 *
 * One generic kernel source, parameterised by (source dtype, transform, accumulator kind,
 * combine) and instantiated from the dtype rows (device/op_table.h) below. The default
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

/* The element at byte offset OFF of x (and of y), of source SN, transformed into kind K
 * (op_table.h's transform column; KEY has its own kernel, arg_). */
#define HR_XF_IDENT(SN, K, x, y, off) ident_##K(val_##SN((x) + (off)))
#define HR_XF_ABS(SN, K, x, y, off) ident_##K(mag_##SN(val_##SN((x) + (off))))
#define HR_XF_SQUARE(SN, K, x, y, off) square_##K(val_##SN((x) + (off)))
#define HR_XF_PRODUCT(SN, K, x, y, off) product_##K(val_##SN((x) + (off)), val_##SN((y) + (off)))

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
            acc = combine_##K(cmb, acc, HR_XF_##T(SN, K, xc, yc, ((size_t)l * (CI) + v) * sizeof(st_##SN))); \
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
                acc = combine_##K(cmb, acc, HR_XF_##T(SN, K, xc, yc, tail + v * sizeof(st_##SN)));         \
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
            const acc_##K e = HR_XF_##T(SN, K, xc, yc, ((size_t)l * (CI) + v) * sizeof(st_##SN));           \
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
                const acc_##K e = HR_XF_##T(SN, K, xc, yc, tail + v * sizeof(st_##SN));                    \
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
                acc[j] = combine_##K(cmb, acc[j], HR_XF_##T(SN, K, x, y, (i + j) * sizeof(st_##SN)));      \
        for (; i < items; ++i) acc[0] = combine_##K(cmb, acc[0], HR_XF_##T(SN, K, x, y, i * sizeof(st_##SN))); \
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
        const key_##K extreme = identity_##K(cmb == HR_CB_ARGMAX ? HR_CB_ARGMIN : HR_CB_ARGMAX).key;             \
        key_##K best[HR_FLAT_LANES];                                                                       \
        at_##K at[HR_FLAT_LANES];                                                                          \
        const key_##K first = argnan_##SN(x) ? extreme : (key_##K)argkey_##SN(x);                          \
        for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) best[j] = first, at[j] = 0;                           \
        uint64_t i = 0;                                                                                    \
        for (; i + HR_FLAT_LANES <= items; i += HR_FLAT_LANES)                                             \
            for (uint32_t j = 0; j < HR_FLAT_LANES; ++j) {                                                 \
                const unsigned char* p = x + (i + j) * sizeof(st_##SN);                                    \
                const key_##K key = argnan_##SN(p) ? extreme : (key_##K)argkey_##SN(p);                    \
                const int won = cmb == HR_CB_ARGMAX ? key > best[j] : key < best[j];                         \
                best[j] = won ? key : best[j];                                                             \
                at[j] = won ? (at_##K)(i + j) : at[j];                                                     \
            }                                                                                              \
        for (; i < items; ++i) {                                                                           \
            const unsigned char* p = x + i * sizeof(st_##SN);                                              \
            const key_##K key = argnan_##SN(p) ? extreme : (key_##K)argkey_##SN(p);                        \
            const int won = cmb == HR_CB_ARGMAX ? key > best[0] : key < best[0];                             \
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

/* Per kind class: the tile kernels a level function needs (HR_DEFS_) and its cases (HR_BODY_).
 * Which combines meet which transform is the list HR_<class>_COMBINES_<transform>: the pairs the
 * op rows use and their obvious neighbours (each pair is a loop per instruction set, so the
 * build stays quick); an op row made of a listed pair runs without a change here, another
 * pair is one word in its list. */
#define HR_DEFS_INT(SN, T, K, CI) HR_DEFINE_FLAT(SN, T, K, CI)
#define HR_FLAT_CASE(SN, T, K, CI, CMB) HR_TILE_CASE(CMB, K, flat_##SN##_##T##_##K##_##CI(CMB, xt, yt, items))
#define HR_INT_COMBINES_IDENT(G, SN, T, K, CI)                                                             \
    G(SN, T, K, CI, HR_CB_ADD) G(SN, T, K, CI, HR_CB_MUL) G(SN, T, K, CI, HR_CB_MIN) G(SN, T, K, CI, HR_CB_MAX)    \
    G(SN, T, K, CI, HR_CB_AND) G(SN, T, K, CI, HR_CB_OR) G(SN, T, K, CI, HR_CB_XOR)
#define HR_INT_COMBINES_ABS(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD) G(SN, T, K, CI, HR_CB_MIN) G(SN, T, K, CI, HR_CB_MAX)
#define HR_INT_COMBINES_SQUARE(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD)
#define HR_INT_COMBINES_PRODUCT(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD)
/* A kind wider than the input's own (U64 from <= 32-bit integers) holds only wide results:
 * sums and products. */
#define HR_INT_COMBINES_WIDE_IDENT(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD) G(SN, T, K, CI, HR_CB_MUL)
#define HR_INT_COMBINES_WIDE_ABS(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD)
#define HR_INT_COMBINES_WIDE_SQUARE(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD)
#define HR_INT_COMBINES_WIDE_PRODUCT(G, SN, T, K, CI) G(SN, T, K, CI, HR_CB_ADD)
#define HR_BODY_INT(SN, T, K, CI) HR_INT_COMBINES_##T(HR_FLAT_CASE, SN, T, K, CI)
#define HR_BODY_INT_WIDE(SN, T, K, CI) HR_INT_COMBINES_WIDE_##T(HR_FLAT_CASE, SN, T, K, CI)
#define HR_DEFS_INT_WIDE HR_DEFS_INT
/* The signed kinds (I32, I64) hold only min/max (hr_acc_of). */
#define HR_BODY_INT_ORDER(SN, T, K, CI) HR_FLAT_CASE(SN, T, K, CI, HR_CB_MIN) HR_FLAT_CASE(SN, T, K, CI, HR_CB_MAX)
#define HR_DEFS_INT_ORDER HR_DEFS_INT

/* Floats: sums (ADD, and NRM2, a sum of squares from +0.0) share one ordered loop, started from
 * the combine's own identity; products are ordered too; min/max (x, |x|) go through the order
 * keys. */
#define HR_DEFS_FLOAT(SN, T, K, CI) HR_DEFINE_ORDERED(SN, T, K, CI) HR_KEYS_DEF_##T(SN, T, K, CI)
#define HR_KEYS_DEF_IDENT(SN, T, K, CI) HR_DEFINE_KEYS(SN, T, K, CI)
#define HR_KEYS_DEF_ABS(SN, T, K, CI) HR_DEFINE_KEYS(SN, T, K, CI)
#define HR_KEYS_DEF_SQUARE(SN, T, K, CI)
#define HR_KEYS_DEF_PRODUCT(SN, T, K, CI)
#define HR_FLOAT_CASE_SUM(SN, T, K, CI)                                                                    \
    case HR_CB_NRM2:                                                                                         \
        HR_TILE_CASE(HR_CB_ADD, K, ordered_##SN##_##T##_##K##_##CI(HR_CB_ADD, xt, yt, items, identity_##K(cmb)))
#define HR_FLOAT_CASE_PROD(SN, T, K, CI)                                                                   \
    HR_TILE_CASE(HR_CB_MUL, K, ordered_##SN##_##T##_##K##_##CI(HR_CB_MUL, xt, yt, items, identity_##K(HR_CB_MUL)))
#define HR_FLOAT_CASE_MIN(SN, T, K, CI) HR_TILE_CASE(HR_CB_MIN, K, keys_##SN##_##T##_##K##_##CI(HR_CB_MIN, xt, items))
#define HR_FLOAT_CASE_MAX(SN, T, K, CI) HR_TILE_CASE(HR_CB_MAX, K, keys_##SN##_##T##_##K##_##CI(HR_CB_MAX, xt, items))
#define HR_FLOAT_COMBINES_IDENT(SN, T, K, CI)                                                              \
    HR_FLOAT_CASE_SUM(SN, T, K, CI) HR_FLOAT_CASE_PROD(SN, T, K, CI) HR_FLOAT_CASE_MIN(SN, T, K, CI)       \
    HR_FLOAT_CASE_MAX(SN, T, K, CI)
#define HR_FLOAT_COMBINES_ABS(SN, T, K, CI)                                                                \
    HR_FLOAT_CASE_SUM(SN, T, K, CI) HR_FLOAT_CASE_MIN(SN, T, K, CI) HR_FLOAT_CASE_MAX(SN, T, K, CI)
#define HR_FLOAT_COMBINES_SQUARE(SN, T, K, CI) HR_FLOAT_CASE_SUM(SN, T, K, CI)
#define HR_FLOAT_COMBINES_PRODUCT(SN, T, K, CI) HR_FLOAT_CASE_SUM(SN, T, K, CI)
#define HR_BODY_FLOAT(SN, T, K, CI) HR_FLOAT_COMBINES_##T(SN, T, K, CI)
/* F64 from f16/bf16/f32: only wide results (sums, products, nrm2's sum of squares). */
#define HR_DEFS_FLOAT_WIDE(SN, T, K, CI) HR_DEFINE_ORDERED(SN, T, K, CI)
#define HR_BODY_FLOAT_WIDE(SN, T, K, CI) HR_FLOAT_CASE_SUM(SN, T, K, CI) HR_FLOAT_WIDE_PROD_##T(SN, T, K, CI)
#define HR_FLOAT_WIDE_PROD_IDENT HR_FLOAT_CASE_PROD
#define HR_FLOAT_WIDE_PROD_ABS(SN, T, K, CI)
#define HR_FLOAT_WIDE_PROD_SQUARE(SN, T, K, CI)
#define HR_FLOAT_WIDE_PROD_PRODUCT(SN, T, K, CI)

#define HR_DEFS_NRM2(SN, T, K, CI) HR_DEFINE_ORDERED_NRM2(SN, T, K, CI)
#define HR_BODY_NRM2(SN, T, K, CI)                                                                         \
    HR_TILE_CASE(HR_CB_NRM2, K, ordered_##SN##_##T##_##K##_##CI(HR_CB_NRM2, xt, yt, items, identity_##K(HR_CB_NRM2)))

/* Argmin/argmax: input elements through arg_ (transform KEY), partials through flat_ (IDENT). */
#define HR_ARG_DEF_KEY(SN, K, CI) HR_DEFINE_ARG(SN, K, CI)
#define HR_ARG_DEF_IDENT(SN, K, CI) HR_DEFINE_FLAT(SN, IDENT, K, CI)
#define HR_ARG_USE_KEY(SN, K, CI, CMB) arg_##SN##_##K##_##CI(CMB, xt, items, base)
#define HR_ARG_USE_IDENT(SN, K, CI, CMB) flat_##SN##_IDENT_##K##_##CI(CMB, xt, yt, items)
#define HR_DEFS_KEY(SN, T, K, CI) HR_ARG_DEF_##T(SN, K, CI)
#define HR_BODY_KEY(SN, T, K, CI)                                                                          \
    HR_TILE_CASE(HR_CB_ARGMIN, K, HR_ARG_USE_##T(SN, K, CI, HR_CB_ARGMIN))                                     \
    HR_TILE_CASE(HR_CB_ARGMAX, K, HR_ARG_USE_##T(SN, K, CI, HR_CB_ARGMAX))

/* CLASS: INT, INT_WIDE, INT_ORDER, FLOAT, FLOAT_WIDE, NRM2 or KEY (the lists above). */
#define HR_DEFINE_LEVEL(NAME, SN, T, K, CI, CLASS)                                                         \
    HR_DEFS_##CLASS(SN, T, K, CI)                                                                          \
    static HR_TARGET void NAME(int cmb, const void* src, const void* src_y, uint64_t count, uint64_t tile,  \
                               uint64_t t0, uint64_t t1, void* dst)                                        \
    {                                                                                                      \
        const unsigned char* x = (const unsigned char*)src;                                                \
        const unsigned char* y = (const unsigned char*)(src_y ? src_y : src); /* read only by dot */      \
        unsigned char* out = (unsigned char*)dst;                                                          \
        const size_t esize = sizeof(st_##SN);                                                              \
        switch (cmb) {                                                                                     \
            HR_BODY_##CLASS(SN, T, K, CI)                                                                  \
        default: break;                                                                                    \
        }                                                                                                  \
    }

/* ---- the instances: which (transform, kind) pairs each input dtype class runs, from
 * device/op_table.h's dtype rows and hr_acc_of's rules (types.c) ---- */
#define HR_CI_1 16
#define HR_CI_2 8
#define HR_CI_4 4
#define HR_CI_8 2
#define HR_WIDE(G, E, SN, CI, K, CLASS)                                                                    \
    G(E, SN, IDENT, K, CI, CLASS) G(E, SN, ABS, K, CI, CLASS) G(E, SN, SQUARE, K, CI, CLASS)               \
    G(E, SN, PRODUCT, K, CI, CLASS)
#define HR_PAIRS_SIGNED_1(G, E, SN, CI)                                                                    \
    HR_WIDE(G, E, SN, CI, U32, INT) HR_WIDE(G, E, SN, CI, U64, INT_WIDE) G(E, SN, IDENT, I32, CI, INT_ORDER)     \
    G(E, SN, KEY, KEY32, CI, KEY)
#define HR_PAIRS_SIGNED_2 HR_PAIRS_SIGNED_1
#define HR_PAIRS_SIGNED_4 HR_PAIRS_SIGNED_1
#define HR_PAIRS_SIGNED_8(G, E, SN, CI)                                                                    \
    HR_WIDE(G, E, SN, CI, U64, INT) G(E, SN, IDENT, I64, CI, INT_ORDER) G(E, SN, KEY, KEY64, CI, KEY)
#define HR_PAIRS_UNSIGNED_1(G, E, SN, CI)                                                                  \
    HR_WIDE(G, E, SN, CI, U32, INT) HR_WIDE(G, E, SN, CI, U64, INT_WIDE) G(E, SN, KEY, KEY32, CI, KEY)
#define HR_PAIRS_UNSIGNED_2 HR_PAIRS_UNSIGNED_1
#define HR_PAIRS_UNSIGNED_4 HR_PAIRS_UNSIGNED_1
#define HR_PAIRS_UNSIGNED_8(G, E, SN, CI) HR_WIDE(G, E, SN, CI, U64, INT) G(E, SN, KEY, KEY64, CI, KEY)
#define HR_PAIRS_HALF_2(G, E, SN, CI)                                                                      \
    HR_WIDE(G, E, SN, CI, F32, FLOAT) HR_WIDE(G, E, SN, CI, F64, FLOAT_WIDE) G(E, SN, KEY, KEY32, CI, KEY)
#define HR_PAIRS_FLOAT_4 HR_PAIRS_HALF_2
#define HR_PAIRS_FLOAT_8(G, E, SN, CI)                                                                     \
    HR_WIDE(G, E, SN, CI, F64, FLOAT) G(E, SN, SQUARE, NRM2_F64, CI, NRM2) G(E, SN, KEY, KEY64, CI, KEY)

#define HR_GEN_DEFINE(E, SN, T, K, CI, CLASS) HR_DEFINE_LEVEL(in_##SN##_##T##_##K, SN, T, K, CI, CLASS)
#define HR_GEN_ROW(E, SN, T, K, CI, CLASS) [E][HR_TF_##T][HR_ACC_##K] = in_##SN##_##T##_##K,
#define HR_DTYPE_DEFINE(E, NAME, CLASS, BYTES) HR_PAIRS_##CLASS##_##BYTES(HR_GEN_DEFINE, E, NAME, HR_CI_##BYTES)
#define HR_DTYPE_ROW(E, NAME, CLASS, BYTES) HR_PAIRS_##CLASS##_##BYTES(HR_GEN_ROW, E, NAME, HR_CI_##BYTES)
HR_DTYPE_ROWS(HR_DTYPE_DEFINE)

/* Higher levels: partials of a kind. Ordered kinds keep the input's chunk geometry (CI); the
 * order-free ones are one function for every geometry. */
HR_DEFINE_LEVEL(up_I32, I32, IDENT, I32, 0, INT_ORDER)
HR_DEFINE_LEVEL(up_U32, U32, IDENT, U32, 0, INT)
HR_DEFINE_LEVEL(up_I64, I64, IDENT, I64, 0, INT_ORDER)
HR_DEFINE_LEVEL(up_U64, U64, IDENT, U64, 0, INT)
HR_DEFINE_LEVEL(up_KEY32, KEY32, IDENT, KEY32, 0, KEY)
HR_DEFINE_LEVEL(up_KEY64, KEY64, IDENT, KEY64, 0, KEY)
HR_DEFINE_LEVEL(up_F32_8, F32, IDENT, F32, 8, FLOAT)
HR_DEFINE_LEVEL(up_F32_4, F32, IDENT, F32, 4, FLOAT)
HR_DEFINE_LEVEL(up_F64_8, F64, IDENT, F64, 8, FLOAT)
HR_DEFINE_LEVEL(up_F64_4, F64, IDENT, F64, 4, FLOAT)
HR_DEFINE_LEVEL(up_F64_2, F64, IDENT, F64, 2, FLOAT)
HR_DEFINE_LEVEL(up_NRM2_F64_2, NRM2_F64, IDENT, NRM2_F64, 2, NRM2)

#define HR_UP_ANY(K) [HR_ACC_##K] = {up_##K, up_##K, up_##K, up_##K}
const hr_cpu_levels HR_LEVELS_TABLE = {
    .isa = HR_LEVELS_ISA,
    .in = {HR_DTYPE_ROWS(HR_DTYPE_ROW)},
    .up = {HR_UP_ANY(I32), HR_UP_ANY(U32), HR_UP_ANY(I64), HR_UP_ANY(U64), HR_UP_ANY(KEY32), HR_UP_ANY(KEY64),
           [HR_ACC_F32] = {NULL, up_F32_8, up_F32_4, NULL},
           [HR_ACC_F64] = {NULL, up_F64_8, up_F64_4, up_F64_2},
           [HR_ACC_NRM2_F64] = {NULL, NULL, NULL, up_NRM2_F64_2}},
};
