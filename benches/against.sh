#!/usr/bin/env bash
# The benchmarks of this tree side by side with those of an earlier
# commit, taking turns (old, new, old, new ...) so that a change of the
# machine's load hits both alike: what a change did to every figure.
#
#   benches/against.sh <commit> [bench ...]     # default: adjudicate mail daemon draw
#   ROUNDS=2 benches/against.sh 11e8e23 mail
#   benches/against.sh c7b7133 pass             # the whole deadline pass, both binaries
#
# The earlier commit is checked out in target/against/tree (a git
# worktree) and built there with its own target folder; each bench runs
# with its own defaults (environment variables such as MAILBENCH_RUNS or
# DAEMONBENCH_RUNS pass through to both). Every output is kept in
# target/against/<bench>-<old|new>-<round>.txt; at the end the summary
# lines of each are printed one above the other. A bench the earlier
# commit does not have is run for this tree only.
set -euo pipefail
cd "$(dirname "$0")/.."

OLD_REV=${1:?an earlier commit to compare with}
shift
BENCHES=${*:-adjudicate mail daemon draw}
ROUNDS=${ROUNDS:-1}
OUT=target/against
# AGAINST_TREE / AGAINST_TARGET: an existing worktree of the earlier
# commit and its target folder, to reuse a build.
TREE=${AGAINST_TREE:-$OUT/tree}
TREE_TARGET=${AGAINST_TARGET:-$PWD/$OUT/tree-target}
mkdir -p "$OUT"

if [ -e "$TREE/.git" ]; then
    git -C "$TREE" checkout --quiet -- Cargo.toml
    git -C "$TREE" checkout --quiet --detach "$OLD_REV"
else
    git worktree add --quiet --detach "$TREE" "$OLD_REV"
fi
# A commit from before the workspace (c7b7133 and older) is one package;
# inside this tree's folder cargo would take it for a member of this
# workspace: it is made a workspace of its own (the change stays in the
# tree's copy, undone at the next checkout above).
if ! grep -q '^\[workspace\]' "$TREE/Cargo.toml"; then
    printf '\n# Added by benches/against.sh: built on its own.\n[workspace]\n' >>"$TREE/Cargo.toml"
fi
echo "== building the benches of $OLD_REV ($(git -C "$TREE" log --oneline -1)) and of this tree"
(cd "$TREE" && CARGO_TARGET_DIR="$TREE_TARGET" cargo bench --no-run --quiet)
cargo bench --no-run --quiet

# What each bench prints that is worth seeing side by side.
summary() { # bench file
    case $1 in
    adjudicate) grep -E '^(case|opening|midgame|Criterion)' "$2" || true ;;
    mail) grep -E '^\| (cold|warm|pipe)|^(cold|warm):|^argon2id' "$2" || true ;;
    daemon) grep -E '^(storm/[a-z-]+: median|idle|sending side|imap)' "$2" || true ;;
    pass) grep -E '^(pass/|ratio|run [0-9])' "$2" || true ;;
    draw) grep -E '^medians|^PNG per phase|^  rasterise' "$2" || true ;;
    *) tail -n 20 "$2" ;;
    esac
}

for bench in $BENCHES; do
    if [ "$bench" = pass ]; then
        # One bench of this tree runs both builds' binaries, taking turns
        # (ROUNDS runs each); the state is built by the earlier one.
        echo "== pass: $OLD_REV and this tree, $ROUNDS run(s) each"
        PASSBENCH_RUNS=${PASSBENCH_RUNS:-$ROUNDS} cargo bench --quiet --bench pass -- \
            "$OLD_REV=$TREE_TARGET/release/judge" \
            "$(git rev-parse --short HEAD)=$PWD/target/release/judge" \
            >"$OUT/pass-both-1.txt" 2>&1 || echo "   (failed: see $OUT/pass-both-1.txt)"
        continue
    fi
    for round in $(seq "$ROUNDS"); do
        if [ -f "$TREE/benches/$bench.rs" ]; then
            echo "== $bench, round $round: $OLD_REV"
            (cd "$TREE" && CARGO_TARGET_DIR="$TREE_TARGET" cargo bench --quiet --bench "$bench") \
                >"$OUT/$bench-old-$round.txt" 2>&1 || echo "   (failed: see $OUT/$bench-old-$round.txt)"
        fi
        echo "== $bench, round $round: this tree"
        cargo bench --quiet --bench "$bench" >"$OUT/$bench-new-$round.txt" 2>&1 \
            || echo "   (failed: see $OUT/$bench-new-$round.txt)"
    done
done

for bench in $BENCHES; do
    for round in $(seq "$ROUNDS"); do
        for side in old new both; do
            f="$OUT/$bench-$side-$round.txt"
            [ -f "$f" ] || continue
            case $side in
            old) named=$OLD_REV ;;
            new) named=$(git rev-parse --short HEAD) ;;
            both) named="$OLD_REV and $(git rev-parse --short HEAD)" ;;
            esac
            echo "---- $bench, $side ($named), round $round"
            summary "$bench" "$f"
        done
    done
done
