/* What device/ and host/ compile against on the emulated GPU (device/hip_compat.h,
 * HIPREDUCE_BACKEND_EMU): the HIP runtime names the host executor calls, mapped onto
 * emu_api.h, and the device-side names the kernels use, for a host C++ compiler.
 *
 * Kernels are plain functions run by one fiber per GPU thread (emu_block.cpp). A
 * block's threads share its shared memory (HR_SHARED, HR_DYNAMIC_SHARED: heap copies
 * made for each block; `__shared__` itself is left undefined, so a kernel that uses
 * it does not compile here). Every synchronisation point (barrier, shuffle,
 * hr_syncwarp) switches fibers; the scheduler resolves it once all threads of the
 * block wait, checks it (emu_block.cpp lists the checks) and resumes the threads in
 * a random order. */
#ifndef HIPREDUCE_HIP_EMU_H
#define HIPREDUCE_HIP_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "emu_api.h"

/* ---- runtime names (host code) ---- */
typedef hr_emu_error hipError_t;
typedef hr_emu_stream_t hipStream_t;
typedef hr_emu_event_t hipEvent_t;
typedef hr_emu_attribute hipDeviceAttribute_t;
#define hipSuccess HR_EMU_SUCCESS
#define hipErrorInvalidValue HR_EMU_INVALID_VALUE
#define hipErrorMemoryAllocation HR_EMU_OUT_OF_MEMORY
#define hipErrorNotReady HR_EMU_NOT_READY
#define hipErrorNoDevice HR_EMU_NO_DEVICE
#define hipErrorInsufficientDriver HR_EMU_INSUFFICIENT_DRIVER
#define hipDeviceAttributeWarpSize HR_EMU_ATTR_WARP_SIZE
#define hipDeviceAttributeMultiprocessorCount HR_EMU_ATTR_MULTIPROCESSOR_COUNT
#define hipDeviceAttributeComputeCapabilityMajor HR_EMU_ATTR_COMPUTE_CAPABILITY_MAJOR
#define hipDeviceAttributeMaxThreadsPerBlock HR_EMU_ATTR_MAX_THREADS_PER_BLOCK
#define hipMemcpyHostToDevice HR_EMU_HOST_TO_DEVICE
#define hipMemcpyDeviceToHost HR_EMU_DEVICE_TO_HOST
#define hipMemcpyDeviceToDevice HR_EMU_DEVICE_TO_DEVICE
#define hipMemcpyDefault HR_EMU_COPY_DEFAULT
#define hipEventDisableTiming HR_EMU_EVENT_DISABLE_TIMING
#define hipStreamNonBlocking HR_EMU_STREAM_NON_BLOCKING
#define hipGetDeviceCount hr_emu_get_device_count
#define hipGetDevice hr_emu_get_device
#define hipSetDevice hr_emu_set_device
#define hipDeviceGetAttribute hr_emu_device_get_attribute
#define hipDeviceSynchronize hr_emu_device_synchronize
#define hipGetLastError hr_emu_get_last_error
#define hipGetErrorString hr_emu_error_string
#define hipMalloc(pointer, bytes) hr_emu_malloc((void**)(pointer), (bytes))
#define hipFree hr_emu_free
#define hipMemset hr_emu_memset
#define hipMemsetAsync hr_emu_memset_async
#define hipMemcpy hr_emu_memcpy
#define hipMemcpyAsync hr_emu_memcpy_async
#define hipStreamCreate(stream) hr_emu_stream_create((stream), 0)
#define hipStreamCreateWithFlags hr_emu_stream_create
#define hipStreamDestroy hr_emu_stream_destroy
#define hipStreamSynchronize hr_emu_stream_synchronize
#define hipStreamQuery hr_emu_stream_query
#define hipStreamWaitEvent hr_emu_stream_wait_event
#define hipEventCreate(event) hr_emu_event_create((event), 0)
#define hipEventCreateWithFlags hr_emu_event_create
#define hipEventDestroy hr_emu_event_destroy
#define hipEventRecord hr_emu_event_record
#define hipEventSynchronize hr_emu_event_synchronize
#define hipEventQuery hr_emu_event_query

/* ---- device code keywords and types ---- */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)

struct uint3 {
    unsigned x, y, z;
};
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct alignas(16) uint4 {
    unsigned x, y, z, w;
};
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }

