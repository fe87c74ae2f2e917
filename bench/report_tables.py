#!/usr/bin/env python3
"""The performance report's data and tables (bench/report.sh runs it; docs/PERFORMANCE.md says how).

  report_tables.py append OUT.csv ROUND CASE IN.csv [--vendor NAME]
      Appends the rows of IN.csv (hipreduce-bench's CSV, or an anchor script's in the same columns)
      to OUT.csv with their round and case. A row's vendor columns (the vendor library timed in the
      same process) become a row of their own, named by IN's '#' header line ("vendor: NAME") or
      --vendor.
  report_tables.py write [--doc docs/PERFORMANCE.md] [--suites docs/SUITES.md] [--readme README.md]
                         [--with DIR] [DATA_DIR ...]
      Regenerates the tables between the markers of the three files from the data folders (default:
      the newest docs/data/<version>/<gpu>/ of each GPU; --with DIR takes the place of its GPU's,
      the GPU being the folder's name): in the doc, one section per GPU, one table per family CSV in
      it (full, typed, rows, cols, axis, segments, exact, tensor, stats, by_key, python, cpu) and one
      line per suite of bench/suites.sh (suite_*.csv, with suites.txt: shapes, median and worst ratio
      to the best anchor); in the suites file, every suite's table, row by row; in the README, the
      headline table.

A data folder holds meta.txt ("key: value" lines: gpu, date, version, commit, driver, cuda, ...;
"source.FAMILY: ..." where a family's rows come from another run, "note: ...") and the family CSVs:
round,case,algorithm,op,dtype,out_dtype,n,shape,ms,gbps,pct_ceiling,ceiling_gbps,status
(python.csv: framework,n,hipreduce_us,out_us,c_loop_us,overhead_us,out_overhead_us,framework_us).
A table row is one call (op, dtypes, n or shape); hipreduce's figure is the median over the rounds
with the min-max beside it, an anchor's its best formulation per round, the median over rounds.
Rows of case "deterministic" are set against the deterministic anchor (CUB's gpu_to_gpu) alone, the
others against every anchor but it; the hipreduce package's own calls from Python ("hipreduce.*")
are a column of ours (Python), with their ratio to torch's, not an anchor.
"""
import argparse
import csv
import math
import os
import re
import statistics
import sys

import report_suites
from report_suites import PYTHON_CLASS, section_of

COLUMNS = ["round", "case", "algorithm", "op", "dtype", "out_dtype", "n", "shape", "ms", "gbps", "pct_ceiling",
           "ceiling_gbps", "status"]
FAMILIES = [  # file, title, what a row is
    ("full", "Full reductions", "hipreduce_reduce of n elements; GB/s counts the input bytes"),
    ("typed", "Typed ops, argmin/argmax, dot", "the % column of narrow argmax is of the same-size read"),
    ("rows", "Rows (reduce the last axis)", "hipreduce_reduce_axis, inner 1: R rows of C elements"),
    ("cols", "Columns (reduce the first axis)", "R x C, the R axis reduced: C results"),
    ("axis", "Middle axis", "O x E x I, the E axis reduced: O * I results"),
    ("segments", "CSR segments by length distribution", "hipreduce_reduce_segments; GB/s counts the "
     "elements, not the offsets"),
    ("exact", "Exact sums", "sum_exact / dot_exact (rounded once); CUB's gpu_to_gpu is deterministic, not exact"),
    ("tensor", "Strided tensors, any axes (plans)", "f32 views of the shapes below, reduced over the axes named, "
     "against torch's sum of the same view (bench/tensor_bench.py); GB/s counts the view's bytes; the read is "
     "the library's own full sum of as many contiguous bytes"),
    ("stats", "Statistics (one pass)", "the package's function with out= against torch's formulation of the same "
     "statistic (bench/stats_bench.py); GB/s counts the input's bytes; the read is the library's own full sum of as "
     "many contiguous bytes"),
    ("by_key", "Reductions by key", "hipreduce.reduce_by_key (sum, out=) against torch's index_add_, atomic and "
     "deterministic (bench/by_key_anchors.py); GB/s counts the values and keys read"),
    ("python", "Python package: per-call cost", "host time per call, us"),
    ("torch_ops", "hipreduce.torch operators: per-call cost", "us a call, median of the rounds (min-max), on the "
     "GPU: torch's own reduction, the package's function, hipreduce.torch's eager path, the registered operator "
     "called through torch's dispatcher, and the operator recording autograd (bench/torch_ops_overhead.py)"),
    ("cpu", "The cpu device", "the host's cores; % of a plain read of the same buffer on as many threads"),
    ("mpi", "MPI: many fields in one collective", "hipreduce_mpi_reduce_fields of 32 f64 fields of n elements a "
     "rank, ranks sharing the GPU, against 32 local sums and one MPI_Allreduce of them (ratio: ours / theirs) and "
     "against 32 separate hipreduce_mpi_reduce calls (speedup); us, the slowest rank's median "
     "(bench/mpi_bench.c --fields)"),
]
BYTES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2, "i32": 4, "u32": 4, "f32": 4, "i64": 8,
         "u64": 8, "f64": 8}
