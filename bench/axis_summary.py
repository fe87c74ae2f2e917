#!/usr/bin/env python3
"""The tables of an axis sweep (bench/axis_sweep.sh) in markdown, for docs/BENCHMARKS.md, from
hipreduce-bench --shape and bench/torch_axis_anchors.py CSVs:

  python3 bench/axis_summary.py OUT/*.csv

First the issue's table (one line per f32 matrix: sum per row, sum per column, argmax per row,
each with ours, the anchors and x best), then one line per case (shape, op, input dtype, result
dtype): ours (auto) in GB/s and % of the read
ceiling, CUB 3.5 (the second CUB's row), CUB of the toolkit, torch's fastest formulation, the best
anchor, "x best" = the best anchor's time / ours (1.00 or more: ours at least as fast) and issue
11's verdict where it sets a target:
  rows and cols f32 sum at 256 MiB: >= 4000 GB/s and x best >= 1.00; argmax per row: >= 3800 GB/s;
  ragged 0..511: >= 3500 GB/s; 256x256 rows: x best >= 1.00 (latency).
An anchor whose result differed from ours is shown with '!' and never counts as best; an error row
of ours (a call the library refused) shows its status. Files whose name holds "sweep" make the
row-length table (L = row length, columns' length, mean segment length) after the case tables;
files whose name holds "lengths" the ragged table per length distribution (bench/axis_sweep.sh's
lengths part).
Uses only the standard library.
"""
import collections
import os
import re
import sys

from bench_csv import header_ceiling, read_csv

TARGETS = {  # (shape kind, op, dtype): (GB/s, x best) or None where the issue sets none
    ("rows", "sum", "f32"): (4000.0, 1.0),
    ("cols", "sum", "f32"): (4000.0, 1.0),
    ("rows", "argmax", "f32"): (3800.0, None),
    ("ragged", "sum", "f32"): (3500.0, None),
}


def read(path):
    """(header line, rows) of one CSV; each row gains 'group' (sweep or table)."""
    meta, rows = read_csv(path)
    name = os.path.basename(path)
    group = "sweep" if "sweep" in name else "lengths" if "lengths" in name else "table"
    for r in rows:
        r["group"] = group
    return meta, rows


def num(text):
    return float(text) if text not in (None, "", "-") else 0.0


def family(algorithm):
    """ours, cub35 (the second CUB), cub_toolkit, torch; None for other algorithms."""
    if algorithm == "auto":
        return "ours"
    if algorithm.startswith("cub-"):
        return "cub_toolkit" if algorithm.endswith("-toolkit") else "cub35"
    if algorithm.startswith("torch"):
        return "torch"
    return None


def row_length(shape):
    """The reduced length of a shape label: rows:RxC -> C, cols:RxC -> R, ragged:Sx0..M -> M/2."""
    m = re.fullmatch(r"(rows|cols):(\d+)x(\d+)", shape)
    if m:
        return int(m[3]) if m[1] == "rows" else int(m[2])
    m = re.fullmatch(r"ragged:(\d+)x0\.\.(\d+):seed\d+", shape)
    return int(m[2]) / 2 if m else None


def length_kind(shape):
    """(distribution, segments) of a ragged label ragged:Sx<kind>..M:seedK (uniform: Sx0..M)."""
    m = re.fullmatch(r"ragged:(\d+)x([a-z0-9]+)\.\.\d+:seed\d+", shape)
    if not m:
        return None, 0
    return ("uniform" if m[2] == "0" else re.sub(r"\d+$", "", m[2])), int(m[1])


def collect(paths):
    """{(group, shape, op, dtype, out): {family: row}} keeping the fastest torch formulation, and
    the device line and ceiling of the first file."""
    cases = collections.OrderedDict()
    device, ceiling = "", 0.0
    for path in paths:
        meta, rows = read(path)
        if not device:
            m = re.search(r"device: ([^;]+)", meta)
            device = m.group(1).strip() if m else ""
        ceiling = ceiling or header_ceiling(meta) or 0.0
        for r in rows:
            fam = family(r["algorithm"])
            if not r.get("shape") or fam is None:
                continue
            key = (r["group"], r["shape"], r["op"], r["dtype"], r["out_dtype"])
            slot = cases.setdefault(key, {})
            if fam == "torch" and "torch" in slot:
                old = slot["torch"]
                if r["status"] == "differs" or (old["status"] != "differs" and num(old["ms"]) <= num(r["ms"])):
                    continue
            slot[fam] = r
    return device, ceiling, cases


