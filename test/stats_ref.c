/* References for the statistics ops (stats_ref.h). */
#include "stats_ref.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_float(hipreduce_dtype d) { return d >= HIPREDUCE_F16 && d <= HIPREDUCE_F64; }
static int is_half(hipreduce_dtype d) { return d == HIPREDUCE_F16 || d == HIPREDUCE_BF16; }

int sr_allowed(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out)
{
    switch (op) {
    case HIPREDUCE_OP_MEAN: /* sum's float results */
        if (is_half(in)) return out == in || out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
        if (in == HIPREDUCE_F32) return out == HIPREDUCE_F32 || out == HIPREDUCE_F64;
        return in == HIPREDUCE_F64 && out == HIPREDUCE_F64;
    case HIPREDUCE_OP_NANSUM: case HIPREDUCE_OP_NANMEAN: case HIPREDUCE_OP_VAR: case HIPREDUCE_OP_STD:
    case HIPREDUCE_OP_VAR_MEAN: case HIPREDUCE_OP_STD_MEAN: case HIPREDUCE_OP_LOGSUMEXP: case HIPREDUCE_OP_NANMIN:
    case HIPREDUCE_OP_NANMAX:
        return is_float(in) && (out == in || (is_half(in) && out == HIPREDUCE_F32));
    case HIPREDUCE_OP_COUNT_NONZERO: return out == HIPREDUCE_I64;
    case HIPREDUCE_OP_ALL: case HIPREDUCE_OP_ANY: return out == HIPREDUCE_U8;
    case HIPREDUCE_OP_AMINMAX: return out == in; /* every dtype, MIN's and MAX's result */
    default: return 0;
    }
}

int sr_corrected(hipreduce_op op) { return op >= HIPREDUCE_OP_VAR && op <= HIPREDUCE_OP_STD_MEAN; }
int sr_two_outputs(hipreduce_op op)
{
    return op == HIPREDUCE_OP_VAR_MEAN || op == HIPREDUCE_OP_STD_MEAN || op == HIPREDUCE_OP_AMINMAX;
}

uint64_t sr_bits(hipreduce_dtype d, const void* x, uint64_t i)
{
    const size_t size = hipreduce_dtype_size(d);
    uint64_t b = 0;
    memcpy(&b, (const unsigned char*)x + i * size, size); /* little-endian hosts */
    return b;
}

long double sr_value(hipreduce_dtype d, const void* x, uint64_t i)
{
    const uint64_t b = sr_bits(d, x, i);
    switch (d) {
    case HIPREDUCE_I8: return (int8_t)b;
    case HIPREDUCE_U8: return (uint8_t)b;
    case HIPREDUCE_I16: return (int16_t)b;
    case HIPREDUCE_U16: return (uint16_t)b;
    case HIPREDUCE_I32: return (int32_t)b;
    case HIPREDUCE_U32: return (uint32_t)b;
    case HIPREDUCE_I64: return (int64_t)b;
    case HIPREDUCE_U64: return b;
    case HIPREDUCE_F16: return hipreduce_f16_to_f32((uint16_t)b);
    case HIPREDUCE_BF16: return hipreduce_bf16_to_f32((uint16_t)b);
    case HIPREDUCE_F32: { float f; uint32_t w = (uint32_t)b; memcpy(&f, &w, 4); return f; }
    default: { double v; memcpy(&v, &b, 8); return v; }
    }
}

int sr_chain(hipreduce_dtype in, uint64_t n, int order_strided)
{
    const uint64_t block = order_strided ? 256 : 256u * 4u * (16u / (unsigned)hipreduce_dtype_size(in));
    const int per_level = order_strided ? 32 + 3 : (int)(64 / hipreduce_dtype_size(in)) + 8;
    int levels = 1;
    for (uint64_t c = n; c > block; c = (c + block - 1) / block) ++levels;
    return levels * per_level;
}

hipreduce_dtype sr_acc_dtype(hipreduce_dtype in, hipreduce_dtype out)
{
    return in == HIPREDUCE_F64 || out == HIPREDUCE_F64 ? HIPREDUCE_F64 : HIPREDUCE_F32;
}

/* v (an f32 or f64 value of the accumulator) rounded once into out's bits, NaN canonical. */
static uint64_t round_to(hipreduce_dtype out, double v)
{
    float f = (float)v;
    uint32_t w;
    uint64_t q;
    switch (out) {
    case HIPREDUCE_F16: return hipreduce_f32_to_f16(f);
    case HIPREDUCE_BF16: return hipreduce_f32_to_bf16(f);
    case HIPREDUCE_F32:
        if (f != f) return 0x7fc00000u;
        memcpy(&w, &f, 4);
        return w;
    default:
        if (v != v) return UINT64_C(0x7ff8000000000000);
        memcpy(&q, &v, 8);
        return q;
    }
}

