#!/usr/bin/env python3
"""Turns hipreduce-bench CSV into PNG plots.

  plot.py bench.csv --out-dir docs/plots [--ladder-n 67108864]

Writes, for every (op, dtype) in the CSV:
  bandwidth_<op>_<dtype>.png  GB/s against n, one line per algorithm and one for the
                              vendor comparator (CUB or rocPRIM), read ceiling dashed;
  ladder_<op>_<dtype>_<n>.png the algorithms at one n as bars, in the CSV's order.
Needs matplotlib (pip install matplotlib).
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    meta, lines = "", []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                meta = line[1:].strip()
            elif line.strip():
                lines.append(line)
    rows = list(csv.DictReader(lines))
    for r in rows:
        r["n"] = int(r["n"])
        for k in ("ms", "gbps", "pct_ceiling", "vendor_ms"):
            r[k] = float(r[k])
    return meta, rows


def ceiling_of(meta):
    for part in meta.split(";"):
        if "read ceiling" in part:
            return float(part.split()[-2])
    return None


def bandwidth_plot(rows, meta, op, dtype, out_dir):
    sel = [r for r in rows if r["op"] == op and r["dtype"] == dtype]
    algorithms = list(dict.fromkeys(r["algorithm"] for r in sel))
    fig, ax = plt.subplots(figsize=(8, 5))
    for alg in algorithms:
        pts = sorted((r["n"], r["gbps"]) for r in sel if r["algorithm"] == alg)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=alg)
    vendor = sorted({(r["n"], r["gbps"] * r["ms"] / r["vendor_ms"]) for r in sel if r["vendor_ms"] > 0})
    if vendor:
        ax.plot([p[0] for p in vendor], [p[1] for p in vendor], "k--", marker="x", label="vendor (CUB/rocPRIM)")
    ceiling = ceiling_of(meta)
    if ceiling:
        ax.axhline(ceiling, color="grey", linestyle=":", label="read ceiling")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("GB/s")
    ax.set_title(f"{op} {dtype} — {meta.split(';')[0]}", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, alpha=0.3)
    path = os.path.join(out_dir, f"bandwidth_{op}_{dtype}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


def ladder_plot(rows, meta, op, dtype, n, out_dir):
    sel = [r for r in rows if r["op"] == op and r["dtype"] == dtype and r["n"] == n]
    if len(sel) < 2:  # a ladder needs several algorithms
        return None
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(sel) + 1.5))
    names = [r["algorithm"] for r in sel]
    ax.barh(names, [r["gbps"] for r in sel])
    if sel[0]["vendor_ms"] > 0:
        ax.axvline(sel[0]["gbps"] * sel[0]["ms"] / sel[0]["vendor_ms"], color="k", linestyle="--", label="vendor")
        ax.legend(fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("GB/s")
    ax.set_title(f"{op} {dtype} n={n} — {meta.split(';')[0]}", fontsize=9)
    path = os.path.join(out_dir, f"ladder_{op}_{dtype}_{n}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv")
    p.add_argument("--out-dir", default=".")
    p.add_argument("--ladder-n", type=int, action="append", default=[])
    a = p.parse_args()
    meta, rows = read(a.csv)
    os.makedirs(a.out_dir, exist_ok=True)
    for op, dtype in dict.fromkeys((r["op"], r["dtype"]) for r in rows):
        print(bandwidth_plot(rows, meta, op, dtype, a.out_dir))
        for n in a.ladder_n or [1 << 26]:
            path = ladder_plot(rows, meta, op, dtype, n, a.out_dir)
            if path:
                print(path)


if __name__ == "__main__":
    main()
