#!/usr/bin/env bash
# bench/nrpa_speed.sh [INSTANCE=rc201.1] [LEVEL=3] [ROUNDS=3] [SEED=1]
#
# NRPA's inner loop: the library's (examples/tsptw.c through
# banyan_solo_run, build/release/example-tsptw) against a tight reference
# of its own in plain C (bench/nrpa_ref.c, build/release/nrpa-ref) on one
# Potvin-Bengio instance, one whole run of LEVEL each, one thread, taken in
# turn ROUNDS times: playouts a second of each (the median), their ratio,
# and whether every run found the same tour (the two are the same
# algorithm with the same random draws, so they must).
#
#   make build/release/example-tsptw build/release/nrpa-ref && bench/nrpa_speed.sh
set -u
cd "$(dirname "$0")/.."
inst=${1:-rc201.1} level=${2:-3} rounds=${3:-3} seed=${4:-1}
lib=${TSPTW:-build/release/example-tsptw} ref=${REF:-build/release/nrpa-ref}
for p in "$lib" "$ref"; do
    [ -x "$p" ] || { echo "bench/nrpa_speed.sh: no $p (make $p)" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
f=tests/data/tsptw/$inst.txt
for r in $(seq 1 "$rounds"); do
    "$ref" --level "$level" --seed "$seed" "$f" > "$out/ref$r"
    "$lib" --level "$level" --seed "$seed" "$f" > "$out/lib$r"
done
# rate FILE: playouts a second of one run.
rate() { awk '/^playouts:/ { printf "%.0f\n", $2 / $4 }' "$1"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
lib_rate=$(for r in $(seq 1 "$rounds"); do rate "$out/lib$r"; done | median)
ref_rate=$(for r in $(seq 1 "$rounds"); do rate "$out/ref$r"; done | median)
tours=$(cat "$out"/lib* "$out"/ref* | grep -E '^(best|tour):' | sort -u | wc -l)
echo "instance $inst, level $level, seed $seed, $rounds rounds taken in turn"
echo "library (banyan_solo_run on examples/tsptw.c): $lib_rate playouts/s (median)"
echo "reference (bench/nrpa_ref.c):                  $ref_rate playouts/s (median)"
awk -v a="$lib_rate" -v b="$ref_rate" 'BEGIN { printf "library / reference: %.2f\n", a / b }'
[ "$tours" = 2 ] && echo "every run found the same tour: $(grep '^best:' "$out/lib1")" ||
    echo "the runs found different tours (a difference between the two algorithms)"
