/* unit suite, part 2: the tests' own f16/bf16 converter (test/half_ref.c) against the bit patterns
 * IEEE 754 and bfloat16 fix, and every 16-bit value. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "half_ref.h"

void check_half(int* fails_out);

static int fails;
#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            if (++fails <= 30) {                                            \
                fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                               \
                fputc('\n', stderr);                                        \
            }                                                               \
        }                                                                   \
    } while (0)

/* The tests' f16/bf16 converter: the patterns IEEE 754 and bfloat16 fix, then every 16-bit value
 * (round trip, and the midpoints to each neighbour round to the even one), then bf16 against the
 * top half of an f32 and the integer form of f32 -> bf16 rounding. */
void check_half(int* fails_out)
{
    fails = 0;
    static const struct { half_kind k; uint16_t bits; double value; } known[] = {
        {HALF_F16, 0x3c00, 1.0}, {HALF_F16, 0x7bff, 65504.0}, {HALF_F16, 0x0001, 0x1p-24},
        {HALF_F16, 0x03ff, 1023 * 0x1p-24}, {HALF_F16, 0x0400, 0x1p-14}, {HALF_F16, 0x7c00, INFINITY},
        {HALF_F16, 0xfc00, -INFINITY}, {HALF_F16, 0xc000, -2.0}, {HALF_F16, 0x3555, 0x555p-12},
        {HALF_F16, 0x6800, 2048.0}, {HALF_F16, 0x6802, 2052.0}, {HALF_F16, 0x8001, -0x1p-24},
        {HALF_BF16, 0x3f80, 1.0}, {HALF_BF16, 0x7f80, INFINITY}, {HALF_BF16, 0xff80, -INFINITY},
        {HALF_BF16, 0x0001, 0x1p-133}, {HALF_BF16, 0x007f, 127 * 0x1p-133}, {HALF_BF16, 0x0080, 0x1p-126},
        {HALF_BF16, 0x7f7f, 0x1.fep127}, {HALF_BF16, 0xc040, -3.0},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i) {
        CHECK(half_to_double(known[i].k, known[i].bits) == known[i].value, "decode 0x%04x", known[i].bits);
        CHECK(half_from_double(known[i].k, known[i].value) == known[i].bits, "encode 0x%04x", known[i].bits);
    }
    static const struct { half_kind k; double v; uint16_t want; } rounded[] = {
        {HALF_F16, 2049.0, 0x6800}, {HALF_F16, 2051.0, 0x6802}, {HALF_F16, 2050.5, 0x6801},
        {HALF_F16, 65519.0, 0x7bff}, {HALF_F16, 65520.0, 0x7c00}, {HALF_F16, -65520.0, 0xfc00},
        {HALF_F16, 1e300, 0x7c00}, {HALF_F16, 0x1p-25, 0x0000}, {HALF_F16, -0x1p-25, 0x8000},
        {HALF_F16, 0x1.000001p-25, 0x0001}, {HALF_F16, 3 * 0x1p-25, 0x0002}, {HALF_F16, 1e-300, 0x0000},
        {HALF_F16, 0x1.ffcp-15, 0x0400}, /* the largest subnormal's midpoint to 2^-14: ties to even */
        {HALF_F16, -0.0, 0x8000}, {HALF_F16, 0.0, 0x0000}, {HALF_F16, NAN, 0x7e00}, {HALF_F16, -NAN, 0x7e00},
        {HALF_BF16, 1 + 0x1p-8, 0x3f80}, {HALF_BF16, 1 + 3 * 0x1p-8, 0x3f82}, {HALF_BF16, 1 + 0x1.8p-8, 0x3f81},
        {HALF_BF16, FLT_MAX, 0x7f80}, {HALF_BF16, 0x1.fefffffp127, 0x7f7f}, {HALF_BF16, 0x1p-134, 0x0000},
        {HALF_BF16, 3 * 0x1p-134, 0x0002}, {HALF_BF16, -0.0, 0x8000}, {HALF_BF16, NAN, 0x7fc0},
    };
    for (size_t i = 0; i < sizeof rounded / sizeof rounded[0]; ++i) {
        const uint16_t got = half_from_double(rounded[i].k, rounded[i].v);
        CHECK(got == rounded[i].want, "encode %a: 0x%04x, want 0x%04x", rounded[i].v, got, rounded[i].want);
    }
    CHECK(half_is_nan(HALF_F16, 0x7e00) && half_is_nan(HALF_F16, 0xfc01) && !half_is_nan(HALF_F16, 0x7c00) &&
              half_is_nan(HALF_BF16, 0x7fc0) && half_is_nan(HALF_BF16, 0xff81) && !half_is_nan(HALF_BF16, 0xff80),
          "NaN patterns");
    CHECK(signbit(half_to_double(HALF_F16, 0x8000)) && half_to_double(HALF_F16, 0x8000) == 0, "-0.0");
    for (int k = 0; k < 2; ++k) {
        const half_kind kind = (half_kind)k;
        const uint16_t top = k == 0 ? 0x7c00 : 0x7f80; /* +inf */
        for (uint32_t b = 0; b < 0x10000; ++b) {
            const double v = half_to_double(kind, (uint16_t)b);
            if (half_is_nan(kind, (uint16_t)b)) {
                CHECK(isnan(v) && half_from_double(kind, v) == half_canonical_nan(kind), "NaN 0x%04x", b);
                continue;
            }
            CHECK(half_from_double(kind, v) == b, "round trip %d 0x%04x", k, b);
            if (kind == HALF_BF16) {
                const uint32_t f32 = b << 16;
                float fv;
                memcpy(&fv, &f32, 4);
                CHECK((double)fv == v, "bf16 0x%04x is the top half of an f32", b);
            }
            const uint32_t mag = b & 0x7fff;
            if (mag >= top) continue;
            /* The midpoint to the next magnitude (the largest finite: to 2^(emax+1), which overflows). */
            const double next = mag + 1 == top ? 2 * half_to_double(kind, (uint16_t)(top - (k == 0 ? 0x400 : 0x80)))
                                               : half_to_double(kind, (uint16_t)(mag + 1));
            const double here = fabs(v), mid = here + (next - here) / 2;
            const uint16_t sign = (uint16_t)(b & 0x8000), even = (uint16_t)((mag & 1) ? mag + 1 : mag);
            CHECK(half_from_double(kind, sign ? -mid : mid) == (sign | even), "midpoint above 0x%04x", b);
            CHECK(half_from_double(kind, nextafter(mid, 0)) == mag, "below the midpoint above 0x%04x", b);
            CHECK(half_from_double(kind, nextafter(mid, INFINITY)) == mag + 1, "past the midpoint above 0x%04x", b);
        }
    }
    /* f32 -> bf16 on random f32 patterns: (u + 0x7fff + lowest kept bit) >> 16 rounds to nearest even. */
    uint32_t z = 0x12345678u;
    for (int i = 0; i < 200000; ++i) {
        z ^= z << 13, z ^= z >> 17, z ^= z << 5; /* xorshift32 */
        float fv;
        memcpy(&fv, &z, 4);
        if (isnan(fv)) continue;
        const uint16_t want = (uint16_t)((z + 0x7fffu + ((z >> 16) & 1)) >> 16);
        CHECK(half_from_double(HALF_BF16, fv) == want, "f32 0x%08x to bf16", z);
    }
    *fails_out += fails;
}
