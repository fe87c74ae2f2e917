#!/usr/bin/env bash
# Issue 10's speed figures in one call on an NVIDIA machine, from a cuda build made beforehand (with
# HIPREDUCE_BENCH_CCCL_INCLUDE set, the bench also races the second CUB; docs/BENCHMARKS.md):
#   bench/typed_sweep.sh BUILD_DIR OUT_DIR
# Runs, default algorithm only, anchors in the same process, each row the median of $REPS calls:
#   regress_f32.csv  f32 sum, min, max at 2^20 and 2^28 (the figures that must not regress)
#   typed_sums.csv   sums f16->f32, bf16->f32, i8->i64 at 2^20 and 2^28
#   typed_f32.csv    f32 sum_abs, sum_squares, max_abs, nrm2, argmin, argmax at 2^20 and 2^28
#   typed_dot.csv    f32 dot at 2^19, 2^20 and 2^27 elements per input
#   torch.csv, torch_dot.csv   bench/torch_anchors.py on the same cases and sizes, with the
#                    bench's read ceiling of this run
# then bench.log (the runs' standard error: failures, results that differ), summary.txt
# (bench/typed_summary.py: ours, each anchor, the best, the ratio, the verdict), plots/ where
# matplotlib is installed, and OUT_DIR/typed_sweep.tar.gz holding all of it (one file to fetch).
# About 2 minutes on an H200 after the build.
set -uo pipefail
build=${1:?usage: bench/typed_sweep.sh BUILD_DIR OUT_DIR}
out=${2:?usage: bench/typed_sweep.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
bench="$build/bench/hipreduce-bench"
[ -x "$bench" ] || { echo "typed_sweep.sh: no $bench (build the cuda backend first)" >&2; exit 2; }
mkdir -p "$out"
log="$out/bench.log"
: >"$log"
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  git -C "$here/.." rev-parse --short HEAD 2>/dev/null; } | tee "$out/device.txt"
rc=0

run_bench() { # NAME ARGS...: one hipreduce-bench run into NAME.csv
  local name=$1
  shift
  echo "== hipreduce-bench $name" | tee -a "$log"
  "$bench" --algorithms=auto --reps="${REPS:-100}" --warmup=5 --format=csv --output="$out/$name.csv" "$@" \
    2>"$out/stderr.tmp" || { echo "typed_sweep.sh: hipreduce-bench $name failed" | tee -a "$log"; rc=1; }
  tr '\r' '\n' <"$out/stderr.tmp" | grep -v -e '^\[' -e '^ *$' >>"$log"
  rm -f "$out/stderr.tmp"
}
run_bench regress_f32 --ops=sum,min,max --dtypes=f32 --sizes=2^20,2^28
run_bench typed_sums --ops=sum --dtypes=f16,bf16,i8 --out=f32,i64 --sizes=2^20,2^28
run_bench typed_f32 --ops=sum_abs,sum_squares,max_abs,nrm2,argmin,argmax --dtypes=f32 --sizes=2^20,2^28
run_bench typed_dot --ops=dot --dtypes=f32 --sizes=2^19,2^20,2^27

# torch on the same cases, compared with the same ceiling.
ceiling=$(sed -n 's/.*read ceiling \([0-9.]*\) GB\/s.*/\1/p' "$out/typed_sums.csv" 2>/dev/null | head -n 1)
cases=sum:f32,min:f32,max:f32,sum:f16:f32,sum:bf16:f32,sum:i8:i64
cases=$cases,sum_abs:f32,sum_squares:f32,max_abs:f32,nrm2:f32,argmin:f32,argmax:f32
torch_run() { # NAME ARGS...
  local name=$1
  shift
  echo "== torch_anchors.py $name" | tee -a "$log"
  PYTHONUNBUFFERED=1 python3 "$here/torch_anchors.py" --reps "${REPS:-100}" --warmup 5 ${ceiling:+--ceiling "$ceiling"} \
    --output "$out/$name.csv" "$@" 2>>"$log" || { echo "typed_sweep.sh: torch_anchors.py $name failed" | tee -a "$log"; rc=1; }
}
torch_run torch --cases "$cases" --sizes 2^20,2^28
torch_run torch_dot --cases dot:f32 --sizes 2^19,2^20,2^27

echo
grep -E "differs|failed|error|left out| gives " "$log" || true
csvs="" # ours first: the plots draw rows in this order, and the first file names the device
for name in regress_f32 typed_sums typed_f32 typed_dot torch torch_dot; do
  [ -s "$out/$name.csv" ] && csvs="$csvs $out/$name.csv"
done
plots=()
if python3 -c "import matplotlib" 2>/dev/null; then plots=(--plot-dir "$out/plots"); fi
# shellcheck disable=SC2086
python3 "$here/typed_summary.py" $csvs "${plots[@]}" | tee "$out/summary.txt"
if [ ${#plots[@]} -gt 0 ]; then
  # shellcheck disable=SC2086
  python3 "$here/plot.py" --merge $csvs --out-dir "$out/plots" >/dev/null || echo "typed_sweep.sh: plot.py failed"
fi
tar czf "$out/typed_sweep.tar.gz" --exclude typed_sweep.tar.gz -C "$out" . 2>/dev/null || true
exit $rc
