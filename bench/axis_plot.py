#!/usr/bin/env python3
"""GB/s against row length for the axis and segment reductions (bench/axis_sweep.sh's sweep):

  python3 bench/axis_plot.py OUT/*.csv --out OUT/plots/axis_sweep.png

Reads the CSVs whose name holds "sweep" (hipreduce-bench --shape and bench/torch_axis_anchors.py),
f32 sum: x = the reduced length L on a log2 axis (rows: the row length; cols: the column length;
ragged: the mean segment length, lengths uniform in 0..2L), y = GB/s of the input bytes. One colour
per shape (rows, cols, ragged); ours solid with dots, CUB 3.5 dashed, CUB of the toolkit dash-dot,
torch dotted; the read ceiling as a grey line. Rows whose result differed from ours are drawn
hollow; error rows of ours (refused calls) leave gaps. The CSVs whose name holds "lengths" (the
lengths part) make a second plot beside --out, ragged_lengths.png: GB/s against the mean segment
length n / S, one colour per length distribution (uniform, power-law, giants).
"""
import argparse
import collections
import os

from axis_summary import collect, length_kind, num, row_length

COLOURS = {"rows": "tab:blue", "cols": "tab:orange", "ragged": "tab:green"}
STYLES = {"ours": ("-", "o"), "cub35": ("--", "s"), "cub_toolkit": ("-.", "^"), "torch": (":", "x")}
LABELS = {"ours": "hipreduce", "cub35": "CUB 3.5", "cub_toolkit": "CUB toolkit", "torch": "torch"}


KIND_COLOURS = {"uniform": "tab:green", "powerlaw": "tab:purple", "giants": "tab:red"}


def draw(ax, curves, colours, ceiling):
    """One line per (kind, family): ours solid and thick, the anchors thinner; hollow red marks
    where a result differed; the read ceiling as a grey line."""
    for (kind, fam), points in sorted(curves.items(), key=lambda kv: (kv[0][1] != "ours", kv[0])):
        points.sort()
        xs, ys = [q[0] for q in points], [q[1] for q in points]
        line, marker = STYLES[fam]
        ax.plot(xs, ys, linestyle=line, marker=marker, color=colours.get(kind, "black"), markersize=4,
                linewidth=2.2 if fam == "ours" else 1.2, label=f"{kind}: {LABELS[fam]}")
        bad = [q for q in points if q[2]]
        if bad:
            ax.scatter([q[0] for q in bad], [q[1] for q in bad], facecolors="white", edgecolors="red", zorder=5)
    if ceiling:
        ax.axhline(ceiling, color="grey", linewidth=1, linestyle=(0, (1, 3)))
        ax.annotate(f"read ceiling {ceiling:.0f} GB/s", (1, ceiling), textcoords="offset points", xytext=(4, 4),
                    color="grey", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_ylabel("GB/s (input bytes)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12))


def save(fig, path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    print(path)


def lengths_plot(plt, paths, out):
    """ragged_lengths.png beside out: GB/s against the mean segment length, per distribution."""
    device, ceiling, cases = collect(paths)
    curves = collections.defaultdict(list)
    for (group, shape, op, dtype, _), slot in cases.items():
        kind, segments = length_kind(shape)
        if group != "lengths" or op != "sum" or dtype != "f32" or not kind:
            continue
        for fam, r in slot.items():
            if num(r["ms"]) > 0:
                curves[(kind, fam)].append((num(r["n"]) / segments, num(r["gbps"]), r["status"] == "differs"))
    if not curves:
        return
    fig, ax = plt.subplots(figsize=(11, 6.5))
    draw(ax, curves, KIND_COLOURS, ceiling)
    ax.set_xlabel("mean segment length n / S (uniform: 0..2L; power-law: tail 1.2, scale K, cap 2^22; "
                  "giants: 8 of M among 2^20 of 0..7)")
    ax.set_title(f"f32 ragged segment sums by length distribution{(' - ' + device) if device else ''}")
    save(fig, os.path.join(os.path.dirname(os.path.abspath(out)), "ragged_lengths.png"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+")
    p.add_argument("--out", default="axis_sweep.png", help="the PNG to write")
    a = p.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lengths_plot(plt, [c for c in a.csv if "lengths" in os.path.basename(c)], a.out)
    sweeps = [c for c in a.csv if "sweep" in os.path.basename(c)]
    if not sweeps:
        return
    device, ceiling, cases = collect(sweeps)
    curves = collections.defaultdict(list)  # (kind, family) -> [(L, GB/s, differs)]
    for (group, shape, op, dtype, out), slot in cases.items():
        if group != "sweep" or op != "sum" or dtype != "f32" or row_length(shape) is None:
            continue
        for fam, r in slot.items():
            if num(r["ms"]) > 0:
                curves[(shape.split(":")[0], fam)].append((row_length(shape), num(r["gbps"]), r["status"] == "differs"))
    if not curves:
        raise SystemExit("axis_plot.py: no sweep rows with figures")
    fig, ax = plt.subplots(figsize=(11, 6.5))
    draw(ax, curves, COLOURS, ceiling)
    ax.set_xlabel("reduced length L (rows: row length; cols: column length; ragged: mean, lengths 0..2L)")
    ax.set_title(f"f32 sum along one axis, 256 MiB input{(' - ' + device) if device else ''}")
    save(fig, a.out)


if __name__ == "__main__":
    main()
