/* The canonical-order model of the typed float reductions (typed_ref.h): device/order.h's order
 * written as plain recursion over lanes, segments and levels, with the spec's accumulators:
 * f32 (f16, bf16, f32 into f16/bf16/f32), f64 (into f64), the f64 sum of squares of nrm2 from
 * f16/bf16/f32, and f64 nrm2's three scaled sums (LAPACK 3.10's dnrm2 constants). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "half_ref.h"
#include "reference.h" /* ref_report */
#include "typed_ref.h"

enum { LANES = 256, CHUNKS = 4, SEGMENT = 32 };

#define T_SML 0x1p-511
#define T_BIG 0x1p486
#define S_SML 0x1p537
#define S_BIG 0x1p-538

static double fl(tm_kind k, double v) { return k == TM_F32 ? (double)(float)v : v; }

tm_kind tm_kind_of(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out)
{
    return op == HIPREDUCE_OP_NRM2 ? (in == HIPREDUCE_F64 ? TM_BLUE : TM_SQUARES) : out == HIPREDUCE_F64 ? TM_F64 : TM_F32;
}

tm_acc tm_identity(hipreduce_op op, tm_kind k)
{
    /* -0.0 for float sums, so that a column of -0.0 sums to -0.0; +0 for the squares. */
    const double z = k == TM_SQUARES || k == TM_BLUE ? 0.0 : op == HIPREDUCE_OP_PROD ? 1.0 : -0.0;
    const tm_acc a = {{z, z, z}};
    return a;
}

tm_acc tm_combine(hipreduce_op op, tm_kind k, tm_acc a, tm_acc b)
{
    if (k == TM_BLUE) {
        for (int c = 0; c < 3; ++c) a.v[c] += b.v[c];
        return a;
    }
    a.v[0] = fl(k, op == HIPREDUCE_OP_PROD ? a.v[0] * b.v[0] : a.v[0] + b.v[0]);
    return a;
}

tm_acc tm_transform(hipreduce_op op, hipreduce_dtype in, tm_kind k, const void* x, const void* y, uint64_t i)
{
    const double v = (double)tr_value(in, x, i);
    tm_acc t = {{0.0, 0.0, 0.0}};
    if (k == TM_BLUE) {
        const double a = fabs(v);
        if (a > T_BIG) t.v[2] = (a * S_BIG) * (a * S_BIG);
        else if (a < T_SML) t.v[0] = (a * S_SML) * (a * S_SML);
        else t.v[1] = a * a; /* NaN lands here */
        return t;
    }
    switch (op) {
    case HIPREDUCE_OP_SUM_ABS: t.v[0] = fabs(v); break;
    case HIPREDUCE_OP_SUM_SQUARES: case HIPREDUCE_OP_NRM2: t.v[0] = fl(k, v * v); break;
    case HIPREDUCE_OP_DOT: t.v[0] = fl(k, v * (double)tr_value(in, y, i)); break;
    default: t.v[0] = v; break;
    }
    return t;
}

/* nrm2 of f64: the finish of the three scaled sums (the spec's text). */
static double blue_finish(tm_acc a)
{
    const double sml = a.v[0], med = a.v[1], big = a.v[2];
    if (isnan(sml) || isnan(med) || isnan(big)) return NAN;
    if (big > 0) {
        double b = big;
        if (med > 0) b += (med * S_BIG) * S_BIG;
        return sqrt(b) / S_BIG;
    }
    if (sml > 0) {
        if (med > 0) {
            const double p = sqrt(med), q = sqrt(sml) / S_SML;
            const double ymin = p < q ? p : q, ymax = p < q ? q : p;
            return ymax * sqrt(1 + (ymin / ymax) * (ymin / ymax));
        }
        return sqrt(sml) / S_SML;
    }
    return sqrt(med);
}

uint64_t tm_result_bits(hipreduce_op op, hipreduce_dtype out, tm_kind k, tm_acc top, int empty)
{
    const double r = empty ? (op == HIPREDUCE_OP_PROD ? 1.0 : 0.0)
                   : k == TM_BLUE ? blue_finish(top) : k == TM_SQUARES ? sqrt(top.v[0]) : top.v[0];
    if (isnan(r)) return tr_canonical_nan(out); /* every NaN result (the header) */
    switch (out) {
    case HIPREDUCE_F16: return half_from_double(HALF_F16, r);
    case HIPREDUCE_BF16: return half_from_double(HALF_BF16, r);
    case HIPREDUCE_F32: {
        const float f = (float)r;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    default: {
        uint64_t b;
        memcpy(&b, &r, 8);
        return b;
    }
    }
}

static tm_acc fold(hipreduce_op op, tm_kind k, tm_acc* v, int w)
{
    for (; w > 1; w /= 2)
        for (int i = 0; i < w / 2; ++i) v[i] = tm_combine(op, k, v[i], v[i + w / 2]);
    return v[0];
}

typedef struct model {
    hipreduce_op op;
    hipreduce_dtype in;
    tm_kind k;
    const void *x, *y;
    uint64_t chunk, tile;
} model;

/* One tile: element o of the tile goes to lane (o / chunk) % LANES, each lane in increasing o. */
static tm_acc tile(const model* m, const tm_acc* level, uint64_t count, uint64_t base)
{
    tm_acc lane[LANES], seg[LANES / SEGMENT];
    for (int l = 0; l < LANES; ++l) lane[l] = tm_identity(m->op, m->k);
    for (uint64_t o = 0; o < m->tile && base + o < count; ++o) {
        const tm_acc t = level ? level[base + o] : tm_transform(m->op, m->in, m->k, m->x, m->y, base + o);
        const uint64_t l = (o / m->chunk) % LANES;
        lane[l] = tm_combine(m->op, m->k, lane[l], t);
    }
    for (int s = 0; s < LANES / SEGMENT; ++s) seg[s] = fold(m->op, m->k, lane + s * SEGMENT, SEGMENT);
    return fold(m->op, m->k, seg, LANES / SEGMENT);
}

uint64_t tr_model(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y, uint64_t n)
{
    const model m = {op, in, tm_kind_of(op, in, out), x, y, 16 / tr_size(in), tr_tile_items(in)};
    if (n == 0) return tm_result_bits(op, out, m.k, tm_identity(op, m.k), 1);
    const uint64_t tiles = (n + m.tile - 1) / m.tile;
    tm_acc* level = (tm_acc*)malloc((size_t)tiles * sizeof *level);
    if (!level) {
        ref_report("tr_model: out of memory for %llu partials", (unsigned long long)tiles);
        return 0;
    }
    uint64_t count = n;
    const tm_acc* from = NULL; /* level 0: the input */
    do {
        const uint64_t t = (count + m.tile - 1) / m.tile;
        /* In place: tile j reads entries >= j * tile >= j of the level below before j is written. */
        for (uint64_t j = 0; j < t; ++j) level[j] = tile(&m, from, count, j * m.tile);
        from = level;
        count = t;
    } while (count > 1);
    const uint64_t bits = tm_result_bits(op, out, m.k, level[0], 0);
    free(level);
    return bits;
}
