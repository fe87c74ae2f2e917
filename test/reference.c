/* Independent references: exact integers, long double floats, exact NaN / signed-zero rules, and
 * the canonical-order model (see reference.h). Nothing here calls the library. */
#include "reference.h"
#include "typed_ref.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The default algorithm's geometry, from plan.h's description (not its code). */
enum { LANES = 256, CHUNKS = 4, CHUNK_BYTES = 16 };

static const struct {
    hipreduce_dtype dtype;
    const char* name;
    size_t size;
    int is_float, is_signed;
} types[REF_NDTYPES] = {
    {HIPREDUCE_I8, "i8", 1, 0, 1},   {HIPREDUCE_U8, "u8", 1, 0, 0},   {HIPREDUCE_I16, "i16", 2, 0, 1},
    {HIPREDUCE_U16, "u16", 2, 0, 0}, {HIPREDUCE_I32, "i32", 4, 0, 1}, {HIPREDUCE_U32, "u32", 4, 0, 0},
    {HIPREDUCE_I64, "i64", 8, 0, 1}, {HIPREDUCE_U64, "u64", 8, 0, 0}, {HIPREDUCE_F32, "f32", 4, 1, 1},
    {HIPREDUCE_F64, "f64", 8, 1, 1},
};
const hipreduce_dtype ref_dtypes[REF_NDTYPES] = {HIPREDUCE_I8,  HIPREDUCE_U8,  HIPREDUCE_I16, HIPREDUCE_U16,
                                                 HIPREDUCE_I32, HIPREDUCE_U32, HIPREDUCE_I64, HIPREDUCE_U64,
                                                 HIPREDUCE_F32, HIPREDUCE_F64};
const hipreduce_op ref_ops[REF_NOPS] = {HIPREDUCE_OP_SUM, HIPREDUCE_OP_PROD, HIPREDUCE_OP_MIN, HIPREDUCE_OP_MAX,
                                        HIPREDUCE_OP_AND, HIPREDUCE_OP_OR,   HIPREDUCE_OP_XOR};
static const char* const op_names[REF_NOPS] = {"sum", "prod", "min", "max", "and", "or", "xor"};

static int type_index(hipreduce_dtype dtype)
{
    for (int i = 0; i < REF_NDTYPES; ++i)
        if (types[i].dtype == dtype) return i;
    return -1;
}
size_t ref_size(hipreduce_dtype d) { return type_index(d) < 0 ? 0 : types[type_index(d)].size; }
int ref_is_float(hipreduce_dtype d) { return type_index(d) >= 0 && types[type_index(d)].is_float; }
static int is_signed(hipreduce_dtype d) { return types[type_index(d)].is_signed; }
const char* ref_dtype_name(hipreduce_dtype d) { return type_index(d) < 0 ? "?" : types[type_index(d)].name; }
const char* ref_op_name(hipreduce_op op) { return (unsigned)op < REF_NOPS ? op_names[op] : "?"; }
int ref_op_applies(hipreduce_op op, hipreduce_dtype d)
{
    return (unsigned)op < REF_NOPS && type_index(d) >= 0 && !(ref_is_float(d) && op >= HIPREDUCE_OP_AND);
}
uint64_t ref_tile_items(hipreduce_dtype d) { return (uint64_t)LANES * CHUNKS * (CHUNK_BYTES / ref_size(d)); }

static int reports;
void ref_report(const char* format, ...)
{
    /* The first 40 (HIPREDUCE_TEST_REPORTS=k for k); the count still says how many. */
    static long limit = -1;
    if (limit < 0) limit = getenv("HIPREDUCE_TEST_REPORTS") ? atol(getenv("HIPREDUCE_TEST_REPORTS")) : 40;
    if (++reports > limit) return;
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
}
int ref_reports(void) { return reports; }

/* ---- element access ---- */

