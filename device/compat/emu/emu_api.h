/* The emulated GPU's runtime API in C (test/emu): what the host executor (host/), the
 * tests (test/gpu_memory.h) and nothing else call. hip_emu.h maps the HIP names onto
 * these for the C++ sources; C tests call them directly.
 *
 * Devices: HIPREDUCE_EMU_WARP_SIZE lists the emulated devices' warp widths, one per
 * device ("64", "32,64"; default "32"); HIPREDUCE_EMU_SM_COUNT their multiprocessors
 * (default 3); HIPREDUCE_EMU_SEED the scheduling seed (default 1). Device memory is host
 * memory, tracked so that copies outside an allocation are reported. Streams are
 * ordered queues run when the host waits (synchronize, query, blocking copies, free),
 * interleaved at random between streams, with the legacy null stream's ordering. */
#ifndef HIPREDUCE_EMU_API_H
#define HIPREDUCE_EMU_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hr_emu_error {
    HR_EMU_SUCCESS = 0,
    HR_EMU_INVALID_VALUE = 1,
    HR_EMU_OUT_OF_MEMORY = 2,
    HR_EMU_INVALID_CONFIGURATION = 9,
    HR_EMU_INSUFFICIENT_DRIVER = 35,
    HR_EMU_NO_DEVICE = 100,
    HR_EMU_INVALID_DEVICE = 101,
    HR_EMU_INVALID_HANDLE = 400,
    HR_EMU_NOT_READY = 600
} hr_emu_error;

typedef enum hr_emu_copy_kind {
    HR_EMU_HOST_TO_HOST = 0,
    HR_EMU_HOST_TO_DEVICE = 1,
    HR_EMU_DEVICE_TO_HOST = 2,
    HR_EMU_DEVICE_TO_DEVICE = 3,
    HR_EMU_COPY_DEFAULT = 4
} hr_emu_copy_kind;

typedef enum hr_emu_attribute {
    HR_EMU_ATTR_WARP_SIZE,
    HR_EMU_ATTR_MULTIPROCESSOR_COUNT,
    HR_EMU_ATTR_COMPUTE_CAPABILITY_MAJOR,
    HR_EMU_ATTR_MAX_THREADS_PER_BLOCK
} hr_emu_attribute;

enum { HR_EMU_EVENT_DISABLE_TIMING = 2, HR_EMU_STREAM_NON_BLOCKING = 1 };

typedef struct hr_emu_stream* hr_emu_stream_t; /* NULL: the current device's null stream */
typedef struct hr_emu_event* hr_emu_event_t;
typedef struct hr_emu_graph* hr_emu_graph_t;

hr_emu_error hr_emu_get_device_count(int* count);
hr_emu_error hr_emu_get_device(int* device);
hr_emu_error hr_emu_set_device(int device);
hr_emu_error hr_emu_device_get_attribute(int* value, hr_emu_attribute attribute, int device);
const char* hr_emu_device_name(int device);
hr_emu_error hr_emu_device_synchronize(void);

hr_emu_error hr_emu_get_last_error(void); /* returns and clears it */
const char* hr_emu_error_string(hr_emu_error error);

hr_emu_error hr_emu_malloc(void** pointer, size_t bytes);
hr_emu_error hr_emu_free(void* pointer);
hr_emu_error hr_emu_memset(void* device, int value, size_t bytes);
hr_emu_error hr_emu_memset_async(void* device, int value, size_t bytes, hr_emu_stream_t stream);
hr_emu_error hr_emu_memcpy(void* dst, const void* src, size_t bytes, hr_emu_copy_kind kind);
hr_emu_error hr_emu_memcpy_async(void* dst, const void* src, size_t bytes, hr_emu_copy_kind kind,
                                 hr_emu_stream_t stream);

hr_emu_error hr_emu_stream_create(hr_emu_stream_t* stream, unsigned flags);
hr_emu_error hr_emu_stream_destroy(hr_emu_stream_t stream);
hr_emu_error hr_emu_stream_synchronize(hr_emu_stream_t stream);
hr_emu_error hr_emu_stream_query(hr_emu_stream_t stream);
hr_emu_error hr_emu_stream_wait_event(hr_emu_stream_t stream, hr_emu_event_t event, unsigned flags);

/* Stream capture: between begin and end, work queued on the stream is recorded into a
 * graph instead of running; waiting for a capturing stream is an emulator error (it
 * would invalidate the capture on a GPU). Launching the graph queues its nodes in order. */
hr_emu_error hr_emu_stream_begin_capture(hr_emu_stream_t stream);
hr_emu_error hr_emu_stream_end_capture(hr_emu_stream_t stream, hr_emu_graph_t* graph);
int hr_emu_graph_nodes(hr_emu_graph_t graph, int* kernels);
hr_emu_error hr_emu_graph_launch(hr_emu_graph_t graph, hr_emu_stream_t stream);
void hr_emu_graph_destroy(hr_emu_graph_t graph);

hr_emu_error hr_emu_event_create(hr_emu_event_t* event, unsigned flags);
hr_emu_error hr_emu_event_destroy(hr_emu_event_t event);
hr_emu_error hr_emu_event_record(hr_emu_event_t event, hr_emu_stream_t stream);
hr_emu_error hr_emu_event_synchronize(hr_emu_event_t event);
hr_emu_error hr_emu_event_query(hr_emu_event_t event);

#ifdef __cplusplus
}
#endif

#endif