static int nonzero(hipreduce_dtype d, const void* x, uint64_t i)
{
    const long double v = sr_value(d, x, i);
    return v != 0 || v != v;
}

int sr_needs_sum(hipreduce_op op)
{
    return op == HIPREDUCE_OP_MEAN || op == HIPREDUCE_OP_NANSUM || op == HIPREDUCE_OP_NANMEAN;
}

uint64_t sr_expect(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n,
                   uint64_t sum_acc)
{
    uint64_t count = 0;
    if (op == HIPREDUCE_OP_NANMIN || op == HIPREDUCE_OP_NANMAX) { /* NaNs skipped, -0.0 below +0.0 */
        const int low = op == HIPREDUCE_OP_NANMIN;
        long double best = 0;
        for (uint64_t i = 0; i < n; ++i) {
            const long double v = sr_value(in, x, i);
            if (v != v) continue;
            if (count++ == 0 || (low ? v < best : v > best) || (v == best && v == 0 && signbit(v) == low)) best = v;
        }
        return round_to(out, n == 0 ? (low ? INFINITY : -INFINITY) : count == 0 ? NAN : (double)best);
    }
    if (op == HIPREDUCE_OP_COUNT_NONZERO || op == HIPREDUCE_OP_ALL || op == HIPREDUCE_OP_ANY) {
        for (uint64_t i = 0; i < n; ++i) count += (uint64_t)nonzero(in, x, i);
        return op == HIPREDUCE_OP_COUNT_NONZERO ? count : op == HIPREDUCE_OP_ALL ? count == n : count != 0;
    }
    if (op == HIPREDUCE_OP_NANMEAN) {
        for (uint64_t i = 0; i < n; ++i) count += sr_value(in, x, i) == sr_value(in, x, i);
    } else {
        count = n;
    }
    const int f64 = sr_acc_dtype(in, out) == HIPREDUCE_F64;
    double s;
    if (f64) {
        memcpy(&s, &sum_acc, 8);
    } else {
        float f;
        const uint32_t w = (uint32_t)sum_acc;
        memcpy(&f, &w, 4);
        s = f;
    }
    if (op == HIPREDUCE_OP_NANSUM) return round_to(out, s);
    /* mean, nanmean: one division in the accumulator's type (the count rounded to it) */
    if (count == 0) return round_to(out, NAN);
    return f64 ? round_to(out, s / (double)count) : round_to(out, (float)s / (float)count);
}

/* Neumaier's compensated sum in long double. */
typedef struct csum {
    long double s, c;
} csum;
static void cadd(csum* a, long double v)
{
    const long double t = a->s + v;
    a->c += fabsl(a->s) >= fabsl(v) ? (a->s - t) + v : (v - t) + a->s;
    a->s = t;
}

static long double unit(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 0x1p-11L : d == HIPREDUCE_BF16 ? 0x1p-8L : d == HIPREDUCE_F32 ? 0x1p-24L : 0x1p-53L;
}

/* The largest finite value of a float dtype. */
static long double max_finite(hipreduce_dtype d)
{
    return d == HIPREDUCE_F16 ? 65504.0L : d == HIPREDUCE_BF16 ? 0x1.fep127L : d == HIPREDUCE_F32 ? 0x1.fffffep127L
                                                                                  : 0x1.fffffffffffffp1023L;
}

static long double value_of(hipreduce_dtype out, uint64_t bits)
{
    return sr_value(out, &bits, 0);
}

