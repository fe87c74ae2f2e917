/* The tests' exact reference (exact_ref.h). Slow on purpose: plain bit placement and full carry
 * runs, so that nothing here shares a shortcut with device/exact.h. */
#include "exact_ref.h"

#include <stdio.h>
#include <string.h>

enum { XR_LOW = -2272 }; /* weight of bit 0 of limb 0 */

typedef struct fmt {
    int ebits, p, bits;
} fmt;

static fmt fmt_of(hipreduce_dtype d)
{
    switch (d) {
    case HIPREDUCE_F16: return (fmt){5, 11, 16};
    case HIPREDUCE_BF16: return (fmt){8, 8, 16};
    case HIPREDUCE_F32: return (fmt){8, 24, 32};
    default: return (fmt){11, 53, 64};
    }
}

/* A float's class and, when finite, (-1)^neg * m * 2^q. */
enum { XR_ZERO, XR_FINITE, XR_INF, XR_NAN };
typedef struct term {
    int cls, neg, q;
    uint64_t m;
} term;

/* The magnitude bits u of format f as m * 2^q; an all-ones exponent reads as a finite power of
 * two (the virtual number above the largest finite one). */
static term magnitude(fmt f, uint64_t u)
{
    const int frac = f.p - 1, bias = (1 << (f.ebits - 1)) - 1;
    const int e = (int)(u >> frac);
    const uint64_t fr = u & ((1ull << frac) - 1);
    term t = {XR_FINITE, 0, 0, 0};
    t.m = e ? fr | (1ull << frac) : fr;
    t.q = (e ? e : 1) - bias - frac;
    if (t.m == 0) t.cls = XR_ZERO;
    return t;
}

static term decode(hipreduce_dtype d, uint64_t bits)
{
    const fmt f = fmt_of(d);
    const int frac = f.p - 1;
    const uint64_t sign = 1ull << (f.bits - 1), mag = bits & (sign - 1);
    const uint64_t einf = ((1ull << f.ebits) - 1) << frac;
    term t;
    if ((mag & einf) == einf) {
        t.cls = (mag & ((1ull << frac) - 1)) ? XR_NAN : XR_INF;
        t.m = 0, t.q = 0;
    } else {
        t = magnitude(f, mag);
    }
    t.neg = (bits & sign) != 0;
    return t;
}

/* big +/-= m * 2^q, bit by bit into a scratch number, then one add or subtract over every limb. */
static void big_add(uint32_t* big, int neg, uint64_t m, int q)
{
    uint32_t t[XR_LIMBS] = {0};
    for (int b = 0; b < 64; ++b)
        if (m >> b & 1) {
            const int pos = q + b - XR_LOW;
            t[pos / 32] |= 1u << (pos % 32);
        }
    uint64_t carry = neg ? 1 : 0; /* subtracting: add the complement and one */
    for (int i = 0; i < XR_LIMBS; ++i) {
        const uint64_t v = (uint64_t)big[i] + (neg ? (uint32_t)~t[i] : t[i]) + carry;
        big[i] = (uint32_t)v;
        carry = v >> 32;
    }
}

static int big_negative(const uint32_t* big) { return (big[XR_LIMBS - 1] >> 31) != 0; }

