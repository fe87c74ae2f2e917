/* Strided results of an axis call (inner > 1) on the cpu device, in device/order.h's order:
 * over s[e] = x[o][e][i], element b of level k+1 reduces elements [256b, 256b + 256) of level k
 * (level 0: the transformed elements) with 8 lanes, lane j folding elements 256b + 8t + j in
 * increasing t from the identity, then l0..l3 += l4..l7, l0, l1 += l2, l3, l0 += l1; the first
 * level with one element is the result, rounded once as the full reduction rounds its top
 * (hr_cpu_finish).
 *
 * The outputs of one o are taken in groups of up to HR_CPU_STRIDED_GROUP consecutive i, whose
 * level-0 rows x[o][e][i0 .. i0 + group) are contiguous: each row is lifted (transformed into
 * accumulators) and folded into lane e % 8 of level 0, element by element across the group, so
 * the loops run along memory and vectorise. Every level keeps only its 8 lanes of the group:
 * when a block of a level is complete (256 elements, or the level's last), its lane tree gives
 * one element of the level above, which is folded into that level's lanes at once. So the
 * workspace is 8 lanes x group x levels, whatever the extent. Lanes are kept in the level
 * kernels' packed accumulator layout (cpu_ops.h's load_/store_), so no alignment is needed. */
#include "cpu_segments_strided.h"

#include <string.h>

#include "cpu_cells.h"
#include "cpu_ops.h"
#include "cpu_result.h"
#include "order.h"

enum {
    HR_CPU_STRIDED_GROUP = 256, /* outputs folded together: a 1 KiB f32 row, 6 KiB of f64 nrm2 lanes */
    HR_ACC_MAX_BYTES = 24       /* the largest accumulator (NRM2_F64, MOM_F64) */
};

/* Transforms an input row of `items` elements into accumulators at dst (e: the row's position
 * along the reduced axis, argmin/argmax's index). */
typedef void (*lift_fn)(int cmb, const unsigned char* row, uint64_t items, uint64_t e, unsigned char* dst);
/* dst[i] = combine(dst[i], src[i]) for i < items (accumulators). */
typedef void (*fold_fn)(int cmb, unsigned char* dst, const unsigned char* src, uint64_t items);
/* dst[i] = the combine's identity for i < items. */
typedef void (*fill_fn)(int cmb, unsigned char* dst, uint64_t items);

/* ---- lifts: the level kernels' transforms (cpu_ops.h's HR_LIFT_*) over a row, per
 * (input dtype, transform, accumulator kind) of the reduce and argreduce triples ---- */

#define HR_DEFINE_LIFT_VALUE(SN, T, K)                                                                     \
    static void lift_##SN##_##T##_##K(int cmb, const unsigned char* row, uint64_t items, uint64_t e,      \
                                      unsigned char* dst)                                                  \
    {                                                                                                      \
        (void)cmb, (void)e;                                                                                \
        for (uint64_t i = 0; i < items; ++i)                                                               \
            store_##K(dst + i * sizeof(acc_##K), HR_LIFT_##T(SN, K, row, row, i * sizeof(st_##SN)));       \
    }
/* argmin/argmax: the element's order key (a NaN: the key that beats every other, as arg_ in
 * cpu_levels_impl.h) and its position e along the axis. */
