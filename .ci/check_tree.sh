#!/usr/bin/env bash
# The tree speaks of the product: fails (exit 1, each finding listed) when a tracked file
#  - names a work period, this project's issue numbers, helpers, agents or machine leases, or cites a
#    commit hash as history (whole words, case-insensitive; upstream references such as "cccl#3242"
#    or "pytorch issue 144431" are allowed); data (docs/data), the ABI dump and this file are not read;
#  - includes the wrong way: device/ or host/ including src/, or a library file (include/, src/,
#    host/, device/) including test/ or bench/.
#   .ci/check_tree.sh [ROOT]      (default: this clone)
set -uo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root" || exit 2
fail=0

# ---- process words ---------------------------------------------------------------------------------
# Upstream references, and the commit a performance table was measured on, are taken out of a line
# before it is matched.
upstream='\blibhipreduce [\w.-]+ \(`[0-9a-f]{7,40}`|\b[\w.-]+/[\w.-]+#\d+|\b(cccl|cub|thrust|pytorch|torch|cupy|numpy|rocm|hip|rocprim|llvm|clang|gcc|nccl|nanobind|cmake|openmpi|mpich)(\s*#|\s+issues?\s*#?)\s*\d+'
words=(
    '\bsessions?[ -]?#?\d+'                                         # "session 25", "sessions 19-20"
    '\b(this|last|next|previous|earlier|later|same|that)\s+session\b'  # a session as a work period
    '(?-i:\bS\d{1,3}\b)'                                            # period tags: S24
    '\bissues?\s*#?\d+'                                              # "issue 22", "issue #8"
    '\b(sub)?agents?\b(?!-scope)'                                    # (HIP's "agent-scope" is a memory scope)
    '\bhelpers?\b'
    '\b(leases?|leased)\b'
    '(?<![\w.#])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d[0-9a-f]*\d)(?![0-9]+e[0-9]+\b)[0-9a-f]{7,40}\b'  # a commit hash
)
pattern=$(IFS='|'; echo "${words[*]}")
files=$(git ls-files | grep -v -e '^docs/data/' -e '\.abi$' -e '^\.ci/check_tree\.sh$' -e '^LICENSE$')
# shellcheck disable=SC2086
hits=$(UPSTREAM="$upstream" PATTERN="$pattern" perl -ne '
    BEGIN { $u = qr/$ENV{UPSTREAM}/i; $p = qr/$ENV{PATTERN}/i; }
    next if /\0/;
    my $t = $_; $t =~ s/$u//g;
    print "$ARGV:$.: $_" if $t =~ $p;
} continue { close ARGV if eof; ' $files)
if [ -n "$hits" ]; then
    echo "check_tree: process words in product files (say what the code does and why; history is git's):"
    printf '%s\n' "$hits" | sed 's/^/  /'
    fail=1
fi

# ---- include directions ------------------------------------------------------------------------------
# A quoted include resolves like the compilers do here: the including file's folder first, then the
# library's include folders; src/ last, so that a header found only there counts as src/'s.
bad=""
testfiles=$(git ls-files test bench)
while IFS= read -r f; do
    dir=$(dirname "$f")
    top=${f%%/*}
    while IFS= read -r inc; do
        found=""
        for base in "$dir" include device host device/compat/emu src src/mpi; do
            if [ -f "$base/$inc" ]; then found=$(realpath -m --relative-to=. "$base/$inc"); break; fi
        done
        # not the library's (nor generated, nor a system header's): a test's or the bench's?
        [ -n "$found" ] || found=$(printf '%s\n' "$testfiles" | grep -m1 -F -x -e "test/$inc" -e "bench/$inc" |
            head -n 1)
        [ -n "$found" ] || found=$(printf '%s\n' "$testfiles" | grep -m1 -F -e "/$(basename "$inc")" |
            grep -E "/$(basename "$inc" | sed 's/\./\\./g')\$" | head -n 1)
        case "$inc$found" in
        *test/* | *bench/*) bad="$bad  $f includes \"$inc\" (${found:-test/ or bench/})"$'\n' ;;
        esac
        if [ "$top" = device ] || [ "$top" = host ]; then
            case "$found" in src/*) bad="$bad  $f includes \"$inc\" ($found): device/ and host/ never include src/"$'\n' ;; esac
        fi
    done < <(sed -n -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$f")
done < <(git ls-files include src host device | grep -E '\.(c|h|cpp|cu|cuh|hpp)$')
if [ -n "$bad" ]; then
    echo "check_tree: includes that go the wrong way (include -> src -> host -> device; nothing from test/ or bench/):"
    printf '%s' "$bad"
    fail=1
fi

[ "$fail" = 0 ] && echo "check_tree: no process words, includes go one way ($(wc -w <<<"$files") files)"
exit $fail
