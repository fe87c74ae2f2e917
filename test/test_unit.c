/* unit suite, no GPU and no library link (src/plan.c, src/types.c and src/status.c are compiled
 * in): the planning math for n from 0 to 2^40 (and the edges of uint64), checked against a
 * straightforward recomputation; the op/dtype tables; the status strings; the tests' own f16/bf16
 * converter (test_unit_half.c). */
#include <stdio.h>
#include <string.h>

#include "hipreduce/hipreduce_study.h"
#include "plan.h"
#include "types.h"

static int fails;
static uint64_t current_n; /* the n being checked, for the messages */
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            if (++fails <= 30) {                                                \
                fprintf(stderr, "%s:%d: FAIL %s (n=%llu): ", __FILE__, __LINE__, \
                        #cond, (unsigned long long)current_n);                 \
                fprintf(stderr, __VA_ARGS__);                                   \
                fputc('\n', stderr);                                            \
            }                                                                   \
        }                                                                       \
    } while (0)

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a == 0 ? 0 : 1 + (a - 1) / b; }
static uint64_t align16(uint64_t bytes) { return (bytes + 15) / 16 * 16; }

/* The n values: every n up to 5000, 2^k and its neighbours up to 2^40 (and 2^63), powers of the
 * tile sizes and their neighbours, pseudo-random n up to 2^40, and UINT64_MAX. */
static size_t n_values(uint64_t* out)
{
    size_t count = 0;
    for (uint64_t n = 0; n <= 5000; ++n) out[count++] = n;
    for (int k = 12; k <= 63; ++k)
        for (int d = -1; d <= 1; ++d) out[count++] = (UINT64_C(1) << k) + (uint64_t)(int64_t)d;
    const uint64_t tiles[4] = {2048, 4096, 8192, 16384};
    for (int t = 0; t < 4; ++t)
        for (uint64_t p = tiles[t]; p <= UINT64_C(1) << 40; p *= tiles[t])
            for (int d = -1; d <= 1; ++d) out[count++] = p + (uint64_t)(int64_t)d;
    uint64_t z = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 2000; ++i) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17; /* xorshift64 */
        out[count++] = z % ((UINT64_C(1) << 40) + 1);
    }
    out[count++] = UINT64_MAX;
    return count;
}

static void check_geometry(void)
{
    const size_t sizes[] = {1, 2, 4, 8, 16, 32};
    const uint32_t chunk[] = {16, 8, 4, 2, 1, 1};
    for (int i = 0; i < 6; ++i) {
        CHECK(hr_chunk_items(sizes[i]) == chunk[i], "size %zu", sizes[i]);
        CHECK(hr_tile_items(sizes[i]) == 256u * 4u * chunk[i], "size %zu", sizes[i]);
    }
    /* The tile is 16 KiB of input for every dtype up to 16 bytes. */
    CHECK(hr_tile_items(1) * 1 == 16384 && hr_tile_items(8) * 8 == 16384, "tile bytes");
}

static void check_tree(uint64_t n, uint64_t tile, size_t acc)
{
    hr_tree_plan p;
    const int rc = hr_plan_tree(n, tile, acc, &p);
    uint64_t count[70];
    int levels = 1;
    count[0] = n;
    /* A single element still has its level of one tile. */
    while (count[levels - 1] > 1 || (levels == 1 && n == 1)) {
        count[levels] = ceil_div(count[levels - 1], tile);
        ++levels;
    }
    if (levels > HR_MAX_LEVELS) {
        CHECK(rc == -1, "tree: %d levels must not fit", levels);
        return;
    }
    CHECK(rc == 0, "tree tile %llu", (unsigned long long)tile);
    if (rc != 0) return;
    CHECK(p.levels == levels, "tree levels %d vs %d", p.levels, levels);
    /* levels - 1 is the least k with tile^k >= n (n >= 2). */
    if (n >= 2) {
        int k = 0;
        for (long double power = 1; power < (long double)n; power *= (long double)tile) ++k;
        CHECK(levels - 1 == k, "tree: levels - 1 = %d, log_tile(n) rounded up = %d", levels - 1, k);
    }
    /* Two regions: counters (levels >= 2), then partials (levels 1 .. top-1). */
    uint64_t counters = 0, partials = 0;
    for (int k = 2; k < levels; ++k) {
        CHECK(p.counter_offset[k] == counters, "tree counter_offset[%d]", k);
        counters += align16(count[k] * 4);
    }
    for (int k = 0; k < levels; ++k) {
        CHECK(p.count[k] == count[k], "tree count[%d]", k);
        if (k >= 1 && k + 1 < levels) {
            CHECK(p.partial_offset[k] == partials, "tree partial_offset[%d]", k);
            partials += align16(count[k] * acc);
        }
    }
    const uint64_t total = counters + partials;
    CHECK(p.counter_bytes == counters && p.partial_bytes == partials, "tree region sizes");
    CHECK(p.workspace_bytes == total, "tree workspace %llu vs %llu", (unsigned long long)p.workspace_bytes,
          (unsigned long long)total);
    CHECK((n > tile) == (p.workspace_bytes > 0), "tree: workspace only beyond one tile");
}

