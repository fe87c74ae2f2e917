/* The column kernels' one source (cpu_tensor_columns.h), included by cpu_levels_impl.h once per
 * instruction set (its HR_TARGET; HR_COLUMNS_TABLE names the table): cb adjacent results at once,
 * one "row" (a reduced position: cb contiguous input elements, or cb partials above level 0)
 * folded into cb accumulators, so the loops run along memory and vectorise across results.
 * Instantiated for the cells of cpu_cells.h (generated from device/rules.h), with the transforms
 * and combines of cpu_ops.h, the units every other cpu kernel reads: the same element gives the
 * same accumulator and the same pair of accumulators the same combine as in the row kernels. */
#ifndef HR_COLUMNS_TABLE
#error "cpu_levels_impl.h includes cpu_columns_impl.h after defining HR_TARGET and HR_COLUMNS_TABLE"
#endif

#include "cpu_tensor_columns.h"

#if defined(__GNUC__) || defined(__clang__)
#define HR_COL_UNROLL _Pragma("GCC unroll 64")
#define HR_COL_RESTRICT __restrict__
#else
#define HR_COL_UNROLL
#define HR_COL_RESTRICT
#endif


#define HR_COL_AT(SN, i) ((size_t)(i) * sizeof(st_##SN))

/* ---- ORDERED: a lane's rows (the default order's (chunk, element) sequence) from the identity.
 * A whole lane (4 chunks of CI rows) is unrolled, so the loop over the results vectorises. ---- */
#define HR_COL_LANE_ROWS(SN, T, K, C, R)                                                                   \
    for (uint32_t i = 0; i < cb; ++i) {                                                                    \
        acc_##K a = identity_##K(HR_CB_##C);                                                               \
        HR_COL_UNROLL for (uint32_t r = 0; r < (R); ++r)                                                   \
            a = combine_##K(HR_CB_##C, a, HR_LIFT_##T(SN, K, p[r], p[r], HR_COL_AT(SN, i)));               \
        o[i] = a;                                                                                          \
    }
#define HR_COL_LANE_CASE(SN, T, K, CI, C)                                                                  \
    case HR_CB_##C:                                                                                        \
        if (k == 4 * (CI)) { /* a whole lane */                                                            \
            HR_COL_LANE_ROWS(SN, T, K, C, 4 * (CI))                                                        \
            break;                                                                                         \
        }                                                                                                  \
        if (k == (CI)) { /* one chunk: the lanes of a slice shorter than a quarter tile */                 \
            HR_COL_LANE_ROWS(SN, T, K, C, CI)                                                              \
            break;                                                                                         \
        }                                                                                                  \
        /* A lane of the last tile: whole chunks (CI rows unrolled), then part of one. */                  \
        for (uint32_t i = 0; i < cb; ++i) o[i] = identity_##K(HR_CB_##C);                                  \
        for (uint32_t r0 = 0; r0 + (CI) <= k; r0 += (CI))                                                  \
            for (uint32_t i = 0; i < cb; ++i) {                                                            \
                acc_##K a = o[i];                                                                          \
                HR_COL_UNROLL for (uint32_t r = 0; r < (CI); ++r)                                          \
                    a = combine_##K(HR_CB_##C, a, HR_LIFT_##T(SN, K, p[r0 + r], p[r0 + r], HR_COL_AT(SN, i))); \
                o[i] = a;                                                                                  \
            }                                                                                              \
        for (uint32_t r = k - k % (CI); r < k; ++r)                                                        \
            for (uint32_t i = 0; i < cb; ++i)                                                              \
                o[i] = combine_##K(HR_CB_##C, o[i], HR_LIFT_##T(SN, K, p[r], p[r], HR_COL_AT(SN, i)));     \
        break;

