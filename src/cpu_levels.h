/* The cpu device's level kernels: one level of the default algorithm's tree (plan.h), tile by
 * tile, for every dtype. One source (cpu_levels_impl.h) is compiled for the baseline
 * instruction set and, on x86, also for AVX2 and AVX-512 through function target attributes;
 * hr_cpu_levels_best picks at run time, so the library's build flags stay portable. All
 * variants give the same bits: they differ only in vector width, never in order. */
#ifndef HIPREDUCE_CPU_LEVELS_H
#define HIPREDUCE_CPU_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"
#include "op_table.h"

#ifdef __cplusplus
extern "C" {
#endif

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define HR_CPU_X86_VARIANTS 1
#else
#define HR_CPU_X86_VARIANTS 0
#endif

/* Tiles [t0, t1) of a level of `count` elements at x (tiles of tile_items elements, the last
 * one possibly partial): partial t, one accumulator, is stored at dst + t * (size_t)hr_acc_bytes(acc).
 * `combine` is the op row's combine (HR_CB_*, op_table.h); y is dot's second input at level 0
 * (NULL otherwise). No alignment needed anywhere. dst may alias x when t0 == 0 and the tiles
 * run on one thread (tile t is read before partial t is written, and t <= t * tile_items). */
typedef void (*hr_cpu_level_fn)(int combine, const void* x, const void* y, uint64_t count, uint64_t tile_items,
                                uint64_t t0, uint64_t t1, void* dst);

enum { HR_CPU_CHUNK_SLOTS = 5 }; /* input elements of 1, 2, 4, 8, 16 bytes: 16, 8, 4, 2, 1 per chunk */

/* The kernels of one instruction set. NULL where no (op, in, out) triple leads: the executor
 * answers NOT_SUPPORTED there, and test_cpu_levels checks that every allowed triple has both. */
typedef struct hr_cpu_levels {
    const char* isa; /* "baseline", "avx2", "avx512" */
    /* level 0: input elements of a dtype, transformed, into an accumulator kind */
    hr_cpu_level_fn in[HR_DTYPE_SLOTS][HR_TRANSFORMS][HR_ACC_KINDS];
    /* higher levels: partials of an accumulator kind, in tiles of the input's chunk geometry */
    hr_cpu_level_fn up[HR_ACC_KINDS][HR_CPU_CHUNK_SLOTS];
    /* the column kernels of tensor plans (cpu_tensor_columns.h) */
    const struct hr_col_table* columns;
} hr_cpu_levels;

/* The chunk slot of an input element size (1, 2, 4, 8 or 16 bytes). */
static inline int hr_cpu_chunk_slot(size_t elem_size)
{
    return elem_size >= 16 ? 4 : elem_size >= 8 ? 3 : elem_size >= 4 ? 2 : elem_size >= 2 ? 1 : 0;
}

extern const hr_cpu_levels hr_cpu_levels_baseline;
#if HR_CPU_X86_VARIANTS
extern const hr_cpu_levels hr_cpu_levels_avx2;
extern const hr_cpu_levels hr_cpu_levels_avx512;
#endif

/* The widest variant this CPU (and its OS) runs. */
const hr_cpu_levels* hr_cpu_levels_best(void);

#ifdef __cplusplus
}
#endif

#endif
