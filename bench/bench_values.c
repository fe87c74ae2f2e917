/* The value forms of hipreduce-bench's command line: decimal counts, sizes (1048576, 2^20, 1e9,
 * with +D or -D) and --dims entries (sizes joined by 'x'). */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

/* Decimal digits in [s, end), nothing else, no overflow. */
int bench_parse_u64(const char* s, const char* end, uint64_t* out)
{
    uint64_t v = 0;
    if (s == end) return -1;
    for (; s < end; ++s) {
        if (*s < '0' || *s > '9') return -1;
        const uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* One size: 1048576, 2^20, 1e9, each optionally followed by +D or -D (2^24+1, 2^20-3, 1e8+7).
 * At least 1, no overflow. */
int bench_parse_size(const char* s, uint64_t* out)
{
    const char* end = s + strlen(s);
    const char* sign = strpbrk(s, "+-");
    const char* term_end = sign ? sign : end;
    uint64_t value = 0, a = 0, b = 0;
    if (strncmp(s, "2^", 2) == 0) {
        if (bench_parse_u64(s + 2, term_end, &a) != 0 || a > 63) return -1;
        value = (uint64_t)1 << a;
    } else {
        const char* e = memchr(s, 'e', (size_t)(term_end - s));
        if (bench_parse_u64(s, e ? e : term_end, &value) != 0) return -1;
        if (e) {
            if (bench_parse_u64(e + 1, term_end, &b) != 0 || b > 19) return -1;
            for (; b > 0; --b) {
                if (value > UINT64_MAX / 10) return -1;
                value *= 10;
            }
        }
    }
    if (sign) {
        uint64_t delta = 0;
        if (bench_parse_u64(sign + 1, end, &delta) != 0) return -1;
        if (*sign == '+' ? value > UINT64_MAX - delta : value < delta) return -1;
        value = *sign == '+' ? value + delta : value - delta;
    }
    if (value == 0) return -1;
    *out = value;
    return 0;
}

/* Entries of two or three sizes joined by 'x' (4194304x16, 2^20x64, 1x2^24x16); their count is
 * checked against --shape once every option is read. */
int bench_parse_dims(const char* opt, const char* v, bench_dims** out, size_t* n_out)
{
    size_t count = 1;
    for (const char* c = v; *c; ++c) count += *c == ',';
    bench_dims* dims = calloc(count, sizeof *dims);
    if (!dims) {
        fprintf(stderr, "hipreduce-bench: %s: out of memory\n", opt);
        return -1;
    }
    size_t k = 0;
    for (const char* p = v;; ++k) {
        const char* comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char one[96];
        int bad = len == 0 || len >= sizeof one;
        if (!bad) {
            memcpy(one, p, len);
            one[len] = '\0';
            char* term = one;
            for (;;) {
                char* x = strchr(term, 'x');
                if (x) *x = '\0';
                if (dims[k].count == 3 || bench_parse_size(term, &dims[k].d[dims[k].count]) != 0) {
                    bad = 1;
                    break;
                }
                dims[k].count++;
                if (!x) break;
                term = x + 1;
            }
            bad |= dims[k].count < 2;
        }
        if (bad) {
            free(dims);
            fprintf(stderr, "hipreduce-bench: %s: bad entry '%.*s' (RxC or OxExI of sizes, e.g. 4194304x16, "
                    "2^20x64, 1x2^24x16; each at least 1)\n", opt, (int)len, p);
            return -1;
        }
        if (!comma) break;
        p = comma + 1;
    }
    *out = dims;
    *n_out = k + 1;
    return 0;
}
