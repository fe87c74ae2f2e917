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
typedef enum mkind { M_F32, M_F64, M_SQUARES, M_BLUE } mkind;
/* One accumulator: v[0] alone, or (sml, med, big) for M_BLUE. */
typedef struct macc { double v[3]; } macc;

#define T_SML 0x1p-511
#define T_BIG 0x1p486
#define S_SML 0x1p537
#define S_BIG 0x1p-538

/* f32 arithmetic as double arithmetic rounded once to float: exact for +, * (53 >= 2 * 24 + 2). */
static double fl(mkind k, double v) { return k == M_F32 ? (double)(float)v : v; }

static macc identity(hipreduce_op op, mkind k)
{
    const double z = k == M_SQUARES || k == M_BLUE ? 0.0 : op == HIPREDUCE_OP_PROD ? 1.0 : -0.0;
    const macc a = {{z, z, z}};
    return a;
}
static macc combine(hipreduce_op op, mkind k, macc a, macc b)
{
    if (k == M_BLUE) {
        for (int c = 0; c < 3; ++c) a.v[c] += b.v[c];
        return a;
    }
    a.v[0] = fl(k, op == HIPREDUCE_OP_PROD ? a.v[0] * b.v[0] : a.v[0] + b.v[0]);
    return a;
}
/* The element transform at level 0 (inputs converted exactly to double). */
static macc transform(hipreduce_op op, hipreduce_dtype in, mkind k, const void* x, const void* y, uint64_t i)
{
    const double v = (double)tr_value(in, x, i);
    macc t = {{0.0, 0.0, 0.0}};
    if (k == M_BLUE) {
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

static macc fold(hipreduce_op op, mkind k, macc* v, int w)
{
    for (; w > 1; w /= 2)
        for (int i = 0; i < w / 2; ++i) v[i] = combine(op, k, v[i], v[i + w / 2]);
    return v[0];
}

typedef struct model {
    hipreduce_op op;
    hipreduce_dtype in;
    mkind k;
    const void *x, *y;
    uint64_t chunk, tile;
} model;

/* One tile: element o of the tile goes to lane (o / chunk) % LANES, each lane in increasing o. */
static macc tile(const model* m, const macc* level, uint64_t count, uint64_t base)
{
    macc lane[LANES], seg[LANES / SEGMENT];
    for (int l = 0; l < LANES; ++l) lane[l] = identity(m->op, m->k);
    for (uint64_t o = 0; o < m->tile && base + o < count; ++o) {
        const macc t = level ? level[base + o] : transform(m->op, m->in, m->k, m->x, m->y, base + o);
        const uint64_t l = (o / m->chunk) % LANES;
        lane[l] = combine(m->op, m->k, lane[l], t);
    }
    for (int s = 0; s < LANES / SEGMENT; ++s) seg[s] = fold(m->op, m->k, lane + s * SEGMENT, SEGMENT);
    return fold(m->op, m->k, seg, LANES / SEGMENT);
}

/* nrm2 of f64: the finish of the three scaled sums (the spec's text). */
static double blue_finish(macc a)
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

uint64_t tr_model(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y, uint64_t n)
{
    const mkind k = op == HIPREDUCE_OP_NRM2 ? (in == HIPREDUCE_F64 ? M_BLUE : M_SQUARES)
                  : out == HIPREDUCE_F64 ? M_F64 : M_F32;
    const model m = {op, in, k, x, y, 16 / tr_size(in), tr_tile_items(in)};
    double r = op == HIPREDUCE_OP_PROD ? 1.0 : 0.0; /* n == 0 */
    if (n > 0) {
        const uint64_t tiles = (n + m.tile - 1) / m.tile;
        macc* level = (macc*)malloc((size_t)tiles * sizeof *level);
        if (!level) {
            ref_report("tr_model: out of memory for %llu partials", (unsigned long long)tiles);
            return 0;
        }
        uint64_t count = n;
        const macc* from = NULL; /* level 0: the input */
        do {
            const uint64_t t = (count + m.tile - 1) / m.tile;
            /* In place: tile j reads entries >= j * tile >= j of the level below before j is written. */
            for (uint64_t j = 0; j < t; ++j) level[j] = tile(&m, from, count, j * m.tile);
            from = level;
            count = t;
        } while (count > 1);
        r = k == M_BLUE ? blue_finish(level[0]) : k == M_SQUARES ? sqrt(level[0].v[0]) : level[0].v[0];
        free(level);
    }
    if (op == HIPREDUCE_OP_NRM2 && isnan(r)) return tr_canonical_nan(out);
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
