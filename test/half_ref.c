/* f16 / bf16 <-> double by the formats' definitions (see half_ref.h). */
#include "half_ref.h"

#include <math.h>

/* Exponent and fraction bits: binary16 5 + 10, bfloat16 8 + 7. */
static int exp_bits(half_kind k) { return k == HALF_F16 ? 5 : 8; }
static int frac_bits(half_kind k) { return k == HALF_F16 ? 10 : 7; }

uint16_t half_canonical_nan(half_kind k) { return k == HALF_F16 ? 0x7e00 : 0x7fc0; }

int half_is_nan(half_kind k, uint16_t bits)
{
    const int f = frac_bits(k);
    const unsigned e_all = (1u << exp_bits(k)) - 1;
    return ((bits >> f) & e_all) == e_all && (bits & ((1u << f) - 1)) != 0;
}

double half_to_double(half_kind k, uint16_t bits)
{
    const int f = frac_bits(k), bias = (1 << (exp_bits(k) - 1)) - 1;
    const unsigned e_all = (1u << exp_bits(k)) - 1;
    const unsigned e = (bits >> f) & e_all, m = bits & ((1u << f) - 1);
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    if (e == e_all) return m ? NAN : sign * INFINITY;
    if (e == 0) return sign * ldexp((double)m, 1 - bias - f); /* subnormal (or zero) */
    return sign * ldexp((double)((1u << f) + m), (int)e - bias - f);
}

uint16_t half_from_double(half_kind k, double v)
{
    const int f = frac_bits(k), bias = (1 << (exp_bits(k) - 1)) - 1, emin = 1 - bias;
    const unsigned e_all = (1u << exp_bits(k)) - 1;
    if (isnan(v)) return half_canonical_nan(k);
    const uint16_t sign = signbit(v) ? 0x8000 : 0;
    const double a = fabs(v);
    if (isinf(a)) return (uint16_t)(sign | e_all << f);
    if (a == 0) return sign;
    /* The quantum (one unit in the last place) of a's binade, or of the subnormal range. */
    int e2;
    (void)frexp(a, &e2); /* a = m * 2^e2, m in [0.5, 1): the binade's exponent is e2 - 1 */
    const int e = e2 - 1 < emin ? emin : e2 - 1;
    const double r = nearbyint(ldexp(a, f - e)); /* exact scaling; nearbyint: the default mode, ties to even */
    /* r in [0, 2^(f+1)]: r < 2^f is a subnormal (e == emin), r == 2^(f+1) carries into the next binade. */
    unsigned field, frac;
    if (r < ldexp(1.0, f)) {
        field = 0, frac = (unsigned)r;
    } else if (r >= ldexp(1.0, f + 1)) {
        field = (unsigned)(e + 1 + bias), frac = 0;
    } else {
        field = (unsigned)(e + bias), frac = (unsigned)r - (1u << f);
    }
    if (field >= e_all) return (uint16_t)(sign | e_all << f); /* overflow: infinity */
    return (uint16_t)(sign | field << f | frac);
}
