/* hipreduce-bench --help: the option table of bench_options.c and the library's own name lists,
 * so that neither can go stale here, then what the output's columns mean. */
#include "bench.h"

#include <string.h>

static const char* algorithm_name(int v) { return hipreduce_algorithm_name((hipreduce_algorithm)v); }
static const char* op_name(int v) { return hipreduce_op_name((hipreduce_op)v); }
static const char* dtype_name(int v) { return hipreduce_dtype_name((hipreduce_dtype)v); }

static void print_names(const char* label, const char* (*name_of)(int))
{
    int col = printf("  %-12s", label);
    for (int v = 0; v < BENCH_MAX_NAMES; ++v) {
        const char* name = name_of(v);
        if (!name) continue;
        if (col + 1 + (int)strlen(name) > 98) col = printf("\n  %-12s", "");
        col += printf(" %s", name);
    }
    printf("\n");
}

void bench_print_help(const bench_option_spec* options, int count)
{
    printf("usage: hipreduce-bench [OPTION]...\n\n"
           "Times the library's reductions for every combination of algorithm, op, input dtype, result\n"
           "dtype and size, one row each: hipreduce_reduce, or hipreduce_argreduce for argmin/argmax,\n"
           "hipreduce_dot for dot (two inputs). Each row is the median of --reps calls after --warmup\n"
           "untimed rounds, inputs of random values (floats in [0.5, 1.5), f16/bf16 included; integers\n"
           "random bits) rotated over copies so that a call does not find its input in cache.\n"
           "  GPU (GPU 0): device events around each call, results in device memory. The anchors run\n"
           "    in the same process on the same data, interleaved call by call with the algorithms:\n"
           "    the vendor library (CUB's DeviceReduce from the toolkit on cuda, rocPRIM's reduce on\n"
           "    amd; its time is every row's vendor column) and, where the build has it, a second CUB\n"
           "    (newer CCCL headers: a row of its own, named after its version). Typed ops through CUB:\n"
           "    TransformReduce (a cast, |x|, x*x; nrm2 as the sum of squares, its square root taken\n"
           "    on the host), ArgMin/ArgMax (value and index written separately), dot over a counting\n"
           "    iterator. Once timed, each result is checked against the vendor's. Ceiling: the\n"
           "    bench's streaming-read kernel over 1 GiB.\n"
           "  cpu device: the host's monotonic clock around each (synchronous) call, in turn with a\n"
           "    plain read of the same buffer (a sum of its 64-bit words) on the same thread, which is\n"
           "    that row's ceiling; no anchors. The cpu device always runs auto's order.\n"
           "--shape rows|cols|axis|ragged times the axis and segment calls instead, over each --dims\n"
           "entry, results (values, argmin/argmax's int64 indices too) in device memory on a GPU, host\n"
           "memory on the cpu device; only auto runs them (other algorithms: NOT_SUPPORTED, left out).\n"
           "  GB/s counts the input bytes only: n * element size, n = R * C (rows, cols), O * E * I\n"
           "    (axis), the sum of the segment lengths (ragged: the offsets' bytes are not counted,\n"
           "    nor are the results). Ragged lengths are uniform in 0..M from --seed (splitmix64, as\n"
           "    bench/torch_axis_anchors.py draws them); HIPREDUCE_BENCH_LENGTHS picks another law:\n"
           "    powerlaw[K], giants, empty, fixed (every segment M) or nonempty (uniform in 1..M).\n"
           "  --step N > 1 (rows, cols): the matrix is x[::N, ::N] of a larger array, run as a plan;\n"
           "    GB/s counts the view's elements, and no anchor runs on it.\n"
           "  GPU anchors, in the same process, interleaved, one row each: CUB's DeviceSegmentedReduce\n"
           "    of the toolkit (cub-X.Y.Z-toolkit: begin/end offsets from a counting iterator) and of\n"
           "    the second CUB (cub-X.Y.Z; 3.2 and later: the fixed-size overloads taking a segment\n"
           "    size). Covered: rows sum f32, f16->f32, bf16->f32 (a converting transform iterator),\n"
           "    i8->i64; rows sum_squares bf16->f32 (squared in the transform); rows argmax f32;\n"
           "    ragged sum f32 (over the offsets). Columns have no CUB anchor\n"
           "    (torch's sum(dim=0) is theirs: bench/torch_axis_anchors.py). Each anchor's results\n"
           "    are compared with ours, every one: sums to 1e-4 relative (f32), integers exactly, argmax\n"
           "    value exactly and index exactly unless the input ties there. An anchor that disagrees is\n"
           "    'differs'; ours is 'differs' when it disagrees with every anchor; with no result of\n"
           "    ours (a refused call: an error row) the anchors are 'unchecked'. vendor ms and ratio\n"
           "    are the toolkit CUB's.\n"
           "This build: %s backend.\n\n"
           "Options (--name=VALUE or --name VALUE):\n",
           hipreduce_backend_name());
    for (int i = 0; i < count; ++i) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", options[i].name, options[i].value ? "=" : "",
                 options[i].value ? options[i].value : "");
        const char* line = options[i].help;
        printf("  %-26s", head);
        for (;;) {
            const char* nl = strchr(line, '\n');
            printf("%.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
            if (!nl) break;
            line = nl + 1;
            printf("  %-26s", "");
        }
    }
    printf("  %-26s%s\n\n", "--help", "this text");
    printf("Names (from the library's hipreduce_algorithm_name, _op_name, _dtype_name):\n");
    print_names("algorithms", algorithm_name);
    print_names("ops", op_name);
    print_names("dtypes", dtype_name);
    printf("  Combinations that do not apply are left out: (op, input, result) triples the library\n"
           "  rejects (and, or, xor on floats; i32 sum into i16), algorithms other than auto that\n"
           "  return not-supported for a combination. A call that fails otherwise (auto included) is\n"
           "  an error row: its status instead of figures. On the cpu device only auto is accepted\n"
           "  (all means auto there).\n\n"
           "Output columns (table header / CSV and JSON key):\n"
           "  algorithm op dtype out n  the row: names as above (an anchor's row: the anchor's name),\n"
           "            ... out_dtype   input and result dtype, n in elements (dot: of each input)\n"
           "  ms                        median time of one call, milliseconds\n"
           "  GB/s        gbps          bytes read / time, in 10^9 bytes per second; bytes read is\n"
           "                            n * input element size (dot: both inputs)\n"
           "  %%ceil       pct_ceiling   GB/s as a percentage of the read ceiling\n"
           "  ceil GB/s   ceiling_gbps  the read ceiling of the row (in the table: cpu device only;\n"
           "                            on a GPU one figure for the run, in the header line)\n"
           "  vendor ms   vendor_ms     the vendor library's median on the same data\n"
           "  ratio       ratio         ms / vendor ms: below 1 is faster than the vendor library\n"
           "  status      status        ok; differs (the result is not the vendor's: see standard\n"
           "                            error); unchecked; or the failed call's status (no figures)\n"
           "  shape       shape         --shape modes: rows:RxC, cols:RxC, axis:OxExI,\n"
           "                            ragged:Sx0..M:seedK (empty for flat rows)\n"
           "  Without a comparator (cpu device, --no-vendor, a build without one) the table leaves out\n"
           "  the vendor columns; CSV leaves them empty, JSON writes null. CSV keeps the older\n"
           "  columns first (out_dtype, status and shape come last).\n"
           "  The header line (CSV: a '#' line) names the device, the ceiling, the comparator and\n"
           "  the workspace mode. Progress goes to standard error.\n\n"
           "Exit status: 0 done (error rows included), 1 a failure while running, 2 a usage error.\n");
}
