/* The level kernels for the baseline instruction set of the build (SSE2 on x86-64), and the
 * run-time choice among the variants (cpu_levels.h). */
#include "cpu_levels.h"

#define HR_TARGET
#define HR_LEVELS_TABLE hr_cpu_levels_baseline
#define HR_LEVELS_ISA "baseline"
#include "cpu_levels_impl.h"

const hr_cpu_levels* hr_cpu_levels_best(void)
{
#if HR_CPU_X86_VARIANTS
    /* __builtin_cpu_supports also checks that the OS saves the wider registers. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return &hr_cpu_levels_avx512;
    if (__builtin_cpu_supports("avx2")) return &hr_cpu_levels_avx2;
#endif
    return &hr_cpu_levels_baseline;
}