DOC_MARKERS = ("<!-- report:begin -->", "<!-- report:end -->")
SUITES_MARKERS = ("<!-- suites:begin -->", "<!-- suites:end -->")
README_MARKERS = ("<!-- speed:begin -->", "<!-- speed:end -->")
# The README's headline rows: (family, op, dtype, out_dtype, n or shape prefix, label).
HEADLINES = [
    ("full", "sum", "f32", "f32", "268435456", "f32 sum, 2^28"),
    ("full", "sum", "bf16", "f32", "268435456", "bf16 -> f32 sum, 2^28"),
    ("typed", "argmax", "f32", "f32", "268435456", "f32 argmax, 2^28"),
    ("typed", "dot", "f32", "f32", "134217728", "f32 dot, 2^27 each"),
    ("rows", "sum", "f32", "f32", "rows:65536x1024", "rows 65536 x 1024, sum"),
    ("rows", "argmax", "f32", "f32", "rows:65536x1024", "rows 65536 x 1024, argmax"),
    ("cols", "sum", "f32", "f32", "cols:16x4194304", "columns 16 x 4194304, sum"),
    ("segments", "sum", "f32", "f32", "ragged:1048576xpowerlaw", "2^20 power-law segments, sum"),
    ("exact", "sum_exact", "f32", "f32", "268435456", "f32 sum_exact, 2^28"),
]


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


