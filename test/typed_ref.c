/* Exact references and the check of the typed reductions (typed_ref.h). Nothing here calls the
 * library; the canonical-order model is in typed_model.c. */
#include "typed_ref.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "half_ref.h"
#include "reference.h" /* ref_report */

static const struct { const char* name; size_t size; int is_float, is_signed; } types[TR_NDTYPES] = {
    {"i8", 1, 0, 1},  {"u8", 1, 0, 0},  {"i16", 2, 0, 1}, {"u16", 2, 0, 0}, {"i32", 4, 0, 1},  {"u32", 4, 0, 0},
    {"i64", 8, 0, 1}, {"u64", 8, 0, 0}, {"f16", 2, 1, 1}, {"bf16", 2, 1, 1}, {"f32", 4, 1, 1}, {"f64", 8, 1, 1},
};
static const char* const op_names[TR_NOPS] = {"sum", "prod", "min", "max", "and", "or", "xor", "sum_abs",
                                              "sum_squares", "max_abs", "nrm2", "argmin", "argmax", "dot"};

static int known(hipreduce_dtype d) { return (unsigned)d < TR_NDTYPES; }
size_t tr_size(hipreduce_dtype d) { return known(d) ? types[d].size : 0; }
int tr_is_float(hipreduce_dtype d) { return known(d) && types[d].is_float; }
int tr_is_signed(hipreduce_dtype d) { return known(d) && !types[d].is_float && types[d].is_signed; }
const char* tr_dtype_name(hipreduce_dtype d) { return known(d) ? types[d].name : "?"; }
const char* tr_op_name(hipreduce_op op) { return (unsigned)op < TR_NOPS ? op_names[op] : "?"; }
uint64_t tr_tile_items(hipreduce_dtype in) { return 256 * 4 * (16 / tr_size(in)); }

int tr_call(hipreduce_op op)
{
    return op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX ? 1 : op == HIPREDUCE_OP_DOT ? 2 : 0;
}

/* The spec's table: "wide-able" ops widen integers within their signedness or to i64/u64 and
 * floats to f32/f64 (halves also to themselves); max_abs of an integer is the unsigned type of its
 * width; nrm2 floats into f32/f64; the rest keep the input dtype. */
int tr_allowed(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out)
{
    if (!known(in) || !known(out) || (unsigned)op >= TR_NOPS) return 0;
    const int fi = tr_is_float(in), fo = tr_is_float(out);
    switch (op) {
    case HIPREDUCE_OP_SUM: case HIPREDUCE_OP_PROD: case HIPREDUCE_OP_SUM_ABS: case HIPREDUCE_OP_SUM_SQUARES:
    case HIPREDUCE_OP_DOT:
        if (!fi)
            return !fo && (out == HIPREDUCE_I64 || out == HIPREDUCE_U64 ||
                           (tr_is_signed(out) == tr_is_signed(in) && tr_size(out) >= tr_size(in)));
        if (in == HIPREDUCE_F16 || in == HIPREDUCE_BF16)
            return out == in || out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
        return out == HIPREDUCE_F64 || out == in;
    case HIPREDUCE_OP_MIN: case HIPREDUCE_OP_MAX: case HIPREDUCE_OP_ARGMIN: case HIPREDUCE_OP_ARGMAX:
        return out == in;
    case HIPREDUCE_OP_AND: case HIPREDUCE_OP_OR: case HIPREDUCE_OP_XOR: return !fi && out == in;
    case HIPREDUCE_OP_MAX_ABS:
        return fi ? out == in : !fo && !tr_is_signed(out) && tr_size(out) == tr_size(in);
    case HIPREDUCE_OP_NRM2: return fi && (out == HIPREDUCE_F32 || out == HIPREDUCE_F64);
    default: return 0;
    }
}

/* ---- element access ---- */

