#!/usr/bin/env bash
# The shapes of the anchors' own benchmark suites, against the anchors, on the GPU machine:
#   bash bench/suites.sh BUILD_DIR OUT_DIR
# (bench/report.sh runs it with SUITES=1, its default, into its own OUT_DIR.) One CSV per suite in
# OUT_DIR, rows as bench/report_tables.py appends them, and suites.txt (when, what, how long):
#   suite_cub_reduce     CUB's nvbench reduce: sum, min, argmin of i8, i16, i32, i64, f32, f64 into
#                        the input type at 2^16, 2^20, 2^24, 2^28; deterministic: f32/f64 sum and
#                        sum_exact against CUB 3.5's gpu_to_gpu sum
#   suite_cub_segmented  CUB's segmented sum, 2^24 f32 elements in all: fixed segment sizes
#                        2^0..2^16, and sizes uniform in 1..M for M = 2^1..2^16 (2^25/(M+1)
#                        segments: 2^24 elements expected)
#   suite_rocprim        rocPRIM's device reduce (sum of 2^27 items of i8, i32, i64, f32, f64) and
#                        segmented reduce (2^25 f32 in 1, 10, 100, 1000, 10000 segments, lengths
#                        uniform in 0..2x the mean, as its benchmark draws them)
#   suite_torch_sum      PyTorch's operator benchmark sum_test.py: f32 R x V summed over dim 0 and
#                        V x R over dim 1 (R the reduced length) for R x V in {64, 256} x {32, 512}
#                        and {1024, 8192} x {512, 1024}, contiguous and x[::2, ::2] of a twice
#                        larger array (--step 2); torch, cupy and the hipreduce package from Python
#   suite_cupy_axis      CuPy's short-axis sweep: f32 (2^i, 2^(24-i)), i = 0..24, over each axis
#   suite_rmsnorm        RMSNorm's statistic: bf16 [B, S, 4096] sums of squares over the 4096 into
#                        f32, B x S = 1 x 8192, 4 x 8192, 1 x 131072 and 4 x 131072 (rows of a
#                        contiguous tensor: B and S matter only as their product; 32 x 131072
#                        would be 32 GiB a copy)
# hipreduce-bench runs each shape in rounds (SUITE_ROUNDS, default 3; REPS calls a row, default
# 20, CUB's anchors interleaved in the same process); a round after the first is started only
# while the time so far and one more round stay within SUITE_BUDGET seconds (default 120). torch
# and cupy (bench/torch_anchors.py, torch_axis_anchors.py --batch) run once, after round 1, one
# process per script, where torch sees a GPU. A suite, shape or line that fails is logged
# (report.log) and the others go on; the exit status is then 1.
set -uo pipefail
build=$(cd "${1:?usage: bash bench/suites.sh BUILD_DIR OUT_DIR}" && pwd) || exit 2
mkdir -p "${2:?usage: bash bench/suites.sh BUILD_DIR OUT_DIR}" || exit 2
out=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
bench="$build/bench/hipreduce-bench"
[ -x "$bench" ] || { echo "suites.sh: no $bench (configure with the bench and build it)" >&2; exit 2; }
REPS=${REPS:-20} SUITE_ROUNDS=${SUITE_ROUNDS:-3} SUITE_BUDGET=${SUITE_BUDGET:-120}
# SUITE_DEVICE=cpu runs hipreduce-bench's part on the cpu device (a check of the commands on a
# machine without a GPU; no anchor runs there).
device=${SUITE_DEVICE:-gpu}
# SUITE_CEILING: the 1 GiB read ceiling in GB/s that report.sh measured, for the torch and cupy
# rows' % column (their scripts measure it themselves without it).
ceiling=${SUITE_CEILING:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log="$out/report.log"
touch "$log"
# shellcheck source=bench/report_lib.sh
. "$here/report_lib.sh"
suites="suite_cub_reduce suite_cub_segmented suite_rocprim suite_torch_sum suite_cupy_axis suite_rmsnorm"
for s in $suites; do rm -f "$out/$s.csv"; done
rc=0
start=$SECONDS

# Sizes: E, the CuPy sweep's and CUB's segmented total (2^E elements); K, the largest segment
# size exponent; N, rocPRIM's segmented total. SUITE_SMALL=1 shrinks every suite to shapes of
# the same kinds that take a second or so (a check of the commands, e.g. with SUITE_DEVICE=cpu).
if [ "${SUITE_SMALL:-0}" = 1 ]; then
    E=10 K=6 N=$((1 << 11)) cub_sizes=2^6,2^10 reduce_size=2^13 rmsnorm_rows=8x4096,32x4096
    torch_rows=32x64,512x64,32x256,512x256 torch_cols=64x32,64x512,256x32,256x512
else
    E=24 K=16 N=$((1 << 25)) cub_sizes=2^16,2^20,2^24,2^28 reduce_size=2^27
    rmsnorm_rows=8192x4096,32768x4096,131072x4096,524288x4096
    torch_rows=32x64,512x64,32x256,512x256,512x1024,1024x1024,512x8192,1024x8192 # V x R: dim 1
    torch_cols=64x32,64x512,256x32,256x512,1024x512,1024x1024,8192x512,8192x1024 # R x V: dim 0
fi
# sweep I...: CuPy's "2^i x 2^(E-i)" entries
sweep() { local i d=""; for i in "$@"; do d+="${d:+,}$((1 << i))x$((1 << (E - i)))"; done; echo "$d"; }
fixed_lo=$(sweep $(seq 0 $((E - K - 1))))   # CuPy's rows only: rows longer than 2^K
fixed_hi=$(sweep $(seq $((E - K)) "$E"))    # CUB's fixed segment sizes 2^K..2^0 too
cols_all=$(sweep $(seq 0 "$E"))
# CUB's variable sizes: uniform in 1..M for M = 2^1..2^K, 2^(E+1)/(M+1) segments (2^E expected)
variable=$(for k in $(seq 1 "$K"); do printf '%s%dx%d' "${sep:-}" $(((2 << E) / ((1 << k) + 1))) $((1 << k)); sep=,; done)
# rocPRIM's: S segments of lengths uniform in 0..2N/S (mean N/S); one segment: all N
rocprim_uniform=$(for s in 10 100 1000 10000; do m=$((2 * N / s)); printf '%s%dx%d' "${sep:-}" "$s" $((m > 0 ? m : 1)); sep=,; done)
L=HIPREDUCE_BENCH_LENGTHS

suite_round() { # ROUND
    local r=$1 d="--device=$device" c=--ceiling=same
    [ "$device" = gpu ] || c=
    run suite_cub_reduce "$r" sum_min_argmin -- $d $c --ops=sum,min,argmin --dtypes=i8,i16,i32,i64,f32,f64 \
        --out=same --sizes=$cub_sizes
    run suite_cub_reduce "$r" deterministic -- $d $c --ops=sum,sum_exact --dtypes=f32,f64 --sizes=$cub_sizes
    run suite_cupy_axis "$r" rows -- $d $c --shape=rows --dims="$fixed_lo" --ops=sum --dtypes=f32
    run suite_cub_segmented,suite_cupy_axis "$r" fixed -- $d $c --shape=rows --dims="$fixed_hi" --ops=sum --dtypes=f32
    run suite_cub_segmented "$r" variable "$L=nonempty" -- $d $c --shape=ragged --dims="$variable" --ops=sum --dtypes=f32
    run suite_cupy_axis "$r" cols -- $d $c --shape=cols --dims="$cols_all" --ops=sum --dtypes=f32
    run suite_rocprim "$r" reduce -- $d $c --ops=sum --dtypes=i8,i32,i64,f32,f64 --out=same --sizes=$reduce_size
    run suite_rocprim "$r" one_segment "$L=fixed" -- $d $c --shape=ragged --dims=1x$N --ops=sum --dtypes=f32
    run suite_rocprim "$r" segments "$L=uniform" -- $d $c --shape=ragged --dims="$rocprim_uniform" --ops=sum --dtypes=f32
    run suite_torch_sum "$r" rows -- $d $c --shape=rows --dims="$torch_rows" --ops=sum --dtypes=f32
    run suite_torch_sum "$r" rows_strided -- $d $c --shape=rows --step=2 --dims="$torch_rows" --ops=sum --dtypes=f32
    run suite_torch_sum "$r" cols -- $d $c --shape=cols --dims="$torch_cols" --ops=sum --dtypes=f32
    run suite_torch_sum "$r" cols_strided -- $d $c --shape=cols --step=2 --dims="$torch_cols" --ops=sum --dtypes=f32
    run suite_rmsnorm "$r" rmsnorm -- $d $c --shape=rows --dims="$rmsnorm_rows" --ops=sum_squares --dtypes=bf16 --out=f32
}

anchors() { # once: torch and cupy, one process per script (bench/report_lib.sh's queue and flush)
    local hr="" all=i8,i16,i32,i64,f32,f64 cases="" op t step
    PYTHONPATH="$build/python" python3 -c "import hipreduce" 2>/dev/null && hr=--hipreduce
    for op in sum min argmin; do for t in ${all//,/ }; do cases+="${cases:+,}$op:$t"; done; done
    queue suite_cub_reduce torch_anchors.py --cases "$cases" --sizes "$cub_sizes"
    queue suite_rocprim torch_anchors.py --cases sum:i8,sum:i32,sum:i64,sum:f32,sum:f64 --sizes $reduce_size
    queue suite_cupy_axis torch_axis_anchors.py --shape rows --dims "$fixed_lo" --cases sum:f32
    queue suite_cub_segmented,suite_cupy_axis torch_axis_anchors.py --shape rows --dims "$fixed_hi" --cases sum:f32
    queue suite_cub_segmented torch_axis_anchors.py --shape ragged --lengths nonempty --dims "$variable" --cases sum:f32
    queue suite_cupy_axis torch_axis_anchors.py --shape cols --dims "$cols_all" --cases sum:f32
    queue suite_rocprim torch_axis_anchors.py --shape ragged --lengths fixed --dims 1x$N --cases sum:f32
    queue suite_rocprim torch_axis_anchors.py --shape ragged --lengths uniform --dims "$rocprim_uniform" --cases sum:f32
    for step in 1 2; do
        queue suite_torch_sum torch_axis_anchors.py --shape rows --step $step --dims "$torch_rows" --cases sum:f32 $hr
        queue suite_torch_sum torch_axis_anchors.py --shape cols --step $step --dims "$torch_cols" --cases sum:f32 $hr
    done
    queue suite_rmsnorm torch_axis_anchors.py --shape rows --dims "$rmsnorm_rows" --cases sum_squares:bf16:f32 $hr
    flush
}

echo "suites.sh: into $out"
last=0 rounds=0 anchor_s=0
for round in $(seq 1 "$SUITE_ROUNDS"); do
    fits "$round" "$SUITE_BUDGET" || break
    t=$SECONDS
    suite_round "$round"
    rounds=$round
    [ "$round" -gt 1 ] || last=$((SECONDS - t))
    echo "suites.sh: round $round: $((SECONDS - t)) s"
    if [ "$round" = 1 ] && [ "$device" = gpu ] && python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
        t=$SECONDS
        anchors
        anchor_s=$((SECONDS - t))
        echo "suites.sh: torch and cupy: $anchor_s s"
    fi
done

{
    echo "date: $(date -u +%Y-%m-%d)"
    if [ -n "${COMMIT:-}" ]; then
        echo "commit: $COMMIT"
    elif commit=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null); then
        echo "commit: $commit$(git -C "$here/.." diff --quiet HEAD -- 2>/dev/null || echo ' + local changes')"
    fi
    echo "rounds: $rounds, $REPS calls a row, median"
    echo "anchors: $(python3 -c "import torch; print('torch', torch.__version__)" 2>/dev/null)$(python3 -c \
        "import cupy; print(', cupy', cupy.__version__)" 2>/dev/null)"
    echo "seconds: $((SECONDS - start)) (torch and cupy: $anchor_s)"
} >"$out/suites.txt"
echo "suites.sh: $((SECONDS - start)) s, exit $rc"
exit $rc
