#!/usr/bin/env bash
# Two builds of `judge adjudicate` side by side, taking turns, on the same
# files: to see what a change costs. Typically the build of an earlier
# commit against this one:
#
#   git worktree add /tmp/judge-before <commit>
#   (cd /tmp/judge-before && cargo build --release --bin judge)
#   benches/versions.sh /tmp/judge-before/target/release/judge target/release/judge
#
# Files: N movement phases of random games (`examples/gen_phases.rs`), with
# the orders in the short form the engine writes (`A PAR - BUR`: the fast
# path) and the same orders in mail form (`Army Paris -> Burgundy.`: the
# full order grammar, every order), made by benches/longform.py.
# Both builds must give the same answers on each file (checked first).
# Prints the median wall and CPU (user + system) time of RUNS runs of each,
# and the ratio new/old.
#
#   N=5000 RUNS=15 THREADS=1 benches/versions.sh OLD NEW
set -euo pipefail
cd "$(dirname "$0")/.."

OLD=${1:?the earlier build of judge}
NEW=${2:?the build to compare}
N=${N:-5000}
RUNS=${RUNS:-15}
SEED=${SEED:-1}
THREADS=${THREADS:-1}
OUT=${OUT:-target/versions}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$OUT"

cargo build --release --quiet --example gen_phases
"$TARGET"/release/examples/gen_phases "$N" "$SEED" >"$OUT/short.jsonl" 2>/dev/null
python3 benches/longform.py <"$OUT/short.jsonl" >"$OUT/mail.jsonl"

# One run: wall and CPU milliseconds.
run() { # binary file
    local t0 t1 cpu
    t0=$(date +%s%N)
    cpu=$( { /usr/bin/time -f '%U %S' "$1" adjudicate --threads "$THREADS" <"$2" >/dev/null; } 2>&1 | tail -n 1)
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000000 )) $(echo "$cpu" | awk '{printf "%d", ($1 + $2) * 1000}')"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

for kind in short mail; do
    file="$OUT/$kind.jsonl"
    if ! cmp -s <("$OLD" adjudicate <"$file") <("$NEW" adjudicate <"$file"); then
        echo "== $kind: the two builds answer differently (not timed as equals)"
    fi
    : >"$OUT/old-$kind.times"
    : >"$OUT/new-$kind.times"
    for _ in $(seq "$RUNS"); do
        run "$OLD" "$file" >>"$OUT/old-$kind.times"
        run "$NEW" "$file" >>"$OUT/new-$kind.times"
    done
    ow=$(cut -d' ' -f1 "$OUT/old-$kind.times" | median)
    nw=$(cut -d' ' -f1 "$OUT/new-$kind.times" | median)
    oc=$(cut -d' ' -f2 "$OUT/old-$kind.times" | median)
    nc=$(cut -d' ' -f2 "$OUT/new-$kind.times" | median)
    echo "== $kind orders, $N phases, --threads $THREADS, median of $RUNS runs each, taking turns"
    echo "   old: wall $ow ms, cpu $oc ms"
    echo "   new: wall $nw ms, cpu $nc ms"
    echo "   new/old: wall $(awk -v a="$nw" -v b="$ow" 'BEGIN {printf "%.3f", a / b}'), cpu $(awk -v a="$nc" -v b="$oc" 'BEGIN {printf "%.3f", a / b}')"
done
