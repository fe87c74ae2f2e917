"""The anchors' own benchmark suites in the performance report (bench/suites.sh writes their data,
bench/report_tables.py renders them into docs/SUITES.md, and a line each into docs/PERFORMANCE.md):
one table per suite CSV, after a line of when and with what suites.txt says they ran. % of read: of a streaming
read of the same bytes (hipreduce-bench --ceiling=same)."""
import os

# (file, title, what a row is)
SUITES = [
    ("suite_cub_reduce", "CUB's reduce benchmarks (nvbench)", "sum, min and argmin of n elements into the input "
     "type (integer sums wrap, as CUB's do), interleaved with the toolkit's CUB and CUB 3.5 in one process; torch "
     "and cupy from Python; the deterministic rows: our sum and sum_exact against CUB 3.5's deterministic "
     "(gpu_to_gpu) sum"),
    ("suite_cub_segmented", "CUB's segmented sum benchmarks", "2^24 f32 elements: fixed segment sizes as R x C rows "
     "(CUB 3.5: its fixed-size overload), and segment sizes uniform in 1..M (about 2^25/(M+1) segments)"),
    ("suite_rocprim", "rocPRIM's reduce benchmarks", "device reduce: a sum of 2^27 items; segmented reduce: 2^25 "
     "f32 in 1, 10, 100, 1000 and 10000 segments of lengths uniform in 0..2x their mean (CUB's segmented sum is "
     "the anchor on NVIDIA)"),
    ("suite_torch_sum", "PyTorch's operator benchmark sum_test.py", "x.sum(dim) of f32: dim 0 of R x V (columns), "
     "dim 1 of V x R (rows), R the reduced length; step 2: the view x[::2, ::2] of a twice larger array, which "
     "hipreduce-bench runs as a plan. time, GB/s and the ratio are the C call's; Python is the package's call from "
     "Python, which with torch and cupy pays a few microseconds of host time a call"),
    ("suite_cupy_axis", "CuPy's short-axis sweep", "f32 (2^i, 2^(24-i)), i = 0..24, summed over axis 1 (rows) and "
     "axis 0 (columns)"),
    ("suite_rmsnorm", "RMSNorm's row statistic", "the sum of squares of each 4096-long row of a bf16 [B, S, 4096] "
     "tensor into f32 (B x S rows); torch's eager RMSNorm computes x.to(float32).pow(2).mean(-1)"),
]
# The hipreduce package called from Python on the same torch tensor (its host cost included, as
# torch's is): a column of ours, not an anchor.
PYTHON_CLASS = "hipreduce (Python)"


def section_of(r):
    """Rows that race another kind of anchor: CUB's deterministic sum (bench/suites.sh's case)."""
    return "deterministic" if r["case"] == "deterministic" else ""


def read_facts(path):
    """'key: value' lines; the first of a key wins."""
    facts = {}
    if os.path.exists(path):
        for line in open(path):
            if ":" in line:
                k, v = line.split(":", 1)
                facts.setdefault(k.strip(), v.strip())
    return facts


def suites_facts(folder):
    """One line from suites.txt (bench/suites.sh): when, from what, how many rounds."""
    facts = read_facts(os.path.join(folder, "suites.txt"))
    parts = [f"{name} {facts[key]}" for key, name in (("date", "measured"), ("commit", "commit"), ("anchors", "with"),
                                                       ("rounds", "rounds"), ("seconds", "seconds"))
             if facts.get(key)]
    return "bench/suites.sh: " + ("; ".join(parts) if parts else "no suites.txt") + "."


def sections(folder, render):
    """[(suite, markdown lines, summary)] for the suite CSVs in folder; render(csv path) gives a
    family table's (lines, summary)."""
    found = [f for f in SUITES if os.path.exists(os.path.join(folder, f[0] + ".csv"))]
    out = []
    for k, (fam, title, what) in enumerate(found):
        head = ["", suites_facts(folder)] if k == 0 else []
        body, summary = render(os.path.join(folder, fam + ".csv"))
        out.append((fam, head + ["", f"#### {title}", "", what + ".", ""] + body, summary))
    return out
