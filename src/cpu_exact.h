/* The cpu device's exact sums (sum_exact, dot_exact): every shape of call into device/exact.h's
 * superaccumulator, rounded once (cpu_exact.c). */
#ifndef HIPREDUCE_CPU_EXACT_H
#define HIPREDUCE_CPU_EXACT_H

#include "cpu_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a validated call is an exact sum (its op row's combine is EXACT). */
int hr_cpu_is_exact(const hr_call* call);

/* Runs a validated exact call of any shape (full, axis, segments) on the executor's threads.
 * It needs no workspace (each thread's accumulator is on its stack), so it always succeeds;
 * the bits depend on the multiset of each result's terms only. */
hipreduce_status hr_cpu_run_exact(hr_cpu* cpu, const hr_call* call);

#ifdef __cplusplus
}
#endif

#endif
