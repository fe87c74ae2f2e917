#!/usr/bin/env bash
# The full reduction's speed before and after a change, in one call on an NVIDIA machine:
#   bench/compare_builds.sh OUT_DIR LABEL=BUILD_DIR [LABEL=BUILD_DIR ...]
# Each build's hipreduce-bench (cuda, built with HIPREDUCE_BENCH_CCCL_INCLUDE for CUB 3.5) runs the
# same cases ROUNDS times (default 2), the builds taking turns case by case, so that the spread
# between two rounds of one build is the run-to-run noise to quote beside any difference:
#   f32, f64 sums and i8 -> i64 sums, f32 argmax, argmax of the 8/16-bit dtypes, at 2^10 .. 2^28
#   (even powers and 2^21, 2^22, 2^23)
# Writes OUT_DIR/LABEL.rROUND.csv and OUT_DIR/summary.txt (bench/compare_summary.py).
set -uo pipefail
out=${1:?usage: bench/compare_builds.sh OUT_DIR LABEL=BUILD_DIR ...}
shift
[ $# -ge 1 ] || { echo "compare_builds.sh: name at least one LABEL=BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
sizes=2^10,2^12,2^14,2^16,2^18,2^20,2^21,2^22,2^23,2^24,2^26,2^28
rc=0
for round in $(seq 1 "${ROUNDS:-2}"); do
  for cases in "sum f32,f64 f32,f64" "sum i8 i64" "argmax f32 f32" "argmax i8,u8,i16,u16,f16,bf16 same"; do
    read -r op dtypes outs <<<"$cases"
    for spec in "$@"; do # the builds take turns case by case
      label=${spec%%=*}
      bench="${spec#*=}/bench/hipreduce-bench"
      [ -x "$bench" ] || { echo "compare_builds.sh: no $bench" >&2; exit 2; }
      "$bench" --algorithms=auto --ops="$op" --dtypes="$dtypes" --out="$outs" --sizes="$sizes" --reps="${REPS:-100}" \
        --warmup=5 --format=csv --output="$out/tmp.csv" 2>>"$out/bench.log" || {
        echo "compare_builds.sh: $label $op $dtypes failed" | tee -a "$out/bench.log"
        rc=1
      }
      cat "$out/tmp.csv" >>"$out/$label.r$round.csv"
    done
  done
done
rm -f "$out/tmp.csv"
python3 "$here/compare_summary.py" "$out" | tee "$out/summary.txt"
exit $rc
