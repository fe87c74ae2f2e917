/* hipreduce-bench's command line: a table of options (name, value form, default, help, setter) and
 * strict parsing of every value; --help (bench_help.c) is built from that table and from the
 * library's own name functions, so that neither the option list nor the name lists can go stale.
 * To add an option, add a setter and a row to `options`. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include <hipreduce/hipreduce.h>

static const char* algorithm_name(int v) { return hipreduce_algorithm_name((hipreduce_algorithm)v); }
static const char* op_name(int v) { return hipreduce_op_name((hipreduce_op)v); }
static const char* dtype_name(int v) { return hipreduce_dtype_name((hipreduce_dtype)v); }

static int fail(const char* option, const char* what, const char* value)
{
    fprintf(stderr, "hipreduce-bench: %s: %s '%s' (see --help)\n", option, what, value);
    return -1;
}

static int parse_int(const char* option, const char* value, int lo, int hi, int* out)
{
    uint64_t v = 0;
    if (bench_parse_u64(value, value + strlen(value), &v) != 0 || v < (uint64_t)lo || v > (uint64_t)hi) {
        fprintf(stderr, "hipreduce-bench: %s: expected an integer from %d to %d, got '%s'\n", option, lo, hi, value);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A comma-separated list of names known to name_of, or "all"; duplicates are dropped. */
static int parse_names(const char* option, const char* list, const char* (*name_of)(int), const char* kind,
                       int* out, int* count, int* saw_all)
{
    *count = 0;
    if (*list == '\0') return fail(option, "empty list", list);
    const char* p = list;
    for (;;) {
        const char* comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char want[64];
        if (len == 0 || len >= sizeof want) return fail(option, "bad list", list);
        memcpy(want, p, len);
        want[len] = '\0';
        const int all = strcmp(want, "all") == 0;
        int found = 0;
        if (all && saw_all) *saw_all = 1;
        for (int v = 0; v < BENCH_MAX_NAMES; ++v) {
            const char* name = name_of(v);
            if (!name || (!all && strcmp(want, name) != 0)) continue;
            found = 1;
            int dup = 0;
            for (int k = 0; k < *count; ++k) dup |= out[k] == v;
            if (!dup) out[(*count)++] = v;
        }
        if (!found) {
            char what[64];
            snprintf(what, sizeof what, "unknown %s", kind);
            return fail(option, what, want);
        }
        if (!comma) return 0;
        p = comma + 1;
    }
}

/* ---- setters: one per option; each returns 0 or reports the value and returns -1 ---- */