/* out is restrict (GCC takes restrict from parameters only): no row aliases it. */
#define HR_COL_DEFINE_LANE(NAME, SN, T, K, CI, CMBS)                                                       \
    static HR_TARGET void NAME(int cmb, const unsigned char* const* rows, uint32_t k, uint32_t cb,         \
                               unsigned char* HR_COL_RESTRICT out)                                        \
    {                                                                                                      \
        const unsigned char* p[4 * (CI)];                                                                  \
        for (uint32_t r = 0; r < k; ++r) p[r] = rows[r];                                                   \
        acc_##K* HR_COL_RESTRICT o = (acc_##K*)(void*)out;                                                 \
        switch (cmb) {                                                                                     \
            CMBS(HR_COL_LANE_CASE, SN, T, K, CI)                                                           \
        default: break;                                                                                    \
        }                                                                                                  \
    }

/* ---- pair and fill per kind (the tree's combines; the identities) ---- */
#define HR_COL_PAIR_CASE(K, C)                                                                             \
    case HR_CB_##C:                                                                                        \
        for (uint32_t i = 0; i < cb; ++i) a[i] = combine_##K(HR_CB_##C, a[i], b[i]);                       \
        break;
#define HR_COL_DEFINE_KIND(K, CMBS)                                                                        \
    static HR_TARGET void col_pair_##K(int cmb, unsigned char* a_, const unsigned char* b_, uint32_t cb)                 \
    {                                                                                                      \
        acc_##K* a = (acc_##K*)(void*)a_;                                                                  \
        const acc_##K* b = (const acc_##K*)(const void*)b_;                                                \
        switch (cmb) {                                                                                     \
            CMBS(HR_COL_PAIR_CASE, K)                                                                      \
        default: break;                                                                                    \
        }                                                                                                  \
    }                                                                                                      \
    static HR_TARGET void col_fill_##K(int cmb, unsigned char* a_, uint32_t cb)                                          \
    {                                                                                                      \
        acc_##K* a = (acc_##K*)(void*)a_;                                                                  \
        const acc_##K identity = identity_##K(cmb);                                                        \
        for (uint32_t i = 0; i < cb; ++i) a[i] = identity;                                                 \
    }

/* ---- FLAT: order-free folds (integers), HR_COL_FLAT_ROWS rows unrolled ---- */
#define HR_COL_FLAT_CASE(SN, T, K, C)                                                                      \
    case HR_CB_##C:                                                                                        \
        if (k == HR_COL_FLAT_ROWS) {                                                                       \
            for (uint32_t i = 0; i < cb; ++i) {                                                            \
                acc_##K a = o[i];                                                                          \
                HR_COL_UNROLL for (uint32_t r = 0; r < HR_COL_FLAT_ROWS; ++r)                              \
                    a = combine_##K(HR_CB_##C, a, HR_LIFT_##T(SN, K, p[r], p[r], HR_COL_AT(SN, i)));       \
                o[i] = a;                                                                                  \
            }                                                                                              \
        } else {                                                                                           \
            for (uint32_t r = 0; r < k; ++r)                                                               \
                for (uint32_t i = 0; i < cb; ++i)                                                          \
                    o[i] = combine_##K(HR_CB_##C, o[i], HR_LIFT_##T(SN, K, p[r], p[r], HR_COL_AT(SN, i))); \
        }                                                                                                  \
        break;
#define HR_COL_DEFINE_FLAT(SN, T, K, CMBS)                                                                 \
    static HR_TARGET void col_flat_##SN##_##T##_##K(int cmb, const unsigned char* const* rows, uint32_t k, uint32_t cb,  \
                                      unsigned char* HR_COL_RESTRICT state)                                \
    {                                                                                                      \
        const unsigned char* p[HR_COL_FLAT_ROWS];                                                          \
        for (uint32_t r = 0; r < k; ++r) p[r] = rows[r];                                                   \
        acc_##K* HR_COL_RESTRICT o = (acc_##K*)(void*)state;                                               \
        switch (cmb) {                                                                                     \
            CMBS(HR_COL_FLAT_CASE, SN, T, K)                                                               \
        default: break;                                                                                    \
        }                                                                                                  \
    }

/* ---- KEYS: float min/max of x or |x| through the order keys of the source's bits (as the level
 * kernels' keys_): best keys at 0, NaN flags at byte 8 * cb; from the key of +inf (min) or -inf
 * (max), which every non-NaN element ties or beats, so a slice's result is its best element's. ---- */
