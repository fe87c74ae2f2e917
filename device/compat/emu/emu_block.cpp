/* The emulated GPU's block scheduler: one fiber per thread, one block at a time.
 *
 * A thread runs until it reaches a synchronisation point (a barrier, a shuffle,
 * hr_syncwarp) or exits. When no thread of the block can run, the scheduler resolves
 * the points that are complete, in this order:
 *  1. warp operations: in each warp, the lanes waiting at a shuffle take their source
 *     lanes' values; lanes elsewhere (at the barrier, exited, past the block) are
 *     inactive, and reading one is an error (hardware returns garbage); hr_syncwarp
 *     needs every existing lane of the warp (CUDA's full mask);
 *  2. the block barrier, once every thread waits at it: all at the same
 *     __syncthreads, none exited (else an error: on hardware a hang or undefined).
 * The threads released are resumed in a random (seeded) order, so code that misses a
 * barrier sees other threads' writes early or late from run to run. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "emu_fiber.h"
#include "emu_internal.h"

namespace hr_emu {

uint3 thread_idx, block_idx;
dim3 block_dim, grid_dim;

namespace {

enum class state : unsigned char { ready, barrier, shuffle, syncwarp, exited };
const char* const state_names[] = {"running", "at a barrier", "at a shuffle", "at hr_syncwarp", "exited"};

struct thread {
    fiber f;
    state st = state::ready;
    const char* file = nullptr; /* site of the synchronisation point it waits at */
    int line = 0;
    vote kind = vote_none;
    int predicate = 0, vote_result = 0;
    bool xor_mode = false;
    unsigned lane_arg = 0, bytes = 0;
    int width = 0;
    alignas(16) unsigned char value[32]; /* shuffled values: scalars and accumulator structs */
    alignas(16) unsigned char result[32];
};

/* Fiber stacks: kernels nest a few small frames; ASan's redzones need more room. */
constexpr size_t stack_bytes = 256 * 1024;

struct scheduler {
    const kernel_launch* k = nullptr;
    std::vector<thread> threads; /* stacks kept for the next block */
    unsigned count = 0, exited = 0;
    thread* current = nullptr;
    std::vector<unsigned> ready;
    fiber main;
    unsigned char* dynamic = nullptr;
    struct shared_copy {
        const void* type;
        const char* file;
        int line;
        void* memory;
    };
    std::vector<shared_copy> shared; /* this block's HR_SHARED variables */
    uint64_t blocks_run = 0, resumes = 0;
};
scheduler S;

void print_stats()
{
    fprintf(stderr, "hipreduce emu: %llu blocks, %llu thread resumes\n", (unsigned long long)S.blocks_run,
            (unsigned long long)S.resumes);
}

/* The fiber to run next: a ready thread (made current), or the scheduler when none is.
 * Threads switch to each other directly, one switch per resume. */
fiber& next_fiber()
{
    if (S.ready.empty()) {
        S.current = nullptr;
        return S.main;
    }
    const unsigned i = S.ready.back();
    S.ready.pop_back();
    S.current = &S.threads[i];
    thread_idx = uint3{i, 0, 0};
    ++S.resumes;
    return S.current->f;
}

void thread_main()
{
    fiber_started(S.main.stack ? nullptr : &S.main); /* the first thread ever starts from the scheduler */
    S.k->body();
    thread* t = S.current;
    t->st = state::exited;
    ++S.exited;
    fiber_exit(t->f, next_fiber());
}

/* memcpy of a shuffled value with the common sizes constant, so that the compiler inlines them. */
void copy_value(void* to, const void* from, unsigned bytes)
{
    switch (bytes) {
    case 4: memcpy(to, from, 4); break;
    case 8: memcpy(to, from, 8); break;
    default: memcpy(to, from, bytes); break;
    }
}

void shuffle_ready()
{
    for (size_t i = S.ready.size(); i > 1; --i) std::swap(S.ready[i - 1], S.ready[random_below(i)]);
}

thread& running(const char* what)
{
    if (!S.current) fail("%s called outside a kernel", what);
    return *S.current;
}

/* Parks the running thread at a synchronisation point until the scheduler resumes it. */
void wait_here(thread& t, state st, const char* file, int line)
{
    t.st = st;
    t.file = file;
    t.line = line;
    fiber_switch(t.f, next_fiber());
}

const char* where_is(const thread& t, char* buf, size_t size)
{
    if (t.st == state::exited || t.st == state::ready) snprintf(buf, size, "%s", state_names[(int)t.st]);
    else snprintf(buf, size, "%s (%s:%d)", state_names[(int)t.st], t.file, t.line);
    return buf;
}

