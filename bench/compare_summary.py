#!/usr/bin/env python3
"""Summary of bench/compare_builds.sh: per case and size, each build's median time over its rounds, the
spread between its rounds ((max - min) / min, the run-to-run noise), each build's time over CUB 3.5's (the
anchor row named cub-3.*, not -toolkit) measured in the same process, and the ratio of the builds (the last
label over the first) as the median of the per-round ratios: the builds take turns round by round, so a
drift of the machine between rounds cancels in each round's ratio.
    bench/compare_summary.py OUT_DIR"""
import csv
import glob
import os
import re
import statistics
import sys
from collections import defaultdict


def rows(path):
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(lines):
        if row.get("algorithm") != "algorithm":  # the header of a later run, concatenated
            yield row


def main(out):
    ours = defaultdict(lambda: defaultdict(list))   # case -> label -> [ms per round]
    cub = defaultdict(lambda: defaultdict(list))    # case -> label -> [CUB 3.5 ms per round]
    labels = []
    for path in sorted(glob.glob(os.path.join(out, "*.r*.csv"))):
        label = re.sub(r"\.r\d+\.csv$", "", os.path.basename(path))
        if label not in labels:
            labels.append(label)
        for r in rows(path):
            if not r.get("ms"):
                continue
            case = (r["op"], r["dtype"], r["out_dtype"], int(r["n"]))
            if r["algorithm"] == "auto":
                ours[case][label].append(float(r["ms"]))
            elif re.match(r"cub-3\.[5-9]", r["algorithm"]) and not r["algorithm"].endswith("toolkit"):
                cub[case][label].append(float(r["ms"]))
    head = f"{'op':8} {'in':5} {'out':5} {'n':>10}"
    for label in labels:
        head += f" {label + ' us':>12} {'spread':>7} {'/cub3.5':>8}"
    if len(labels) > 1:
        head += f" {labels[-1] + '/' + labels[0]:>14}"
    print(head)
    for case in sorted(ours, key=lambda c: (c[0], c[1], c[2], c[3])):
        line = f"{case[0]:8} {case[1]:5} {case[2]:5} {case[3]:>10}"
        med = {}
        for label in labels:
            t = ours[case].get(label, [])
            if not t:
                line += f" {'-':>12} {'-':>7} {'-':>8}"
                continue
            med[label] = statistics.median(t)
            spread = (max(t) - min(t)) / min(t) * 100
            c = cub[case].get(label, [])
            ratio = f"{med[label] / statistics.median(c):.3f}" if c else "-"
            line += f" {med[label] * 1000:12.2f} {spread:6.1f}% {ratio:>8}"
        first, last = ours[case].get(labels[0], []), ours[case].get(labels[-1], [])
        if len(labels) > 1 and first and last:
            line += f" {statistics.median(b / a for a, b in zip(first, last)):14.3f}"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
