#!/usr/bin/env python3
"""Summary of bench/issue_tables.sh: per case and row, our GB/s and % of the read ceiling over the rounds
(min-max), CUB 3.5's GB/s in the same processes (its default; gpu_to_gpu beside the exact f32 rows), and
our time over CUB 3.5's.
    bench/issue_summary.py OUT_DIR"""
import csv
import glob
import os
import re
import sys
from collections import defaultdict


def span(values, fmt):
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else fmt.format(lo) + "-" + fmt.format(hi)


def main(out):
    ours = defaultdict(lambda: defaultdict(list))  # (case, op, in, out, n, shape) -> field -> values
    anchor = defaultdict(lambda: defaultdict(list))
    order = []
    for path in sorted(glob.glob(os.path.join(out, "r*.csv"))):
        with open(path) as f:
            for r in csv.DictReader(f):
                if not r.get("ms"):
                    continue
                key = (r["case"], r["op"], r["dtype"], r["out_dtype"], r["n"], r["shape"])
                if r["algorithm"] == "auto":
                    if key not in order:
                        order.append(key)
                    ours[key]["gbps"].append(float(r["gbps"]))
                    ours[key]["pct"].append(float(r["pct_ceiling"]))
                    ours[key]["ms"].append(float(r["ms"]))
                elif re.match(r"cub-3\.[5-9]", r["algorithm"]) and not r["algorithm"].endswith("toolkit"):
                    kind = "g2g" if r["algorithm"].endswith("gpu_to_gpu") else "cub"
                    anchor[key][kind + "_gbps"].append(float(r["gbps"]))
                    anchor[key][kind + "_ms"].append(float(r["ms"]))
    print(f"{'case':24} {'op':10} {'in':5} {'out':5} {'n / shape':>24} {'ours GB/s':>11} {'%ceil':>11} "
          f"{'CUB3.5 GB/s':>11} {'ours/CUB t':>11} {'g2g GB/s':>11}")
    for key in order:
        case, op, din, dout, n, shape = key
        o, a = ours[key], anchor[key]
        ratios = [m / c for m, c in zip(o["ms"], a["cub_ms"])] if a["cub_ms"] else []
        print(f"{case:24} {op:10} {din:5} {dout:5} {shape or n:>24} {span(o['gbps'], '{:.0f}'):>11} "
              f"{span(o['pct'], '{:.1f}'):>11} {span(a['cub_gbps'], '{:.0f}'):>11} {span(ratios, '{:.2f}'):>11} "
              f"{span(a['g2g_gbps'], '{:.0f}'):>11}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