/* Integer element i as uint64 (sign-extended for signed types). */
static uint64_t load_int(hipreduce_dtype d, const void* p, uint64_t i)
{
    switch (d) {
    case HIPREDUCE_I8: return (uint64_t)(int64_t)((const int8_t*)p)[i];
    case HIPREDUCE_U8: return ((const uint8_t*)p)[i];
    case HIPREDUCE_I16: return (uint64_t)(int64_t)((const int16_t*)p)[i];
    case HIPREDUCE_U16: return ((const uint16_t*)p)[i];
    case HIPREDUCE_I32: return (uint64_t)(int64_t)((const int32_t*)p)[i];
    case HIPREDUCE_U32: return ((const uint32_t*)p)[i];
    case HIPREDUCE_I64: return (uint64_t)((const int64_t*)p)[i];
    default: return ((const uint64_t*)p)[i];
    }
}
static long double load_float(hipreduce_dtype d, const void* p, uint64_t i)
{
    return d == HIPREDUCE_F32 ? (long double)((const float*)p)[i] : (long double)((const double*)p)[i];
}
static uint64_t float_bits(hipreduce_dtype d, const void* p, uint64_t i)
{
    if (d == HIPREDUCE_F32) {
        uint32_t b;
        memcpy(&b, (const float*)p + i, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, (const double*)p + i, 8);
    return b;
}
static uint64_t bits_of(hipreduce_dtype d, const void* p)
{
    if (ref_is_float(d)) return float_bits(d, p, 0);
    const size_t bits = 8 * ref_size(d);
    return bits == 64 ? load_int(d, p, 0) : load_int(d, p, 0) & ((UINT64_C(1) << bits) - 1);
}
int ref_same_bits(hipreduce_dtype d, const void* a, const void* b) { return bits_of(d, a) == bits_of(d, b); }
int ref_is_nan(hipreduce_dtype d, const void* p) { return ref_is_float(d) && isnan(load_float(d, p, 0)); }

static uint64_t sign_mask(hipreduce_dtype d) { return UINT64_C(1) << (8 * ref_size(d) - 1); }
static uint64_t canonical_nan(hipreduce_dtype d)
{
    return d == HIPREDUCE_F32 ? UINT64_C(0x7fc00000) : UINT64_C(0x7ff8000000000000);
}
static uint64_t infinity_bits(hipreduce_dtype d)
{
    return d == HIPREDUCE_F32 ? UINT64_C(0x7f800000) : UINT64_C(0x7ff0000000000000);
}
/* Total order key of a non-NaN float's bits: -0.0 below +0.0. */
static uint64_t order_key(hipreduce_dtype d, uint64_t bits)
{
    const uint64_t all = d == HIPREDUCE_F32 ? UINT64_C(0xffffffff) : ~UINT64_C(0);
    return (bits & sign_mask(d)) ? ~bits & all : bits | sign_mask(d);
}

/* ---- exact references ---- */

/* The exact result of an integer reduction, masked to the dtype's bits. */
static uint64_t int_reference(hipreduce_op op, hipreduce_dtype d, const void* x, uint64_t n)
{
    const unsigned bits = (unsigned)(8 * ref_size(d));
    const uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    /* Identities: the type's max for min, min for max (sign-extended values). */
    const uint64_t top = is_signed(d) ? mask >> 1 : mask;
    const uint64_t bottom = is_signed(d) ? ~(mask >> 1) : 0;
    uint64_t r = op == HIPREDUCE_OP_PROD ? 1 : op == HIPREDUCE_OP_AND ? ~UINT64_C(0)
               : op == HIPREDUCE_OP_MIN ? top : op == HIPREDUCE_OP_MAX ? bottom : 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = load_int(d, x, i);
        const int less = is_signed(d) ? (int64_t)v < (int64_t)r : v < r;
        switch (op) {
        case HIPREDUCE_OP_SUM: r += v; break;
        case HIPREDUCE_OP_PROD: r *= v; break;
        case HIPREDUCE_OP_MIN: r = less ? v : r; break;
        case HIPREDUCE_OP_MAX: r = less || v == r ? r : v; break;
        case HIPREDUCE_OP_AND: r &= v; break;
        case HIPREDUCE_OP_OR: r |= v; break;
        default: r ^= v; break;
        }
    }
    return r & mask;
}

/* Float min/max: canonical NaN if any NaN, else the least/greatest by the total order. */
static uint64_t minmax_reference(hipreduce_op op, hipreduce_dtype d, const void* x, uint64_t n)
{
    uint64_t best = op == HIPREDUCE_OP_MIN ? infinity_bits(d) : infinity_bits(d) | sign_mask(d);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t b = float_bits(d, x, i);
        if (isnan(load_float(d, x, i))) return canonical_nan(d);
        const int less = order_key(d, b) < order_key(d, best);
        if (op == HIPREDUCE_OP_MIN ? less : !less && b != best) best = b;
    }
    return best;
}

/* ---- the canonical-order model: typed_model.c's, with the result dtype = the input dtype ---- */

void ref_model(hipreduce_op op, hipreduce_dtype d, const void* x, uint64_t n, void* out)
{
    const uint64_t bits = tr_model(op, d, d, x, NULL, n);
    if (d == HIPREDUCE_F32) {
        const uint32_t b = (uint32_t)bits;
        memcpy(out, &b, 4);
    } else {
        memcpy(out, &bits, 8);
    }
}

/* ---- the check ---- */

/* gamma_k = k u / (1 - k u), the rounding error bound of k operations in sequence. */
static long double gamma_k(hipreduce_dtype d, long double k)
{
    const long double u = d == HIPREDUCE_F32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    return k * u >= 1 ? INFINITY : k * u / (1 - k * u);
}