static int big_cmp(const uint32_t* a, const uint32_t* b)
{
    for (int i = XR_LIMBS - 1; i >= 0; --i)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

void xr_init(xr_sum* s)
{
    memset(s, 0, sizeof *s);
    s->all_neg_zero = 1;
}

static void add_term(xr_sum* s, term t)
{
    ++s->terms;
    if (!(t.cls == XR_ZERO && t.neg)) s->all_neg_zero = 0;
    if (t.cls == XR_NAN) s->nan = 1;
    if (t.cls == XR_INF) *(t.neg ? &s->ninf : &s->pinf) = 1;
    if (t.cls == XR_FINITE) big_add(s->limb, t.neg, t.m, t.q);
}

void xr_add(xr_sum* s, hipreduce_dtype dtype, uint64_t bits) { add_term(s, decode(dtype, bits)); }

void xr_add_product(xr_sum* s, hipreduce_dtype dtype, uint64_t x, uint64_t y)
{
    const term a = decode(dtype, x), b = decode(dtype, y);
    term p = {XR_FINITE, a.neg ^ b.neg, 0, 0};
    if (a.cls == XR_NAN || b.cls == XR_NAN) p.cls = XR_NAN;
    else if (a.cls == XR_INF || b.cls == XR_INF) p.cls = a.cls == XR_ZERO || b.cls == XR_ZERO ? XR_NAN : XR_INF;
    else if (a.cls == XR_ZERO || b.cls == XR_ZERO) p.cls = XR_ZERO;
    if (p.cls != XR_FINITE) {
        add_term(s, p);
        return;
    }
    ++s->terms;
    s->all_neg_zero = 0;
    /* four partial products of 32-bit halves, each below 2^64 */
    const uint64_t a0 = a.m & 0xffffffff, a1 = a.m >> 32, b0 = b.m & 0xffffffff, b1 = b.m >> 32;
    big_add(s->limb, p.neg, a0 * b0, a.q + b.q);
    big_add(s->limb, p.neg, a0 * b1, a.q + b.q + 32);
    big_add(s->limb, p.neg, a1 * b0, a.q + b.q + 32);
    big_add(s->limb, p.neg, a1 * b1, a.q + b.q + 64);
}

/* 2 * |value of magnitude bits u| + 2 * |value of v|, as a big number: the sum of two neighbours
 * compared with twice the exact sum, so no halving is needed. */
static void twice_mid(fmt f, uint64_t u, uint64_t v, uint32_t* out)
{
    memset(out, 0, sizeof(uint32_t) * XR_LIMBS);
    const term a = magnitude(f, u), b = magnitude(f, v);
    if (a.cls == XR_FINITE) big_add(out, 0, a.m, a.q);
    if (b.cls == XR_FINITE) big_add(out, 0, b.m, b.q);
}

int xr_check(const xr_sum* s, hipreduce_dtype out, uint64_t got, char* why, int size)
{
    const fmt f = fmt_of(out);
    const int frac = f.p - 1;
    const uint64_t sign = 1ull << (f.bits - 1), inf = ((1ull << f.ebits) - 1) << frac;
    uint64_t want = 0;
    int decided = 1;
    if (s->nan || (s->pinf && s->ninf)) want = inf | (1ull << (frac - 1));
    else if (s->pinf) want = inf;
    else if (s->ninf) want = sign | inf;
    else decided = 0;
    uint32_t a[XR_LIMBS];
    memcpy(a, s->limb, sizeof a);
    const int neg = big_negative(a);
    if (neg) { /* |S| */
        uint64_t carry = 1;
        for (int i = 0; i < XR_LIMBS; ++i) {
            const uint64_t v = (uint64_t)(uint32_t)~a[i] + carry;
            a[i] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    static const uint32_t zero[XR_LIMBS];
    if (!decided && big_cmp(a, zero) == 0) {
        want = s->all_neg_zero && s->terms > 0 ? sign : 0;
        decided = 1;
    }
    if (decided) {
        if (got == want) return 1;
        snprintf(why, (size_t)size, "got 0x%llx, want 0x%llx (nan %d +inf %d -inf %d all -0 %d)", (unsigned long long)got,
                 (unsigned long long)want, s->nan, s->pinf, s->ninf, s->all_neg_zero);
        return 0;
    }
    const uint64_t u = got & (sign - 1);
    if (((got & sign) != 0) != neg || u > inf) {
        snprintf(why, (size_t)size, "got 0x%llx: the exact sum is %s", (unsigned long long)got, neg ? "negative" : "positive");
        return 0;
    }
    uint32_t twice[XR_LIMBS], mid[XR_LIMBS];
    uint32_t carry = 0;
    for (int i = 0; i < XR_LIMBS; ++i) { /* 2|S| */
        twice[i] = (a[i] << 1) | carry;
        carry = a[i] >> 31;
    }
    if (u > 0) { /* at or above the midpoint below u (a tie only to an even u) */
        twice_mid(f, u - 1, u, mid);
        const int c = big_cmp(twice, mid);
        if (c < 0 || (c == 0 && (u & 1))) {
            snprintf(why, (size_t)size, "got 0x%llx: the exact sum lies %s its lower midpoint", (unsigned long long)got,
                     c < 0 ? "below" : "on (a tie, and the result is odd)");
            return 0;
        }
    }
    if (u < inf) { /* at or below the midpoint above u */
        twice_mid(f, u, u + 1, mid);
        const int c = big_cmp(twice, mid);
        if (c > 0 || (c == 0 && (u & 1))) {
            snprintf(why, (size_t)size, "got 0x%llx: the exact sum lies %s its upper midpoint", (unsigned long long)got,
                     c > 0 ? "above" : "on (a tie, and the result is odd)");
            return 0;
        }
    }
    return 1;
}

uint64_t xr_bits(hipreduce_dtype dtype, const void* p, uint64_t i)
{
    const int bytes = fmt_of(dtype).bits / 8;
    uint64_t v = 0;
    memcpy(&v, (const unsigned char*)p + i * (uint64_t)bytes, (size_t)bytes); /* little-endian hosts */
    return v;
}

void xr_set_bits(hipreduce_dtype dtype, void* p, uint64_t i, uint64_t bits)
{
    const int bytes = fmt_of(dtype).bits / 8;
    memcpy((unsigned char*)p + i * (uint64_t)bytes, &bits, (size_t)bytes);
}
