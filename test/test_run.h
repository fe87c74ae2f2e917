/* How a test program runs: its profile (HIPREDUCE_TEST_PROFILE, which test/CMakeLists.txt sets for
 * the emulated GPU's runs, label emu) and, for the suites that take one, its device argument. */
#ifndef HIPREDUCE_TEST_RUN_H
#define HIPREDUCE_TEST_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TEST_FULL: the profile unset (or unknown); TEST_EMU ("emu"): the emulator's smaller matrices;
 * TEST_EMU_SMOKE ("emu-smoke"): a few cases. */
enum test_profile { TEST_FULL = 0, TEST_EMU_SMOKE = 1, TEST_EMU = 2 };

static inline enum test_profile test_profile(void)
{
    const char* p = getenv("HIPREDUCE_TEST_PROFILE");
    return !p ? TEST_FULL : strcmp(p, "emu") == 0 ? TEST_EMU : strcmp(p, "emu-smoke") == 0 ? TEST_EMU_SMOKE : TEST_FULL;
}

/* A suite's one argument, "cpu" or "gpu": 1 for gpu, 0 for cpu, -1 (after the usage on stderr)
 * for anything else. */
static inline int test_wants_gpu(int argc, char** argv)
{
    if (argc == 2 && strcmp(argv[1], "gpu") == 0) return 1;
    if (argc == 2 && strcmp(argv[1], "cpu") == 0) return 0;
    fprintf(stderr, "usage: %s cpu|gpu\n", argv[0]);
    return -1;
}

#endif
