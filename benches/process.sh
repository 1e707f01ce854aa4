#!/usr/bin/env bash
# Whole processes, ours against the peer's, on the same file of phases:
#
#   judge adjudicate        < phases.jsonl > /dev/null   (ours: a worker per core)
#   judge adjudicate --threads 1 < ...                    (ours-1: one thread)
#   peer_adjudicate         < phases.jsonl > /dev/null   (the `diplomacy` crate, one thread)
#
# Builds release, writes N movement phases of random games with
# `examples/gen_phases.rs`, checks both programs read every line, then times
# each RUNS times (hyperfine if installed, else a `date +%s%N` loop) and
# prints the medians and the ratio peer/ours. Also prints, for information,
# how often the two engines' results differ on the file
# (`peer_adjudicate --compare`, not timed).
#
#   benches/process.sh                 # N=5000 RUNS=10 SEED=1
#   N=20000 RUNS=20 benches/process.sh
#   NO_HYPERFINE=1 benches/process.sh  # the plain loop even if hyperfine is there
#   FLOOR=1 benches/process.sh         # also time `examples/json_floor.rs` (hyperfine):
#                                      # the same file only read and written by serde
#
# Then it runs both programs RUNS times more, taking turns, and prints the
# medians of wall and CPU (user + system) time and their ratios.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-5000}
RUNS=${RUNS:-10}
SEED=${SEED:-1}
OUT=${OUT:-target/process}
mkdir -p "$OUT"

echo "== building (release)"
cargo build --release --quiet --bin judge --example gen_phases --example peer_adjudicate \
    --example json_floor
# Cargo's target directory (CARGO_TARGET_DIR when set).
TARGET=${CARGO_TARGET_DIR:-target}
JUDGE=${JUDGE:-$TARGET/release/judge}
PEER=$TARGET/release/examples/peer_adjudicate
DATA="$OUT/phases-$N-$SEED.jsonl"

echo "== generating $N phases (seed $SEED) into $DATA"
"$TARGET"/release/examples/gen_phases "$N" "$SEED" >"$DATA"
lines=$(wc -l <"$DATA")

# Both programs must answer every line; a program that cannot is not timed.
check() { # name command...
    local name=$1
    shift
    local got
    if ! got=$("$@" <"$DATA" 2>"$OUT/$name.err" | wc -l) || [ "$got" -ne "$lines" ]; then
        echo "   $name: FAILED ($got of $lines lines; stderr in $OUT/$name.err)"
        return 1
    fi
    echo "   $name: ok ($got lines out)"
}
echo "== checking both programs on the file"
ours_ok=1
peer_ok=1
check ours "$JUDGE" adjudicate || ours_ok=0
check peer "$PEER" || peer_ok=0
if [ "$ours_ok" = 0 ]; then
    echo "   (is \`judge adjudicate\` built into src/main.rs yet? timing the peer only)"
fi
if [ "$peer_ok" = 0 ]; then
    echo "the peer failed; giving up" >&2
    exit 1
fi

echo "== differences between the engines on this file (peer_adjudicate --compare)"
"$PEER" --compare <"$DATA" 2>&1 >/dev/null | tail -n 1

ours_cmd="$JUDGE adjudicate < $DATA > /dev/null"
ours1_cmd="$JUDGE adjudicate --threads 1 < $DATA > /dev/null"
peer_cmd="$PEER < $DATA > /dev/null"

