/* The cpu device's level kernels: one level of the default algorithm's tree (plan.h), tile by
 * tile, for every dtype. One source (cpu_levels_impl.h) is compiled for the baseline
 * instruction set and, on x86, also for AVX2 and AVX-512 through function target attributes;
 * hr_cpu_levels_best picks at run time, so the library's build flags stay portable. All
 * variants give the same bits: they differ only in vector width, never in order. */
#ifndef HIPREDUCE_CPU_LEVELS_H
#define HIPREDUCE_CPU_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define HR_CPU_X86_VARIANTS 1
#else
#define HR_CPU_X86_VARIANTS 0
#endif

/* Tiles [t0, t1) of a level of `count` elements at src (tiles of tile_items elements, the last
 * one possibly partial): partial t, one accumulator, is stored at dst + t * acc_size. No
 * alignment needed anywhere. dst may alias src when t0 == 0 and the tiles run on one thread
 * (tile t is read before partial t is written, and t <= t * tile_items). op must apply to the
 * dtype (api.c checks). */
typedef void (*hr_cpu_level_fn)(int op, const void* src, uint64_t count, uint64_t tile_items, uint64_t t0,
                                uint64_t t1, void* dst);

enum { HR_CPU_DTYPE_SLOTS = 12 }; /* hipreduce_dtype values 0 .. 11 */

typedef struct hr_cpu_levels {
    const char* isa;                          /* "baseline", "avx2", "avx512" */
    hr_cpu_level_fn in[HR_CPU_DTYPE_SLOTS];   /* level 0: input elements of the dtype */
    hr_cpu_level_fn up[HR_CPU_DTYPE_SLOTS];   /* higher levels: the dtype's accumulators */
} hr_cpu_levels;

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