static void check_multipass(uint64_t n, uint64_t factor, size_t acc)
{
    hr_multipass_plan p;
    const int rc = hr_plan_multipass(n, factor, acc, &p);
    /* Pass k leaves ceil(n / factor^k) elements; passes = least k with factor^k >= n, at least 1. */
    int passes = 0;
    long double power = 1;
    do {
        ++passes;
        power *= (long double)factor;
    } while (power < (long double)n);
    const uint64_t c1 = n == 0 ? 1 : ceil_div(n, factor), c2 = ceil_div(c1, factor);
    const long double bytes = (passes > 1 ? (long double)c1 * acc + 15 : 0) + (passes > 2 ? (long double)c2 * acc + 15 : 0);
    if (bytes > 1.8e19L) { /* beyond uint64: must be refused */
        CHECK(rc == -1, "multipass overflow must fail");
        return;
    }
    CHECK(rc == 0, "multipass factor %llu", (unsigned long long)factor);
    if (rc != 0) return;
    CHECK(p.passes == passes, "multipass passes %d vs %d, factor %llu", p.passes, passes,
          (unsigned long long)factor);
    CHECK(p.count[0] == n, "multipass count[0]");
    for (int k = 1; k <= passes && k < 66; ++k) {
        uint64_t want = n == 0 ? 1 : n;
        for (int j = 0; j < k; ++j) want = ceil_div(want, factor);
        CHECK(p.count[k] == want, "multipass count[%d]", k);
    }
    CHECK(p.count[passes] == 1, "multipass ends at one");
    const uint64_t front = passes > 1 ? align16(c1 * acc) : 0, back = passes > 2 ? align16(c2 * acc) : 0;
    CHECK(p.back_offset == front, "multipass back_offset");
    CHECK(p.workspace_bytes == front + back, "multipass workspace");
}

static void check_two_pass(uint64_t n, uint64_t per_block, uint64_t max_blocks, size_t acc)
{
    hr_two_pass_plan p;
    CHECK(hr_plan_two_pass(n, per_block, max_blocks, acc, &p) == 0, "two_pass");
    uint64_t blocks = ceil_div(n, per_block);
    blocks = blocks < 1 ? 1 : blocks > max_blocks ? max_blocks : blocks;
    CHECK(p.blocks == blocks, "two_pass blocks %llu vs %llu", (unsigned long long)p.blocks,
          (unsigned long long)blocks);
    CHECK(p.workspace_bytes == (blocks > 1 ? align16(blocks * acc) : 0), "two_pass workspace");
}

static void check_plans(void)
{
    static uint64_t ns[8000];
    const size_t count = n_values(ns);
    const size_t elem[4] = {1, 2, 4, 8};
    const uint64_t factors[5] = {2, 3, 7, 2048, 16384};
    for (size_t i = 0; i < count; ++i) {
        const uint64_t n = ns[i];
        current_n = n;
        CHECK(hr_tiles(n, 4096) == ceil_div(n, 4096), "hr_tiles");
        CHECK(hr_tiles(n, 1) == n, "hr_tiles");
        for (int e = 0; e < 4; ++e) {
            check_tree(n, hr_tile_items(elem[e]), 4);
            check_tree(n, hr_tile_items(elem[e]), 8);
            check_two_pass(n, hr_tile_items(elem[e]), 132 * 8, elem[e] < 8 ? 4 : 8);
        }
        for (int f = 0; f < 5; ++f) check_multipass(n, factors[f], 8);
        check_two_pass(n, 1, 1, 8);
    }
    current_n = 0;
    hr_tree_plan tp;
    hr_multipass_plan mp;
    hr_two_pass_plan pp;
    CHECK(hr_plan_tree(UINT64_MAX, 2048, 8, &tp) == 0 && tp.levels == 7, "2^64 - 1 in 2048-element tiles");
    CHECK(hr_plan_tree(UINT64_C(1) << 40, 2, 8, &tp) == -1, "41 levels do not fit");
    CHECK(hr_plan_multipass(100, 1, 8, &mp) == -1 && hr_plan_multipass(100, 0, 8, &mp) == -1, "factor < 2");
    CHECK(hr_plan_multipass(UINT64_MAX, 2, 8, &mp) == -1, "multipass bytes overflow");
    CHECK(hr_plan_multipass(UINT64_MAX, 2, 1, &mp) == 0 && mp.passes == 64, "64 passes of factor 2");
    CHECK(hr_plan_two_pass(10, 0, 4, 8, &pp) == -1 && hr_plan_two_pass(10, 4, 0, 8, &pp) == -1, "zero sizes");
}

