#!/usr/bin/env python3
"""Summary of bench/exact_ab.sh: each variant's exact suite on GPU 0, then per case and row (a case's
k-th row: its k-th input allocation, or its k-th shape), each variant's % of the same-size read and
time over the rounds (min-max), and its time over the first variant's (min-max over the rounds,
each round's pair from the same turn).
    bench/exact_ab_summary.py OUT_DIR LABEL [LABEL ...]"""
import csv
import os
import sys
from collections import defaultdict

from issue_summary import span


def rows(path):
    """(case, k, dtype, n, shape) -> (ms, pct) of one file, k counting a case's rows from 1."""
    seen = defaultdict(int)
    got = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if not r.get("ms"):
                continue
            seen[r["case"]] += 1
            key = (r["case"], seen[r["case"]], r["dtype"], r["n"], r["shape"])
            got[key] = (float(r["ms"]), float(r["pct_ceiling"]))
    return got


def main(out, labels):
    rounds = 1
    while os.path.exists(os.path.join(out, "%s.r%d.csv" % (labels[0], rounds + 1))):
        rounds += 1
    data = {(label, rnd): rows(os.path.join(out, "%s.r%d.csv" % (label, rnd)))
            for label in labels for rnd in range(1, rounds + 1)
            if os.path.exists(os.path.join(out, "%s.r%d.csv" % (label, rnd)))}
    for label in labels:
        verdict = os.path.join(out, label + ".test")
        print("exact suite, %s: %s" % (label, open(verdict).read().strip() if os.path.exists(verdict) else "not run"))
    keys = []
    for got in data.values():
        keys += [k for k in got if k not in keys]
    print("%-9s %2s %-5s %-28s %-22s %11s %15s %13s" % ("case", "k", "dtype", "n / shape", "variant", "% of read", "ms", "time / base"))
    for key in keys:
        case, k, dtype, n, shape = key
        for label in labels:
            pct = [data[(label, r)][key][1] for r in range(1, rounds + 1) if key in data.get((label, r), {})]
            ms = [data[(label, r)][key][0] for r in range(1, rounds + 1) if key in data.get((label, r), {})]
            ratio = [data[(label, r)][key][0] / data[(labels[0], r)][key][0] for r in range(1, rounds + 1)
                     if key in data.get((label, r), {}) and key in data.get((labels[0], r), {})]
            print("%-9s %2d %-5s %-28s %-22s %11s %15s %13s" % (case, k, dtype, shape or n, label, span(pct, "{:.1f}"),
                                                                span(ms, "{:.4f}"), span(ratio, "{:.3f}")))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