int sr_check_moments(hipreduce_op op, hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n,
                     double correction, int chain, uint64_t got, uint64_t got2, double* ratio, char* why, int size)
{
    const int root = op == HIPREDUCE_OP_STD || op == HIPREDUCE_OP_STD_MEAN, two = sr_two_outputs(op);
    const long double g = value_of(out, got), g2 = two ? value_of(out, got2) : 0;
    int nan = 0, pinf = 0, ninf = 0, equal = 1;
    csum sum = {0, 0};
    for (uint64_t i = 0; i < n; ++i) {
        const long double v = sr_value(in, x, i);
        nan |= v != v, pinf |= v == INFINITY, ninf |= v == -INFINITY;
        equal &= v == sr_value(in, x, 0);
        cadd(&sum, v);
    }
    why[0] = '\0';
    /* the special values: exact */
    if (n == 0 || nan || pinf || ninf) {
        const int mean_nan = n == 0 || nan || (pinf && ninf);
        if (g == g) snprintf(why, size, "expected NaN, got %Lg", g);
        else if (two && mean_nan && g2 == g2) snprintf(why, size, "expected a NaN mean, got %Lg", g2);
        else if (two && !mean_nan && g2 != (pinf ? INFINITY : -INFINITY)) snprintf(why, size, "expected an infinite mean, got %Lg", g2);
        return why[0] != '\0';
    }
    const long double mu = (sum.s + sum.c) / (long double)n;
    csum m2 = {0, 0};
    for (uint64_t i = 0; i < n; ++i) {
        const long double d = sr_value(in, x, i) - mu;
        cadd(&m2, d * d);
    }
    const long double M2 = m2.s + m2.c, V = M2 / (long double)n, sigma = sqrtl(V);
    const long double dof = (long double)n - correction;
    const long double u = sr_acc_dtype(in, out) == HIPREDUCE_F64 ? 0x1p-53L : 0x1p-24L, uo = unit(out);
    const long double tiny = chain * (u == 0x1p-53L ? 0x1p-1022L : 0x1p-126L);
    const long double L = chain, bm = 2 * L * u * (V + sqrtl(L) * fabsl(mu) * sigma) + tiny;
    long double err = 0, bound = 0;
    if (!(dof > 0)) { /* divisor 0: +inf, or NaN when every deviation is 0 */
        if (equal ? g == g : g != INFINITY) snprintf(why, size, "divisor 0: expected %s, got %Lg", equal ? "NaN" : "inf", g);
    } else {
        const long double f = (long double)n / dof, var = V * f;
        const long double bv = f * bm + 4 * u * var + uo * var;
        if (!root) {
            err = fabsl(g - var), bound = bv;
        } else {
            const long double s = sqrtl(var);
            err = fabsl(g - s) * (g + s > 0 ? g + s : 1);
            bound = bv + 2 * (uo + u) * s * (g + s);
        }
        const long double ref = root ? sqrtl(var) : var;
        if (g == INFINITY && ref + bound >= max_finite(out)) err = 0; /* the result overflows its dtype */
        if (g != g || g < 0 || err > bound)
            snprintf(why, size, "%s %.10Lg, reference %.10Lg: error %.3Lg above the bound %.3Lg (chain %d)", root ? "std" : "var",
                     g, root ? sqrtl(var) : var, err, bound, chain);
        if (uo == u && bound > 0 && err / bound > *ratio) *ratio = (double)(err / bound); /* not a rounding to f16/bf16 */
    }
    if (two && why[0] == '\0') {
        const long double em = fabsl(g2 - mu), bmean = 2 * L * u * (fabsl(mu) + sigma) + uo * fabsl(mu) + tiny;
        if (!(em <= bmean)) snprintf(why, size, "mean %.10Lg, reference %.10Lg: error %.3Lg above %.3Lg", g2, mu, em, bmean);
        else if (uo == u && bmean > 0 && em / bmean > *ratio) *ratio = (double)(em / bmean);
    }
    return why[0] != '\0';
}

int sr_check_logsumexp(hipreduce_dtype in, hipreduce_dtype out, const void* x, uint64_t n, int chain, uint64_t got,
                       double* ratio, char* why, int size)
{
    const long double g = value_of(out, got);
    int nan = 0, pinf = 0;
    long double max = -INFINITY;
    for (uint64_t i = 0; i < n; ++i) {
        const long double v = sr_value(in, x, i);
        nan |= v != v, pinf |= v == INFINITY;
        if (v > max) max = v;
    }
    why[0] = '\0';
    if (nan || pinf || max == -INFINITY) { /* NaN, +inf, or -inf (every element -inf, or none) */
        const long double want = nan ? NAN : pinf ? INFINITY : -INFINITY;
        if (nan ? g == g : g != want) snprintf(why, size, "logsumexp: expected %Lg, got %Lg", want, g);
        return why[0] != '\0';
    }
    csum s = {0, 0};
    for (uint64_t i = 0; i < n; ++i) cadd(&s, expl(sr_value(in, x, i) - max));
    const long double want = max + logl(s.s + s.c);
    const long double u = sr_acc_dtype(in, out) == HIPREDUCE_F64 ? 0x1p-53L : 0x1p-24L, uo = unit(out);
    const long double bound = (4.0L * chain + 8 + 3 * logl((long double)n)) * u + (u + uo) * fabsl(want);
    const long double err = fabsl(g - want);
    if (!(err <= bound))
        snprintf(why, size, "logsumexp %.12Lg, reference %.12Lg: error %.3Lg above the bound %.3Lg (chain %d)", g, want, err,
                 bound, chain);
    else if (uo == u && bound > 0 && err / bound > *ratio)
        *ratio = (double)(err / bound);
    return why[0] != '\0';
}
