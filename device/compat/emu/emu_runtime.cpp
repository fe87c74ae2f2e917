/* The emulated GPU's runtime (emu_api.h), but for streams and events (emu_streams.cpp):
 * devices from the environment, the last error, device memory, kernel launches. Misuse
 * a GPU runtime would not report reliably (a copy outside an allocation, freeing a
 * foreign pointer) is an emulator error (hip_emu.h: fail). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>
#include <memory>
#include <vector>

#include "emu_internal.h"

namespace hr_emu {
namespace {

struct device {
    int width;
    int multiprocessors;
    char name[96];
};

struct runtime {
    std::vector<device> devices;
    std::map<uintptr_t, size_t> allocations;
    uint64_t rng = 0;
    int current = 0;
    hr_emu_error last_error = HR_EMU_SUCCESS;
};

long env_number(const char* name, long fallback, long lo, long hi)
{
    const char* text = getenv(name);
    if (!text || !*text) return fallback;
    char* end = nullptr;
    const long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi) fail("%s=%s: expected a number from %ld to %ld", name, text, lo, hi);
    return v;
}

runtime& rt()
{
    static runtime* r = [] {
        runtime* n = new runtime;
        const int sms = (int)env_number("HIPREDUCE_EMU_SM_COUNT", 3, 1, 1024);
        n->rng = (uint64_t)env_number("HIPREDUCE_EMU_SEED", 1, 0, 0x7fffffffL);
        const char* widths = getenv("HIPREDUCE_EMU_WARP_SIZE");
        for (const char* p = widths && *widths ? widths : "32"; *p;) {
            char* end = nullptr;
            const long w = strtol(p, &end, 10);
            if (end == p || (w != 32 && w != 64) || (*end && *end != ','))
                fail("HIPREDUCE_EMU_WARP_SIZE=%s: expected warp widths 32 or 64, comma-separated", widths);
            device d = {(int)w, sms, {0}};
            snprintf(d.name, sizeof d.name, "emulated GPU (warp width %ld, %d multiprocessors, seed %llu)", w, sms,
                     (unsigned long long)n->rng);
            n->devices.push_back(d);
            p = *end ? end + 1 : end;
        }
        return n;
    }();
    return *r;
}

/* [p, p + bytes) inside one device allocation. */
void check_device(const void* p, size_t bytes, const char* what)
{
    const std::map<uintptr_t, size_t>& a = rt().allocations;
    const uintptr_t at = (uintptr_t)p;
    auto it = a.upper_bound(at);
    if (it != a.begin()) {
        --it;
        if (at >= it->first && at - it->first <= it->second && bytes <= it->second - (at - it->first)) return;
        if (at >= it->first && at - it->first < it->second)
            fail("%s: %zu bytes at %p run past the end of the %zu-byte device allocation at %p", what, bytes, p,
                 it->second, (void*)it->first);
    }
    fail("%s: %p is not device memory (no allocation holds it)", what, p);
}

void check_host(const void* p, size_t bytes, const char* what)
{
    const std::map<uintptr_t, size_t>& a = rt().allocations;
    auto it = a.upper_bound((uintptr_t)p + bytes - 1);
    if (it != a.begin() && (--it)->first + it->second > (uintptr_t)p)
        fail("%s: %p is device memory where the copy's kind says host memory", what, p);
}

}  // namespace

int device_count() { return (int)rt().devices.size(); }
int current_device() { return rt().current; }
int device_width(int device) { return rt().devices[device].width; }

hr_emu_error set_error(hr_emu_error e)
{
    if (e != HR_EMU_SUCCESS) rt().last_error = e;
    return e;
}

uint64_t random_next()
{
    uint64_t z = (rt().rng += UINT64_C(0x9e3779b97f4a7c15)); /* splitmix64 */
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void launch(const char* name, const char* file, int line, dim3 grid, dim3 block, size_t shared_bytes,
            hr_emu_stream_t stream, std::function<void()> body)
{
    hr_emu_stream* s = stream_of(stream);
    const uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (threads == 0 || threads > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu ||
        grid.y > 65535 || grid.z > 65535 || shared_bytes > 65536) {
        set_error(HR_EMU_INVALID_CONFIGURATION);
        return;
    }
    const int device = stream_device(s);
    auto k = std::make_shared<kernel_launch>(
        kernel_launch{name, file, line, grid, block, shared_bytes, device, device_width(device), std::move(body)});
    enqueue(s, node_kind::kernel, [k] { run_kernel(*k); });
}

}  // namespace hr_emu

using namespace hr_emu;