#define HR_COL_MASK_IDENT(B) ((B)~(B)0)
#define HR_COL_MASK_ABS(B) ((B)((B)~(B)0 >> 1))
#define HR_COL_KEYS_LOOP(SN, T, OP, R)                                                                     \
    for (uint32_t i = 0; i < cb; ++i) {                                                                    \
        sk_##SN b = best[i], n = nan[i];                                                                   \
        HR_COL_UNROLL for (uint32_t r = 0; r < (R); ++r) {                                                 \
            const sb_##SN bits = (sb_##SN)(bits_##SN(p[r] + HR_COL_AT(SN, i)) & HR_COL_MASK_##T(sb_##SN)); \
            const sk_##SN key = (sk_##SN)hr_order_key(sk_##SN, sb_##SN, bits);                             \
            b = key OP b ? key : b;                                                                        \
            n |= (sk_##SN)hr_is_nan_bits(sb_##SN, bits, inf_##SN());                                       \
        }                                                                                                  \
        best[i] = b, nan[i] = n;                                                                           \
    }
#define HR_COL_DEFINE_KEYS(SN, T, K)                                                                       \
    static HR_TARGET void col_keys_##SN##_##T##_##K(int cmb, const unsigned char* const* rows, uint32_t k, uint32_t cb,  \
                                      unsigned char* state)                                                \
    {                                                                                                      \
        const unsigned char* p[HR_COL_FLAT_ROWS];                                                          \
        for (uint32_t r = 0; r < k; ++r) p[r] = rows[r];                                                   \
        sk_##SN best[HR_COL_STATE_BYTES / 16], nan[HR_COL_STATE_BYTES / 16];                               \
        memcpy(best, state, (size_t)cb * sizeof(sk_##SN));                                                 \
        memcpy(nan, state + 8 * (size_t)cb, (size_t)cb * sizeof(sk_##SN));                                 \
        if (cmb == HR_CB_MIN && k == HR_COL_FLAT_ROWS) HR_COL_KEYS_LOOP(SN, T, <, HR_COL_FLAT_ROWS)        \
        else if (k == HR_COL_FLAT_ROWS) HR_COL_KEYS_LOOP(SN, T, >, HR_COL_FLAT_ROWS)                       \
        else if (cmb == HR_CB_MIN) HR_COL_KEYS_LOOP(SN, T, <, k)                                           \
        else HR_COL_KEYS_LOOP(SN, T, >, k)                                                                 \
        memcpy(state, best, (size_t)cb * sizeof(sk_##SN));                                                 \
        memcpy(state + 8 * (size_t)cb, nan, (size_t)cb * sizeof(sk_##SN));                                 \
    }                                                                                                      \
    static HR_TARGET void col_keys_start_##SN##_##T##_##K(int cmb, unsigned char* state, uint32_t cb)                    \
    {                                                                                                      \
        const sb_##SN inf = inf_##SN(), sign = (sb_##SN)((sb_##SN)1 << (8 * sizeof(sb_##SN) - 1));          \
        const sk_##SN start = hr_order_key(sk_##SN, sb_##SN, cmb == HR_CB_MIN ? inf : (sb_##SN)(inf | sign)); \
        sk_##SN* best = (sk_##SN*)(void*)state;                                                            \
        sk_##SN* nan = (sk_##SN*)(void*)(state + 8 * (size_t)cb);                                          \
        for (uint32_t i = 0; i < cb; ++i) best[i] = start, nan[i] = 0;                                     \
    }                                                                                                      \
    static HR_TARGET void col_keys_top_##SN##_##T##_##K(int cmb, const unsigned char* state, uint32_t cb, unsigned char* out) \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        const sk_##SN* best = (const sk_##SN*)(const void*)state;                                          \
        const sk_##SN* nan = (const sk_##SN*)(const void*)(state + 8 * (size_t)cb);                        \
        for (uint32_t i = 0; i < cb; ++i) {                                                                \
            const acc_##K v = nan[i] ? canonical_nan_##K()                                                 \
                                     : (acc_##K)of_bits_##SN((sb_##SN)hr_order_key(sk_##SN, sb_##SN, best[i])); \
            store_##K(out + i * sizeof(acc_##K), v);                                                       \
        }                                                                                                  \
    }

/* ---- ARG: argmin/argmax of input elements: keys at 0, int64 indices at byte 8 * cb; rows come in
 * increasing index and only a strictly better key wins, so each result keeps its first best. ---- */
#define HR_COL_ARG_LOOP(SN, K, OP)                                                                         \
    for (uint32_t r = r0; r < k; ++r) {                                                                    \
        const unsigned char* row = rows[r];                                                                \
        const int64_t j = (int64_t)(j0 + r);                                                               \
        for (uint32_t i = 0; i < cb; ++i) {                                                                \
            const key_##K key = HR_LIFT_KEY(SN, K, row + HR_COL_AT(SN, i), extreme);                       \
            const int won = key OP best[i];                                                                \
            best[i] = won ? key : best[i];                                                                 \
            at[i] = won ? j : at[i];                                                                       \
        }                                                                                                  \
    }
#define HR_COL_DEFINE_ARG(SN, K)                                                                           \
    static HR_TARGET void col_arg_##SN##_##K(int cmb, const unsigned char* const* rows, uint32_t k, uint64_t j0, int seed, \
                               uint32_t cb, unsigned char* state)                                          \
    {                                                                                                      \
        const key_##K extreme = nan_key_##K(cmb);                                                          \
        key_##K best[HR_COL_STATE_BYTES / 16];                                                             \
        int64_t at[HR_COL_STATE_BYTES / 16];                                                               \
        uint32_t r0 = 0;                                                                                   \
        if (seed) {                                                                                        \
            for (uint32_t i = 0; i < cb; ++i)                                                              \
                best[i] = HR_LIFT_KEY(SN, K, rows[0] + HR_COL_AT(SN, i), extreme), at[i] = (int64_t)j0;    \
            r0 = 1;                                                                                        \
        } else {                                                                                           \
            memcpy(best, state, (size_t)cb * sizeof(key_##K));                                             \
            memcpy(at, state + 8 * (size_t)cb, (size_t)cb * sizeof(int64_t));                              \
        }                                                                                                  \
        if (hr_combine_arg_max(cmb)) HR_COL_ARG_LOOP(SN, K, >)                                           \
        else HR_COL_ARG_LOOP(SN, K, <)                                                                     \
        memcpy(state, best, (size_t)cb * sizeof(key_##K));                                                 \
        memcpy(state + 8 * (size_t)cb, at, (size_t)cb * sizeof(int64_t));                                 \
    }                                                                                                      \
    static HR_TARGET void col_arg_top_##SN##_##K(int cmb, const unsigned char* state, uint32_t cb, unsigned char* out)   \
    {                                                                                                      \
        (void)cmb;                                                                                         \
        const key_##K* best = (const key_##K*)(const void*)state;                                          \
        const int64_t* at = (const int64_t*)(const void*)(state + 8 * (size_t)cb);                         \
        for (uint32_t i = 0; i < cb; ++i) {                                                                \
            const acc_##K a = {best[i], at[i]};                                                            \
            store_##K(out + i * sizeof(acc_##K), a);                                                       \
        }                                                                                                  \
    }

/* ---- the instances, by the accumulator kind's family ---- */
#define HR_COL_FAM_I32 INT
#define HR_COL_FAM_U32 INT
#define HR_COL_FAM_I64 INT
#define HR_COL_FAM_U64 INT
#define HR_COL_FAM_F32 FLOAT
#define HR_COL_FAM_F64 FLOAT
#define HR_COL_FAM_KEY32 KEY
#define HR_COL_FAM_KEY64 KEY
#define HR_COL_FAM_NRM2_F64 NONE
#define HR_COL_FAM_SUMN_F32 NONE
#define HR_COL_FAM_SUMN_F64 NONE
#define HR_COL_FAM_MOM_F32 NONE
#define HR_COL_FAM_MOM_F64 NONE
#define HR_COL_FAM_LSE_F32 NONE
#define HR_COL_FAM_LSE_F64 NONE
#define HR_COL_CAT(a, b) HR_COL_CAT_(a, b)
#define HR_COL_CAT_(a, b) a##b
#define HR_COL_BY_FAMILY(PREFIX, K) HR_COL_CAT(PREFIX, HR_COL_FAM_##K)

#define HR_COL_CI_1 16
#define HR_COL_CI_2 8
#define HR_COL_CI_4 4
#define HR_COL_CI_8 2
#define HR_COL_CI_16 1
#define HR_COL_SLOT_1 0
#define HR_COL_SLOT_2 1
#define HR_COL_SLOT_4 2
#define HR_COL_SLOT_8 3
#define HR_COL_SLOT_16 4

/* Level 0 (input cells): X(E, SN, BYTES, T, K, CMBS); dot's PRODUCT is left to the gather. */
#define HR_COL_IN(E, SN, BYTES, T, K, CMBS) HR_COL_BY_FAMILY(HR_COL_IN_, K)(E, SN, BYTES, T, K, CMBS)
#define HR_COL_IN_NONE(E, SN, BYTES, T, K, CMBS)
#define HR_COL_IN_KEY(E, SN, BYTES, T, K, CMBS) HR_COL_DEFINE_ARG(SN, K)
#define HR_COL_IN_INT(E, SN, BYTES, T, K, CMBS) HR_COL_INT_##T(SN, T, K, CMBS)
#define HR_COL_INT_IDENT HR_COL_DEFINE_FLAT
#define HR_COL_INT_ABS HR_COL_DEFINE_FLAT
#define HR_COL_INT_SQUARE HR_COL_DEFINE_FLAT
#define HR_COL_INT_NONZERO HR_COL_DEFINE_FLAT
#define HR_COL_INT_PRODUCT(SN, T, K, CMBS)
#define HR_COL_IN_FLOAT(E, SN, BYTES, T, K, CMBS) HR_COL_FLOAT_##T(SN, T, K, HR_COL_CI_##BYTES, CMBS)
#define HR_COL_FLOAT_LANE(SN, T, K, CI, CMBS) HR_COL_DEFINE_LANE(col_lane_##SN##_##T##_##K, SN, T, K, CI, CMBS)
#define HR_COL_FLOAT_IDENT(SN, T, K, CI, CMBS) HR_COL_FLOAT_LANE(SN, T, K, CI, CMBS) HR_COL_DEFINE_KEYS(SN, T, K)
#define HR_COL_FLOAT_ABS HR_COL_FLOAT_IDENT
#define HR_COL_FLOAT_SQUARE HR_COL_FLOAT_LANE
#define HR_COL_FLOAT_NANZERO HR_COL_FLOAT_LANE
#define HR_COL_FLOAT_PRODUCT(SN, T, K, CI, CMBS)
HR_CPU_IN_CELLS(HR_COL_IN)

/* The tables' rows, by the same dispatch. */
#define HR_COL_ROW(E, SN, BYTES, T, K, CMBS) HR_COL_BY_FAMILY(HR_COL_ROW_, K)(E, SN, T, K)
#define HR_COL_ROW_NONE(E, SN, T, K)
#define HR_COL_ROW_KEY(E, SN, T, K) [E][HR_TF_##T][HR_ACC_##K] = {.family = HR_COL_ARG, .arg = col_arg_##SN##_##K, .top = col_arg_top_##SN##_##K},
#define HR_COL_ROW_INT(E, SN, T, K) HR_COL_ROWI_##T(E, SN, T, K)
#define HR_COL_ROWI_ANY(E, SN, T, K) [E][HR_TF_##T][HR_ACC_##K] = {.family = HR_COL_FLAT, .fold = col_flat_##SN##_##T##_##K},
#define HR_COL_ROWI_IDENT HR_COL_ROWI_ANY
#define HR_COL_ROWI_ABS HR_COL_ROWI_ANY
#define HR_COL_ROWI_SQUARE HR_COL_ROWI_ANY
#define HR_COL_ROWI_NONZERO HR_COL_ROWI_ANY
#define HR_COL_ROWI_PRODUCT(E, SN, T, K)
#define HR_COL_ROW_FLOAT(E, SN, T, K) HR_COL_ROWF_##T(E, SN, T, K)
#define HR_COL_ROWF_IDENT(E, SN, T, K)                                                                     \
    [E][HR_TF_##T][HR_ACC_##K] = {.family = HR_COL_ORDERED, .lane = col_lane_##SN##_##T##_##K,                \
                                  .fold = col_keys_##SN##_##T##_##K, .fill = col_keys_start_##SN##_##T##_##K, .top = col_keys_top_##SN##_##T##_##K},
#define HR_COL_ROWF_ABS HR_COL_ROWF_IDENT
#define HR_COL_ROWF_LANE(E, SN, T, K) [E][HR_TF_##T][HR_ACC_##K] = {.family = HR_COL_ORDERED, .lane = col_lane_##SN##_##T##_##K},
#define HR_COL_ROWF_SQUARE HR_COL_ROWF_LANE
#define HR_COL_ROWF_NANZERO HR_COL_ROWF_LANE
#define HR_COL_ROWF_PRODUCT(E, SN, T, K)


/* Levels above the input: partials of a sum-like kind in the input's chunk geometry. */
#define HR_COL_UP(K, BYTES, CMBS) HR_COL_BY_FAMILY(HR_COL_UP_, K)(K, BYTES, CMBS)
#define HR_COL_UP_NONE(K, BYTES, CMBS)
#define HR_COL_UP_INT HR_COL_UP_NONE
#define HR_COL_UP_KEY HR_COL_UP_NONE
#define HR_COL_UP_FLOAT(K, BYTES, CMBS) HR_COL_DEFINE_LANE(col_up_##K##_##BYTES, K, IDENT, K, HR_COL_CI_##BYTES, CMBS)
HR_CPU_UP_CELLS(HR_COL_UP)
#define HR_COL_UP_ROW(K, BYTES, CMBS) HR_COL_BY_FAMILY(HR_COL_UP_ROW_, K)(K, BYTES)
#define HR_COL_UP_ROW_NONE(K, BYTES)
#define HR_COL_UP_ROW_INT HR_COL_UP_ROW_NONE
#define HR_COL_UP_ROW_KEY HR_COL_UP_ROW_NONE
#define HR_COL_UP_ROW_FLOAT(K, BYTES) [HR_ACC_##K][HR_COL_SLOT_##BYTES] = col_up_##K##_##BYTES,

/* Pair and fill of the integer and sum-like kinds. */
#define HR_COL_KIND(K, CMBS) HR_COL_BY_FAMILY(HR_COL_KIND_, K)(K, CMBS)
#define HR_COL_KIND_NONE(K, CMBS)
#define HR_COL_KIND_KEY HR_COL_KIND_NONE
#define HR_COL_KIND_INT HR_COL_DEFINE_KIND
#define HR_COL_KIND_FLOAT HR_COL_DEFINE_KIND
HR_CPU_KIND_CELLS(HR_COL_KIND)
#define HR_COL_KIND_ROW(K, CMBS) HR_COL_BY_FAMILY(HR_COL_KIND_ROW_, K)(K)
#define HR_COL_KIND_ROW_NONE(K)
#define HR_COL_KIND_ROW_KEY HR_COL_KIND_ROW_NONE
#define HR_COL_KIND_ROW_INT(K) [HR_ACC_##K] = {.pair = col_pair_##K, .fill = col_fill_##K},
#define HR_COL_KIND_ROW_FLOAT HR_COL_KIND_ROW_INT
static const hr_col_table HR_COLUMNS_TABLE = {
    .in = {HR_CPU_IN_CELLS(HR_COL_ROW)},
    .up = {HR_CPU_UP_CELLS(HR_COL_UP_ROW)},
    .kinds = {HR_CPU_KIND_CELLS(HR_COL_KIND_ROW)},
};