uint64_t tr_bits(hipreduce_dtype d, const void* p, uint64_t i)
{
    const unsigned char* b = (const unsigned char*)p + i * tr_size(d);
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (tr_size(d)) {
    case 1: memcpy(&v8, b, 1); return v8;
    case 2: memcpy(&v16, b, 2); return v16;
    case 4: memcpy(&v32, b, 4); return v32;
    default: memcpy(&v64, b, 8); return v64;
    }
}
void tr_store_bits(hipreduce_dtype d, void* p, uint64_t i, uint64_t v)
{
    unsigned char* b = (unsigned char*)p + i * tr_size(d);
    const uint8_t v8 = (uint8_t)v;
    const uint16_t v16 = (uint16_t)v;
    const uint32_t v32 = (uint32_t)v;
    switch (tr_size(d)) {
    case 1: memcpy(b, &v8, 1); break;
    case 2: memcpy(b, &v16, 2); break;
    case 4: memcpy(b, &v32, 4); break;
    default: memcpy(b, &v, 8); break;
    }
}
uint64_t tr_int(hipreduce_dtype d, const void* p, uint64_t i)
{
    const uint64_t b = tr_bits(d, p, i);
    const unsigned bits = (unsigned)(8 * tr_size(d));
    if (!tr_is_signed(d) || bits == 64 || !(b >> (bits - 1))) return b;
    return b | ~UINT64_C(0) << bits; /* sign extension */
}
static long double float_of_bits(hipreduce_dtype d, uint64_t b)
{
    float f;
    double v;
    const uint32_t b32 = (uint32_t)b;
    switch (d) {
    case HIPREDUCE_F16: return half_to_double(HALF_F16, (uint16_t)b);
    case HIPREDUCE_BF16: return half_to_double(HALF_BF16, (uint16_t)b);
    case HIPREDUCE_F32: memcpy(&f, &b32, 4); return f;
    default: memcpy(&v, &b, 8); return v;
    }
}
long double tr_value(hipreduce_dtype d, const void* p, uint64_t i)
{
    if (tr_is_float(d)) return float_of_bits(d, tr_bits(d, p, i));
    const uint64_t v = tr_int(d, p, i);
    return tr_is_signed(d) ? (long double)(int64_t)v : (long double)v;
}
void tr_store_float(hipreduce_dtype d, void* p, uint64_t i, double v)
{
    const float f = (float)v;
    uint32_t b32;
    uint64_t b64;
    switch (d) {
    case HIPREDUCE_F16: tr_store_bits(d, p, i, half_from_double(HALF_F16, v)); break;
    case HIPREDUCE_BF16: tr_store_bits(d, p, i, half_from_double(HALF_BF16, v)); break;
    case HIPREDUCE_F32: memcpy(&b32, &f, 4); tr_store_bits(d, p, i, b32); break;
    default: memcpy(&b64, &v, 8); tr_store_bits(d, p, i, b64); break;
    }
}
int tr_is_nan_bits(hipreduce_dtype d, uint64_t bits) { return tr_is_float(d) && isnan(float_of_bits(d, bits)); }
uint64_t tr_canonical_nan(hipreduce_dtype d)
{
    switch (d) {
    case HIPREDUCE_F16: return 0x7e00;
    case HIPREDUCE_BF16: return 0x7fc0;
    case HIPREDUCE_F32: return 0x7fc00000;
    default: return UINT64_C(0x7ff8000000000000);
    }
}
static uint64_t sign_bit(hipreduce_dtype d) { return UINT64_C(1) << (8 * tr_size(d) - 1); }
static uint64_t inf_bits(hipreduce_dtype d)
{
    switch (d) {
    case HIPREDUCE_F16: return 0x7c00;
    case HIPREDUCE_BF16: return 0x7f80;
    case HIPREDUCE_F32: return 0x7f800000;
    default: return UINT64_C(0x7ff0000000000000);
    }
}
static uint64_t width_mask(hipreduce_dtype d)
{
    return tr_size(d) == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * tr_size(d))) - 1;
}

/* ---- exact references ---- */

/* -1, 0, 1: a below, equal to, above b; floats by value with -0.0 below +0.0 (no NaN here). */
static int order(hipreduce_dtype d, uint64_t a, uint64_t b)
{
    if (tr_is_float(d)) {
        const long double va = float_of_bits(d, a), vb = float_of_bits(d, b);
        if (va != vb) return va < vb ? -1 : 1;
        if (va != 0) return 0;
        const int na = (a & sign_bit(d)) != 0, nb = (b & sign_bit(d)) != 0;
        return na == nb ? 0 : na ? -1 : 1;
    }
    const unsigned bits = (unsigned)(8 * tr_size(d));
    uint64_t ea = a, eb = b;
    if (tr_is_signed(d) && bits < 64) { /* sign-extend the stored bits */
        if (a >> (bits - 1)) ea |= ~UINT64_C(0) << bits;
        if (b >> (bits - 1)) eb |= ~UINT64_C(0) << bits;
    }
    if (tr_is_signed(d)) return (int64_t)ea < (int64_t)eb ? -1 : ea != eb;
    return ea < eb ? -1 : ea != eb;
}

/* The identity of min (the top of the order) or max (its bottom), as d's bits. */
static uint64_t extreme(hipreduce_dtype d, int top)
{
    if (tr_is_float(d)) return top ? inf_bits(d) : inf_bits(d) | sign_bit(d);
    const uint64_t mask = width_mask(d);
    if (tr_is_signed(d)) return top ? mask >> 1 : sign_bit(d);
    return top ? mask : 0;
}