extern "C" {


hr_emu_error hr_emu_get_device_count(int* count)
{
    *count = (int)rt().devices.size();
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_get_device(int* device)
{
    *device = rt().current;
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_set_device(int device)
{
    if (device < 0 || device >= (int)rt().devices.size()) return set_error(HR_EMU_INVALID_DEVICE);
    rt().current = device;
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_device_get_attribute(int* value, hr_emu_attribute attribute, int device)
{
    if (device < 0 || device >= (int)rt().devices.size()) return set_error(HR_EMU_INVALID_DEVICE);
    const auto& d = rt().devices[device];
    switch (attribute) {
    case HR_EMU_ATTR_WARP_SIZE: *value = d.width; return HR_EMU_SUCCESS;
    case HR_EMU_ATTR_MULTIPROCESSOR_COUNT: *value = d.multiprocessors; return HR_EMU_SUCCESS;
    case HR_EMU_ATTR_COMPUTE_CAPABILITY_MAJOR: *value = d.width == 64 ? 9 : 10; return HR_EMU_SUCCESS; /* gfx9, gfx10 */
    case HR_EMU_ATTR_MAX_THREADS_PER_BLOCK: *value = 1024; return HR_EMU_SUCCESS;
    }
    return set_error(HR_EMU_INVALID_VALUE);
}

const char* hr_emu_device_name(int device)
{
    if (device < 0 || device >= (int)rt().devices.size()) return "no such emulated device";
    return rt().devices[device].name;
}

hr_emu_error hr_emu_device_synchronize(void)
{
    drain_all();
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_get_last_error(void)
{
    const hr_emu_error e = rt().last_error;
    rt().last_error = HR_EMU_SUCCESS;
    return e;
}

const char* hr_emu_error_string(hr_emu_error error)
{
    switch (error) {
    case HR_EMU_SUCCESS: return "no error";
    case HR_EMU_INVALID_VALUE: return "invalid argument";
    case HR_EMU_OUT_OF_MEMORY: return "out of memory";
    case HR_EMU_INVALID_CONFIGURATION: return "invalid launch configuration";
    case HR_EMU_INVALID_DEVICE: return "invalid device ordinal";
    case HR_EMU_INVALID_HANDLE: return "invalid resource handle";
    case HR_EMU_NOT_READY: return "not ready";
    }
    return "unknown emulator error";
}

hr_emu_error hr_emu_malloc(void** pointer, size_t bytes)
{
    void* p = nullptr;
    check_not_capturing("hipMalloc");
    if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0) return set_error(HR_EMU_OUT_OF_MEMORY);
    memset(p, (int)(random_next() & 0xff), bytes); /* device memory starts uninitialised */
    rt().allocations[(uintptr_t)p] = bytes;
    *pointer = p;
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_free(void* pointer)
{
    if (!pointer) return HR_EMU_SUCCESS;
    drain_all(); /* like cudaFree: queued work may still use it */
    auto it = rt().allocations.find((uintptr_t)pointer);
    if (it == rt().allocations.end()) fail("hipFree(%p): not the start of a device allocation", pointer);
    rt().allocations.erase(it);
    free(pointer);
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_memset_async(void* device, int value, size_t bytes, hr_emu_stream_t stream)
{
    if (bytes) check_device(device, bytes, "hipMemsetAsync");
    enqueue(stream_of(stream), node_kind::memset, [=] { memset(device, value, bytes); });
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_memset(void* device, int value, size_t bytes)
{
    hr_emu_memset_async(device, value, bytes, nullptr);
    return hr_emu_stream_synchronize(nullptr);
}

hr_emu_error hr_emu_memcpy_async(void* dst, const void* src, size_t bytes, hr_emu_copy_kind kind,
                                 hr_emu_stream_t stream)
{
    if (bytes) {
        switch (kind) {
        case HR_EMU_HOST_TO_DEVICE: check_host(src, bytes, "hipMemcpy source"); check_device(dst, bytes, "hipMemcpy destination"); break;
        case HR_EMU_DEVICE_TO_HOST: check_device(src, bytes, "hipMemcpy source"); check_host(dst, bytes, "hipMemcpy destination"); break;
        case HR_EMU_DEVICE_TO_DEVICE: check_device(src, bytes, "hipMemcpy source"); check_device(dst, bytes, "hipMemcpy destination"); break;
        case HR_EMU_HOST_TO_HOST: check_host(src, bytes, "hipMemcpy source"); check_host(dst, bytes, "hipMemcpy destination"); break;
        case HR_EMU_COPY_DEFAULT: break;
        default: return set_error(HR_EMU_INVALID_VALUE);
        }
    }
    enqueue(stream_of(stream), node_kind::memcpy, [=] { memmove(dst, src, bytes); });
    return HR_EMU_SUCCESS;
}

hr_emu_error hr_emu_memcpy(void* dst, const void* src, size_t bytes, hr_emu_copy_kind kind)
{
    const hr_emu_error e = hr_emu_memcpy_async(dst, src, bytes, kind, nullptr);
    return e != HR_EMU_SUCCESS ? e : hr_emu_stream_synchronize(nullptr);
}

}  // extern "C"
