# shellcheck shell=bash disable=SC2034,SC2154  # the caller's variables (below)
# Sourced by bench/report.sh and bench/suites.sh: hipreduce-bench runs and the torch/cupy anchor
# scripts' batches, appended to the family CSVs of $out (bench/report_tables.py append).
# Expects: bench (hipreduce-bench), here (bench/), build, out, tmp (a scratch folder), log, REPS,
# and for fits start (SECONDS at the start) and last (the first round's seconds).
# Sets rc=1 when something failed; ceiling and header from the first run that names them.

# fits ROUND BUDGET: whether round ROUND may start: the first always, a later one while the time
# since $start and one more round as long as the first stay within BUDGET seconds.
fits() {
    if [ "$1" -gt 1 ] && [ $((SECONDS - start + last)) -gt "$2" ]; then
        echo "${0##*/}: round $1 and later left out (a round takes ${last} s; budget $2 s)" | tee -a "$log"
        return 1
    fi
}

# run FAMILIES ROUND CASE [VAR=VALUE ...] -- hipreduce-bench arguments
# FAMILIES: one family, or several comma-separated that all receive the rows (a shape two suites share).
run() {
    local families=$1 round=$2 case=$3 envs=() family
    shift 3
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    if ! env ${envs[@]+"${envs[@]}"} "$bench" --algorithms=auto --format=csv --output="$tmp/run.csv" \
        --reps="$REPS" --warmup=3 "$@" 2>"$tmp/err"; then
        echo "${0##*/}: $families $case failed: $(tail -n 1 "$tmp/err")" | tee -a "$log"
        rc=1
        return
    fi
    tr '\r' '\n' <"$tmp/err" | grep -v -e '^\[' -e '^ *$' >>"$log"
    [ -n "${ceiling:-}" ] || ceiling=$(sed -n 's/.*read ceiling \([0-9.]*\) GB\/s.*/\1/p' "$tmp/run.csv" | head -n 1)
    [ -n "${header:-}" ] || header=$(grep -m1 '^#' "$tmp/run.csv")
    for family in ${families//,/ }; do
        python3 "$here/report_tables.py" append "$out/$family.csv" "$round" "$case" "$tmp/run.csv"
    done
}

# queue FAMILIES SCRIPT ARGS...: one line of SCRIPT's --batch file (bench/torch_anchors.py or
# torch_axis_anchors.py); flush runs it, and the CSV it writes is appended to each family.
queue() {
    local families=$1 script=$2
    shift 2
    queued=$((${queued:-0} + 1))
    local csv="$tmp/anchor$queued.csv"
    {
        printf '%q ' --reps "$REPS" --warmup 3 ${ceiling:+--ceiling "$ceiling"} --output "$csv" "$@"
        echo
    } >>"$tmp/$script.batch"
    printf '%s\t%s\n' "$families" "$csv" >>"$tmp/$script.map"
}

# flush: each script's queued lines in one process (torch and CUDA start once; a line that fails
# is logged and the next one runs), then their CSVs into the families, as round 1, case "torch".
flush() {
    local script families csv family
    for script in torch_anchors.py torch_axis_anchors.py; do
        [ -s "$tmp/$script.batch" ] || continue
        if ! PYTHONUNBUFFERED=1 PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}" \
            python3 "$here/$script" --batch "$tmp/$script.batch" 2>>"$log"; then
            echo "${0##*/}: $script: a line failed (report.log)" | tee -a "$log"
            rc=1
        fi
        while IFS=$'\t' read -r families csv; do
            [ -s "$csv" ] || continue
            for family in ${families//,/ }; do
                python3 "$here/report_tables.py" append "$out/$family.csv" 1 torch "$csv"
            done
        done <"$tmp/$script.map"
        rm -f "$tmp/$script.batch" "$tmp/$script.map"
    done
}
