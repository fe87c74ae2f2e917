/* Between the emulator's runtime (emu_runtime.cpp: devices, memory, streams) and its
 * block scheduler (emu_block.cpp). */
#ifndef HIPREDUCE_EMU_INTERNAL_H
#define HIPREDUCE_EMU_INTERNAL_H

#include <stdint.h>

#include <functional>

#include "hip_emu.h"

namespace hr_emu {

struct kernel_launch {
    const char* name; /* the kernel expression as the launch wrote it */
    const char* file; /* where it was launched */
    int line;
    dim3 grid, block;
    size_t shared_bytes;
    int device, width;
    std::function<void()> body;
};

/* Runs every block of k, one at a time, in a random order. */
void run_kernel(const kernel_launch& k);

/* The seeded generator behind every random choice (HIPREDUCE_EMU_SEED). */
uint64_t random_next();
inline uint64_t random_below(uint64_t n) { return random_next() % n; }

/* ---- emu_runtime.cpp: devices, errors ---- */
int device_count();
int current_device();
int device_width(int device);
hr_emu_error set_error(hr_emu_error e); /* records e as the last error, returns it */

/* ---- emu_streams.cpp: queues ---- */
enum class node_kind { kernel, memset, memcpy, other };
hr_emu_stream* stream_of(hr_emu_stream_t stream); /* null: the current device's null stream */
int stream_device(const hr_emu_stream* stream);
/* Queues work on a stream (or records it into the stream's capture). */
void enqueue(hr_emu_stream* stream, node_kind kind, std::function<void()> run);
void drain_all();                                 /* runs all queued work */
void check_not_capturing(const char* what);       /* `what` waits for every stream */

/* Appends where the emulator is (kernel, block, thread) to a message; "" outside kernels. */
void describe_position(char* out, size_t size);

}  // namespace hr_emu

#endif