/* Tile passes of the canonical order for n >= 1, and the additions one element goes through. */
static long double canonical_depth(hipreduce_dtype d, uint64_t n)
{
    const uint64_t tile = ref_tile_items(d), chunk = CHUNK_BYTES / ref_size(d);
    int passes = 0;
    do {
        n = (n + tile - 1) / tile;
        ++passes;
    } while (n > 1);
    return (long double)passes * (CHUNKS * chunk + 5 + 3);
}

static int fail(const char* what, hipreduce_op op, hipreduce_dtype d, ref_data data, uint64_t n, uint64_t got,
                uint64_t want, const char* why, long double gv, long double wv)
{
    ref_report("FAIL %s: %s %s data=%s n=%llu: got 0x%llx, want 0x%llx (%s; %.21Lg vs %.21Lg)", what,
               ref_op_name(op), ref_dtype_name(d), ref_data_name(data), (unsigned long long)n,
               (unsigned long long)got, (unsigned long long)want, why, gv, wv);
    return 1;
}

int ref_check(const char* what, hipreduce_op op, hipreduce_dtype d, ref_data data, const void* x, uint64_t n,
              const void* got, ref_order order)
{
    const uint64_t g = bits_of(d, got);
    if (!ref_is_float(d)) {
        const uint64_t want = int_reference(op, d, x, n);
        return g == want ? 0 : fail(what, op, d, data, n, g, want, "integer", 0, 0);
    }
    const long double gv = load_float(d, got, 0);
    if (op == HIPREDUCE_OP_MIN || op == HIPREDUCE_OP_MAX) {
        const uint64_t want = minmax_reference(op, d, x, n);
        return g == want ? 0 : fail(what, op, d, data, n, g, want, "min/max bits", gv, 0);
    }
    /* sum / prod: exact value, sum of magnitudes, zero sign, product sign. */
    const int sum = op == HIPREDUCE_OP_SUM;
    long double exact = sum ? 0 : 1, magnitude = 0;
    int all_negative_zero = n > 0, negatives = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const long double v = load_float(d, x, i);
        exact = sum ? exact + v : exact * v;
        magnitude += fabsl(v);
        negatives ^= (float_bits(d, x, i) & sign_mask(d)) != 0;
        all_negative_zero &= float_bits(d, x, i) == sign_mask(d);
    }
    const int got_negative = (g & sign_mask(d)) != 0;
    if (!sum && got_negative != negatives) return fail(what, op, d, data, n, g, 0, "product sign", gv, exact);
    if (sum && n == 0 && g != 0) return fail(what, op, d, data, n, g, 0, "empty sum is +0.0", gv, 0);
    if (order == REF_CANONICAL) {
        unsigned char model[8];
        ref_model(op, d, x, n, model);
        if (g != bits_of(d, model))
            return fail(what, op, d, data, n, g, bits_of(d, model), "canonical order model", gv,
                        load_float(d, model, 0));
    }
    if (data != REF_DATA_RANDOM) { /* exactly representable in any order */
        if (gv != exact) return fail(what, op, d, data, n, g, 0, "exact data", gv, exact);
        if (sum && gv == 0 && got_negative != all_negative_zero)
            return fail(what, op, d, data, n, g, 0, "sign of a zero sum", gv, exact);
        return 0;
    }
    const long double slack = LDBL_EPSILON * (long double)n * (sum ? magnitude : fabsl(exact));
    const long double bound = sum ? gamma_k(d, order == REF_CANONICAL ? canonical_depth(d, n) : (long double)n) *
                                        magnitude
                                  : gamma_k(d, (long double)n) * fabsl(exact);
    if (!(fabsl(gv - exact) <= bound + slack))
        return fail(what, op, d, data, n, g, 0, "outside the error bound", gv, exact);
    return 0;
}

/* ---- float sum/prod on any data: the outcomes IEEE arithmetic allows in some order ---- */

typedef struct ieee_scan {
    int nan, pinf, ninf, zero, negative, all_negative_zero;
    long double pos, neg;  /* sums of the finite positive / negative elements' magnitudes */
    long double up, down;  /* prod: log2 of the largest / smallest product of finite nonzero elements */
} ieee_scan;