namespace hr_emu {

/* The running thread's coordinates; the scheduler sets them at every switch. */
extern uint3 thread_idx, block_idx;
extern dim3 block_dim, grid_dim;

/* Warp width of the device running the current kernel. */
int warp_size();

/* Reports an emulator error (where: kernel, block, thread) and ends the process with
 * exit status 3: the test fails with the message, whatever it was doing. */
[[noreturn]] void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

enum vote { vote_none, vote_or, vote_and, vote_count };
int syncthreads(vote kind, int predicate, const char* file, int line);
void syncwarp(const char* file, int line);
/* value (bytes <= 16) in, the source lane's value out. */
void shuffle(void* value, unsigned bytes, bool xor_mode, unsigned lane_arg, int width, const char* file, int line);

/* This block's dynamic shared memory (the launch's size, fresh garbage per block). */
void* dynamic_shared();

/* This block's copy of the shared variable declared at file:line with type key `type`
 * (fresh garbage per block, freed when the block ends). */
void* shared_variable(const void* type, const char* file, int line, size_t bytes, size_t align);
template <class T> inline T& shared_variable(const char* file, int line)
{
    static_assert(std::is_trivially_default_constructible<T>::value, "shared memory is not constructed");
    static const char type = 0; /* one address per T */
    return *static_cast<T*>(shared_variable(&type, file, line, sizeof(T), alignof(T)));
}

template <class T> inline T shfl(T v, bool xor_mode, unsigned lane_arg, int width, const char* file, int line)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 32, "shuffled values are registers (structs up to 32 bytes)");
    shuffle(&v, sizeof v, xor_mode, lane_arg, width, file, line);
    return v;
}

inline void check_aligned(const void* p, unsigned bytes, const char* what)
{
    if ((uintptr_t)p % bytes) fail("misaligned %s at %p (needs %u-byte alignment): the GPU would fault", what, p, bytes);
}

/* Queues a kernel: body runs once per thread of every block. */
void launch(const char* name, const char* file, int line, dim3 grid, dim3 block, size_t shared_bytes,
            hr_emu_stream_t stream, std::function<void()> body);

template <class... P, class... A>
void launch_kernel(const char* name, const char* file, int line, void (*kernel)(P...), dim3 grid, dim3 block,
                   size_t shared_bytes, hr_emu_stream_t stream, A&&... args)
{
    static_assert(sizeof...(P) == sizeof...(A), "kernel argument count");
    std::tuple<typename std::decay<P>::type...> values(std::forward<A>(args)...); /* by value, as a launch copies */
    launch(name, file, line, grid, block, shared_bytes, stream, [kernel, values]() { std::apply(kernel, values); });
}

}  // namespace hr_emu

#define threadIdx (static_cast<const uint3&>(::hr_emu::thread_idx))
#define blockIdx (static_cast<const uint3&>(::hr_emu::block_idx))
#define blockDim (static_cast<const dim3&>(::hr_emu::block_dim))
#define gridDim (static_cast<const dim3&>(::hr_emu::grid_dim))
#define warpSize (::hr_emu::warp_size())

#define __syncthreads() ((void)::hr_emu::syncthreads(::hr_emu::vote_none, 0, __FILE__, __LINE__))
#define __syncthreads_or(p) ::hr_emu::syncthreads(::hr_emu::vote_or, (p), __FILE__, __LINE__)
#define __syncthreads_and(p) ::hr_emu::syncthreads(::hr_emu::vote_and, (p), __FILE__, __LINE__)
#define __syncthreads_count(p) ::hr_emu::syncthreads(::hr_emu::vote_count, (p), __FILE__, __LINE__)
/* width 0: the warp's width. */
#define __shfl_down(v, delta, width) ::hr_emu::shfl((v), false, (delta), (width), __FILE__, __LINE__)
#define __shfl_xor(v, mask, width) ::hr_emu::shfl((v), true, (mask), (width), __FILE__, __LINE__)

/* Atomics: a block runs alone and its threads switch only at synchronisation points,
 * so a read-modify-write is atomic as written. */
template <class T> inline T atomicAdd(T* p, T v) { const T old = *p; *p = T(old + v); return old; }
template <class T> inline T atomicMin(T* p, T v) { const T old = *p; *p = v < old ? v : old; return old; }
template <class T> inline T atomicMax(T* p, T v) { const T old = *p; *p = old < v ? v : old; return old; }
template <class T> inline T atomicAnd(T* p, T v) { const T old = *p; *p = T(old & v); return old; }
template <class T> inline T atomicOr(T* p, T v) { const T old = *p; *p = T(old | v); return old; }
template <class T> inline T atomicXor(T* p, T v) { const T old = *p; *p = T(old ^ v); return old; }

#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...)                                            \
    ::hr_emu::launch_kernel(#kernel, __FILE__, __LINE__, kernel, dim3(grid), dim3(block), (size_t)(shared),    \
                            (stream), __VA_ARGS__)

#endif