/* The allowed (op, in, out) triples, written from the header's text independently of types.c:
 * which call takes the op (0 reduce, 1 argreduce, 2 dot), then whether out is allowed for in. */
/* Calls: 0 reduce, 1 argreduce, 2 dot, 3 plans only (var, std, var_mean, std_mean, aminmax). */
static int spec_call(int op)
{
    return op == 11 || op == 12 || op == 31 || op == 32 ? 1 : op == 13 || op == 15 || op == 30 ? 2 : (op >= 22 && op <= 25) || op == 29 ? 3 : 0;
}
static int spec_allowed(int op, int in, int out)
{
    static const int size[12] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};
    if (in >= 12) { /* c64, c128 */
        switch (op) {
        case 0: case 1: case 13: case 14: case 30: return out == in || out == 13; /* sum, prod, dot, sum_exact, dotc */
        case 8: return out == 11 || (in == 12 && out == 10);                        /* sum_squares: of |z|^2 */
        case 10: return out == 10 || out == 11;                                     /* nrm2 */
        default: return 0;
        }
    }
    if (out >= 12) return 0; /* a complex result of a real input */
    const int in_float = in >= 8, out_float = out >= 8;
    const int in_signed = !in_float && in % 2 == 0, out_signed = !out_float && out % 2 == 0;
    switch (op) {
    case 0: case 1: case 7: case 8: case 13: /* sum, prod, sum_abs, sum_squares, dot */
        if (!in_float)
            return !out_float && ((out_signed == in_signed && size[out] >= size[in]) || out == 6 || out == 7);
        if (in == 8 || in == 9) return out == in || out == 10 || out == 11;
        return out_float && out >= in;
    case 2: case 3: case 11: case 12: case 29: return out == in; /* 29: aminmax */
    case 31: case 32: return in_float && out == in;               /* nanargmin, nanargmax */
    case 4: case 5: case 6: return !in_float && out == in;
    case 9: return in_float ? out == in : !out_float && !out_signed && size[out] == size[in];
    case 10: return in_float && (out == 10 || out == 11);
    case 14: case 15: case 16: /* sum_exact, dot_exact, mean: sum's float results */
        return in_float && (in == 8 || in == 9 ? out == in || out == 10 || out == 11 : out_float && out >= in);
    case 17: case 18: case 22: case 23: case 24: case 25: case 26: case 27: case 28:
        /* nansum, nanmean, var, std, var_mean, std_mean, logsumexp, nanmin, nanmax */
        return in_float && (out == in || ((in == 8 || in == 9) && out == 10));
    case 19: return out == 6; /* count_nonzero: into i64 */
    case 20: case 21: return out == 1; /* all, any: into u8 */
    default: return 0;
    }
}