def figures(slot):
    """(ours GB/s or status, best anchor's family, x best) of one case."""
    ours = slot.get("ours")
    best = None
    for fam in ("cub35", "cub_toolkit", "torch"):
        r = slot.get(fam)
        if r and r["status"] != "differs" and num(r["ms"]) > 0 and (best is None or num(r["ms"]) < num(best[1]["ms"])):
            best = (fam, r)
    speed = None
    if ours and ours["status"] in ("ok", "differs") and best:
        speed = num(best[1]["ms"]) / num(ours["ms"])
    return ours, best, speed


def cell(slot, fam):
    r = slot.get(fam)
    if not r:
        return ""
    if num(r["ms"]) <= 0:
        return r["status"]
    return f"{num(r['gbps']):.0f}" + ("!" if r["status"] == "differs" else "")


NAMES = {"cub35": "CUB 3.5", "cub_toolkit": "CUB toolkit", "torch": "torch"}


def verdict(shape, op, dtype, out, ours, speed):
    kind = shape.split(":")[0]
    if shape == "rows:256x256":  # the latency case: its only target
        if op != "sum" or dtype != "f32" or out != "f32":
            return "-"
        return "no figure" if speed is None else ("PASS" if speed >= 1.0 else "MISS")
    target = TARGETS.get((kind, op, dtype)) if out == dtype else None
    if not target or not ours or ours["status"] not in ("ok", "differs"):
        return "-" if not target else "no figure"
    gbps, ratio = target
    ok = num(ours["gbps"]) >= gbps and (ratio is None or (speed is not None and speed >= ratio))
    return "PASS" if ok else "MISS"


def section(key):
    """The order of the case table: rows sum, cols sum, argmax, ragged, the latency case, the rest."""
    _, shape, op, dtype, out = key
    kind = shape.split(":")[0]
    if shape == "rows:256x256":
        return 4
    if op == "sum" and dtype == "f32" and out == "f32":
        return {"rows": 0, "cols": 1, "ragged": 3}.get(kind, 5)
    return 2 if op in ("argmax", "argmin") else 5


def case_table(cases, ceiling):
    print("| case | ours GB/s | % ceiling | CUB 3.5 | CUB toolkit | torch | best anchor | x best | verdict |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---|")
    keys = sorted((k for k in cases if k[0] == "table"), key=section)  # stable: --dims order within
    for key in keys:
        group, shape, op, dtype, out = key
        slot = cases[key]
        ours, best, speed = figures(slot)
        if ours and ours["status"] in ("ok", "differs"):
            mine = f"{num(ours['gbps']):.0f}" + ("!" if ours["status"] == "differs" else "")
            pct = f"{100 * num(ours['gbps']) / ceiling:.1f}" if ceiling else ""
        else:
            mine, pct = (ours["status"] if ours else "not run"), ""
        name = f"{shape} {op} {dtype}" + (f"->{out}" if out != dtype else "")
        print(f"| {name} | {mine} | {pct} | {cell(slot, 'cub35')} | {cell(slot, 'cub_toolkit')} | "
              f"{cell(slot, 'torch')} | {NAMES[best[0]] if best else ''} | "
              f"{'' if speed is None else f'{speed:.2f}'} | {verdict(shape, op, dtype, out, ours, speed)} |")


