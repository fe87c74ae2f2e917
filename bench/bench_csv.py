"""hipreduce-bench's CSV files (--format=csv) for the scripts in bench/: the '#' header line (device,
read ceiling, vendor: bench_report.c) and the rows."""
import csv
import re


def read_csv(path):
    """(the header line without its '#', the rows as dicts)."""
    header, lines = "", []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                header = line[1:].strip()
            elif line.strip():
                lines.append(line)
    return header, list(csv.DictReader(lines))


def header_vendor(header):
    """The header's vendor (the comparator), None where it names none."""
    m = re.search(r"vendor: ([^;]+)", header)
    return m.group(1).strip() if m and m.group(1).strip() != "none" else None


def header_ceiling(header):
    """The header's read ceiling in GB/s, None where it gives none (--ceiling=same)."""
    m = re.search(r"read ceiling ([0-9.]+) GB/s", header)
    return float(m.group(1)) if m else None
