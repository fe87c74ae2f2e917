/* hip_compat.h's emu backend: the emulated GPU (compat/emu/hip_emu.h), where the same
 * sources are built by the host C++ compiler and run by fibers at warp width 32 or 64. Include
 * hip_compat.h, not this. */
#ifndef HIPREDUCE_COMPAT_EMU_H
#define HIPREDUCE_COMPAT_EMU_H

#include <stdint.h>
#include <string.h>

#include "emu/hip_emu.h"

#define HR_WIDTH_COMPILED(W) true
inline bool hr_width_runs(int w) { return w == 0 || hr_emu::warp_size() == w; }
[[noreturn]] inline void hr_width_trap(int w)
{
    hr_emu::fail("a kernel instance for warp width %d ran on a device of width %d", w, hr_emu::warp_size());
}

/* Macros, so that the emulator's messages name the device code's line. */
#define hr_shfl_down(value, delta, width) ::hr_emu::shfl((value), false, (delta), (width), __FILE__, __LINE__)
#define hr_shfl_xor(value, mask, width) ::hr_emu::shfl((value), true, (mask), (width), __FILE__, __LINE__)
#define hr_syncwarp() ::hr_emu::syncwarp(__FILE__, __LINE__)

/* 16-byte loads fault on a GPU unless 16-byte aligned: the emulator says so. */
inline uint4 hr_load16_input(const void* p)
{
    hr_emu::check_aligned(p, 16, "16-byte load");
    uint4 r;
    memcpy(&r, p, sizeof r);
    return r;
}
inline uint4 hr_load16_coherent(const void* p) { return hr_load16_input(p); }
#define HR_HAS_COHERENT_LOAD16 1
template <class T> inline T hr_load_coherent(const T* p) { return *p; }
inline uint32_t hr_arrive_add(uint32_t* p, uint32_t v) { return atomicAdd(p, v); }

/* HR_NOINLINE and shared memory: hip_compat.h's, the host compiler's way. */
#define HR_NOINLINE __attribute__((noinline))

/* Every block gets fresh heap copies of its shared memory, so that AddressSanitizer
 * sees an index past them (a function-local static, as __shared__ would be on the host, gets
 * no redzone: it is a COMDAT symbol). */
#define HR_SHARED(name, ...) \
    hr_alias<__VA_ARGS__>& name = ::hr_emu::shared_variable<hr_alias<__VA_ARGS__>>(__FILE__, __LINE__)
#define HR_DYNAMIC_SHARED(type, name) type* name = (type*)::hr_emu::dynamic_shared()

#endif
