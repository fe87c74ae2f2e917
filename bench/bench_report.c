/* hipreduce-bench's rows and their output: a table for people, CSV for bench/report_tables.py, JSON.
 * CSV keeps one fixed column set on every device (a missing figure is an empty field), the older
 * columns first, so that readers of the older files still find every column: ceiling_gbps came
 * after the first nine, out_dtype and status after it, shape (the --shape modes) last. An error
 * row has its status, no figures. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

int bench_add_row(bench_result* r, const bench_row* row)
{
    if (r->count == r->capacity) {
        const size_t cap = r->capacity ? 2 * r->capacity : 64;
        bench_row* grown = realloc(r->rows, cap * sizeof *grown);
        if (!grown) return -1;
        r->rows = grown;
        r->capacity = cap;
    }
    r->rows[r->count++] = *row;
    return 0;
}

void bench_free_result(bench_result* r)
{
    free(r->rows);
    r->rows = NULL;
    r->count = r->capacity = 0;
}

static const char* workspace_name(const bench_options* o)
{
    return o->workspace == BENCH_WORKSPACE_CALLER ? "caller" : "own";
}

static double pct(const bench_row* row)
{
    return row->ceiling_gbps > 0 ? 100.0 * row->gbps / row->ceiling_gbps : 0.0;
}

/* JSON string contents: the device name comes from the runtime or /proc/cpuinfo. */
static void json_string(FILE* f, const char* s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

/* A CSV field, quoted where it holds a comma or a quote (status strings may). */
static void csv_field(FILE* f, const char* s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void print_json(FILE* f, const bench_options* o, const bench_result* r)
{
    fprintf(f, "{\"device\": ");
    json_string(f, r->device);
    if (r->device_ceiling > 0) fprintf(f, ", \"read_ceiling_gbps\": %.1f", r->device_ceiling);
    else fprintf(f, ", \"read_ceiling_gbps\": null");
    fprintf(f, ", \"read_ceiling\": ");
    json_string(f, r->ceiling_kind);
    fprintf(f, ", \"vendor\": ");
    if (r->vendor) json_string(f, r->vendor);
    else fprintf(f, "null");
    fprintf(f, ", \"workspace\": \"%s\", \"rows\": [\n", workspace_name(o));
    for (size_t i = 0; i < r->count; ++i) {
        const bench_row* w = &r->rows[i];
        fprintf(f, "  {\"algorithm\": \"%s\", \"op\": \"%s\", \"dtype\": \"%s\", \"out_dtype\": \"%s\", \"n\": %llu, ",
                w->algorithm, w->op, w->dtype, w->out_dtype, (unsigned long long)w->n);
        if (w->error) fprintf(f, "\"ms\": null, \"gbps\": null, \"pct_ceiling\": null, ");
        else fprintf(f, "\"ms\": %.6f, \"gbps\": %.1f, \"pct_ceiling\": %.1f, ", w->ms, w->gbps, pct(w));
        if (w->vendor_ms > 0) fprintf(f, "\"vendor_ms\": %.6f, ", w->vendor_ms);
        else fprintf(f, "\"vendor_ms\": null, ");
        if (w->vendor_ms > 0 && !w->error) fprintf(f, "\"ratio\": %.3f", w->ms / w->vendor_ms);
        else fprintf(f, "\"ratio\": null");
        fprintf(f, ", \"ceiling_gbps\": %.1f, \"status\": ", w->ceiling_gbps);
        json_string(f, w->status);
        fprintf(f, ", \"shape\": ");
        json_string(f, w->shape);
        fprintf(f, "}%s\n", i + 1 < r->count ? "," : "");
    }
    fprintf(f, "]}\n");
}

static void print_csv(FILE* f, const bench_options* o, const bench_result* r)
{
    if (r->device_ceiling > 0)
        fprintf(f, "# device: %s; read ceiling %.1f GB/s; vendor: %s; workspace: %s\n", r->device, r->device_ceiling,
                r->vendor ? r->vendor : "none", workspace_name(o));
    else
        fprintf(f, "# device: %s; read ceiling per row (%s); vendor: %s; workspace: %s\n", r->device,
                r->ceiling_kind, r->vendor ? r->vendor : "none", workspace_name(o));
    fprintf(f, "algorithm,op,dtype,n,ms,gbps,pct_ceiling,vendor_ms,ratio,ceiling_gbps,out_dtype,status,shape\n");
    for (size_t i = 0; i < r->count; ++i) {
        const bench_row* w = &r->rows[i];
        fprintf(f, "%s,%s,%s,%llu,", w->algorithm, w->op, w->dtype, (unsigned long long)w->n);
        if (w->error) fprintf(f, ",,,");
        else fprintf(f, "%.6f,%.1f,%.1f,", w->ms, w->gbps, pct(w));
        if (w->vendor_ms > 0) fprintf(f, "%.6f,", w->vendor_ms);
        else fprintf(f, ",");
        if (w->vendor_ms > 0 && !w->error) fprintf(f, "%.3f,", w->ms / w->vendor_ms);
        else fprintf(f, ",");
        fprintf(f, "%.1f,%s,", w->ceiling_gbps, w->out_dtype);
        csv_field(f, w->status);
        fputc(',', f);
        csv_field(f, w->shape);
        fprintf(f, "\n");
    }
}

static void print_table(FILE* f, const bench_options* o, const bench_result* r)
{
    const int vendor = r->vendor != NULL;
    const int per_row = r->device_ceiling <= 0;
    fprintf(f, "device: %s   read ceiling: ", r->device);
    if (per_row) fprintf(f, "per row (%s)", r->ceiling_kind);
    else fprintf(f, "%.1f GB/s", r->device_ceiling);
    fprintf(f, "   comparator: %s   workspace: %s\n", vendor ? r->vendor : "none", workspace_name(o));
    fprintf(f, "%-16s %-11s %-5s %-5s %12s %11s %9s %7s", "algorithm", "op", "dtype", "out", "n", "ms", "GB/s",
            "%ceil");
    if (per_row) fprintf(f, " %10s", "ceil GB/s");
    if (vendor) fprintf(f, " %11s %7s", "vendor ms", "ratio");
    fprintf(f, "  status%s\n", o->shape != BENCH_SHAPE_FLAT ? "  shape" : "");
    for (size_t i = 0; i < r->count; ++i) {
        const bench_row* w = &r->rows[i];
        fprintf(f, "%-16s %-11s %-5s %-5s %12llu", w->algorithm, w->op, w->dtype, w->out_dtype,
                (unsigned long long)w->n);
        if (w->error) fprintf(f, " %11s %9s %7s", "-", "-", "-");
        else fprintf(f, " %11.4f %9.1f %7.1f", w->ms, w->gbps, pct(w));
        if (per_row && w->error) fprintf(f, " %10s", "-");
        else if (per_row) fprintf(f, " %10.1f", w->ceiling_gbps);
        if (vendor && w->vendor_ms > 0 && !w->error) fprintf(f, " %11.4f %7.3f", w->vendor_ms, w->ms / w->vendor_ms);
        else if (vendor && w->vendor_ms > 0) fprintf(f, " %11.4f %7s", w->vendor_ms, "-");
        else if (vendor) fprintf(f, " %11s %7s", "-", "-");
        fprintf(f, "  %s%s%s\n", w->status, w->shape[0] ? "  " : "", w->shape);
    }
}

int bench_print(FILE* f, const bench_options* o, const bench_result* r)
{
    if (o->format == BENCH_FORMAT_JSON) print_json(f, o, r);
    else if (o->format == BENCH_FORMAT_CSV) print_csv(f, o, r);
    else print_table(f, o, r);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