static ieee_scan ieee_scan_input(hipreduce_op op, hipreduce_dtype d, const void* x, uint64_t n)
{
    ieee_scan s = {0, 0, 0, 0, 0, n > 0, 0, 0, 0, 0};
    /* The products of the elements above / below 1 in magnitude, as mantissa * 2^exponent. */
    long double up = 1, down = 1;
    int64_t up_exp = 0, down_exp = 0; /* 2^24 subnormals reach -2^34 */
    int e;
    for (uint64_t i = 0; i < n; ++i) {
        const long double v = load_float(d, x, i);
        const uint64_t b = float_bits(d, x, i);
        s.all_negative_zero &= b == sign_mask(d);
        if (isnan(v)) {
            s.nan = 1;
            continue;
        }
        s.negative ^= (b & sign_mask(d)) != 0;
        if (isinf(v)) {
            s.pinf |= v > 0;
            s.ninf |= v < 0;
        } else if (v == 0) {
            s.zero = 1;
        } else {
            if (v > 0) s.pos += v;
            else s.neg -= v;
            if (op == HIPREDUCE_OP_PROD && fabsl(v) > 1 && (up *= fabsl(v)) > 0x1p8000L)
                up = frexpl(up, &e), up_exp += e;
            if (op == HIPREDUCE_OP_PROD && fabsl(v) < 1 && (down *= fabsl(v)) < 0x1p-8000L)
                down = frexpl(down, &e), down_exp += e;
        }
    }
    s.up = (long double)up_exp + log2l(up);
    s.down = (long double)down_exp + log2l(down);
    return s;
}

/* NULL when the IEEE rules let some order of operations on this input give a result of got's
 * class (NaN, signed infinity, signed zero, finite); else the rule it breaks. *bounded: no
 * partial result can overflow or (prod) lose precision to underflow, so ref_check's bound holds. */
static const char* ieee_rule(hipreduce_op op, hipreduce_dtype d, const ieee_scan* s, uint64_t g, long double gv,
                             int* bounded)
{
    const int nan = isnan(gv), inf = isinf(gv), zero = gv == 0, neg = (g & sign_mask(d)) != 0;
    const int inf_in = s->pinf || s->ninf;
    if (op == HIPREDUCE_OP_SUM) {
        /* A partial sum stays within the same-sign magnitudes times (1 + a rounding margin). */
        const long double top = d == HIPREDUCE_F32 ? FLT_MAX : DBL_MAX, margin = 1 + 1.0L / 1024;
        const int reach_p = s->pinf || s->pos * margin >= top, reach_n = s->ninf || s->neg * margin >= top;
        *bounded = !s->nan && !reach_p && !reach_n;
        if (s->nan || (s->pinf && s->ninf)) return nan ? NULL : "NaN, or +inf and -inf, in the input make NaN";
        if (nan) return reach_p && reach_n ? NULL : "NaN from an input that cannot reach inf - inf";
        if (inf) return (neg ? reach_n && !s->pinf : reach_p && !s->ninf) ? NULL : "an unreachable infinity";
        if (inf_in) return "a finite sum of an input with an infinity";
        if (zero && neg != s->all_negative_zero) return "a zero sum is -0 only when every element is -0";
        return NULL;
    }
    /* prod: partial products lie in [2^down, 2^up], up to rounding (2 binades of margin). */
    const int top = d == HIPREDUCE_F32 ? 128 : 1024, bottom = d == HIPREDUCE_F32 ? -126 : -1022;
    const int over = s->up >= top - 2, under = s->down <= bottom + 2;
    *bounded = !s->nan && !inf_in && !s->zero && !over && !under;
    if (s->nan || (s->zero && inf_in)) return nan ? NULL : "NaN, or 0 and inf, in the input make NaN";
    if (nan) return (s->zero && over) || (inf_in && under) || (over && under) ? NULL : "an unreachable NaN";
    if (neg != s->negative) return "product sign (the parity of the sign bits)";
    if (inf) return !s->zero && (inf_in || over) ? NULL : "an unreachable infinite product";
    if (zero) return !inf_in && (s->zero || under) ? NULL : "an unreachable zero product";
    return !s->zero && !inf_in ? NULL : "a finite nonzero product of an input with 0 or inf";
}

int ref_check_ieee(const char* what, hipreduce_op op, hipreduce_dtype d, ref_data data, const void* x, uint64_t n,
                   const void* got)
{
    const ieee_scan s = ieee_scan_input(op, d, x, n);
    const uint64_t g = bits_of(d, got);
    const long double gv = load_float(d, got, 0);
    int bounded = 0;
    const char* why = ieee_rule(op, d, &s, g, gv, &bounded);
    if (why) return fail(what, op, d, data, n, g, 0, why, gv, 0);
    if (bounded) return ref_check(what, op, d, data, x, n, got, REF_CANONICAL);
    unsigned char model[8];
    ref_model(op, d, x, n, model);
    const uint64_t want = bits_of(d, model); /* the model's NaN is the canonical one */
    if (g == want) return 0;
    return fail(what, op, d, data, n, g, want, "canonical order model", gv, load_float(d, model, 0));
}