/* The lanes of warp w waiting at a shuffle take their values. */
void resolve_shuffle(unsigned first, unsigned end)
{
    const unsigned W = (unsigned)S.k->width;
    const thread* model = nullptr;
    for (unsigned i = first; i < end; ++i) {
        thread& t = S.threads[i];
        if (t.st != state::shuffle) continue;
        S.current = &t; /* error messages name this lane */
        thread_idx = uint3{i, 0, 0};
        if (!model) model = &t;
        const unsigned width = t.width ? (unsigned)t.width : W;
        if (width == 0 || width > W || (width & (width - 1)))
            fail("shuffle width %d at %s:%d: must be a power of two up to the warp width %u", t.width, t.file, t.line,
                 W);
        if (t.file != model->file || t.line != model->line || t.width != model->width || t.bytes != model->bytes)
            fail("lanes of one warp at different shuffles: %s:%d (width %d) and %s:%d (width %d)", t.file, t.line,
                 t.width, model->file, model->line, model->width);
        const unsigned lane = i - first;
        unsigned src;
        if (t.xor_mode) {
            src = lane ^ t.lane_arg;
            if (src >= ((lane + width) & ~(width - 1))) src = lane; /* HIP: a later segment gives its own */
        } else {
            src = (lane & (width - 1)) + t.lane_arg >= width ? lane : lane + t.lane_arg;
        }
        const thread* from = &t;
        if (src != lane) {
            if (first + src >= S.count)
                fail("shuffle at %s:%d: lane %u reads lane %u, which does not exist (block of %u threads, warp "
                     "width %u)", t.file, t.line, lane, src, S.count, W);
            from = &S.threads[first + src];
            if (from->st != state::shuffle) {
                char buf[160];
                fail("shuffle at %s:%d: lane %u reads lane %u, which is %s, not at this shuffle", t.file, t.line, lane,
                     src, where_is(*from, buf, sizeof buf));
            }
        }
        copy_value(t.result, from->value, t.bytes);
    }
    for (unsigned i = first; i < end; ++i)
        if (S.threads[i].st == state::shuffle) {
            S.threads[i].st = state::ready;
            S.ready.push_back(i);
        }
}

void resolve_syncwarp(unsigned first, unsigned end)
{
    const thread* model = nullptr;
    for (unsigned i = first; i < end && !model; ++i)
        if (S.threads[i].st == state::syncwarp) model = &S.threads[i];
    for (unsigned i = first; i < end; ++i) {
        const thread& t = S.threads[i];
        if (t.st == state::syncwarp && t.file == model->file && t.line == model->line) continue;
        S.current = &S.threads[i];
        thread_idx = uint3{i, 0, 0};
        char buf[160];
        fail("hr_syncwarp at %s:%d: lane %u of the warp is %s; every lane of the warp must reach the same "
             "hr_syncwarp", model->file, model->line, i - first, where_is(t, buf, sizeof buf));
    }
    for (unsigned i = first; i < end; ++i) {
        S.threads[i].st = state::ready;
        S.ready.push_back(i);
    }
}

void resolve_barrier()
{
    const thread* model = nullptr;
    unsigned waiting = 0;
    int votes = 0, all = 1;
    for (unsigned i = 0; i < S.count; ++i) {
        const thread& t = S.threads[i];
        if (t.st != state::barrier) continue;
        ++waiting;
        if (!model) model = &t;
        if (t.file != model->file || t.line != model->line || t.kind != model->kind) {
            S.current = &S.threads[i];
            thread_idx = uint3{i, 0, 0};
            fail("threads of one block wait at different barriers: %s:%d and %s:%d (thread %u)", t.file, t.line,
                 model->file, model->line, (unsigned)(model - S.threads.data()));
        }
        votes += t.predicate != 0;
        all &= t.predicate != 0;
    }
    for (unsigned i = 0; i < S.count; ++i)
        if (S.threads[i].st == state::exited) {
            S.current = &S.threads[i];
            thread_idx = uint3{i, 0, 0};
            fail("thread %u exited while %u threads wait at the barrier at %s:%d (on a GPU: a hang or undefined)", i,
                 waiting, model->file, model->line);
        }
    const int result = model->kind == vote_or ? votes > 0 : model->kind == vote_and ? all : votes;
    for (unsigned i = 0; i < S.count; ++i) {
        S.threads[i].vote_result = result;
        S.threads[i].st = state::ready;
        S.ready.push_back(i);
    }
}

/* Everything waits: release what is complete, or report why nothing is. */
void resolve()
{
    const unsigned W = (unsigned)S.k->width;
    for (unsigned first = 0; first < S.count; first += W) {
        const unsigned end = std::min(first + W, S.count);
        bool shuffles = false, syncwarps = false;
        for (unsigned i = first; i < end; ++i) {
            shuffles |= S.threads[i].st == state::shuffle;
            syncwarps |= S.threads[i].st == state::syncwarp;
        }
        if (shuffles && syncwarps) {
            S.current = &S.threads[first];
            thread_idx = uint3{first, 0, 0};
            fail("lanes of one warp wait at a shuffle and at hr_syncwarp at the same time");
        }
        if (shuffles) resolve_shuffle(first, end);
        if (syncwarps) resolve_syncwarp(first, end);
    }
    if (S.ready.empty()) resolve_barrier();
    S.current = nullptr;
    shuffle_ready();
}