static void check_tables(void)
{
    static const struct { int value; const char* name; size_t size; int cls; } dtypes[] = {
        {0, "i8", 1, HR_CLASS_SIGNED},   {1, "u8", 1, HR_CLASS_UNSIGNED},  {2, "i16", 2, HR_CLASS_SIGNED},
        {3, "u16", 2, HR_CLASS_UNSIGNED}, {4, "i32", 4, HR_CLASS_SIGNED},  {5, "u32", 4, HR_CLASS_UNSIGNED},
        {6, "i64", 8, HR_CLASS_SIGNED},  {7, "u64", 8, HR_CLASS_UNSIGNED}, {8, "f16", 2, HR_CLASS_HALF},
        {9, "bf16", 2, HR_CLASS_HALF},   {10, "f32", 4, HR_CLASS_FLOAT},   {11, "f64", 8, HR_CLASS_FLOAT},
        {12, "c64", 8, HR_CLASS_COMPLEX}, {13, "c128", 16, HR_CLASS_COMPLEX},
    };
    static const char* const ops[33] = {"sum", "prod", "min", "max", "and", "or", "xor", "sum_abs",
                                        "sum_squares", "max_abs", "nrm2", "argmin", "argmax", "dot",
                                        "sum_exact", "dot_exact", "mean", "nansum", "nanmean", "count_nonzero",
                                        "all", "any", "var", "std", "var_mean", "std_mean", "logsumexp", "nanmin",
                                        "nanmax", "aminmax", "dotc", "nanargmin", "nanargmax"};
    for (int v = -2; v < 20; ++v) {
        const char* name = hr_dtype_name(v);
        int row = -1;
        for (int i = 0; i < 14; ++i)
            if (dtypes[i].value == v) row = i;
        if (row < 0) {
            CHECK(name == NULL && hr_dtype_bytes(v) == 0 && hr_dtype_class(v) == HR_CLASS_NONE &&
                      hipreduce_dtype_size((hipreduce_dtype)v) == 0 && hipreduce_dtype_name((hipreduce_dtype)v) == NULL,
                  "dtype %d must be unknown", v);
            continue;
        }
        CHECK(name && strcmp(name, dtypes[row].name) == 0 && (size_t)hr_dtype_bytes(v) == dtypes[row].size &&
                  hr_dtype_class(v) == (int)dtypes[row].cls && hipreduce_dtype_size((hipreduce_dtype)v) == dtypes[row].size &&
                  hipreduce_dtype_name((hipreduce_dtype)v) && strcmp(hipreduce_dtype_name((hipreduce_dtype)v), name) == 0,
              "dtype %d", v);
    }
    int allowed = 0;
    for (int op = -2; op < 34; ++op) {
        const char* name = hr_op_name(op);
        const int known = op >= 0 && op < 33;
        CHECK(known ? name && strcmp(name, ops[op]) == 0 : name == NULL, "op %d", op);
        CHECK(name ? hipreduce_op_name((hipreduce_op)op) && strcmp(hipreduce_op_name((hipreduce_op)op), name) == 0
                   : hipreduce_op_name((hipreduce_op)op) == NULL,
              "public op name %d", op);
        for (int kind = 0; kind < 4; ++kind)
            for (int in = -2; in < 16; ++in)
                for (int out = -2; out < 16; ++out) {
                    const int in_ok = hr_dtype_name(in) != NULL, out_ok = hr_dtype_name(out) != NULL;
                    const hipreduce_status want =
                        !known                ? HIPREDUCE_STATUS_INVALID_OP
                        : !in_ok || !out_ok   ? HIPREDUCE_STATUS_INVALID_DTYPE
                        : spec_call(op) == kind && spec_allowed(op, in, out) ? HIPREDUCE_STATUS_SUCCESS
                                                                             : HIPREDUCE_STATUS_OP_DTYPE_MISMATCH;
                    const hipreduce_status got = hr_check_triple((hr_call_kind)kind, op, in, out);
                    CHECK(got == want, "call %d op %d in %d out %d: %d, want %d", kind, op, in, out, got, want);
                    allowed += got == HIPREDUCE_STATUS_SUCCESS;
                    if (got == HIPREDUCE_STATUS_SUCCESS)
                        CHECK((size_t)hr_acc_bytes(hr_acc_of(op, in, out)) > 0, "accumulator of op %d in %d out %d", op, in, out);
                }
    }
    int spec_total = 0;
    for (int op = 0; op < 33; ++op)
        for (int in = 0; in < 14; ++in)
            for (int out = 0; out < 14; ++out) spec_total += spec_allowed(op, in, out);
    CHECK(allowed == spec_total && spec_total > 0, "%d allowed triples, the spec has %d", allowed, spec_total);
    /* Every algorithm value has a distinct non-empty name; the first value past the last has none. */
    enum { ALGORITHMS = HIPREDUCE_ALGORITHM_TUTORIAL_V10 + 1 };
    const char* algorithms[ALGORITHMS];
    for (int a = 0; a < ALGORITHMS; ++a) {
        algorithms[a] = hr_algorithm_name(a);
        CHECK(algorithms[a] && algorithms[a][0], "algorithm %d", a);
        CHECK(algorithms[a] && hipreduce_algorithm_name((hipreduce_algorithm)a) &&
                  strcmp(hipreduce_algorithm_name((hipreduce_algorithm)a), algorithms[a]) == 0,
              "public algorithm name %d", a);
        for (int b = 0; b < a; ++b)
            CHECK(algorithms[a] && algorithms[b] && strcmp(algorithms[a], algorithms[b]) != 0, "algorithms %d, %d", a, b);
    }
    CHECK(hr_algorithm_name(ALGORITHMS) == NULL && hr_algorithm_name(-1) == NULL &&
              hipreduce_algorithm_name((hipreduce_algorithm)ALGORITHMS) == NULL,
          "unknown algorithms");
    CHECK(strcmp(hipreduce_algorithm_name(HIPREDUCE_ALGORITHM_AUTO), "auto") == 0 &&
              strcmp(hipreduce_algorithm_name(HIPREDUCE_ALGORITHM_TWO_PASS), "two_pass") == 0,
          "names");
}

