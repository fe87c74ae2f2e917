#!/usr/bin/env python3
"""The summary table of a typed sweep (bench/typed_sweep.sh), from hipreduce-bench and
bench/torch_anchors.py CSVs:

  python3 bench/typed_summary.py OUT/*.csv [--plot-dir DIR]

One line per (op, input dtype, result dtype, n): the default algorithm's (auto's) GB/s and % of
the read ceiling; each anchor's GB/s: the vendor (CUB of the toolkit, from auto's vendor_ms), every
other in-process anchor row (cub-3.5.0), and torch's fastest formulation; the best anchor; "x best"
= the best anchor's time / ours (1.00 or more: ours is at least as fast); and issue 10's verdict:
  at 2^28 elements (dot: 2^27 per input): PASS when >= 97% of the ceiling and x best >= 1.00;
  at 2^20 (dot: 2^19 or 2^20 per input): PASS when x best >= 1.00; other sizes: no verdict.
An anchor whose result differed from the reference is shown with '!' and never counts as best;
an error row of ours (the library refused the call) shows its status instead of figures.
Uses only the standard library; --plot-dir also draws, with matplotlib, typed_large.png (2^28, dot
2^27) and typed_small.png (2^20, dot 2^19): GB/s of ours and of each anchor per case, the ceiling
as a dotted line.
"""
import collections
import sys

from bench_csv import header_ceiling, header_vendor, read_csv


def read(path):
    header, rows = read_csv(path)
    return header_vendor(header), header_ceiling(header) or 0.0, rows


def num(text):
    return float(text) if text not in (None, "", "-") else 0.0


ELEMENT_BYTES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "f16": 2, "bf16": 2,
                 "f32": 4, "f64": 8}


def bytes_read(key):
    """What one call reads, as hipreduce-bench counts it: n input elements, dot both inputs."""
    op, din, _, n = key
    return n * ELEMENT_BYTES[din] * (2 if op == "dot" else 1)


def is_anchor(algorithm):
    return algorithm.startswith("cub-") or algorithm.startswith("torch")


def verdict(op, n, pct, speed):
    large = n == 2**27 if op == "dot" else n == 2**28
    small = n in (2**19, 2**20) if op == "dot" else n == 2**20
    if large:
        return "PASS" if pct >= 97.0 and speed >= 1.0 else "MISS"
    if small:
        return "PASS" if speed >= 1.0 else "MISS"
    return "-"


def tier(op, n):
    """'large' (issue 10's 2^28 targets), 'small' (2^20, same bytes for dot), or None."""
    if n == (2**27 if op == "dot" else 2**28):
        return "large"
    if n == (2**19 if op == "dot" else 2**20):
        return "small"
    return None


def draw(groups, families, ceiling, out_dir):
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(out_dir, exist_ok=True)
    for name in ("large", "small"):
        cases = [(k, g) for k, g in groups.items() if tier(k[0], k[3]) == name]
        if not cases:
            continue
        series = ["ours (auto)"] + families
        fig, ax = plt.subplots(figsize=(9, 0.25 * len(cases) * (len(series) + 1) + 1.5))
        height = 0.8 / len(series)
        for s_i, label in enumerate(series):
            values = []
            for _, g in cases:
                if s_i == 0:
                    ours = g["ours"]
                    values.append(num(ours["gbps"]) if ours and (ours.get("status") or "ok") == "ok" else 0.0)
                else:
                    a = g["anchors"].get(label)
                    values.append(a[0] if a and a[2] == "ok" else 0.0)
            ax.barh([i + s_i * height for i in range(len(cases))], values, height=height, label=label)
        ax.set_yticks([i + 0.4 - height / 2 for i in range(len(cases))])
        ax.set_yticklabels([f"{k[0]} {k[1]}->{k[2]} n=2^{k[3].bit_length() - 1}" for k, _ in cases], fontsize=8)
        if ceiling:
            ax.axvline(ceiling, color="grey", linestyle=":", label="read ceiling")
        ax.invert_yaxis()
        ax.set_xlabel("GB/s of input read")
        ax.legend(fontsize=7, loc="lower left")
        fig.tight_layout()
        path = os.path.join(out_dir, f"typed_{name}.png")
        fig.savefig(path, dpi=80)
        plt.close(fig)
        print(path)