static int set_device(bench_options* o, const char* opt, const char* v)
{
    if (strcmp(v, "auto") == 0) o->device = BENCH_DEVICE_AUTO;
    else if (strcmp(v, "gpu") == 0) o->device = BENCH_DEVICE_GPU;
    else if (strcmp(v, "cpu") == 0) o->device = BENCH_DEVICE_CPU;
    else return fail(opt, "expected auto, gpu or cpu, got", v);
    return 0;
}
static int set_algorithms(bench_options* o, const char* opt, const char* v)
{
    o->algorithms_all = 0;
    return parse_names(opt, v, algorithm_name, "algorithm", o->algorithms, &o->n_algorithms, &o->algorithms_all);
}
static int set_ops(bench_options* o, const char* opt, const char* v)
{
    return parse_names(opt, v, op_name, "op", o->ops, &o->n_ops, NULL);
}
static int set_dtypes(bench_options* o, const char* opt, const char* v)
{
    return parse_names(opt, v, dtype_name, "dtype", o->dtypes, &o->n_dtypes, NULL);
}
/* Result dtypes: dtype names, "same" (the input dtype) or all. */
static const char* out_name(int v) { return v == BENCH_OUT_SAME ? "same" : dtype_name(v); }
static int set_outs(bench_options* o, const char* opt, const char* v)
{
    return parse_names(opt, v, out_name, "result dtype", o->outs, &o->n_outs, NULL);
}
static int set_sizes(bench_options* o, const char* opt, const char* v)
{
    size_t count = 1;
    for (const char* c = v; *c; ++c) count += *c == ',';
    uint64_t* sizes = malloc(count * sizeof *sizes);
    if (!sizes) return fail(opt, "out of memory for", v);
    size_t k = 0;
    for (const char* p = v;; ++k) {
        const char* comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char one[64];
        if (len < sizeof one) {
            memcpy(one, p, len);
            one[len] = '\0';
        }
        if (len >= sizeof one || bench_parse_size(one, &sizes[k]) != 0) {
            free(sizes);
            fprintf(stderr, "hipreduce-bench: %s: bad size '%.*s' (forms: 1048576, 2^20, 1e9, 2^24+1, 2^20-3; "
                    "at least 1)\n", opt, (int)len, p);
            return -1;
        }
        if (!comma) break;
        p = comma + 1;
    }
    free(o->sizes);
    o->sizes = sizes;
    o->n_sizes = k + 1;
    return 0;
}
static int set_shape(bench_options* o, const char* opt, const char* v)
{
    static const char* const names[] = {"flat", "rows", "cols", "axis", "ragged"};
    for (int i = 0; i < 5; ++i)
        if (strcmp(v, names[i]) == 0) {
            o->shape = (bench_shape)i;
            return 0;
        }
    return fail(opt, "expected flat, rows, cols, axis or ragged, got", v);
}
static int set_dims(bench_options* o, const char* opt, const char* v)
{
    bench_dims* dims = NULL;
    size_t count = 0;
    if (bench_parse_dims(opt, v, &dims, &count) != 0) return -1;
    free(o->dims);
    o->dims = dims;
    o->n_dims = count;
    return 0;
}
static int set_seed(bench_options* o, const char* opt, const char* v)
{
    if (bench_parse_u64(v, v + strlen(v), &o->seed) != 0) return fail(opt, "expected a non-negative integer, got", v);
    return 0;
}
static int set_step(bench_options* o, const char* opt, const char* v)
{
    int step = 1;
    if (parse_int(opt, v, 1, 64, &step) != 0) return -1;
    o->step = (uint64_t)step;
    return 0;
}
static int set_reps(bench_options* o, const char* opt, const char* v) { return parse_int(opt, v, 1, 1000000, &o->reps); }
static int set_warmup(bench_options* o, const char* opt, const char* v)
{
    return parse_int(opt, v, 0, 1000000, &o->warmup);
}
static int set_workspace(bench_options* o, const char* opt, const char* v)
{
    if (strcmp(v, "own") == 0) o->workspace = BENCH_WORKSPACE_OWN;
    else if (strcmp(v, "caller") == 0) o->workspace = BENCH_WORKSPACE_CALLER;
    else return fail(opt, "expected own or caller, got", v);
    return 0;
}
static int set_ceiling(bench_options* o, const char* opt, const char* v)
{
    if (strcmp(v, "1GiB") == 0) o->ceiling = BENCH_CEILING_1GIB;
    else if (strcmp(v, "same") == 0) o->ceiling = BENCH_CEILING_SAME;
    else return fail(opt, "expected 1GiB or same, got", v);
    return 0;
}
static int set_threads(bench_options* o, const char* opt, const char* v)
{
    int threads = 0;
    if (parse_int(opt, v, 0, 256, &threads) != 0) return -1;
    o->threads = (unsigned)threads;
    return 0;
}
static int set_no_vendor(bench_options* o, const char* opt, const char* v)
{
    (void)opt, (void)v;
    o->vendor = 0;
    return 0;
}
static int set_format(bench_options* o, const char* opt, const char* v)
{
    if (strcmp(v, "table") == 0) o->format = BENCH_FORMAT_TABLE;
    else if (strcmp(v, "csv") == 0) o->format = BENCH_FORMAT_CSV;
    else if (strcmp(v, "json") == 0) o->format = BENCH_FORMAT_JSON;
    else return fail(opt, "expected table, csv or json, got", v);
    return 0;
}
static int set_output(bench_options* o, const char* opt, const char* v)
{
    if (*v == '\0') return fail(opt, "empty file name", v);
    o->output = v;
    return 0;
}

