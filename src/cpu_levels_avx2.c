/* The level kernels for x86 CPUs with AVX2, chosen at run time (cpu_levels.h). No FMA: the
 * library is built with -ffp-contract=off and the order has no fused operations. */
#include "cpu_levels.h"

#if HR_CPU_X86_VARIANTS
#define HR_TARGET __attribute__((target("avx2")))
#define HR_LEVELS_TABLE hr_cpu_levels_avx2
#define HR_LEVELS_ISA "avx2"
#include "cpu_levels_impl.h"
#endif
