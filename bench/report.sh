#!/usr/bin/env bash
# The performance report, one command on the GPU machine:
#   bash bench/report.sh BUILD_DIR [OUT_DIR]
# BUILD_DIR: a build with the bench (cmake -G Ninja; on cuda, -DHIPREDUCE_BENCH_CCCL_INCLUDE adds CUB
# 3.5 as an anchor; -DHIPREDUCE_PYTHON=ON adds the Python rows where torch is importable).
# OUT_DIR (default docs/data/<version>/<gpu>/) receives a handful of CSVs, one per call family
# (bench/report_tables.py describes their columns), and meta.txt; then the tables of
# docs/PERFORMANCE.md and the README's headline are regenerated from the newest folder of each GPU.
#   full.csv      f32 sum across sizes; every dtype's sum at 2^28; min/max
#   typed.csv     typed f32 ops, argmin/argmax (8/16-bit keys against the same-size read), dot
#   rows.csv, cols.csv, axis.csv   axis reductions: rows, columns, a middle axis (256 MiB of f32)
#   segments.csv  CSR segments by length distribution (uniform, power-law, giants, fixed, empty)
#   exact.csv     sum_exact and dot_exact: full, rows, segments, adversarial data
#   tensor.csv    plans over strided views against torch (bench/tensor_bench.py, where torch imports)
#   stats.csv     the statistics against torch's (bench/stats_bench.py, where torch and the package import)
#   by_key.csv    reductions by key against torch's index_add_, atomic and deterministic (bench/by_key_anchors.py)
#   python.csv    the Python package's per-call cost (when hipreduce and torch import)
#   torch_ops.csv hipreduce.torch's operators' per-call cost beside torch's own (bench/torch_ops_overhead.py)
#   cpu.csv       the cpu device on this machine's cores
#   mpi.csv       32 f64 fields in one collective against local sums + MPI_Allreduce and separate
#                 reproducible calls, 1, 2 and 4 ranks sharing the GPU (hipreduce-mpi-bench --fields)
#   suite_*.csv   the shapes of CUB's, rocPRIM's, PyTorch's and CuPy's own benchmark suites and
#                 RMSNorm's, against those libraries, and suites.txt (bench/suites.sh, after the
#                 rest; SUITES=0 leaves them out and leaves earlier suite files as they are)
# Each GPU family runs in rounds (ROUNDS, default 3; REPS timed calls a row, default 20); a round is
# started only while the rounds so far leave it room in BUDGET seconds (default 330), so the report
# stays within 7 minutes on an H100 or H200; the suites follow with their own rounds and budget
# (SUITE_ROUNDS, SUITE_BUDGET: bench/suites.sh). torch's anchors (bench/torch_anchors.py,
# torch_axis_anchors.py) run once, in their own process, where torch imports. COMMIT=<hash> names
# the source in meta.txt when the tree is an export rather than a git clone.
set -uo pipefail
build=$(cd "${1:?usage: bash bench/report.sh BUILD_DIR [OUT_DIR]}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bench="$build/bench/hipreduce-bench"
[ -x "$bench" ] || { echo "report.sh: no $bench (configure with the bench and build it)" >&2; exit 2; }
version=$(sed -n 's/^#define HIPREDUCE_VERSION_STRING "\(.*\)"/\1/p' "$build/include/hipreduce/hipreduce_version.h")
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
[ -n "$gpu" ] || gpu=$(rocm-smi --showproductname 2>/dev/null | sed -n 's/.*Card [Ss]eries: *//p' | head -n 1)
[ -n "$gpu" ] || { echo "report.sh: no GPU found (nvidia-smi, rocm-smi)" >&2; exit 2; }
slug=$(tr 'A-Z' 'a-z' <<<"$gpu" | grep -oE '\b[a-z]+[0-9]+[a-z]*\b' | head -n 1)
out=${2:-$root/docs/data/$version/${slug:-gpu}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ROUNDS=${ROUNDS:-3} REPS=${REPS:-20} BUDGET=${BUDGET:-330}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log="$out/report.log"
: >"$log"
rm -f "$out"/{full,typed,rows,cols,axis,segments,exact,tensor,stats,by_key,python,torch_ops,cpu,mpi}.csv
rc=0
start=$SECONDS

# run FAMILY ROUND CASE [VAR=VALUE ...] -- hipreduce-bench arguments (bench/report_lib.sh)
# shellcheck source=bench/report_lib.sh
. "$here/report_lib.sh"
# anchor FAMILY SCRIPT ARGS...: torch's formulations of the same calls, once
anchor() {
    local family=$1 script=$2
    shift 2
    if PYTHONUNBUFFERED=1 python3 "$here/$script" --reps "$REPS" --warmup 3 ${ceiling:+--ceiling "$ceiling"} \
        --output "$tmp/anchor.csv" "$@" 2>>"$log"; then
        python3 "$here/report_tables.py" append "$out/$family.csv" 1 torch "$tmp/anchor.csv"
    else
        echo "report.sh: $script $* failed" | tee -a "$log"
    fi
}

gpu_round() { # ROUND
    local r=$1 L=HIPREDUCE_BENCH_LENGTHS
    run full "$r" f32_sizes -- --ops=sum --dtypes=f32 --sizes=2^16,2^20,2^24,2^28
    run full "$r" dtypes -- --ops=sum --dtypes=f64,i32,i64 --sizes=2^28
    run full "$r" half -- --ops=sum --dtypes=f16,bf16 --out=f32 --sizes=2^28 --ceiling=same
    run full "$r" i8 -- --ops=sum --dtypes=i8 --out=i64 --sizes=2^28 --ceiling=same
    run full "$r" minmax -- --ops=min,max --dtypes=f32 --sizes=2^28
    run typed "$r" f32_ops -- --ops=sum_abs,sum_squares,max_abs,nrm2,argmin,argmax --dtypes=f32 --sizes=2^28
    run typed "$r" narrow_argmax -- --ops=argmax --dtypes=f16,bf16,i8,u8,i16 --out=same --sizes=2^28 --ceiling=same
    run typed "$r" dot -- --ops=dot --dtypes=f32,f64 --out=same --sizes=2^27
    run rows "$r" rows_f32 -- --shape=rows --dims="$rows" --ops=sum,argmax --dtypes=f32
    run rows "$r" rows_typed -- --shape=rows --dims=131072x1024 --ops=sum --dtypes=f16,bf16 --out=f32
    run rows "$r" rows_i8 -- --shape=rows --dims=262144x1024 --ops=sum --dtypes=i8 --out=i64
    run cols "$r" cols_f32 -- --shape=cols --dims="$cols" --ops=sum --dtypes=f32
    run cols "$r" cols_argmax -- --shape=cols --dims=1024x65536 --ops=argmax --dtypes=f32
    run axis "$r" axis_f32 -- --shape=axis --dims=64x1024x1024,1024x1024x64,16384x64x64,16x65536x64 --ops=sum --dtypes=f32
    run segments "$r" uniform "$L=uniform" -- --shape=ragged --dims="$uniform" --ops=sum --dtypes=f32
    run segments "$r" powerlaw "$L=powerlaw" -- --shape=ragged --dims=2^20x2^22 --ops=sum --dtypes=f32
    run segments "$r" giants "$L=giants" -- --shape=ragged --dims=2^20x2^24 --ops=sum --dtypes=f32
    run segments "$r" fixed "$L=fixed" -- --shape=ragged --dims=16384x4096,16384x4097 --ops=sum --dtypes=f32
    run segments "$r" empty "$L=empty" -- --shape=ragged --dims=2^20x1 --ops=sum --dtypes=f32
    run exact "$r" exact_f32 -- --ops=sum,sum_exact --dtypes=f32 --sizes=2^28
    run exact "$r" exact_f64 -- --ops=sum_exact --dtypes=f64 --sizes=2^27
    # f16 and bf16 each in a process of its own: a process's second input allocation read 2-11% slower
    run exact "$r" exact_f16 -- --ops=sum_exact --dtypes=f16 --out=f32 --sizes=2^28 --ceiling=same
    run exact "$r" exact_bf16 -- --ops=sum_exact --dtypes=bf16 --out=f32 --sizes=2^28 --ceiling=same
    run exact "$r" dot_exact -- --ops=dot_exact --dtypes=f32,f64 --out=same --sizes=2^27
    run exact "$r" exact_rows -- --shape=rows --dims=65536x1024,16384x4096 --ops=sum_exact --dtypes=f32,bf16 --out=f32
    run exact "$r" exact_segments "$L=uniform" -- --shape=ragged --dims=65536x2048 --ops=sum_exact --dtypes=f32
    run exact "$r" adversarial "HIPREDUCE_BENCH_VALUES=binades" -- --ops=sum_exact --dtypes=f32,f64 --sizes=2^26
}
rows=8388608x8,4194304x16,1048576x64,262144x256,65536x1024,1024x65536
cols=16x4194304,1024x65536,65536x1024,4194304x16
uniform=262144x511,65536x2048,16384x8192,1024x131072

echo "report.sh: $gpu, libhipreduce $version, into $out"
last=0
for round in $(seq 1 "$ROUNDS"); do
    fits "$round" "$BUDGET" || break
    t=$SECONDS
    gpu_round "$round"
    echo "report.sh: GPU round $round: $((SECONDS - t)) s"
    rounds=$round
    [ "$round" -gt 1 ] || last=$((SECONDS - t))
    if [ "$round" = 1 ]; then # once: torch's anchors, the Python package, the cpu device
        t=$SECONDS
        if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
            anchor full torch_anchors.py --cases sum:f32 --sizes 2^16,2^20,2^24,2^28
            anchor full torch_anchors.py --cases sum:f64,sum:i32,sum:i64,sum:f16:f32,sum:bf16:f32,sum:i8:i64,min:f32,max:f32 --sizes 2^28
            anchor typed torch_anchors.py --cases sum_abs:f32,sum_squares:f32,max_abs:f32,nrm2:f32,argmin:f32,argmax:f32,argmax:f16,argmax:bf16 --sizes 2^28
            anchor typed torch_anchors.py --cases dot:f32,dot:f64 --sizes 2^27
            anchor rows torch_axis_anchors.py --shape rows --dims "$rows" --cases sum:f32,argmax:f32
            anchor cols torch_axis_anchors.py --shape cols --dims "$cols" --cases sum:f32
            anchor segments torch_axis_anchors.py --shape ragged --dims "$uniform" --lengths uniform --cases sum:f32
            anchor segments torch_axis_anchors.py --shape ragged --dims 2^20x2^22 --lengths powerlaw --cases sum:f32
            PYTHONUNBUFFERED=1 python3 "$here/tensor_bench.py" "$build/libhipreduce.so" --csv "$out/tensor.csv" \
                >>"$log" 2>&1 || echo "report.sh: tensor_bench.py failed" | tee -a "$log"
            if PYTHONPATH="$build/python" python3 -c "import hipreduce" 2>/dev/null; then
                PYTHONUNBUFFERED=1 PYTHONPATH="$build/python" python3 "$here/stats_bench.py" --csv "$out/stats.csv" \
                    >>"$log" 2>&1 || echo "report.sh: stats_bench.py failed" | tee -a "$log"
                PYTHONUNBUFFERED=1 PYTHONPATH="$build/python" python3 "$here/by_key_anchors.py" --csv "$out/by_key.csv" \
                    >>"$log" 2>&1 || echo "report.sh: by_key_anchors.py failed" | tee -a "$log"
                PYTHONPATH="$build/python" python3 "$here/python_overhead.py" --calls 5000 --rounds 5 --no-large \
                    --csv "$out/python.csv" >>"$log" 2>&1 || echo "report.sh: python_overhead.py failed" | tee -a "$log"
                PYTHONPATH="$build/python" python3 "$here/torch_ops_overhead.py" --device 0 --calls 2000 --rounds 9 \
                    --csv "$out/torch_ops.csv" >>"$log" 2>&1 || echo "report.sh: torch_ops_overhead.py failed" | tee -a "$log"
            fi
        fi
        run cpu 1 cpu_full -- --device=cpu --ops=sum --dtypes=f32,f64 --sizes=2^20,2^26 --reps=10
        run cpu 1 cpu_typed -- --device=cpu --ops=sum --dtypes=bf16,i8 --out=f32,i64 --sizes=2^26 --reps=10
        run cpu 1 cpu_ops -- --device=cpu --ops=argmax,sum_exact --dtypes=f32 --sizes=2^26 --reps=10
        run cpu 1 cpu_shapes -- --device=cpu --shape=rows --dims=65536x1024 --ops=sum --dtypes=f32 --reps=10
        run cpu 1 cpu_cols -- --device=cpu --shape=cols --dims=1024x65536 --ops=sum --dtypes=f32 --reps=10
        mpib="$build/bench/hipreduce-mpi-bench"
        if [ -x "$mpib" ] && command -v mpiexec >/dev/null; then # ranks sharing this machine's GPU
            echo "ranks,device,op,fields,n,fields_us,local_allreduce_us,ratio,separate_us,speedup" >"$out/mpi.csv"
            for np in 1 2 4; do
                for mode in "" --exact; do
                    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpiexec --oversubscribe -n "$np" \
                        "$mpib" --gpu --fields=32 --reps=10 $mode --csv="$out/mpi.csv" 2^20 >>"$log" 2>&1 ||
                        echo "report.sh: hipreduce-mpi-bench -n $np --fields=32 $mode failed" | tee -a "$log"
                done
            done
        fi
        echo "report.sh: anchors, Python, cpu device: $((SECONDS - t)) s"
    fi
done

if [ "${SUITES:-1}" = 1 ]; then
    REPS=$REPS SUITE_CEILING=${ceiling:-} bash "$here/suites.sh" "$build" "$out" || rc=1
fi

driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
cuda=$([ -n "$nvcc" ] && "$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
anchors=$(for f in "$out"/*.csv; do case "$(basename "$f")" in python.csv | torch_ops.csv | mpi.csv | tensor.csv | stats.csv | by_key.csv) ;; *) cut -d, -f3 "$f" ;; esac; done |
    grep -v -e '^algorithm$' -e '^auto$' -e '^torch' -e '^cupy' -e '^hipreduce' | sed 's/ gpu_to_gpu//' | sort -u | tr '\n' ' ')
torch=$(python3 -c "import torch; print(torch.__version__)" 2>/dev/null)
cupy=$(python3 -c "import cupy; print(cupy.__version__)" 2>/dev/null)
{
    echo "gpu: $gpu"
    echo "date: $(date -u +%Y-%m-%d)"
    echo "version: $version"
    # COMMIT names the source when the tree is an export (git archive) rather than a clone.
    if [ -n "${COMMIT:-}" ]; then
        echo "commit: $COMMIT"
    elif commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null); then
        echo "commit: $commit$(git -C "$root" diff --quiet HEAD -- 2>/dev/null || echo ' + local changes')"
    fi
    echo "driver: $driver"
    [ -n "$cuda" ] && echo "cuda: $cuda"
    echo "anchors: ${anchors% }${torch:+ (torch $torch${cupy:+, cupy $cupy})}"
    echo "rounds: ${rounds:-0}, $REPS calls a row, median"
    [ -n "${ceiling:-}" ] && echo "ceiling: $ceiling GB/s (the bench's read of 1 GiB)"
    echo "cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1), $(nproc) threads"
    echo "bench: ${header#\# }"
} >"$out/meta.txt"
grep -E "differs|failed|error" "$log" || true
python3 "$here/report_tables.py" write --with "$out" || rc=1
echo "report.sh: $((SECONDS - start)) s, exit $rc"
exit $rc