# ---- append --------------------------------------------------------------------------------------
def append(out_path, rnd, case, in_path, vendor):
    header_vendor = None
    rows = []
    with open(in_path, newline="") as f:
        lines = []
        for line in f:
            if line.startswith("#"):
                m = re.search(r"vendor: ([^;]+)", line)
                if m and m[1].strip() != "none":
                    header_vendor = m[1].strip()
            elif line.strip():
                lines.append(line)
    vendor = vendor or header_vendor
    for r in csv.DictReader(lines):
        row = {k: r.get(k, "") or "" for k in COLUMNS}
        row.update({"round": rnd, "case": case, "out_dtype": r.get("out_dtype") or r.get("dtype", "")})
        rows.append(row)
        vms = num(r.get("vendor_ms"))
        if vendor and vms and r.get("algorithm") == "auto":
            n = int(r["n"])
            nbytes = n * BYTES.get(r["dtype"], 4) * (2 if r["op"] in ("dot", "dot_exact") else 1)
            ceiling = num(r.get("ceiling_gbps"))
            gbps = nbytes / (vms * 1e6)
            rows.append(dict(row, algorithm=vendor, ms=f"{vms:.6f}", gbps=f"{gbps:.1f}", status="ok",
                             pct_ceiling=f"{100 * gbps / ceiling:.1f}" if ceiling else ""))
    new = not os.path.exists(out_path) or os.path.getsize(out_path) == 0
    with open(out_path, "a", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        if new:
            w.writeheader()
        w.writerows(rows)


# ---- tables --------------------------------------------------------------------------------------
def read_meta(folder):
    return report_suites.read_facts(os.path.join(folder, "meta.txt"))


def anchor_class(name):
    """The column an anchor's row goes to: formulations of one library share it (best taken)."""
    if name.startswith("torch"):
        return "torch"
    if name.startswith("cupy"):
        return "cupy"
    if name.startswith("hipreduce."):
        return PYTHON_CLASS
    m = re.match(r"cub-([0-9.]+)-toolkit", name) or re.match(r"CUB DeviceReduce ([0-9.]+) \(toolkit\)", name)
    if m:
        return f"CUB {m[1]} (toolkit)"
    m = re.match(r"cub-([0-9.]+)( gpu_to_gpu)?$", name)
    if m:
        return f"CUB {m[1]}" + (" gpu_to_gpu" if m[2] else "")
    return name


def values_of(r):
    """The input values a case names, where they are not the default random ones (adversarial_binades)."""
    return r["case"].split("_", 1)[1] if r["case"].startswith("adversarial_") else \
        "binades" if r["case"] == "adversarial" else ""


def pow2(n):
    n = int(n)
    if n == 1:
        return "1"
    return f"2^{n.bit_length() - 1}" if n > 0 and n & (n - 1) == 0 else f"{n}"


def label(r, kinds=False):
    """The row's call; kinds: name rows/cols (a table of both)."""
    values = values_of(r)
    notes = [n for n in (values, section_of(r)) if n]
    return shape_label(r, kinds) + (f" ({', '.join(notes)})" if notes else "")


def shape_label(r, kinds=False):
    dt = r["dtype"] if r["out_dtype"] in ("", r["dtype"]) else f"{r['dtype']} -> {r['out_dtype']}"
    shape = r["shape"]
    if not shape:
        return f"{r['op']} {dt}, {pow2(r['n'])}"
    kind, _, dims = shape.partition(":")
    dims = re.sub(r":seed\d+$", "", dims)
    step = re.search(r":step(\d+)$", dims)
    dims = dims[:step.start()] if step else dims
    if kind == "ragged":  # Sx0..M (uniform) or Sx<kind>..M (hipreduce-bench's HIPREDUCE_BENCH_LENGTHS)
        m = re.fullmatch(r"(\d+)x([a-z]*\d*)\.\.(\d+)", dims)
        if m:
            s, k, top = pow2(m[1]), m[2], m[3]
            dims = {"0": f"{s} segments of 0..{top}", "fixed": f"{s} segments of {top}", "empty": f"{s} empty segments",
                    "giants": f"{s} segments, 8 giants up to {top}",
                    "nonempty": f"{s} segments of 1..{top}"}.get(k, f"{s} {k} segments (cap {top})")
        return f"{r['op']} {dt}, {dims}"
    where = (kind + " " if kinds else "") + dims.replace("x", " x ") + (f", step {step[1]}" if step else "")
    return f"{r['op']} {dt}, {where}"


def fmt_gbps(vals):
    if not vals:
        return ""
    med = statistics.median(vals)
    if len(vals) > 1 and max(vals) - min(vals) >= 0.5:
        return f"{med:.0f} ({min(vals):.0f}-{max(vals):.0f})"
    return f"{med:.0f}"


def fmt_time(ms):
    return f"{ms * 1000:.1f} us" if ms < 1 else f"{ms:.2f} ms"


EXACT_BASE = {"sum_exact": "sum", "dot_exact": "dot"}  # an exact op's anchors: the rounded op's


def table(rows):
    """Markdown lines of one family's table, and its (label, ours, best anchor name, ratio) list."""
    keys, by = [], {}
    for r in rows:
        key = (r["op"], r["dtype"], r["out_dtype"], r["n"], r["shape"], values_of(r), section_of(r))
        if key not in by:
            keys.append(key)
            by[key] = []
        by[key].append(r)
    for key in keys:  # anchors of the rounded op stand beside an exact op's row too
        if key[0] in EXACT_BASE:
            by[key] += [r for r in by.get((EXACT_BASE[key[0]],) + key[1:], []) if r["algorithm"] != "auto"]
    names = {anchor_class(r["algorithm"]) for r in rows if r["algorithm"] != "auto"}
    python = PYTHON_CLASS in names  # the package from Python: a column of ours, not an anchor
    classes = sorted(names - {PYTHON_CLASS},
                     key=lambda c: ("toolkit" not in c, "gpu_to_gpu" in c, c.startswith(("torch", "cupy")), c))
    head = ["call", "time", "GB/s", "% of read"] + (["Python"] if python else []) + classes + \
        (["vs best anchor"] if classes else []) + (["Python vs torch"] if python and "torch" in classes else [])
    out = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    kinds = len({r["shape"].partition(":")[0] for r in rows if r["shape"]}) > 1
    summary = []
    for key in keys:
        group = [r for r in by[key] if r["status"] in ("ok", "differs", "unchecked", "")]
        ours = [r for r in group if r["algorithm"] == "auto" and num(r["gbps"]) is not None]
        if not ours:
            continue
        ours_gbps = [num(r["gbps"]) for r in ours]
        ms = statistics.median(num(r["ms"]) for r in ours)
        pct = [num(r["pct_ceiling"]) for r in ours if num(r["pct_ceiling"]) is not None]
        cells = [label(ours[0], kinds), fmt_time(ms), fmt_gbps(ours_gbps),
                 f"{statistics.median(pct):.1f}" if pct else ""]

        def per_class(c):
            per_round = {}
            for r in group:
                if r["algorithm"] != "auto" and anchor_class(r["algorithm"]) == c and num(r["gbps"]) is not None:
                    per_round[r["round"]] = max(per_round.get(r["round"], 0.0), num(r["gbps"]))
            return list(per_round.values())

        if python:
            cells.append(fmt_gbps(per_class(PYTHON_CLASS)))
        # the deterministic rows race the deterministic anchor only; the others every anchor but it
        deterministic = key[-1] == "deterministic"
        best_name, best, torch_best = None, 0.0, 0.0
        for c in classes:
            vals = per_class(c)
            cells.append(fmt_gbps(vals))
            if c == "torch" and vals:
                torch_best = statistics.median(vals)
            if vals and statistics.median(vals) > best and ("gpu_to_gpu" in c) == deterministic:
                best_name, best = c, statistics.median(vals)
        ratio = statistics.median(ours_gbps) / best if best > 0 else None
        if classes:
            cells.append(f"{ratio:.2f}x {best_name}" if ratio else "")
        if python and "torch" in classes:
            py = per_class(PYTHON_CLASS)
            cells.append(f"{statistics.median(py) / torch_best:.2f}x" if py and torch_best else "")
        out.append("| " + " | ".join(cells) + " |")
        big = statistics.median(ours_gbps) * ms * 1e6 >= 1 << 26  # 64 MiB read or more: not a launch's cost
        summary.append((label(ours[0], kinds), statistics.median(ours_gbps), statistics.median(pct) if pct else None,
                        best_name, ratio, big))
    return out, summary


def python_table(path):
    rows = list(csv.DictReader(open(path, newline="")))
    out = ["| array | n | hipreduce.sum | sum(out=) | C call in a loop | overhead | overhead with out= | "
           "framework's sum |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['framework']} | {r['n']} | {r['hipreduce_us']} | {r['out_us']} | {r['c_loop_us']} | "
                   f"{r['overhead_us']} | {r['out_overhead_us']} | {r['framework_us']} |")
    return out


def mpi_table(path):
    out = ["| ranks | op | fields x n | fields call us | local sums + MPI_Allreduce us | ratio | separate calls us | "
           "speedup |", "|---:|---|---|---:|---:|---:|---:|---:|"]
    out += [f"| {r['ranks']} | {r['op']} | {r['fields']} x {pow2(int(r['n']))} | {r['fields_us']} | "
            f"{r['local_allreduce_us']} | {r['ratio']} | {r['separate_us']} | {r['speedup']}x |" for r in read_rows(path)]
    return out


def torch_ops_table(path):
    rows = read_rows(path)
    columns = list(dict.fromkeys(r["column"] for r in rows))
    cases = list(dict.fromkeys(r["case"] for r in rows))
    cell = {(r["case"], r["column"]): f"{float(r['us']):.1f} ({float(r['us_low']):.1f}-{float(r['us_high']):.1f})"
            for r in rows}
    out = ["| case | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    out += [f"| {c} | " + " | ".join(cell.get((c, k), "") for k in columns) + " |" for c in cases]
    return out


def tensor_table(path):
    """tensor.csv, stats.csv, by_key.csv: ours against torch's formulation (named in an anchor column where given)."""
    rows = list(csv.DictReader(open(path, newline="")))
    named = bool(rows) and "anchor" in rows[0]
    out = ["| case | hipreduce GB/s (low-high) | " + ("torch's call | " if named else "") +
           "torch GB/s | x torch | % of the read |", "|---|---:|" + ("---|" if named else "") + "---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['case']} | {r['hipreduce_GBs']} ({r['hipreduce_GBs_low']}-{r['hipreduce_GBs_high']}) | " +
                   (f"{r['anchor']} | " if named else "") +
                   f"{r['torch_GBs']} | {float(r['x_torch']):.2f} | {100 * float(r['frac_read']):.1f} |")
    return out


def read_rows(path):
    return list(csv.DictReader(open(path, newline="")))


def slow_rows(fam, summary):
    """The rows below 0.95x the best anchor, or (GPU, 64 MiB read or more) below 50% of the read."""
    return [(fam, name, gbps, pct, anchor, ratio) for name, gbps, pct, anchor, ratio, big in summary
            if (ratio is not None and ratio < 0.95) or (pct is not None and pct < 50 and fam != "cpu" and big)]


def gpu_heading(meta, folder):
    """A GPU section's heading and its line of facts (version, commit, date, versions, rounds)."""
    gpu = meta.get("gpu", os.path.basename(folder))
    lines = [f"### {gpu}", ""]
    facts = [f"libhipreduce {meta.get('version', '?')}"]
    if meta.get("commit"):
        facts[-1] += f" (`{meta['commit']}`)"
    for key, name in (("date", "measured"), ("driver", "driver"), ("cuda", "CUDA"), ("anchors", "anchors"),
                      ("rounds", "rounds"), ("ceiling", "read ceiling")):
        if meta.get(key):
            facts.append(f"{name} {meta[key]}")
    lines.append("; ".join(facts) + ".")
    if meta.get("note"):
        lines += ["", f"**{meta['note']}**"]
    return lines


def slow_table(title, slow):
    if not slow:
        return []
    lines = ["", f"#### {title}", "", "| family | call | GB/s | % of read | vs best anchor |", "|---|---|---:|---:|---:|"]
    for fam, name, gbps, pct, anchor, ratio in slow:
        lines.append(f"| {fam} | {name} | {gbps:.0f} | {'' if pct is None else f'{pct:.1f}'} | "
                     f"{'' if ratio is None else f'{ratio:.2f}x {anchor}'} |")
    return lines


def suites_summary(suites):
    """One line per suite: its rows, the median and the worst ratio to the best anchor, the rows below
    0.95x; the rows themselves are the suites file's."""
    lines = ["", "#### The anchors' own benchmark suites", "",
             "Each suite's shapes against its anchors, row by row: [SUITES.md](SUITES.md).", "",
             "| suite | rows | median vs best anchor | worst row | rows below 0.95x |", "|---|---:|---:|---|---:|"]
    for fam, _, summary in suites:
        ratios = [(ratio, name) for name, _, _, _, ratio, _ in summary if ratio is not None]
        if not ratios:
            continue
        worst = min(ratios)
        lines.append(f"| {fam.removeprefix('suite_')} | {len(summary)} | {statistics.median(r for r, _ in ratios):.2f}x | "
                     f"{worst[1]}: {worst[0]:.2f}x | {sum(r < 0.95 for r, _ in ratios)} |")
    return lines


def section(folder):
    """(the doc's lines for a data folder, the suites file's lines, its meta)."""
    meta = read_meta(folder)
    lines = gpu_heading(meta, folder)
    slow = []
    for fam, title, what in FAMILIES:
        path = os.path.join(folder, fam + ".csv")
        if not os.path.exists(path):
            continue
        lines += ["", f"#### {title}", "", what + (f". Source: {meta['source.' + fam]}" if meta.get("source." + fam)
                                                   else "") + ".", ""]
        if fam == "python":
            lines += python_table(path)
            continue
        if fam == "torch_ops":
            lines += torch_ops_table(path)
            continue
        if fam == "mpi":
            lines += mpi_table(path)
            continue
        if fam in ("tensor", "stats", "by_key"):
            lines += tensor_table(path)
            continue
        body, summary = table(read_rows(path))
        lines += body
        slow += slow_rows(fam, summary)
    lines += slow_table("Below 0.95x the best anchor or 50% of the read", slow)
    suites = report_suites.sections(folder, lambda path: table(read_rows(path)))
    suite_lines, suite_slow = [], []
    if suites:
        lines += suites_summary(suites)
        suite_lines = gpu_heading(meta, folder)
        for fam, head, summary in suites:
            suite_lines += head
            suite_slow += slow_rows(fam, summary)
        suite_lines += slow_table("Below 0.95x the best anchor or 50% of the read", suite_slow)
    return lines, suite_lines, meta


def headline(folders):
    cols, cells = [], {}
    for folder in folders:
        meta = read_meta(folder)
        name = meta.get("gpu", os.path.basename(folder))
        when = f", {meta['date']}" if meta.get("date") else ""
        cols.append(f"{name.replace('NVIDIA ', '')} ({meta.get('version', '?')}{when})")
        for fam, op, dt, out, key, text in HEADLINES:
            path = os.path.join(folder, fam + ".csv")
            if not os.path.exists(path):
                continue
            rows = [r for r in read_rows(path) if r["op"] == op and r["dtype"] == dt and r["out_dtype"] == out and
                    (r["n"] == key or (r["shape"] and r["shape"].startswith(key)))]
            _, summary = table(rows) if rows else (None, [])
            if summary:
                _, gbps, pct, anchor, ratio, _ = summary[0]
                cell = f"{gbps:.0f} GB/s" + (f", {pct:.0f}%" if pct else "")
                if ratio:
                    cell += f", {ratio:.2f}x {anchor}"
                cells[(text, len(cols) - 1)] = cell
    lines = ["| call | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for *_, text in HEADLINES:
        if any((text, i) in cells for i in range(len(cols))):
            lines.append(f"| {text} | " + " | ".join(cells.get((text, i), "") for i in range(len(cols))) + " |")
    return lines


def newest_folders(root):
    """The newest version's folder of each GPU under docs/data/<version>/<gpu>/."""
    best = {}
    for version in os.listdir(root) if os.path.isdir(root) else []:
        if not re.fullmatch(r"\d+\.\d+\.\d+([-.]\w+)?", version) or not os.path.isdir(os.path.join(root, version)):
            continue
        vkey = tuple(int(p) if p.isdigit() else 0 for p in re.split(r"[.-]", version))
        for gpu in os.listdir(os.path.join(root, version)):
            folder = os.path.join(root, version, gpu)
            if os.path.isdir(folder) and (gpu not in best or vkey > best[gpu][0]):
                best[gpu] = (vkey, folder)
    return [best[g][1] for g in sorted(best, reverse=True)]


def replace_between(path, markers, lines):
    text = open(path).read()
    begin, end = markers
    if begin not in text or end not in text:
        sys.exit(f"report_tables.py: {path} lacks the markers {begin} ... {end}")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    open(path, "w").write(head + begin + "\n" + "\n".join(lines) + "\n" + end + tail)


def write(doc, suites, readme, folders):
    if not folders:
        sys.exit("report_tables.py: no data folders")
    lines, suite_lines = [], []
    for folder in folders:
        body, suite_body, _ = section(folder)
        lines += ([""] if lines else []) + body
        suite_lines += ([""] if suite_lines and suite_body else []) + suite_body
    replace_between(doc, DOC_MARKERS, lines)
    replace_between(suites, SUITES_MARKERS, suite_lines)
    if readme:
        replace_between(readme, README_MARKERS, headline(folders))
    print(f"report_tables.py: {doc}, {suites}{' and ' + readme if readme else ''} from {', '.join(folders)}")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("append")
    a.add_argument("out")
    a.add_argument("round")
    a.add_argument("case")
    a.add_argument("input")
    a.add_argument("--vendor")
    w = sub.add_parser("write")
    w.add_argument("--doc", default=os.path.join(root, "docs", "PERFORMANCE.md"))
    w.add_argument("--suites", default=os.path.join(root, "docs", "SUITES.md"))
    w.add_argument("--readme", default=os.path.join(root, "README.md"))
    w.add_argument("--with", dest="extra", help="a run's folder, in place of the newest of its GPU")
    w.add_argument("folders", nargs="*")
    args = ap.parse_args()
    if args.cmd == "append":
        append(args.out, args.round, args.case, args.input, args.vendor)
    else:
        folders = args.folders or newest_folders(os.path.join(root, "docs", "data"))
        if args.extra:
            extra = os.path.abspath(args.extra)
            folders = [f for f in folders if os.path.basename(f) != os.path.basename(extra) and
                       os.path.abspath(f) != extra] + [extra]
        write(args.doc, args.suites, args.readme, folders)


if __name__ == "__main__":
    main()
