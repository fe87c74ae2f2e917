/* What bench_gpu.cpp shares with bench_shapes_gpu.cpp (C++, GPU backends only): failing, timing
 * interleaved calls with events, filling inputs on the device, and one run's common state. */
#ifndef HIPREDUCE_BENCH_GPU_H
#define HIPREDUCE_BENCH_GPU_H

#include <functional>
#include <vector>

#include "bench.h"
#include "bench_hip.h"

namespace benchgpu {

/* A runtime failure: the run cannot go on (exit status 1; 2 is for usage errors). */
[[noreturn]] void die(const char* what, const char* detail);
void check(hipError_t err, const char* what);

/* Median milliseconds of each calls[k](buffer index) over o.reps rounds after o.warmup rounds,
 * interleaved call by call (each round starting with the next call), consecutive calls on
 * different buffers where there are two or more. */
std::vector<double> time_medians(const std::vector<std::function<void(int)>>& calls, int buffers,
                                 const bench_options& o, hipEvent_t start, hipEvent_t stop);

/* n random elements of dtype at p (bench_kernels.h: floats in [0.5, 1.5), integers random bits). */
void fill(int dtype, void* p, uint64_t n, uint64_t seed, int sms);

/* Copies of an input of `bytes` to rotate over: together more than 4x L2, at least 2, at most 64. */
int copies_for(uint64_t bytes, int l2);

/* One run's state. */
struct session {
    const bench_options* o;
    hipreduce_handle h;
    hipEvent_t start, stop;
    int sms, l2;
    std::function<double(double)> ceiling_for; /* bytes read -> the row's ceiling in GB/s */
};

/* The --shape modes (bench_shapes_gpu.cpp): appends their rows to r. */
void run_shapes(const session& s, bench_result* r);

}  // namespace benchgpu

#endif
