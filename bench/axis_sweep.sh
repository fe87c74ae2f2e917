#!/usr/bin/env bash
# Issue 11's speed figures (axis and segment reductions) on an NVIDIA machine, anchors in the same
# process (CUB of the toolkit and, with HIPREDUCE_BENCH_CCCL_INCLUDE, CUB 3.5) and torch beside:
#   bench/axis_sweep.sh BUILD_DIR OUT_DIR [PART...]
# BUILD_DIR: a cuda build with hipreduce-bench. Where BUILD_DIR/bench/hipreduce-bench is missing,
# the script makes it first (HIPREDUCE_BENCH_CCCL_INCLUDE from the nvidia-cuda-cccl wheel carried in
# .cccl/, unzipped to BUILD_DIR-cccl; docs/BENCHMARKS.md), about 5 minutes on 16 cores.
# PARTs (default: table sweep lengths torch torch_lengths summary), each writing CSVs under OUT_DIR:
#   table    the issue's shapes, f32, 256 MiB (4194304x16, 1048576x64, 65536x1024, 1024x65536,
#            16x4194304): rows.csv (sum, argmax per row), cols.csv (sum per column),
#            ragged.csv (262144 segments of 0..511, sum), latency.csv (256x256 rows sum, REPS_LATENCY
#            calls), typed.csv (f16/bf16 -> f32 and i8 -> i64 rows, 256 MiB, the same column counts)
#   sweep    GB/s against the row length L = 1, 2, 4 .. 2^24, input fixed at 256 MiB f32:
#            sweep_rows.csv (2^26/L rows of L), sweep_cols.csv (L x 2^26/L, columns reduced),
#            sweep_ragged.csv (2^26/L segments of 0..2L: mean L), SWEEP_REPS calls each
#   lengths  ragged sums against the mean segment length, one curve per length distribution
#            (HIPREDUCE_BENCH_LENGTHS): uniform (2^26/L segments of 0..2L), powerlawK (Pareto tail 1.2,
#            scale K = 1..4096, cap 2^22, about 2^26 elements), giants (8 of 2^10..2^24 among 2^20
#            tiny ones): lengths_<kind>.csv
#   torch    bench/torch_axis_anchors.py on the same cases (torch_*.csv), with the bench's ceiling
#   torch_lengths  torch on the lengths part's shapes (torch_lengths_*.csv)
#   summary  bench/axis_summary.py -> summary.md (the tables for docs/BENCHMARKS.md, ratios,
#            verdicts); bench/axis_plot.py -> plots/axis_sweep.png and
#            plots/ragged_lengths.png (where matplotlib is installed)
# and bench.log (standard error of every run: refused calls, results that differ), device.txt,
# OUT_DIR/axis_sweep.tar.gz with all of it.
set -uo pipefail
build=${1:?usage: bench/axis_sweep.sh BUILD_DIR OUT_DIR [PART...]}
out=${2:?usage: bench/axis_sweep.sh BUILD_DIR OUT_DIR [PART...]}
shift 2
parts=${*:-table sweep lengths torch torch_lengths summary}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bench="$build/bench/hipreduce-bench"
REPS=${REPS:-100}
SWEEP_REPS=${SWEEP_REPS:-20}
REPS_LATENCY=${REPS_LATENCY:-1000}
mkdir -p "$out"
log="$out/bench.log"
touch "$log"
rc=0

if [ ! -x "$bench" ]; then
  wheel=$(find "$root/.cccl" -name 'nvidia_cuda_cccl-*.whl' 2>/dev/null | head -n 1)
  cccl=()
  if [ -n "$wheel" ]; then
    python3 -m zipfile -e "$wheel" "$build-cccl" || exit 1
    cccl=(-DHIPREDUCE_BENCH_CCCL_INCLUDE="$build-cccl/nvidia/cu13/include/cccl")
  else
    echo "axis_sweep.sh: no .cccl/nvidia_cuda_cccl-*.whl: building without the second CUB" | tee -a "$log"
  fi
  if ! { cmake -S "$root" -B "$build" -G Ninja -DHIPREDUCE_BACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90 "${cccl[@]}" &&
    cmake --build "$build" -j"$(nproc)" --target hipreduce-bench; } >"$out/build.log" 2>&1; then
    echo "axis_sweep.sh: the build failed (tail of $out/build.log):"
    tail -n 30 "$out/build.log"
    exit 1
  fi
