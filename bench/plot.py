#!/usr/bin/env python3
"""Turns hipreduce-bench CSV files into PNG plots.

  python3 bench/plot.py docs/data/*.csv --out-dir docs/plots

For every (op, dtype) of every CSV it writes (with a result dtype other than the input's, as
hipreduce-bench's out_dtype column says: <op>_<dtype>_<out>, sum_f16_f32)
  bandwidth_<op>_<dtype>.png   when the CSV has 3 or more sizes of it: GB/s against n, both axes
                               logarithmic, one line per algorithm, the vendor library (CUB or
                               rocPRIM) dashed, the read ceiling dotted; powers of two joined by
                               lines, other sizes as lone markers. Below, when the CSV has vendor
                               times: each algorithm's time / the vendor's time (below 1 is faster).
  ladder_<op>_<dtype>_<n>.png  for every n with 2 or more algorithms: their GB/s as bars, in the
                               CSV's order, the vendor and the ceiling as lines.
Every plot name is checked before anything is written: two plots with one name (the same
(op, dtype) swept in two CSVs) stop the script, so no plot silently replaces another. With
--merge the CSVs are read as one (hipreduce-bench's rows and bench/torch_anchors.py's of the same
run side by side; the first file's header line names the device, ceiling and vendor). Error rows
(a call the library refused: no figures) are left out.
Needs matplotlib (pip install matplotlib).
"""
import argparse
import collections
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from bench_csv import header_ceiling, header_vendor, read_csv  # noqa: E402


def number(text):
    """A CSV number; an empty field (no vendor time) is 0."""
    return float(text) if text not in ("", "-") else 0.0


def read(path):
    """The '#' metadata line as a dict, and the rows."""
    header, rows = read_csv(path)
    meta = {"device": header.split(";")[0].replace("device:", "").strip(), "ceiling": header_ceiling(header),
            "vendor": header_vendor(header)}
    rows = [r for r in rows if (r.get("status") or "ok") in ("ok", "differs")]
    for r in rows:
        r["case"] = r["dtype"] if (r.get("out_dtype") or r["dtype"]) == r["dtype"] else f"{r['dtype']}_{r['out_dtype']}"
        r["n"] = int(r["n"])
        for k in ("ms", "gbps", "pct_ceiling", "vendor_ms", "ceiling_gbps"):
            r[k] = number(r.get(k) or "")
    return meta, rows


def is_power_of_two(n):
    return n > 0 and n & (n - 1) == 0


def log2_axis(ax):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2, numticks=40))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"$2^{{{round(math.log2(v))}}}$" if v > 0 else ""))
    ax.xaxis.set_minor_locator(LogLocator(base=2, subs=(), numticks=40))


def series(ax, pts, style, **kw):
    """Powers of two as one line, other sizes as unjoined markers of the same colour."""
    line = [p for p in pts if is_power_of_two(p[0])]
    odd = [p for p in pts if not is_power_of_two(p[0])]
    drawn = ax.plot([p[0] for p in line], [p[1] for p in line], style, **kw)
    if odd:
        rest = {k: v for k, v in kw.items() if k not in ("label", "marker", "color")}
        ax.plot([p[0] for p in odd], [p[1] for p in odd], linestyle="none", marker="D", markersize=4,
                color=drawn[0].get_color(), **rest)


