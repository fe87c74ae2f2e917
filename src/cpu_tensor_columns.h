/* The cpu device's column kernels (cpu_tensor_columns.c): reductions of tensor plans whose innermost
 * kept axis has stride 1, read in place (no gather). A block of cb adjacent results is reduced
 * together: each reduced position is one contiguous run of cb elements (a "row" here), so every
 * load is a vector across results, and each result keeps the bits of its own slice in the default
 * order (cpu_tensor.c walks the order; these kernels fold rows into per-result accumulators).
 *
 * Families, by what the op's bits depend on:
 *  ORDERED: float sums, products, nanmin/nanmax (sum-like kinds F32/F64): a tile's lane folds its
 *           rows from the identity (lane), lanes combine in the segment tree (pair);
 *  FLAT:    integers (they wrap or pick): rows folded in any order into one accumulator a result;
 *  KEYS:    float min/max of x or |x|: the order keys of the source's bits and a NaN flag;
 *  ARG:     argmin/argmax: the first of the best keys (rows taken in increasing index).
 * Every pointer argument may be unaligned except the state and accumulator buffers, which are the
 * caller's 64-byte aligned scratch. */
#ifndef HIPREDUCE_CPU_TENSOR_COLUMNS_H
#define HIPREDUCE_CPU_TENSOR_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "op_table.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { HR_COL_NONE = 0, HR_COL_ORDERED, HR_COL_FLAT, HR_COL_KEYS, HR_COL_ARG };

/* The most columns a call takes: cb * accumulator bytes <= HR_COL_LANE_BYTES (ORDERED),
 * cb * state bytes <= HR_COL_STATE_BYTES (the others); the kernels fold into local arrays of that
 * size, which no input pointer can alias, so their loops vectorise without run-time checks. */
enum { HR_COL_LANE_BYTES = 1024, HR_COL_STATE_BYTES = 4096 };

/* Rows the order-free folds (FLAT, KEYS, ARG) are given at a time, the last call fewer. */
enum { HR_COL_FLAT_ROWS = 16 };

/* ORDERED: out[i] = the fold, from the identity, of rows[0..k) at column i (k >= 1). */
typedef void (*hr_col_lane_fn)(int cmb, const unsigned char* const* rows, uint32_t k, uint32_t cb, unsigned char* out);
/* a[i] = combine(a[i], b[i]) (ORDERED's tree; FLAT's merge). */
typedef void (*hr_col_pair_fn)(int cmb, unsigned char* a, const unsigned char* b, uint32_t cb);
/* FLAT and ORDERED: a[i] = the identity; KEYS, ARG: the state's start (ARG: none needed). */
typedef void (*hr_col_fill_fn)(int cmb, unsigned char* a, uint32_t cb);
/* FLAT: acc[i] = combine(acc[i], lift(rows[r] at i)) for r < k; KEYS: the state likewise. */
typedef void (*hr_col_fold_fn)(int cmb, const unsigned char* const* rows, uint32_t k, uint32_t cb, unsigned char* state);
/* ARG: state (keys, then int64 indices at byte 8 * cb) folds rows j0 .. j0 + k; seed: row j0 starts it. */
typedef void (*hr_col_arg_fn)(int cmb, const unsigned char* const* rows, uint32_t k, uint64_t j0, int seed, uint32_t cb,
                              unsigned char* state);
/* KEYS: the state made accumulators (call->acc) at out; ARG: the accumulator of column i (index j). */
typedef void (*hr_col_top_fn)(int cmb, const unsigned char* state, uint32_t cb, unsigned char* out);

typedef struct hr_col_kernels {
    int family;           /* HR_COL_* */
    size_t state;         /* bytes of state per column (FLAT, ORDERED: the accumulator) */
    hr_col_lane_fn lane;  /* ORDERED, level 0 */
    hr_col_lane_fn up;    /* ORDERED, the levels above (partials as rows) */
    hr_col_pair_fn pair;
    hr_col_fill_fn fill;
    hr_col_fold_fn fold;  /* FLAT, KEYS */
    hr_col_arg_fn arg;
    hr_col_top_fn top;    /* KEYS */
} hr_col_kernels;

/* One instruction set's kernels (cpu_levels.h's variants each hold one). */
typedef struct hr_col_table {
    hr_col_kernels in[HR_DTYPE_SLOTS][HR_TRANSFORMS][HR_ACC_KINDS]; /* level 0, by family */
    hr_col_lane_fn up[HR_ACC_KINDS][5];                            /* by input chunk slot (cpu_levels.h) */
    struct {
        hr_col_pair_fn pair;
        hr_col_fill_fn fill;
    } kinds[HR_ACC_KINDS];
} hr_col_table;

struct hr_cpu_levels;

/* The kernels of a call (its in dtype, acc kind and input element size) and the op row's
 * transform and combine, from a variant's table; family HR_COL_NONE where there are none (dot,
 * nrm2 of f64, statistics' struct accumulators: those take the gather). */
void hr_cpu_col_kernels(const struct hr_cpu_levels* levels, const hr_call* call, int transform, int combine,
                        hr_col_kernels* k);

#ifdef __cplusplus
}
#endif

#endif