fi
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  git -C "$root" rev-parse --short HEAD 2>/dev/null; } | tee "$out/device.txt"

shapes=4194304x16,1048576x64,65536x1024,1024x65536,16x4194304
half_shapes=8388608x16,2097152x64,131072x1024,2048x65536,32x4194304 # 256 MiB of 2-byte elements
byte_shapes=16777216x16,4194304x64,262144x1024,4096x65536,64x4194304 # 256 MiB of i8
ragged=262144x511
sweep_rows="" sweep_cols="" sweep_ragged=""
for k in $(seq 0 24); do # row length L = 2^k, 2^26 f32 elements in all
  sweep_rows="$sweep_rows,2^$((26 - k))x2^$k"
  sweep_cols="$sweep_cols,2^${k}x2^$((26 - k))"
  sweep_ragged="$sweep_ragged,2^$((26 - k))x2^$((k + 1))"
done
sweep_rows=${sweep_rows#,} sweep_cols=${sweep_cols#,} sweep_ragged=${sweep_ragged#,}
lengths_uniform="" lengths_giants="" lengths_powerlaw=""
for k in 0 2 4 6 8 10 12 14 16 18 20; do lengths_uniform="$lengths_uniform,2^$((26 - k))x2^$((k + 1))"; done
for k in 10 12 14 16 18 20 22 24; do lengths_giants="$lengths_giants,2^20x2^$k"; done
for k in 0 2 4 6 8 10 12; do lengths_powerlaw="$lengths_powerlaw $((1 << k))"; done # the scales K: mean about 6K
lengths_uniform=${lengths_uniform#,} lengths_giants=${lengths_giants#,}
powerlaw_dims() { echo "$(((1 << 26) / (6 * $1)))x4194304"; } # scale K: 2^26 / (6K) segments (about 2^26 elements), cap 2^22
ceiling_of() { # the bench's 1 GiB read ceiling from CSVs of this run, so both sides use the same figure
  sed -n 's/.*read ceiling \([0-9.]*\) GB\/s.*/\1/p' "$@" 2>/dev/null | head -n 1
}

run_bench() { # NAME REPS ARGS...: one hipreduce-bench run into NAME.csv
  local name=$1 reps=$2
  shift 2
  echo "== hipreduce-bench $name $*" | tee -a "$log"
  "$bench" --algorithms=auto --reps="$reps" --warmup=5 --format=csv --output="$out/$name.csv" "$@" \
    2>"$out/stderr.tmp" || { echo "axis_sweep.sh: hipreduce-bench $name failed" | tee -a "$log"; rc=1; }
  tr '\r' '\n' <"$out/stderr.tmp" | grep -v -e '^\[' -e '^ *$' >>"$log"
  rm -f "$out/stderr.tmp"
}
torch_run() { # NAME REPS ARGS...: one torch_axis_anchors.py run into NAME.csv
  local name=$1 reps=$2
  shift 2
  echo "== torch_axis_anchors.py $name $*" | tee -a "$log"
  PYTHONUNBUFFERED=1 python3 "$here/torch_axis_anchors.py" --reps "$reps" --warmup 5 ${ceiling:+--ceiling "$ceiling"} \
    --output "$out/$name.csv" "$@" 2>>"$log" || { echo "axis_sweep.sh: torch $name failed" | tee -a "$log"; rc=1; }
}

for part in $parts; do
  case $part in
  table)
    run_bench rows "$REPS" --shape=rows --dims="$shapes" --ops=sum,argmax --dtypes=f32
    run_bench cols "$REPS" --shape=cols --dims="$shapes" --ops=sum --dtypes=f32
    run_bench ragged "$REPS" --shape=ragged --dims="$ragged" --seed=1 --ops=sum --dtypes=f32
    run_bench latency "$REPS_LATENCY" --shape=rows --dims=256x256 --ops=sum --dtypes=f32
    run_bench typed_half "$REPS" --shape=rows --dims="$half_shapes" --ops=sum --dtypes=f16,bf16 --out=f32
    run_bench typed_i8 "$REPS" --shape=rows --dims="$byte_shapes" --ops=sum --dtypes=i8 --out=i64
    ;;
  sweep)
    run_bench sweep_rows "$SWEEP_REPS" --shape=rows --dims="$sweep_rows" --ops=sum --dtypes=f32
    run_bench sweep_cols "$SWEEP_REPS" --shape=cols --dims="$sweep_cols" --ops=sum --dtypes=f32
    run_bench sweep_ragged "$SWEEP_REPS" --shape=ragged --dims="$sweep_ragged" --seed=1 --ops=sum --dtypes=f32
    ;;
  lengths)
    HIPREDUCE_BENCH_LENGTHS=uniform run_bench lengths_uniform "$SWEEP_REPS" --shape=ragged --dims="$lengths_uniform" \
      --seed=1 --ops=sum --dtypes=f32
    HIPREDUCE_BENCH_LENGTHS=giants run_bench lengths_giants "$SWEEP_REPS" --shape=ragged --dims="$lengths_giants" \
      --seed=1 --ops=sum --dtypes=f32
    for K in $lengths_powerlaw; do
      HIPREDUCE_BENCH_LENGTHS=powerlaw$K run_bench "lengths_powerlaw$K" "$SWEEP_REPS" --shape=ragged \
        --dims="$(powerlaw_dims "$K")" --seed=1 --ops=sum --dtypes=f32
    done
    ;;
  torch)
    ceiling=$(ceiling_of "$out"/rows.csv "$out"/sweep_rows.csv)
    torch_run torch_rows "$REPS" --shape rows --dims "$shapes" --cases sum:f32,argmax:f32
    torch_run torch_cols "$REPS" --shape cols --dims "$shapes" --cases sum:f32
    torch_run torch_ragged "$REPS" --shape ragged --dims "$ragged" --seed 1 --cases sum:f32
    torch_run torch_latency "$REPS_LATENCY" --shape rows --dims 256x256 --cases sum:f32
    torch_run torch_typed_half "$REPS" --shape rows --dims "$half_shapes" --cases sum:f16:f32,sum:bf16:f32
    torch_run torch_typed_i8 "$REPS" --shape rows --dims "$byte_shapes" --cases sum:i8:i64
    torch_run torch_sweep_rows "$SWEEP_REPS" --shape rows --dims "$sweep_rows" --cases sum:f32
    torch_run torch_sweep_cols "$SWEEP_REPS" --shape cols --dims "$sweep_cols" --cases sum:f32
    torch_run torch_sweep_ragged "$SWEEP_REPS" --shape ragged --dims "$sweep_ragged" --seed 1 --cases sum:f32
    ;;
  torch_lengths) # torch on the lengths part's shapes
    ceiling=$(ceiling_of "$out"/lengths_*.csv)
    torch_run torch_lengths_uniform "$SWEEP_REPS" --shape ragged --dims "$lengths_uniform" --seed 1 --lengths uniform \
      --cases sum:f32
    torch_run torch_lengths_giants "$SWEEP_REPS" --shape ragged --dims "$lengths_giants" --seed 1 --lengths giants \
      --cases sum:f32
    for K in $lengths_powerlaw; do
      torch_run "torch_lengths_powerlaw$K" "$SWEEP_REPS" --shape ragged --dims "$(powerlaw_dims "$K")" \
        --seed 1 --lengths "powerlaw$K" --cases sum:f32
    done
    ;;
  summary)
    csvs=$(ls "$out"/*.csv 2>/dev/null)
    # shellcheck disable=SC2086
    python3 "$here/axis_summary.py" $csvs | tee "$out/summary.md" || rc=1
    if python3 -c "import matplotlib" 2>/dev/null; then
      # shellcheck disable=SC2086
      python3 "$here/axis_plot.py" $csvs --out "$out/plots/axis_sweep.png" || rc=1
    fi
    ;;
  *) echo "axis_sweep.sh: unknown part '$part' (table, sweep, lengths, torch, torch_lengths, summary)" >&2; exit 2 ;;
  esac
done

echo
grep -E "differs|failed|error|left out| gives " "$log" || true
tar czf "$out/axis_sweep.tar.gz" --exclude axis_sweep.tar.gz -C "$out" . 2>/dev/null || true
exit $rc