median_of() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "== timing, $RUNS runs each"
if [ -z "${NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null && command -v jq >/dev/null; then
    cmds=()
    [ "$ours_ok" = 1 ] && cmds+=(-n ours "$ours_cmd" -n ours-1 "$ours1_cmd")
    cmds+=(-n peer "$peer_cmd")
    if [ -n "${FLOOR:-}" ]; then
        for mode in value typed; do
            cmds+=(-n "floor-$mode" "$TARGET/release/examples/json_floor $mode < $DATA > /dev/null")
        done
    fi
    hyperfine --warmup 1 --runs "$RUNS" --export-json "$OUT/hyperfine.json" "${cmds[@]}"
    med() { jq -r --arg n "$1" --arg f "$2" '.results[] | select(.command == $n) | .[$f]' "$OUT/hyperfine.json"; }
    peer_s=$(med peer median)
    ours_s=$([ "$ours_ok" = 1 ] && med ours median || echo "")
    # CPU time (mean): steadier than wall time when the machine is busy.
    peer_u=$(med peer user)
    ours_u=$([ "$ours_ok" = 1 ] && med ours user || echo "")
    ours1_s=$([ "$ours_ok" = 1 ] && med ours-1 median || echo "")
    ours1_u=$([ "$ours_ok" = 1 ] && med ours-1 user || echo "")
else
    time_runs() { # command: prints the median seconds of RUNS runs
        for _ in $(seq "$RUNS"); do
            local t0 t1
            t0=$(date +%s%N)
            sh -c "$1"
            t1=$(date +%s%N)
            echo $(((t1 - t0) / 1000))
        done | median_of | awk '{ printf "%.6f\n", $1 / 1e6 }'
    }
    sh -c "$peer_cmd" # warm-up
    peer_s=$(time_runs "$peer_cmd")
    ours_s=""
    if [ "$ours_ok" = 1 ]; then
        sh -c "$ours_cmd"
        ours_s=$(time_runs "$ours_cmd")
    fi
fi

echo
echo "== medians over $RUNS runs, $lines phases ($(nproc) cores, $(date -u +%Y-%m-%d))"
awk -v p="$peer_s" -v n="$lines" 'BEGIN { printf "peer: %8.1f ms  (%6.1f us/phase)\n", p * 1e3, p * 1e6 / n }'
if [ -n "$ours_s" ]; then
    awk -v o="$ours_s" -v n="$lines" 'BEGIN { printf "ours: %8.1f ms  (%6.1f us/phase)\n", o * 1e3, o * 1e6 / n }'
    awk -v o="$ours_s" -v p="$peer_s" 'BEGIN { printf "peer/ours: %.1fx\n", p / o }'
    if [ -n "${ours1_s:-}" ]; then
        awk -v o="$ours1_s" -v p="$peer_s" -v n="$lines" 'BEGIN {
            printf "ours, one thread: %8.1f ms  (%6.1f us/phase), peer/ours-1: %.1fx\n", o * 1e3, o * 1e6 / n, p / o }'
    fi
    if [ -n "${ours_u:-}" ]; then
        awk -v o="$ours_u" -v p="$peer_u" -v n="$lines" 'BEGIN {
            printf "user CPU (mean): peer %.1f ms, ours %.1f ms (%.1f us/phase), peer/ours %.1fx\n",
                p * 1e3, o * 1e3, o * 1e6 / n, p / o }'
        awk -v o="$ours1_u" -v p="$peer_u" 'BEGIN {
            printf "user CPU (mean), one thread: ours %.1f ms, peer/ours-1 %.1fx\n", o * 1e3, p / o }'
    fi
else
    echo "ours: not timed (judge adjudicate unavailable)"
fi

# Medians of wall and CPU time, the two programs taking turns (so that a
# change in the machine's load hits both alike); bash's `time`, to the ms.
if [ -n "$ours_s" ]; then
    echo
    echo "== wall and CPU (user + system) medians, $RUNS runs each, taking turns"
    times="$OUT/times.txt"
    : >"$times"
    for _ in $(seq "$RUNS"); do
        for who in ours ours-1 peer; do
            case $who in
            ours) cmd=$ours_cmd ;;
            ours-1) cmd=$ours1_cmd ;;
            peer) cmd=$peer_cmd ;;
            esac
            { TIMEFORMAT="$who %3R %3U %3S"; time sh -c "$cmd" 2>/dev/null; } 2>>"$times"
        done
    done
    col() { awk -v w="$1" '$1 == w { print '"$2"' }' "$times" | median_of; }
    ow=$(col ours '$2')
    oc=$(col ours '$3 + $4')
    o1w=$(col ours-1 '$2')
    o1c=$(col ours-1 '$3 + $4')
    pw=$(col peer '$2')
    pc=$(col peer '$3 + $4')
    awk -v ow="$ow" -v oc="$oc" -v o1w="$o1w" -v o1c="$o1c" -v pw="$pw" -v pc="$pc" -v n="$lines" 'BEGIN {
        printf "ours:   wall %.1f ms, CPU %.1f ms (%.1f us/phase)\n", ow * 1e3, oc * 1e3, oc * 1e6 / n
        printf "ours-1: wall %.1f ms, CPU %.1f ms (%.1f us/phase)\n", o1w * 1e3, o1c * 1e3, o1c * 1e6 / n
        printf "peer:   wall %.1f ms, CPU %.1f ms (%.1f us/phase)\n", pw * 1e3, pc * 1e3, pc * 1e6 / n
        printf "peer/ours: wall %.1fx, CPU %.1fx; peer/ours-1: wall %.1fx, CPU %.1fx\n",
            pw / ow, pc / oc, pw / o1w, pc / o1c }'
fi