static void check_status_strings(void)
{
    enum { STATUSES = HIPREDUCE_STATUS_INVALID_AXES + 1 };
    const char* s[STATUSES];
    for (int i = 0; i < STATUSES; ++i) {
        s[i] = hipreduce_status_string((hipreduce_status)i);
        CHECK(s[i] != NULL && s[i][0] != '\0', "status %d", i);
        for (int j = 0; j < i; ++j) CHECK(s[i] && s[j] && strcmp(s[i], s[j]) != 0, "status %d and %d", i, j);
    }
    const int unknown[] = {-1, STATUSES, 1000};
    for (int k = 0; k < 3; ++k) {
        const char* u = hipreduce_status_string((hipreduce_status)unknown[k]);
        CHECK(u != NULL && u[0] != '\0', "unknown status %d", unknown[k]);
        for (int i = 0; i < STATUSES; ++i)
            CHECK(u && s[i] && strcmp(u, s[i]) != 0, "unknown %d like %d", unknown[k], i);
    }
    CHECK(hipreduce_get_version() == HIPREDUCE_VERSION, "version");
}

/* Caller workspaces (plan.h): every workspace of at least hr_workspace_need bytes, at any of the 16
 * addresses mod 16, holds the call's counters in its counter region and its scratch after it; the
 * tree's real counters fit the capacity of the workspace the size query asks for. */
static void check_workspace_layout(void)
{
    for (uint64_t scratch = 0; scratch < (UINT64_C(1) << 36); scratch = scratch < 4096 ? scratch + 1 : scratch * 3 + 7) {
        for (uint64_t counters = 0; counters < 100000; counters = counters * 5 + 16) {
            const uint64_t need = hr_workspace_need(scratch, counters);
            current_n = scratch;
            for (uint64_t w = need; w < need + 70000; w += w < need + 64 ? 1 : 4093) {
                const uint64_t cap = hr_counter_capacity(w);
                CHECK(cap % 16 == 0 && cap >= counters && w >= 15 + cap + scratch, "caller workspace layout");
            }
        }
    }
    const size_t elem[4] = {1, 2, 4, 8};
    for (int e = 0; e < 4; ++e) {
        for (uint64_t n = 1; n < (UINT64_C(1) << 40); n = n * 3 + 1) {
            hr_tree_plan tp;
            current_n = n;
            const size_t acc = elem[e] < 8 ? 4 : 8;
            CHECK(hr_plan_tree(n, hr_tile_items(elem[e]), acc, &tp) == 0, "tree plan");
            const uint64_t need = hr_workspace_need(tp.partial_bytes + 16, tp.counter_bytes);
            CHECK(hr_counter_capacity(need) >= tp.counter_bytes, "tree counters fit the capacity");
            CHECK(need - (tp.partial_bytes + 16 + tp.counter_bytes) <= 320 + need / 1000, "layout slack stays small");
        }
    }
    current_n = 0;
    CHECK(hr_workspace_need(UINT64_MAX / 2 + 1, 0) == UINT64_MAX, "need overflow");
}

/* test_unit_half.c */
void check_half(int* fails);

int main(void)
{
    check_geometry();
    check_plans();
    check_workspace_layout();
    check_tables();
    check_status_strings();
    check_half(&fails);
    printf("unit: %d failures\n", fails);
    return fails ? 1 : 0;
}