/* Integer ops modulo 2^64, truncated to out. */
static uint64_t int_reference(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x,
                              const void* y, uint64_t n)
{
    uint64_t r = op == HIPREDUCE_OP_PROD ? 1 : op == HIPREDUCE_OP_AND ? ~UINT64_C(0) : 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = tr_int(in, x, i);
        const uint64_t a = tr_is_signed(in) && (int64_t)v < 0 ? 0 - v : v; /* |v| modulo 2^64 */
        switch (op) {
        case HIPREDUCE_OP_SUM: r += v; break;
        case HIPREDUCE_OP_PROD: r *= v; break;
        case HIPREDUCE_OP_SUM_ABS: r += a; break;
        case HIPREDUCE_OP_SUM_SQUARES: r += v * v; break;
        case HIPREDUCE_OP_DOT: r += v * tr_int(in, y, i); break;
        case HIPREDUCE_OP_MAX_ABS: r = (a & width_mask(in)) > r ? a & width_mask(in) : r; break;
        case HIPREDUCE_OP_AND: r &= v; break;
        case HIPREDUCE_OP_OR: r |= v; break;
        default: r ^= v; break;
        }
    }
    return r & width_mask(out);
}

/* min, max, max_abs (any dtype) and argmin/argmax: the first index of the extreme; floats: any
 * NaN gives the canonical NaN (argreduce: the first NaN's index). */
static tr_expect order_reference(hipreduce_op op, hipreduce_dtype d, const void* x, uint64_t n)
{
    const int want_low = op == HIPREDUCE_OP_MIN || op == HIPREDUCE_OP_ARGMIN;
    const int magnitude = op == HIPREDUCE_OP_MAX_ABS;
    tr_expect e = {magnitude ? 0 : extreme(d, want_low), -1};
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t b = tr_bits(d, x, i);
        if (tr_is_float(d) && isnan(float_of_bits(d, b))) {
            e.bits = tr_canonical_nan(d);
            e.index = (int64_t)i;
            return e;
        }
        if (magnitude) {
            b &= ~sign_bit(d); /* |x| (floats only here): a positive float's bits order as its value */
            if (b > e.bits) e.bits = b;
            continue;
        }
        const int c = order(d, b, e.bits);
        if (e.index < 0 || (want_low ? c < 0 : c > 0)) e.bits = b, e.index = (int64_t)i;
    }
    if (!magnitude && op != HIPREDUCE_OP_ARGMIN && op != HIPREDUCE_OP_ARGMAX) e.index = -1;
    return e;
}

static int is_sum_like(hipreduce_op op)
{
    return op == HIPREDUCE_OP_SUM || op == HIPREDUCE_OP_PROD || op == HIPREDUCE_OP_SUM_ABS ||
           op == HIPREDUCE_OP_SUM_SQUARES || op == HIPREDUCE_OP_DOT;
}

tr_expect tr_expected(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, const void* y,
                      uint64_t n)
{
    tr_expect e = {0, -1};
    const int ordered = op == HIPREDUCE_OP_MIN || op == HIPREDUCE_OP_MAX || op == HIPREDUCE_OP_ARGMIN ||
                        op == HIPREDUCE_OP_ARGMAX || (op == HIPREDUCE_OP_MAX_ABS && tr_is_float(in));
    if (ordered) return order_reference(op, in, x, n);
    if (!tr_is_float(in)) {
        e.bits = int_reference(op, in, out, x, y, n);
        return e;
    }
    e.bits = tr_model(op, in, out, x, y, n); /* a NaN: the canonical one */
    return e;
}

/* ---- the long double check of float sums and nrm2 ---- */

static long double gamma_k(long double u, long double k) { return k * u >= 1 ? INFINITY : k * u / (1 - k * u); }
static long double unit_roundoff(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 0x1p-11L : d == HIPREDUCE_BF16 ? 0x1p-8L : d == HIPREDUCE_F32 ? 0x1p-24L : 0x1p-53L;
}
static long double min_subnormal(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 0x1p-24L : d == HIPREDUCE_BF16 ? 0x1p-133L : d == HIPREDUCE_F32 ? 0x1p-149L : 0x1p-1074L;
}
static long double max_finite(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 65504.0L : d == HIPREDUCE_BF16 ? 0x1.fep127L : d == HIPREDUCE_F32 ? FLT_MAX : DBL_MAX;
}
/* Operations one element goes through in the canonical order: per tile pass, its lane's
 * elements (4 chunks) and the 5 + 3 steps of the segment tree. */