def main():
    args = sys.argv[1:]
    plot_dir = None
    if "--plot-dir" in args:
        at = args.index("--plot-dir")
        plot_dir = args[at + 1] if at + 1 < len(args) else sys.exit("--plot-dir needs a folder")
        del args[at:at + 2]
    if not args:
        sys.exit(__doc__)
    groups = collections.OrderedDict()  # key -> {"ours": row, "anchors": {family: (gbps, ms, status, label)}}
    families = []
    ceiling_of_run = 0.0
    for path in args:
        vendor, ceiling, rows = read(path)
        ceiling_of_run = ceiling_of_run or ceiling
        for r in rows:
            key = (r["op"], r["dtype"], r.get("out_dtype") or r["dtype"], int(r["n"]))
            g = groups.setdefault(key, {"ours": None, "anchors": {}})
            status = r.get("status") or "ok"
            if r["algorithm"] == "auto":
                g["ours"] = r
                if vendor and num(r["vendor_ms"]) > 0:
                    ms = num(r["vendor_ms"])
                    g["anchors"]["vendor"] = (bytes_read(key) / ms / 1e6, ms, "ok", vendor)
                    if "vendor" not in families:
                        families.append("vendor")
            elif is_anchor(r["algorithm"]):
                family = "torch" if r["algorithm"].startswith("torch") else r["algorithm"]
                if family not in families:
                    families.append(family)
                entry = (num(r["gbps"]), num(r["ms"]), status, r["algorithm"])
                old = g["anchors"].get(family)
                # torch: the fastest formulation that gave the right result
                if old is None or (status == "ok" and (old[2] != "ok" or entry[1] < old[1])):
                    g["anchors"][family] = entry

    head = ["op", "in->out", "n", "ours GB/s", "%ceil"] + [f"{f} GB/s" for f in families] + \
        ["best anchor", "x best", "verdict"]
    lines = []
    for (op, din, dout, n), g in groups.items():
        ours = g["ours"]
        valid = {f: a for f, a in g["anchors"].items() if a[2] == "ok" and a[1] > 0}
        best = min(valid.items(), key=lambda fa: fa[1][1]) if valid else None
        cells = [op, f"{din}->{dout}", f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)]
        error = ours is not None and (ours.get("status") or "ok") not in ("ok", "differs")
        if ours is None:
            cells += ["(not run)", "-"]
        elif error:
            cells += ["error", "-"]
        else:
            flag = "!" if ours.get("status") == "differs" else ""
            ceiling = num(ours["ceiling_gbps"]) or ceiling_of_run
            pct = 100 * num(ours["gbps"]) / ceiling if ceiling else 0.0
            cells += [f"{num(ours['gbps']):.0f}{flag}", f"{pct:.1f}"]
        for f in families:
            a = g["anchors"].get(f)
            cells.append("-" if a is None else f"{a[0]:.0f}{'' if a[2] == 'ok' else '!'}")
        if best:
            label = best[1][3] if best[0] == "torch" else best[0]
            cells.append(label)
        else:
            cells.append("-")
        if ours is not None and not error and best and num(ours["ms"]) > 0:
            speed = best[1][1] / num(ours["ms"])
            cells += [f"{speed:.3f}", verdict(op, n, pct, speed) + ("!" if ours.get("status") == "differs" else "")]
        elif error:
            cells += ["-", f"error: {ours['status']}"]
        else:
            cells += ["-", "no anchor" if ours is not None else "-"]
        lines.append(cells)
    widths = [max(len(str(c)) for c in col) for col in zip(head, *lines)]
    for row in [head] + lines:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    print(f"\nvendor: {', '.join(sorted({a[3] for g in groups.values() for f, a in g['anchors'].items() if f == 'vendor'}))}"
          f"; ceiling: {ceiling_of_run:.1f} GB/s; x best = best anchor time / ours (>= 1.00: ours at least as fast);"
          " '!': result differed (see the run's stderr)")
    if plot_dir:
        draw(groups, families, ceiling_of_run, plot_dir)


if __name__ == "__main__":
    main()
