#!/usr/bin/env bash
# The exact sums before and after changes to them, in one call on an NVIDIA machine:
#   bench/exact_ab.sh OUT_DIR [PATCH[+PATCH...] ...]
# Builds hipreduce-bench from this tree (static library, so that each variant is one executable; the
# visible GPUs' architecture; CUB 3.5 where CCCL_INCLUDE names its headers) as "base", then once a
# variant: its patch applied to the same tree (patch -p1), an incremental build, the executable
# kept, the patch taken back out. A variant A.patch+B.patch (paths joined by '+') is the patches
# applied in that order, labelled A+B. A change to the exact kernels' headers recompiles
# host/exact_driver.cpp alone (some 23 s on the H200 machine); one to a header that every source
# includes (device/compat/*.h, hip_compat.h) rebuilds them all (125 s a variant): an A/B patch keeps
# such a helper beside the kernels. The variants then take turns case by case, ROUNDS times (default
# 2), so that the spread between rounds is the noise to quote beside a difference. A case is one
# process: the full reductions run the same dtype and size three times (three input allocations one
# after another: the second is slower for the exact sums, docs/BENCHMARKS.md session 19), the slices
# a few row lengths. CASES=regex picks cases by name. Writes OUT_DIR/LABEL.rROUND.csv (the rows of
# the `auto` algorithm, with a case column), OUT_DIR/build.log and OUT_DIR/summary.txt
# (bench/exact_ab_summary.py). The tree must have no uncommitted change to the patched files.
# Each variant's exact suite (test/test_exact.c on GPU 0, bit for bit against its reference and
# the cpu device) runs once before the timing: OUT_DIR/LABEL.test.log, its verdict in the summary
# (a variant that fails it is timed all the same). BACKEND=cpu builds the cpu backend instead (its
# bench times the cpu device, the suite skips: a dry run of this script on a machine without a
# GPU); BUILD_DIR (default /tmp/hipreduce_exact_ab) is kept.
set -uo pipefail
out=${1:?usage: bench/exact_ab.sh OUT_DIR [PATCH[+PATCH...] ...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=${BUILD_DIR:-/tmp/hipreduce_exact_ab}
mkdir -p "$out" "$out/bin"
out=$(cd "$out" && pwd)
# apply PATCH [-R]: by patch(1), else by git apply (which needs no repository)
apply() {
  local how=${2:---forward}
  if command -v patch >/dev/null; then
    (cd "$src" && patch -p1 --quiet --reject-file=- "$how" <"$1")
  else
    (cd "$src" && git apply ${2:-} "$1")
  fi
}

cmake -S "$src" -B "$build" -G Ninja -DHIPREDUCE_BACKEND="${BACKEND:-cuda}" -DHIPREDUCE_STATIC=ON -DHIPREDUCE_MPI=OFF \
  -DHIPREDUCE_PYTHON=OFF -DHIPREDUCE_BUILD_TESTS=ON -DHIPREDUCE_BUILD_EXAMPLES=OFF \
  ${CCCL_INCLUDE:+-DHIPREDUCE_BENCH_CCCL_INCLUDE="$CCCL_INCLUDE"} >"$out/build.log" 2>&1 || {
  echo "exact_ab.sh: configure failed ($out/build.log)" >&2
  exit 1
}
# build LABEL: the tree as it stands into $out/bin/LABEL (the bench) and $out/bin/LABEL.test
build_as() {
  local t0=$SECONDS
  cmake --build "$build" --target hipreduce-bench hipreduce_test_exact >>"$out/build.log" 2>&1 || return 1
  cp "$build/bench/hipreduce-bench" "$out/bin/$1"
  cp "$build/test/hipreduce_test_exact" "$out/bin/$1.test"
  echo "exact_ab.sh: built $1 in $((SECONDS - t0)) s"
}
build_as base || { echo "exact_ab.sh: the base build failed ($out/build.log)" >&2; exit 1; }
labels=(base)
for v in "$@"; do
  IFS=+ read -ra parts <<<"$v"
  label="" applied=()
  for p in "${parts[@]}"; do
    p=$(cd "$(dirname "$p")" && pwd)/$(basename "$p") # apply() reads it from $src
    label+="${label:++}$(basename "$p" .patch)"
    apply "$p" && applied=("$p" "${applied[@]}") && continue
    echo "exact_ab.sh: $p does not apply" >&2
    for q in "${applied[@]}"; do apply "$q" -R; done
    exit 1
  done
  build_as "$label"
  built=$?
  for p in "${applied[@]}"; do # last applied first
    apply "$p" -R || { echo "exact_ab.sh: $p did not come back out: the tree is patched" >&2; exit 1; }
  done
  [ $built -eq 0 ] || { echo "exact_ab.sh: $label does not build ($out/build.log)" >&2; exit 1; }
  labels+=("$label")
done

rc=0
for label in "${labels[@]}"; do
  "$out/bin/$label.test" gpu >"$out/$label.test.log" 2>&1
  case $? in
  0) echo "passed" >"$out/$label.test" ;;
  77) echo "skipped (no GPU)" >"$out/$label.test" ;;
  *) echo "FAILED ($label.test.log)" >"$out/$label.test"; rc=1 ;;
  esac
done
# case NAME ROUND hipreduce-bench arguments...: every variant in turn
case_run() {
  local name=$1 round=$2 label
  shift 2
  [[ "$name" =~ ${CASES:-.} ]] || return 0
  for label in "${labels[@]}"; do
    "$out/bin/$label" --algorithms=auto --ceiling=same --reps="${REPS:-20}" --warmup=3 --format=csv \
      --output="$out/tmp.csv" "$@" 2>>"$out/bench.log" || {
      echo "exact_ab.sh: $label $name failed" | tee -a "$out/bench.log"
      rc=1
      continue
    }
    [ -f "$out/$label.r$round.csv" ] || grep -m1 '^algorithm,' "$out/tmp.csv" | sed 's/^/case,/' >"$out/$label.r$round.csv"
    grep '^auto,' "$out/tmp.csv" | sed "s/^/$name,/" >>"$out/$label.r$round.csv"
  done
}
x3() { echo "$1,$1,$1"; }
for round in $(seq 1 "${ROUNDS:-2}"); do
  case_run bf16 "$round" --ops=sum_exact --dtypes=bf16 --out=f32 --sizes="$(x3 2^28)"
  case_run f16 "$round" --ops=sum_exact --dtypes=f16 --out=f32 --sizes="$(x3 2^28)"
  case_run f32 "$round" --ops=sum_exact --dtypes=f32 --out=f32 --sizes="$(x3 2^28)"
  case_run f64 "$round" --ops=sum_exact --dtypes=f64 --out=f64 --sizes="$(x3 2^27)"
  case_run dot_f32 "$round" --ops=dot_exact --dtypes=f32 --out=f32 --sizes="$(x3 2^27)"
  case_run rows "$round" --shape=rows --dims=65536x1024,262144x256,16384x4096,1048576x61 --ops=sum_exact --dtypes=f32,bf16 --out=f32
  case_run segments "$round" --shape=ragged --dims=65536x2048,1048576x64,8192x16384 --ops=sum_exact --dtypes=f32,bf16 --out=f32
done
rm -f "$out/tmp.csv"
python3 "$here/exact_ab_summary.py" "$out" "${labels[@]}" | tee "$out/summary.txt"
exit $rc
