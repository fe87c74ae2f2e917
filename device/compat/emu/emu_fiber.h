/* User-level threads (fibers) for the emulated GPU's threads: one stack each, switched
 * by hand on x86-64 (a few instructions, no system call) and through ucontext
 * elsewhere or with -DHR_EMU_UCONTEXT (swapcontext saves the signal mask with a system
 * call per switch: measured about 10x slower, see emu_fiber.cpp). Under AddressSanitizer
 * every switch is announced with the sanitizer's fiber API, so that ASan tracks which
 * stack is live and reports no false stack errors. */
#ifndef HIPREDUCE_EMU_FIBER_H
#define HIPREDUCE_EMU_FIBER_H

#include <stddef.h>

#if defined(HR_EMU_UCONTEXT) || !defined(__x86_64__)
#define HR_EMU_USE_UCONTEXT 1
#include <ucontext.h>
#else
#define HR_EMU_USE_UCONTEXT 0
#endif

namespace hr_emu {

struct fiber {
#if HR_EMU_USE_UCONTEXT
    ucontext_t context;
#else
    void* sp = nullptr; /* saved stack pointer while switched out */
#endif
    char* stack = nullptr; /* lowest usable address (a guard page lies below it) */
    size_t stack_size = 0;
    void* fake_stack = nullptr; /* ASan's per-fiber state for stack-use-after-return */
};

/* Stacks of `size` bytes (rounded to pages) with a guard page below each. */
char* fiber_stack_alloc(size_t size);
void fiber_stack_free(char* stack, size_t size);

/* Prepares f to run entry() on its stack at the next switch to it. entry must never
 * return; it ends by fiber_exit. */
void fiber_prepare(fiber& f, void (*entry)());

/* Saves the running fiber in `from` and resumes `to`. */
void fiber_switch(fiber& from, fiber& to);

/* Leaves the running fiber `from` for good (its stack may be prepared again) and resumes `to`. */
[[noreturn]] void fiber_exit(fiber& from, fiber& to);

/* To be called first thing in entry(): completes the switch into a new fiber. `from`,
 * when not null, is the fiber that switched to it: its stack is recorded (under ASan
 * the switch back needs it; the fiber on the thread's own stack has no other way). */
void fiber_started(fiber* from);

}  // namespace hr_emu

#endif