def shape_table(cases):
    """The issue's table, one line per matrix R x C (f32): rows sum, cols sum and argmax per row,
    each with ours, the anchors and x best."""
    matrices = []
    for (group, shape, op, dtype, out) in cases:
        m = re.fullmatch(r"(rows|cols):(\d+x\d+)", shape)
        if group == "table" and m and m[2] != "256x256" and dtype == "f32" and m[2] not in matrices:
            matrices.append(m[2])
    if not matrices:
        return
    print("| rows x cols | sum(dim=1): ours | CUB 3.5 | CUB toolkit | torch | x best "
          "| sum(dim=0): ours | torch | x best | argmax(dim=1): ours | CUB 3.5 | CUB toolkit | torch | x best |")
    print("|---|" + "---:|" * 14)
    for rc in matrices:
        cells = []
        for kind, op, fams in (("rows", "sum", ("cub35", "cub_toolkit", "torch")), ("cols", "sum", ("torch",)),
                               ("rows", "argmax", ("cub35", "cub_toolkit", "torch"))):
            slot = cases.get(("table", f"{kind}:{rc}", op, "f32", "f32"), {})
            ours, _, speed = figures(slot)
            mine = cell(slot, "ours") if ours else ""
            cells += [mine] + [cell(slot, fam) for fam in fams] + ["" if speed is None else f"{speed:.2f}"]
        print(f"| {rc.replace('x', ' x ')} | " + " | ".join(cells) + " |")
    print()


def sweep_table(cases):
    """GB/s per row length L: ours and each anchor, for rows, cols and ragged (f32 sum)."""
    by_length = collections.defaultdict(dict)
    for (group, shape, op, dtype, out), slot in cases.items():
        if group != "sweep" or op != "sum" or dtype != "f32":
            continue
        length = row_length(shape)
        if length is not None:
            by_length[length][shape.split(":")[0]] = slot
    if not by_length:
        return
    print("\nGB/s against the row length L (256 MiB of f32 in all; ragged: lengths 0..2L):\n")
    print("| L | rows ours | rows CUB 3.5 | rows CUB toolkit | rows torch | cols ours | cols torch | "
          "ragged ours | ragged CUB 3.5 | ragged CUB toolkit | ragged torch |")
    print("|---:|" + "---:|" * 10)
    for length in sorted(by_length):
        s = by_length[length]
        cells = []
        for kind, fams in (("rows", ("ours", "cub35", "cub_toolkit", "torch")), ("cols", ("ours", "torch")),
                           ("ragged", ("ours", "cub35", "cub_toolkit", "torch"))):
            slot = s.get(kind, {})
            cells += [cell(slot, fam) if fam != "ours" or slot.get("ours", {}).get("status") in ("ok", "differs")
                      else (slot["ours"]["status"] if slot.get("ours") else "") for fam in fams]
        print(f"| {length:g} | " + " | ".join(cells) + " |")


def lengths_table(cases):
    """The lengths part: GB/s against the mean segment length n / S, per distribution (f32 sum)."""
    lines = []
    for (group, shape, op, dtype, out), slot in cases.items():
        kind, segments = length_kind(shape)
        if group != "lengths" or op != "sum" or dtype != "f32" or not kind or "ours" not in slot:
            continue
        ours, best, speed = figures(slot)
        mean = num(ours["n"]) / segments
        lines.append((kind, mean, f"| {kind} | {shape.split(':')[1]} | {mean:.1f} | {cell(slot, 'ours')} | "
                      f"{cell(slot, 'cub35')} | {cell(slot, 'torch')} | {'' if speed is None else f'{speed:.2f}'} |"))
    if not lines:
        return
    print("\nRagged sums against the mean segment length (f32; GB/s of the input bytes):\n")
    print("| lengths | segments x kind..max | mean length | ours | CUB 3.5 | torch | x best |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for _, _, line in sorted(lines):
        print(line)


def main():
    paths = [p for p in sys.argv[1:] if p.endswith(".csv")]
    if not paths:
        sys.exit("usage: bench/axis_summary.py OUT/*.csv")
    device, ceiling, cases = collect(paths)
    print(f"Device: {device}; read ceiling {ceiling:.0f} GB/s (the bench's streaming read of 1 GiB). "
          "GB/s counts the input bytes only (ragged: not the offsets). x best = the best anchor's time / "
          "ours. '!': the result differed from ours (not counted as best).\n")
    shape_table(cases)
    case_table(cases, ceiling)
    sweep_table(cases)
    lengths_table(cases)


if __name__ == "__main__":
    main()