def bandwidth_plot(rows, meta, path):
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    with_vendor = any(r["vendor_ms"] > 0 for r in rows)
    vendor = meta["vendor"] or "vendor"
    if with_vendor:
        fig, (ax, rx) = plt.subplots(2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    else:
        fig, ax = plt.subplots(figsize=(8, 5))
        rx = None
    for alg in algorithms:
        series(ax, sorted((r["n"], r["gbps"]) for r in rows if r["algorithm"] == alg), "-", marker=".", label=alg)
    if with_vendor:
        pts = sorted({(r["n"], r["gbps"] * r["ms"] / r["vendor_ms"]) for r in rows if r["vendor_ms"] > 0})
        series(ax, pts, "k--", marker="x", label=vendor)
    if meta["ceiling"]:
        ax.axhline(meta["ceiling"], color="grey", linestyle=":", label="read ceiling")
    elif any(r["ceiling_gbps"] > 0 for r in rows):
        pts = sorted({(r["n"], r["ceiling_gbps"]) for r in rows if r["ceiling_gbps"] > 0})
        series(ax, pts, ":", color="grey", label="read ceiling (per size)")
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylabel("GB/s (log)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    ax.set_title(f"{rows[0]['op']} {rows[0]['case']}: {meta['device']}"
                 " (diamonds: sizes that are not powers of two)", fontsize=9)
    bottom = ax
    if rx is not None:
        for alg in algorithms:
            series(rx, sorted((r["n"], r["ms"] / r["vendor_ms"]) for r in rows
                              if r["algorithm"] == alg and r["vendor_ms"] > 0), "-", marker=".", label=alg)
        rx.axhline(1.0, color="k", linestyle="--", linewidth=1)
        rx.set_ylabel(f"time / {vendor} time\n(below 1: faster)", fontsize=8)
        rx.grid(True, which="both", alpha=0.3)
        bottom = rx
    log2_axis(bottom)
    bottom.set_xlabel("n (elements, log)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def ladder_plot(rows, meta, path):
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(rows) + 1.5))
    ax.barh([r["algorithm"] for r in rows], [r["gbps"] for r in rows])
    if rows[0]["vendor_ms"] > 0:
        ax.axvline(rows[0]["gbps"] * rows[0]["ms"] / rows[0]["vendor_ms"], color="k", linestyle="--",
                   label=meta["vendor"] or "vendor")
    ceiling = meta["ceiling"] or rows[0]["ceiling_gbps"]
    if ceiling:
        ax.axvline(ceiling, color="grey", linestyle=":", label="read ceiling")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="lower right")
    ax.invert_yaxis()
    ax.set_xlabel("GB/s")
    ax.set_title(f"{rows[0]['op']} {rows[0]['case']} n={rows[0]['n']}: {meta['device']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def plan(meta, rows):
    """(file name, drawing function, rows, meta) for every plot of one CSV's rows."""
    out = []
    for op, dtype in dict.fromkeys((r["op"], r["case"]) for r in rows):
        sel = [r for r in rows if r["op"] == op and r["case"] == dtype]
        if len({r["n"] for r in sel}) >= 3:
            out.append((f"bandwidth_{op}_{dtype}.png", bandwidth_plot, sel, meta))
        for n in dict.fromkeys(r["n"] for r in sel):
            at_n = [r for r in sel if r["n"] == n]
            if len(at_n) >= 2:
                out.append((f"ladder_{op}_{dtype}_{n}.png", ladder_plot, at_n, meta))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+", help="hipreduce-bench --format=csv output")
    p.add_argument("--out-dir", default=".")
    p.add_argument("--merge", action="store_true", help="read the CSVs as one run")
    a = p.parse_args()
    plots, sources = [], collections.defaultdict(list)
    inputs = [(path, *read(path)) for path in a.csv]
    if a.merge:
        inputs = [(" + ".join(a.csv), inputs[0][1], [r for _, _, rows in inputs for r in rows])]
    for path, meta, rows in inputs:
        for item in plan(meta, rows):
            plots.append(item)
            sources[item[0]].append(path)
    clashes = {name: paths for name, paths in sources.items() if len(paths) > 1}
    if clashes:
        for name, paths in sorted(clashes.items()):
            print(f"plot.py: {name} would be drawn from {', '.join(paths)}", file=sys.stderr)
        sys.exit("plot.py: two plots share a file name; nothing written")
    os.makedirs(a.out_dir, exist_ok=True)
    for name, draw, rows, meta in plots:
        path = os.path.join(a.out_dir, name)
        draw(rows, meta, path)
        print(path)


if __name__ == "__main__":
    main()