static long double canonical_depth(hipreduce_dtype in, uint64_t n)
{
    const uint64_t tile = tr_tile_items(in);
    long double passes = 0;
    do {
        n = (n + tile - 1) / tile;
        ++passes;
    } while (n > 1);
    return passes * (4 * (16 / tr_size(in)) + 5 + 3);
}

/* NULL when got is within the bound of the exact (long double) result, else why not. Inputs
 * with NaN or infinities, and products whose partials may leave the normal range, are left to
 * the model's bits. */
static const char* bound_check(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x,
                               const void* y, uint64_t n, long double got, long double* want)
{
    const hipreduce_dtype acc = out == HIPREDUCE_F64 || op == HIPREDUCE_OP_NRM2 ? HIPREDUCE_F64 : HIPREDUCE_F32;
    long double exact = op == HIPREDUCE_OP_PROD ? 1 : 0, magnitude = 0, up = 1, down = 1, pos = 0, neg = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const long double v = tr_value(in, x, i), w = y ? tr_value(in, y, i) : v;
        if (!isfinite(v) || !isfinite(w)) return NULL;
        const long double t = op == HIPREDUCE_OP_SUM_ABS ? fabsl(v)
                            : op == HIPREDUCE_OP_SUM_SQUARES || op == HIPREDUCE_OP_NRM2 ? v * v
                            : op == HIPREDUCE_OP_DOT ? v * w : v;
        if (op == HIPREDUCE_OP_PROD) {
            exact *= t;
            if (fabsl(t) > 1) up *= fabsl(t);
            else down *= fabsl(t);
        } else {
            exact += t;
        }
        magnitude += fabsl(t);
        if (t > 0) pos += t;
        else neg -= t;
    }
    const long double u = unit_roundoff(acc), depth = canonical_depth(in, n) + 1;
    if (op == HIPREDUCE_OP_NRM2) {
        *want = sqrtl(exact);
        if (isinf(got)) /* overflow in the rounding to out (the f64 sums themselves cannot overflow from f32) */
            return *want * (1 + (depth / 2 + 2) * u) >= max_finite(out) ? NULL : "an infinite norm below the range";
        const long double tol = *want * ((depth / 2 + 2) * u + 2 * unit_roundoff(out)) + 2 * min_subnormal(out);
        return fabsl(got - *want) <= tol ? NULL : "nrm2 outside the bound";
    }
    *want = exact;
    long double err;
    if (op == HIPREDUCE_OP_PROD) {
        if (!(up < max_finite(acc) / 16 && down > 0x1p-120L * (acc == HIPREDUCE_F32 ? 1 : 0x1p-900L))) return NULL;
        err = gamma_k(u, (long double)n + 1) * fabsl(exact);
    } else {
        err = gamma_k(u, depth) * magnitude + depth * min_subnormal(acc);
    }
    err += LDBL_EPSILON * (long double)n * magnitude;
    if (out != acc) err += unit_roundoff(out) * (fabsl(exact) + err) + min_subnormal(out);
    /* An infinity: the result rounds beyond out's range, or partial sums of one sign can overflow acc. */
    if (isinf(got))
        return (got > 0 ? exact : -exact) + err >= max_finite(out) ||
                       (op != HIPREDUCE_OP_PROD && (got > 0 ? pos : neg) * (1 + 0x1p-10L) >= max_finite(acc))
                   ? NULL
                   : "an infinity the bound cannot reach";
    return fabsl(got - exact) <= err ? NULL : "outside the error bound";
}

int tr_check(const char* what, hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x,
             const void* y, uint64_t n, uint64_t got, int64_t got_index)
{
    const tr_expect e = tr_expected(op, in, out, x, y, n);
    const int arg = tr_call(op) == 1;
    const char* why = NULL;
    long double want = 0;
    if (arg && got_index != e.index) why = "index";
    else if (got != e.bits) why = tr_is_float(in) && (is_sum_like(op) || op == HIPREDUCE_OP_NRM2) ? "canonical order model" : "exact bits";
    else if (tr_is_float(in) && (is_sum_like(op) || op == HIPREDUCE_OP_NRM2) && !tr_is_nan_bits(out, got))
        why = bound_check(op, in, out, x, y, n, float_of_bits(out, got), &want);
    if (!why) return 0;
    ref_report("FAIL %s: %s %s->%s n=%llu: got 0x%llx index %lld, want 0x%llx index %lld (%s; got %.21Lg, want %.21Lg)",
               what, tr_op_name(op), tr_dtype_name(in), tr_dtype_name(out), (unsigned long long)n,
               (unsigned long long)got, (long long)got_index, (unsigned long long)e.bits, (long long)e.index, why,
               tr_is_float(out) ? float_of_bits(out, got) : 0, tr_is_float(out) ? (want ? want : float_of_bits(out, e.bits)) : 0);
    return 1;
}