#define HR_DEFINE_LIFT_KEY(SN, T, K)                                                                       \
    static void lift_##SN##_KEY_##K(int cmb, const unsigned char* row, uint64_t items, uint64_t e,        \
                                    unsigned char* dst)                                                    \
    {                                                                                                      \
        const key_##K extreme = nan_key_##K(cmb);                                                                \
        for (uint64_t i = 0; i < items; ++i) {                                                             \
            const unsigned char* p = row + i * sizeof(st_##SN);                                            \
            const acc_##K a = {HR_LIFT_KEY(SN, K, p, extreme), (int64_t)e};                                \
            store_##K(dst + i * sizeof(acc_##K), a);                                                       \
        }                                                                                                  \
    }
#define HR_DEFINE_LIFT_IDENT HR_DEFINE_LIFT_VALUE
#define HR_DEFINE_LIFT_ABS HR_DEFINE_LIFT_VALUE
#define HR_DEFINE_LIFT_SQUARE HR_DEFINE_LIFT_VALUE
#define HR_DEFINE_LIFT_NANZERO HR_DEFINE_LIFT_VALUE
#define HR_DEFINE_LIFT_NONZERO HR_DEFINE_LIFT_VALUE
#define HR_DEFINE_LIFT_PACK HR_DEFINE_LIFT_VALUE
#define HR_DEFINE_LIFT_PRODUCT(SN, T, K) /* dot has no axis call */
#define HR_DEFINE_LIFT_CONJ(SN, T, K)

/* The cells of cpu_cells.h (generated from device/rules.h): every (input dtype, transform,
 * accumulator kind) an allowed triple uses. */
#define HR_LIFT_DEFINE(E, SN, BYTES, T, K, CMBS) HR_DEFINE_LIFT_##T(SN, T, K)
#define HR_LIFT_ROW(E, SN, BYTES, T, K, CMBS) HR_LIFT_ROW_##T(E, SN, T, K)
#define HR_LIFT_ROW_IDENT(E, SN, T, K) [E][HR_TF_##T][HR_ACC_##K] = lift_##SN##_##T##_##K,
#define HR_LIFT_ROW_ABS HR_LIFT_ROW_IDENT
#define HR_LIFT_ROW_SQUARE HR_LIFT_ROW_IDENT
#define HR_LIFT_ROW_KEY HR_LIFT_ROW_IDENT
#define HR_LIFT_ROW_NANZERO HR_LIFT_ROW_IDENT
#define HR_LIFT_ROW_NONZERO HR_LIFT_ROW_IDENT
#define HR_LIFT_ROW_PACK HR_LIFT_ROW_IDENT
#define HR_LIFT_ROW_PRODUCT(E, SN, T, K)
#define HR_LIFT_ROW_CONJ(E, SN, T, K)
HR_CPU_IN_CELLS(HR_LIFT_DEFINE)

static const lift_fn lifts[HR_DTYPE_SLOTS][HR_TRANSFORMS][HR_ACC_KINDS] = {HR_CPU_IN_CELLS(HR_LIFT_ROW)};

/* ---- folds and identities per accumulator kind: one loop per combine the kind holds, so
 * each combine's switch folds away ---- */

#define HR_FOLD_CASE(K, C)                                                                                 \
    case HR_CB_##C:                                                                                        \
        for (uint64_t i = 0; i < items; ++i) {                                                             \
            unsigned char* d = dst + i * sizeof(acc_##K);                                                  \
            store_##K(d, combine_##K(HR_CB_##C, load_##K(d), load_##K(src + i * sizeof(acc_##K))));        \
        }                                                                                                  \
        break;
/* Per kind of cpu_cells.h, with the combines the allowed triples give it. */
#define HR_DEFINE_FOLD(K, CMBS)                                                                            \
    static void fold_##K(int cmb, unsigned char* dst, const unsigned char* src, uint64_t items)            \
    {                                                                                                      \
        switch (cmb) {                                                                                     \
            CMBS(HR_FOLD_CASE, K)                                                                          \
        default: break;                                                                                    \
        }                                                                                                  \
    }                                                                                                      \
    static void fill_##K(int cmb, unsigned char* dst, uint64_t items)                                      \
    {                                                                                                      \
        const acc_##K identity = identity_##K(cmb);                                                        \
        for (uint64_t i = 0; i < items; ++i) store_##K(dst + i * sizeof(acc_##K), identity);               \
    }
HR_CPU_KIND_CELLS(HR_DEFINE_FOLD)

#define HR_KIND_ROW(K, CMBS) [HR_ACC_##K] = {fold_##K, fill_##K},
static const struct {
    fold_fn fold;
    fill_fn fill;
} kinds[HR_ACC_KINDS] = {HR_CPU_KIND_CELLS(HR_KIND_ROW)};

/* ---- the order ---- */

/* Block levels above level 0: 0 for extent <= 1. */
static int block_levels(uint64_t extent)
{
    int levels = 0;
    for (uint64_t c = extent; c > 1; c = c / HR_STRIDED_BLOCK + (c % HR_STRIDED_BLOCK != 0)) ++levels;
    return levels;
}

static uint64_t group_of(uint64_t inner) { return inner < HR_CPU_STRIDED_GROUP ? inner : HR_CPU_STRIDED_GROUP; }

size_t hr_cpu_strided_workspace_size(const hr_call* call)
{
    if (call->outer == 0 || call->inner == 0) return 0;
    return (size_t)block_levels(call->extent) * HR_STRIDED_LANES * group_of(call->inner) * (size_t)hr_acc_bytes(call->acc);
}

int hr_cpu_strided_supported(const hr_call* call, int transform)
{
    return (unsigned)call->in_dtype < HR_DTYPE_SLOTS && (unsigned)transform < HR_TRANSFORMS &&
           (unsigned)call->acc < HR_ACC_KINDS && lifts[call->in_dtype][transform][call->acc] != NULL &&
           kinds[call->acc].fold != NULL;
}

typedef struct strided_run {
    const hr_call* call;
    int transform, combine, key;
    lift_fn lift;
    fold_fn fold;
    fill_fn fill;
    size_t elem, acc, out;
    int levels;
    uint64_t count[HR_MAX_LEVELS + 1]; /* elements of each level; count[levels] == 1 */
    unsigned char* lanes;              /* level k, lane j: lanes + (k * HR_STRIDED_LANES + j) * group */
} strided_run;

/* The call of result r alone (its value, second value and index). */
static hr_call result_call(const strided_run* s, uint64_t r)
{
    const hr_call* call = s->call;
    hr_call one = *call;
    one.result = (unsigned char*)call->result + r * s->out;
    one.result2 = call->result2 ? (unsigned char*)call->result2 + r * s->out : NULL;
    one.index = call->index ? call->index + r : NULL;
    return one;
}

/* Writes result (o, i) from its accumulator. */
static void finish_one(const strided_run* s, uint64_t o, uint64_t i, const unsigned char* top)
{
    const hr_call* call = s->call;
    const uint64_t r = o * call->inner + i;
    hr_call one = result_call(s, r);
    if (!s->key) {
        hr_cpu_finish(&one, s->combine, top, call->extent);
        return;
    }
    /* hr_cpu_finish reads the value at x + index * elem: point x at the winning element and give
     * it index 0, then write the index along the axis (at byte 8 of a KEY32/KEY64 partial). */
    int64_t e, unused;
    unsigned char at[HR_ACC_MAX_BYTES];
    memcpy(&e, top + 8, sizeof e);
    memcpy(at, top, s->acc);
    memset(at + 8, 0, 8);
    one.x = (const unsigned char*)call->x + (((o * call->extent) + (uint64_t)e) * call->inner + i) * s->elem;
    one.index = &unused;
    hr_cpu_finish(&one, s->combine, at, call->extent);
    memcpy(call->index + r, &e, sizeof e);
}

static unsigned char* lane_at(const strided_run* s, uint64_t group, int level, int lane)
{
    return s->lanes + ((size_t)level * HR_STRIDED_LANES + (size_t)lane) * group * s->acc;
}

/* The results (o, i0 .. i0 + group). */
static void run_group(const strided_run* s, uint64_t o, uint64_t i0, uint64_t group)
{
    const hr_call* call = s->call;
    const int cmb = s->combine;
    unsigned char row[HR_CPU_STRIDED_GROUP * HR_ACC_MAX_BYTES]; /* one lifted input row */
    const size_t row_step = (size_t)call->inner * s->elem;
    const unsigned char* x = (const unsigned char*)call->x + ((o * call->extent) * call->inner + i0) * s->elem;
    if (call->extent == 0) {
        for (uint64_t i = 0; i < group; ++i) {
            const hr_call one = result_call(s, o * call->inner + i0 + i);
            hr_cpu_finish_empty(&one, s->transform, cmb);
        }
        return;
    }
    if (s->levels == 0) { /* extent 1: the lifted element itself */
        s->lift(cmb, x, group, 0, row);
        for (uint64_t i = 0; i < group; ++i) finish_one(s, o, i0 + i, row + i * s->acc);
        return;
    }
    uint64_t filled[HR_MAX_LEVELS] = {0}; /* elements in level k's current block */
    uint64_t made[HR_MAX_LEVELS + 1] = {0}; /* elements of level k made so far */
    for (int k = 0; k < s->levels; ++k)
        for (int j = 0; j < HR_STRIDED_LANES; ++j) s->fill(cmb, lane_at(s, group, k, j), group);
    for (uint64_t e = 0; e < call->extent; ++e) {
        s->lift(cmb, x + e * row_step, group, e, row);
        s->fold(cmb, lane_at(s, group, 0, (int)(filled[0] % HR_STRIDED_LANES)), row, group);
        ++filled[0];
        made[0] = e + 1;
        /* Each complete block (full, or the last of its level) becomes one element above. */
        for (int k = 0; filled[k] == HR_STRIDED_BLOCK || made[k] == s->count[k]; ++k) {
            for (int step = HR_STRIDED_LANES / 2; step > 0; step /= 2)
                for (int j = 0; j < step; ++j) s->fold(cmb, lane_at(s, group, k, j), lane_at(s, group, k, j + step), group);
            const unsigned char* value = lane_at(s, group, k, 0);
            if (k + 1 == s->levels) {
                for (uint64_t i = 0; i < group; ++i) finish_one(s, o, i0 + i, value + i * s->acc);
                break;
            }
            s->fold(cmb, lane_at(s, group, k + 1, (int)(filled[k + 1] % HR_STRIDED_LANES)), value, group);
            for (int j = 0; j < HR_STRIDED_LANES; ++j) s->fill(cmb, lane_at(s, group, k, j), group);
            filled[k] = 0;
            ++filled[k + 1];
            ++made[k + 1];
        }
    }
}

void hr_cpu_run_strided(const hr_call* call, int transform, int combine, unsigned char* workspace)
{
    strided_run s = {.call = call, .transform = transform, .combine = combine, .key = transform == HR_TF_KEY, .lanes = workspace};
    s.lift = lifts[call->in_dtype][transform][call->acc];
    s.fold = kinds[call->acc].fold;
    s.fill = kinds[call->acc].fill;
    s.elem = hipreduce_dtype_size((hipreduce_dtype)call->in_dtype);
    s.acc = (size_t)hr_acc_bytes(call->acc);
    s.out = hipreduce_dtype_size((hipreduce_dtype)call->out_dtype);
    s.levels = block_levels(call->extent);
    s.count[0] = call->extent;
    for (int k = 0; k < s.levels; ++k)
        s.count[k + 1] = s.count[k] / HR_STRIDED_BLOCK + (s.count[k] % HR_STRIDED_BLOCK != 0);
    for (uint64_t o = 0; o < call->outer; ++o)
        for (uint64_t i0 = 0; i0 < call->inner; i0 += HR_CPU_STRIDED_GROUP)
            run_group(&s, o, i0, call->inner - i0 < HR_CPU_STRIDED_GROUP ? call->inner - i0 : HR_CPU_STRIDED_GROUP);
}

void hr_cpu_strided_blocks(const hr_call* call, int transform, int combine, int level, const unsigned char* x,
                           uint64_t count, uint64_t inner, uint64_t blocks, unsigned char* dst)
{
    const lift_fn lift = lifts[call->in_dtype][transform][call->acc];
    const fold_fn fold = kinds[call->acc].fold;
    const fill_fn fill = kinds[call->acc].fill;
    const size_t acc = (size_t)hr_acc_bytes(call->acc);
    const size_t item = level == 0 ? hipreduce_dtype_size((hipreduce_dtype)call->in_dtype) : acc;
    unsigned char lanes[HR_STRIDED_LANES][HR_CPU_STRIDED_GROUP * HR_ACC_MAX_BYTES];
    unsigned char row[HR_CPU_STRIDED_GROUP * HR_ACC_MAX_BYTES];
    for (uint64_t b = 0; b < blocks; ++b)
        for (uint64_t i0 = 0; i0 < inner; i0 += HR_CPU_STRIDED_GROUP) {
            const uint64_t group = group_of(inner - i0), first = b * HR_STRIDED_BLOCK;
            const uint64_t end = count - first < HR_STRIDED_BLOCK ? count : first + HR_STRIDED_BLOCK;
            for (int j = 0; j < HR_STRIDED_LANES; ++j) fill(combine, lanes[j], group);
            for (uint64_t e = first; e < end; ++e) {
                const unsigned char* p = x + (e * inner + i0) * item;
                if (level == 0) lift(combine, p, group, e, row);
                fold(combine, lanes[(e - first) % HR_STRIDED_LANES], level == 0 ? row : p, group);
            }
            for (int step = HR_STRIDED_LANES / 2; step > 0; step /= 2)
                for (int j = 0; j < step; ++j) fold(combine, lanes[j], lanes[j + step], group);
            memcpy(dst + (b * inner + i0) * acc, lanes[0], (size_t)group * acc);
        }
}