static const bench_option_spec options[] = {
    {"--device", "auto|gpu|cpu",
     "gpu: GPU 0; cpu: the cpu device; auto: GPU 0 where this build\n"
     "has a GPU backend and its runtime sees a GPU, else the cpu device\n"
     "(default: auto)",
     set_device},
    {"--algorithms", "LIST", "algorithm names, comma-separated, or all (default: auto)", set_algorithms},
    {"--ops", "LIST", "op names, comma-separated, or all (default: sum)", set_ops},
    {"--dtypes", "LIST", "input dtype names, comma-separated, or all (default: f32)", set_dtypes},
    {"--out", "LIST",
     "result dtypes, comma-separated: dtype names, same (the input\n"
     "dtype) or all; each input dtype runs with every entry the library\n"
     "allows for the op (f16 sum with --out=f32,i64: into f32 only);\n"
     "argmin/argmax take same or the input dtype (default: same)",
     set_outs},
    {"--sizes", "LIST",
     "element counts (dot: of each input), comma-separated: 1048576,\n"
     "2^20 or 1e9, each optionally followed by +D or -D (2^24+1, 1e8+7);\n"
     "at least 1\n"
     "(default: 2^10..2^28 and 1000,100003,2^20+7,2^24+1,100000007)",
     set_sizes},
    {"--shape", "KIND",
     "flat, rows, cols, axis or ragged. flat: hipreduce_reduce,\n"
     "_argreduce, _dot over --sizes; the others time\n"
     "hipreduce_reduce_axis / _argreduce_axis (rows, cols, axis)\n"
     "or _reduce_segments / _argreduce_segments (ragged) over --dims:\n"
     "rows: an R x C matrix, each row reduced (C elements, R results);\n"
     "cols: the same matrix, each column reduced (R elements, C\n"
     "results); axis: [O][E][I], E reduced; ragged: S segments of\n"
     "lengths uniform in 0..M (CSR uint64 offsets) (default: flat)",
     set_shape},
    {"--dims", "LIST",
     "--shape's extents, comma-separated: RxC (rows, cols), OxExI\n"
     "(axis), SxM (ragged: S segments, lengths 0..M), each term a size\n"
     "as in --sizes (4194304x16, 2^20x64, 262144x511)",
     set_dims},
    {"--seed", "N", "ragged: the seed of the segment lengths (default: 1)", set_seed},
    {"--step", "N",
     "rows, cols: 1 to 64; above 1 the R x C matrix is a strided view,\n"
     "every N-th row and column of an (N R) x (N C) array (torch's\n"
     "x[::N, ::N]), reduced through a plan of its strides made once\n"
     "per row (hipreduce_plan_create, then hipreduce_plan_run);\n"
     "the anchors do not run on it (default: 1)",
     set_step},
    {"--reps", "N", "timed calls per row, 1 to 1000000 (default: 50)", set_reps},
    {"--warmup", "N", "untimed rounds before them, 0 to 1000000 (default: 5)", set_warmup},
    {"--workspace", "own|caller",
     "own: the handle's own workspace; caller: for each row's call\n"
     "a workspace of the largest hipreduce_workspace_size among the\n"
     "algorithms, allocated once and given to the handle with\n"
     "hipreduce_set_workspace before timing (default: own)",
     set_workspace},
    {"--ceiling", "1GiB|same",
     "GPU: the read ceiling rows are compared with: the plain streaming\n"
     "read of 1 GiB, or of the row's own input bytes (a smaller read\n"
     "pays the same launch and tail: its ceiling is lower) (default: 1GiB)",
     set_ceiling},
    {"--threads", "N",
     "cpu device: threads per call (hipreduce_set_threads), 1 to 256,\n"
     "or 0 for the library's default, the available cores (default: 0)",
     set_threads},
    {"--no-vendor", NULL, "do not time the anchors (GPU only; default: time them)", set_no_vendor},
    {"--format", "table|csv|json", "report format (default: table)", set_format},
    {"--output", "FILE", "write the report to FILE (default: standard output)", set_output},
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

static const bench_option_spec* find_option(const char* arg, size_t len)
{
    for (int i = 0; i < N_OPTIONS; ++i)
        if (strlen(options[i].name) == len && strncmp(options[i].name, arg, len) == 0) return &options[i];
    return NULL;
}

size_t bench_default_sizes(uint64_t* out, size_t capacity)
{
    static const uint64_t odd[] = {1000, 100003, (1u << 20) + 7, (1u << 24) + 1, 100000007};
    uint64_t all[32];
    size_t k = 0;
    for (int e = 10; e <= 28; ++e) all[k++] = (uint64_t)1 << e;
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; ++i) all[k++] = odd[i];
    /* ascending: insertion sort of a handful */
    for (size_t i = 1; i < k; ++i)
        for (size_t j = i; j > 0 && all[j - 1] > all[j]; --j) {
            const uint64_t t = all[j];
            all[j] = all[j - 1];
            all[j - 1] = t;
        }
    for (size_t i = 0; i < k && i < capacity; ++i) out[i] = all[i];
    return k;
}