void run_block()
{
    S.exited = 0;
    S.ready.clear();
    for (unsigned i = 0; i < S.count; ++i) {
        thread& t = S.threads[i];
        t.st = state::ready;
        fiber_prepare(t.f, thread_main);
        S.ready.push_back(i);
    }
    shuffle_ready();
    while (S.exited < S.count) {
        if (!S.ready.empty()) fiber_switch(S.main, next_fiber()); /* back when no thread is ready */
        if (S.exited < S.count) resolve();
    }
}

}  // namespace

int warp_size()
{
    if (!S.k) fail("warpSize read outside a kernel");
    return S.k->width;
}

int syncthreads(vote kind, int predicate, const char* file, int line)
{
    thread& t = running("__syncthreads");
    t.kind = kind;
    t.predicate = predicate;
    wait_here(t, state::barrier, file, line);
    return t.vote_result;
}

void syncwarp(const char* file, int line) { wait_here(running("hr_syncwarp"), state::syncwarp, file, line); }

void shuffle(void* value, unsigned bytes, bool xor_mode, unsigned lane_arg, int width, const char* file, int line)
{
    thread& t = running("a shuffle");
    copy_value(t.value, value, bytes);
    t.bytes = bytes;
    t.xor_mode = xor_mode;
    t.lane_arg = lane_arg;
    t.width = width;
    wait_here(t, state::shuffle, file, line);
    copy_value(value, t.result, bytes);
}

void* dynamic_shared()
{
    (void)running("dynamic shared memory");
    return S.dynamic;
}

void* shared_variable(const void* type, const char* file, int line, size_t bytes, size_t align)
{
    (void)running("a shared variable");
    for (const scheduler::shared_copy& c : S.shared)
        if (c.type == type && c.line == line && c.file == file) return c.memory;
    void* memory = nullptr;
    if (posix_memalign(&memory, align < 16 ? 16 : align, bytes) != 0)
        fail("cannot allocate %zu bytes of shared memory", bytes);
    memset(memory, (int)(random_next() & 0xff), bytes); /* uninitialised */
    S.shared.push_back(scheduler::shared_copy{type, file, line, memory});
    return memory;
}

void describe_position(char* out, size_t size)
{
    out[0] = '\0';
    if (!S.k) return;
    const kernel_launch& k = *S.k;
    snprintf(out, size,
             "\n  in kernel %s (launched at %s:%d), grid (%u,%u,%u) of blocks (%u,%u,%u), warp width %d"
             "\n  block (%u,%u,%u)%s%u",
             k.name, k.file, k.line, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.width,
             block_idx.x, block_idx.y, block_idx.z, S.current ? ", thread " : ", threads: ",
             S.current ? (unsigned)(S.current - S.threads.data()) : S.count);
}

void run_kernel(const kernel_launch& k)
{
    static const bool stats = getenv("HIPREDUCE_EMU_STATS") != nullptr;
    if (stats && S.blocks_run == 0) atexit(print_stats);
    S.k = &k;
    S.count = k.block.x * k.block.y * k.block.z;
    if (k.block.y != 1 || k.block.z != 1 || k.grid.y != 1 || k.grid.z != 1)
        fail("kernel %s: only one-dimensional launches are emulated", k.name);
    while (S.threads.size() < S.count) { /* vector growth would move fibers: grow by rebuilding */
        std::vector<thread> grown(std::max<size_t>(S.count, S.threads.size()));
        for (size_t i = 0; i < grown.size(); ++i) {
            if (i < S.threads.size()) {
                grown[i].f = S.threads[i].f;
            } else {
                grown[i].f.stack_size = stack_bytes;
                grown[i].f.stack = fiber_stack_alloc(stack_bytes);
                if (!grown[i].f.stack) fail("cannot map a %zu-byte fiber stack", stack_bytes);
            }
        }
        S.threads.swap(grown);
    }
    if (k.shared_bytes && posix_memalign((void**)&S.dynamic, 16, k.shared_bytes) != 0)
        fail("cannot allocate %zu bytes of dynamic shared memory", k.shared_bytes);
    block_dim = k.block;
    grid_dim = k.grid;
    std::vector<uint32_t> order(k.grid.x);
    for (uint32_t b = 0; b < k.grid.x; ++b) order[b] = b;
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random_below(i)]);
    for (uint32_t b : order) {
        block_idx = uint3{b, 0, 0};
        if (S.dynamic) memset(S.dynamic, (int)(random_next() & 0xff), k.shared_bytes); /* uninitialised */
        run_block();
        for (const scheduler::shared_copy& c : S.shared) free(c.memory);
        S.shared.clear();
        ++S.blocks_run;
    }
    free(S.dynamic);
    S.dynamic = nullptr;
    S.k = nullptr;
}

void fail(const char* format, ...)
{
    char message[1024], position[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    describe_position(position, sizeof position);
    fflush(stdout);
    fprintf(stderr, "hipreduce emu: error: %s%s\n", message, position);
    fflush(stderr);
    _exit(3);
}

}  // namespace hr_emu
