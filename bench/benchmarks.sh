#!/usr/bin/env bash
# The runs behind docs/BENCHMARKS.md: hipreduce-bench BUILD_DIR OUT_DIR
#   ladder.csv  every algorithm, f32 sum, at 2^26 and 2^28
#   sweep_sum.csv, sweep_minmax.csv
#               the default algorithm against the vendor library across the size sweep
#               (2^10..2^30 and odd sizes), f32/f64/i32/i64 sum, and min and max
# then plots them with bench/plot.py where matplotlib is installed (NO_PLOTS=1: not): every plot of
# docs/plots, named as docs/BENCHMARKS.md links them.
set -euo pipefail
build=${1:?usage: bench/benchmarks.sh BUILD_DIR OUT_DIR}
out=${2:?usage: bench/benchmarks.sh BUILD_DIR OUT_DIR}
mkdir -p "$out"
bench="$build/bench/hipreduce-bench"
sweep="2^10,2^11,2^12,2^13,2^14,2^15,2^16,2^17,2^18,2^19,2^20,2^21,2^22,2^23,2^24,2^25,2^26,2^27,2^28,2^29,2^30"
sweep="$sweep,1000,100003,2^20+7,2^24+1,100000007,1e9"
"$bench" --algorithms=all --ops=sum --dtypes=f32 --sizes=2^26,2^28 --format=csv --output="$out/ladder.csv"
"$bench" --algorithms=auto --ops=sum --dtypes=f32,f64,i32,i64 --sizes="$sweep" --format=csv --output="$out/sweep_sum.csv"
"$bench" --algorithms=auto --ops=min,max --dtypes=f32,f64,i32,i64 --sizes="$sweep" --format=csv --output="$out/sweep_minmax.csv"
if [ -z "${NO_PLOTS:-}" ] && python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$(dirname "$0")/plot.py" "$out/ladder.csv" "$out/sweep_sum.csv" "$out/sweep_minmax.csv" --out-dir "$out/plots"
fi