bench_parse_status bench_parse(int argc, char** argv, bench_options* o)
{
    memset(o, 0, sizeof *o);
    o->algorithms[o->n_algorithms++] = HIPREDUCE_ALGORITHM_AUTO;
    o->ops[o->n_ops++] = HIPREDUCE_OP_SUM;
    o->dtypes[o->n_dtypes++] = HIPREDUCE_F32;
    o->outs[o->n_outs++] = BENCH_OUT_SAME;
    o->reps = 50;
    o->warmup = 5;
    o->vendor = 1;
    o->seed = 1;
    o->step = 1;
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            bench_free_options(o);
            bench_print_help(options, N_OPTIONS);
            return BENCH_PARSE_HELP;
        }
        const char* eq = strchr(arg, '=');
        const size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const bench_option_spec* spec = strncmp(arg, "--", 2) == 0 ? find_option(arg, len) : NULL;
        const char* value = eq ? eq + 1 : NULL;
        int bad = 0;
        if (!spec) {
            fprintf(stderr, "hipreduce-bench: unknown %s '%.*s' (see --help)\n",
                    strncmp(arg, "-", 1) == 0 ? "option" : "argument", (int)len, arg);
            bad = 1;
        } else if (!spec->value && value) {
            fprintf(stderr, "hipreduce-bench: option '%s' takes no value (see --help)\n", spec->name);
            bad = 1;
        } else if (spec->value && !value) {
            if (i + 1 < argc) value = argv[++i];
            else {
                fprintf(stderr, "hipreduce-bench: option '%s' needs a value: %s=%s\n", spec->name, spec->name,
                        spec->value);
                bad = 1;
            }
        }
        if (bad || spec->set(o, spec->name, value ? value : "") != 0) {
            bench_free_options(o);
            return BENCH_PARSE_ERROR;
        }
    }
    const int want_terms = o->shape == BENCH_SHAPE_AXIS ? 3 : 2;
    const char* shape_error = NULL;
    if (o->shape == BENCH_SHAPE_FLAT && o->dims) shape_error = "--dims needs a --shape other than flat";
    else if (o->shape != BENCH_SHAPE_FLAT && !o->dims) shape_error = "--shape other than flat needs --dims";
    else if (o->shape != BENCH_SHAPE_FLAT && o->sizes) shape_error = "--sizes is for --shape=flat (use --dims)";
    else if (o->step > 1 && o->shape != BENCH_SHAPE_ROWS && o->shape != BENCH_SHAPE_COLS)
        shape_error = "--step is for --shape=rows and cols";
    for (size_t k = 0; k < o->n_dims && !shape_error; ++k)
        if (o->dims[k].count != want_terms)
            shape_error = want_terms == 3 ? "--shape=axis takes OxExI entries in --dims"
                                          : "--shape=rows, cols and ragged take RxC / SxM entries in --dims";
    if (shape_error) {
        fprintf(stderr, "hipreduce-bench: %s (see --help)\n", shape_error);
        bench_free_options(o);
        return BENCH_PARSE_ERROR;
    }
    if (!o->sizes) {
        uint64_t sizes[32];
        const size_t k = bench_default_sizes(sizes, 32);
        o->sizes = malloc(k * sizeof *o->sizes);
        if (!o->sizes) {
            fprintf(stderr, "hipreduce-bench: out of memory\n");
            return BENCH_PARSE_ERROR;
        }
        memcpy(o->sizes, sizes, k * sizeof *o->sizes);
        o->n_sizes = k;
    }
    return BENCH_PARSE_OK;
}

void bench_free_options(bench_options* o)
{
    free(o->sizes);
    o->sizes = NULL;
    o->n_sizes = 0;
    free(o->dims);
    o->dims = NULL;
    o->n_dims = 0;
}
