/* The level kernels for x86 CPUs with AVX-512 (F, BW, DQ, VL), chosen at run time
 * (cpu_levels.h), with 512-bit vectors (GCC otherwise prefers 256). */
#include "cpu_levels.h"

#if HR_CPU_X86_VARIANTS
#if defined(__clang__)
#define HR_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#else
#define HR_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,prefer-vector-width=512")))
#endif
#define HR_LEVELS_TABLE hr_cpu_levels_avx512
#define HR_LEVELS_ISA "avx512"
#include "cpu_levels_impl.h"
#endif
