/* The HIP names the device and host code use, on every backend: the one include for all of
 * them. Each backend's own part is a header of compat/:
 *   amd:  compat/amd.h, the real HIP runtime headers (hipcc / ROCm clang);
 *   cuda: compat/cuda.h, the few HIP names the project uses mapped onto CUDA (nvcc);
 *   emu:  compat/emu.h, the emulated GPU (compat/emu/: its runtime, docs/DESIGN.md).
 * Each defines the width rule's pieces below, the warp shuffles (hr_shfl_down, hr_shfl_xor,
 * hr_syncwarp), the 16-byte and coherent loads and hr_arrive_add; this file adds what is
 * common: the kernel prologue and shared memory.
 *
 * Kernel instances per warp width W (docs/DESIGN.md, the run-time warp-size switch). A
 * kernel templated on W (0: it does not depend on the width) starts with the one prologue
 *     HR_KERNEL_BODY(W) { body }
 * which reads
 *     if constexpr (!HR_WIDTH_COMPILED(W)) hr_width_trap(W);
 *     else if (!hr_width_runs(W)) hr_width_trap(W);
 *     else { body }
 *  - HR_WIDTH_COMPILED(W), compile time: whether this pass compiles the body at all.
 *    False in host passes and where the target has no width-W warps (64 on NVIDIA),
 *    so binaries carry no body, and no shuffle, for a width that cannot run.
 *  - hr_width_runs(W), run time: whether the device running it has width W. On AMD
 *    with ROCm 7 a target's wave size is known only at code generation (compat/amd.h),
 *    which folds this to a constant and drops the other width's body there; the
 *    emulator runs both widths.
 *  - hr_width_trap(W): the host picked an instance its device cannot run (a bug):
 *    trap rather than return, so that no stale result is ever read.
 */
#ifndef HIPREDUCE_HIP_COMPAT_H
#define HIPREDUCE_HIP_COMPAT_H

/* Shared memory. HR_SHARED(name, type): a block's variable (arrays too: HR_SHARED(buf,
 * float[256])). HR_DYNAMIC_SHARED(type, name): the launch's dynamic shared memory as
 * type[] (HIP's HIP_DYNAMIC_SHARED, which the cuda backend's headers lack), 16-byte
 * aligned. The emulator defines both its own way (compat/emu.h). */
template <class T> using hr_alias = T;

/* Copies of bits in device code (a chunk's elements, an accumulator's words). HIP's device memcpy
 * (ROCm 5.2) is a byte loop: chunks copied through it stayed in scratch, byte by byte, and the
 * default path's kernels spilled on gfx90a and gfx1030; clang's builtin copies words. */
#if defined(HIPREDUCE_BACKEND_AMD)
#define HR_MEMCPY __builtin_memcpy
#else
#define HR_MEMCPY memcpy
#endif

#if defined(HIPREDUCE_BACKEND_CUDA)
#include "compat/cuda.h"
#elif defined(HIPREDUCE_BACKEND_AMD)
#include "compat/amd.h"
#elif defined(HIPREDUCE_BACKEND_EMU)
#include "compat/emu.h"
#else
#error "hip_compat.h needs HIPREDUCE_BACKEND_CUDA, HIPREDUCE_BACKEND_AMD or HIPREDUCE_BACKEND_EMU"
#endif

/* On a GPU (the emulator defines its own): */
#ifndef HR_SHARED
#define HR_SHARED(name, ...) __shared__ hr_alias<__VA_ARGS__> name
#define HR_DYNAMIC_SHARED(type, name) extern __shared__ __attribute__((aligned(16))) type name[]
#endif
/* A device function kept out of line (a rarely taken path that would bloat its callers). */
#ifndef HR_NOINLINE
#define HR_NOINLINE __noinline__
#endif

/* The index of the lowest set bit of a nonzero word. */
#if defined(__CUDA_ARCH__)
__device__ __forceinline__ int hr_ctz64(unsigned long long v) { return __ffsll((long long)v) - 1; }
#else
__device__ __forceinline__ int hr_ctz64(unsigned long long v) { return __builtin_ctzll(v); }
#endif

/* The width prologue of every kernel (see the top of this file). */
#define HR_KERNEL_BODY(W)                 \
    if constexpr (!HR_WIDTH_COMPILED(W)) \
        hr_width_trap(W);                 \
    else if (!hr_width_runs(W))           \
        hr_width_trap(W);                 \
    else

#endif
