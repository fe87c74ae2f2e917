#!/usr/bin/env bash
# The rows of issue 21's and issue 22's tables (docs/BENCHMARKS.md "Issue 21's table on the final
# commit"), in one call on an NVIDIA machine:
#   bench/issue_tables.sh BUILD_DIR OUT_DIR
# BUILD_DIR's hipreduce-bench (cuda, HIPREDUCE_BENCH_CCCL_INCLUDE set: CUB 3.5 races each row in the
# same process, call by call) runs every case ROUNDS times (default 2), case after case, so that the
# spread between rounds is quoted beside each figure. f32 unless named; GB/s counts the input bytes.
# Writes OUT_DIR/rROUND.csv (every row, with a "case" column) and OUT_DIR/summary.txt
# (bench/issue_summary.py: per case, ours and CUB 3.5 over the rounds as ranges). CASES=regex runs
# only the cases whose names it matches (e.g. CASES='^(exact|dot|adv)').
set -uo pipefail
build=${1:?usage: bench/issue_tables.sh BUILD_DIR OUT_DIR}
out=${2:?usage: bench/issue_tables.sh BUILD_DIR OUT_DIR}
bench="$build/bench/hipreduce-bench"
[ -x "$bench" ] || { echo "issue_tables.sh: no $bench" >&2; exit 2; }
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
reps=${REPS:-20}
rc=0

# case NAME ROUND [VAR=VALUE ...] -- hipreduce-bench arguments (CASES=regex: only the cases it matches)
case_run() {
    local name=$1 round=$2
    [[ "$name" =~ ${CASES:-.} ]] || return 0
    shift 2
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" "$bench" --algorithms=auto --format=csv --output="$out/tmp.csv" "$@" 2>>"$out/bench.log" || {
        echo "issue_tables.sh: $name failed" | tee -a "$out/bench.log"
        rc=1
        return
    }
    grep -v '^#' "$out/tmp.csv" | sed -n '2,$p' | sed "s/^/$name,/" >>"$out/r$round.csv"
}

for round in $(seq 1 "${ROUNDS:-2}"); do
    echo "case,algorithm,op,dtype,n,ms,gbps,pct_ceiling,vendor_ms,ratio,ceiling_gbps,out_dtype,status,shape" >"$out/r$round.csv"
    r=(--reps="$reps" --warmup=3)
    # Issue 21: segments (HIPREDUCE_BENCH_LENGTHS picks the length distribution; seed 1)
    case_run ragged_64x0..2^22 "$round" HIPREDUCE_BENCH_LENGTHS=uniform -- --shape=ragged --dims=64x2^22 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    case_run ragged_giants "$round" HIPREDUCE_BENCH_LENGTHS=giants -- --shape=ragged --dims=2^20x2^24 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    case_run ragged_powerlaw "$round" HIPREDUCE_BENCH_LENGTHS=powerlaw -- --shape=ragged --dims=2^20x2^22 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    case_run ragged_262144x0..511 "$round" HIPREDUCE_BENCH_LENGTHS=uniform -- --shape=ragged --dims=262144x511 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    case_run ragged_mid "$round" HIPREDUCE_BENCH_LENGTHS=uniform -- --shape=ragged --dims=65536x2048,16384x8192,4096x32768,1024x131072 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    case_run ragged_fixed "$round" HIPREDUCE_BENCH_LENGTHS=fixed -- --shape=ragged --dims=16384x4096,16384x4097,1x2^28 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    # every segment empty (the kind ignores M, which --dims wants at least 1)
    case_run ragged_empty "$round" HIPREDUCE_BENCH_LENGTHS=empty -- --shape=ragged --dims=2^20x1 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    # rows and columns
    case_run rows_sum "$round" -- --shape=rows --dims=4194304x16,8388608x8,65536x1024,1048576x64 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    case_run rows_argmax "$round" -- --shape=rows --dims=4194304x16,8388608x8,65536x1024,262144x256,1048576x64 --ops=argmax --dtypes=f32 --out=f32 "${r[@]}"
    case_run cols_sum "$round" -- --shape=cols --dims=16x4194304 --ops=sum --dtypes=f32 --out=f32 "${r[@]}"
    # narrow keys and widening sums against the same-size read
    case_run narrow_argmax "$round" -- --ops=argmax --dtypes=f16,bf16,i8,u8,i16 --out=same --sizes=2^28 --ceiling=same "${r[@]}"
    case_run i8_i64 "$round" -- --ops=sum --dtypes=i8 --out=i64 --sizes=2^28 --ceiling=same "${r[@]}"
    # mid sizes: time against CUB 3.5's
    case_run mid_sizes "$round" -- --ops=sum --dtypes=f32 --out=f32 --sizes=2^20,2^21,2^22 --reps=200 --warmup=20
    # Issue 22: exact sums (CUB 3.5's default and gpu_to_gpu rows beside the f32 ones)
    case_run exact_f32 "$round" -- --ops=sum,sum_exact --dtypes=f32 --out=f32 --sizes=2^28 "${r[@]}"
    case_run exact_f64 "$round" -- --ops=sum_exact --dtypes=f64 --out=f64 --sizes=2^27 "${r[@]}"
    # f16 and bf16 each in a process of its own: the exact sums ran 2-11 points slower on a process's
    # second input allocation (docs/BENCHMARKS.md, session 19), which fell to bf16 when they shared one
    case_run exact_f16 "$round" -- --ops=sum_exact --dtypes=f16 --out=f32 --sizes=2^28 --ceiling=same "${r[@]}"
    case_run exact_bf16 "$round" -- --ops=sum_exact --dtypes=bf16 --out=f32 --sizes=2^28 --ceiling=same "${r[@]}"
    case_run dot_exact "$round" -- --ops=dot_exact --dtypes=f32,f64 --out=same --sizes=2^27 "${r[@]}"
    case_run exact_rows "$round" -- --shape=rows --dims=65536x1024,262144x256,16384x4096 --ops=sum_exact --dtypes=f32,bf16 --out=f32 "${r[@]}"
    case_run exact_rows_f64 "$round" -- --shape=rows --dims=65536x512,262144x100 --ops=sum_exact --dtypes=f64 --out=f64 "${r[@]}"
    case_run exact_ragged "$round" HIPREDUCE_BENCH_LENGTHS=uniform -- --shape=ragged --dims=65536x2048 --ops=sum_exact --dtypes=f32 --out=f32 "${r[@]}"
    for fill in binades alternating cancel; do
        case_run "adversarial_$fill" "$round" HIPREDUCE_BENCH_VALUES=$fill -- --ops=sum_exact,dot_exact --dtypes=f32,f64 --out=same \
            --sizes=2^26 --reps=10 --warmup=2
    done
done
rm -f "$out/tmp.csv"
python3 "$here/issue_summary.py" "$out" | tee "$out/summary.txt"
exit $rc
