/* hipreduce-bench: times the library's calls on GPU 0 or on the cpu device; `hipreduce-bench --help`
 * says how. This file picks the device, opens the output, runs, and prints the report. */
#include "bench.h"

#include <string.h>

#include <hipreduce/hipreduce.h>

/* The cpu device runs auto's order whatever the algorithm: timing other names there would print
 * rows that claim to be what they are not. */
static int cpu_algorithms_ok(const bench_options* o)
{
    if (o->algorithms_all) return 1;
    for (int i = 0; i < o->n_algorithms; ++i) {
        if (o->algorithms[i] != HIPREDUCE_ALGORITHM_AUTO) {
            fprintf(stderr,
                    "hipreduce-bench: --algorithms: the cpu device runs only auto's order, got '%s' "
                    "(see --help)\n",
                    hipreduce_algorithm_name((hipreduce_algorithm)o->algorithms[i]));
            return 0;
        }
    }
    return 1;
}

int main(int argc, char** argv)
{
    bench_options o;
    const bench_parse_status parsed = bench_parse(argc, argv, &o);
    if (parsed != BENCH_PARSE_OK) return parsed == BENCH_PARSE_HELP ? 0 : 2;

#if defined(HIPREDUCE_BENCH_GPU)
    if (o.device == BENCH_DEVICE_AUTO) {
        o.device = bench_gpu_count() > 0 ? BENCH_DEVICE_GPU : BENCH_DEVICE_CPU;
        if (o.device == BENCH_DEVICE_CPU) fprintf(stderr, "hipreduce-bench: no GPU visible: timing the cpu device\n");
    }
#else
    if (o.device == BENCH_DEVICE_GPU) {
        fprintf(stderr, "hipreduce-bench: --device=gpu: this build has no GPU backend (cpu backend)\n");
        bench_free_options(&o);
        return 2;
    }
    o.device = BENCH_DEVICE_CPU;
#endif
    if (o.device == BENCH_DEVICE_CPU && !cpu_algorithms_ok(&o)) {
        bench_free_options(&o);
        return 2;
    }

    /* Opened before the run, so that a bad path does not cost a whole sweep. */
    FILE* f = o.output ? fopen(o.output, "w") : stdout;
    if (!f) {
        fprintf(stderr, "hipreduce-bench: --output: cannot write '%s'\n", o.output);
        bench_free_options(&o);
        return 2;
    }
    bench_result r;
    memset(&r, 0, sizeof r);
#if defined(HIPREDUCE_BENCH_GPU)
    int rc = o.device == BENCH_DEVICE_GPU ? bench_run_gpu(&o, &r) : bench_run_cpu(&o, &r);
#else
    int rc = bench_run_cpu(&o, &r);
#endif
    if (rc == 0 && bench_print(f, &o, &r) != 0) {
        fprintf(stderr, "hipreduce-bench: cannot write the report\n");
        rc = 1;
    }
    if (f != stdout && fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "hipreduce-bench: cannot write '%s'\n", o.output);
        rc = 1;
    }
    bench_free_result(&r);
    bench_free_options(&o);
    return rc;
}
