#!/usr/bin/env bash
# bench/tsptw.sh [SECONDS=60] [SEED=1] [LEVEL]
# bench/tsptw.sh python [INSTANCE=rc202.2] [PLAYOUTS=20000]
#
# The first form: examples/tsptw.c (build/release/example-tsptw) on each of
# the 30 Potvin-Bengio instances of tests/data/tsptw, --time SECONDS on one
# thread with the seed SEED, NRPA at LEVEL (default: the program's, 3); each
# tour checked by tools/tsptw_check.py (exact arithmetic, the best-known
# value of best_known.txt). Prints a row an instance (best known, found,
# gap %, feasible, playouts), then how many equal the best known at 2
# decimals, how many are within 1 % of it and feasible, and how many are
# feasible. INSTANCES="rc201.1 rc204.1" runs only those; OPTIONS="--bias 2"
# adds options to every run.
#
# The second form: the Python domain (examples/tsptw.py) against the C one
# on INSTANCE with a budget of PLAYOUTS and the same seed: playouts a second
# of each, the medians of 3 runs taken in turn, and whether all six tours
# are the same.
#
#   bench/tsptw.sh 60 1               (30 x 60 s: half an hour)
#   INSTANCES="rc201.1 rc203.4" bench/tsptw.sh 2
#   bench/tsptw.sh python rc202.2 20000
set -u
cd "$(dirname "$0")/.."
TSPTW=${TSPTW:-build/release/example-tsptw}
data=tests/data/tsptw
if [ ! -x "$TSPTW" ]; then
    echo "bench/tsptw.sh: no $TSPTW (make first)" >&2
    exit 2
fi
if ! command -v python3 > /dev/null 2>&1; then
    echo "bench/tsptw.sh: python3 is needed (tools/tsptw_check.py)" >&2
    exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The median of the numbers on stdin.
median() { sort -g | awk '{ v[n++] = $1 } END { print n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2 }'; }

# rate FILE: playouts a second of a run's output.
rate() { awk '/^playouts: / { printf "%.1f\n", $2 / ($4 > 0 ? $4 : 1e-3) }' "$1"; }

if [ "${1:-}" = python ]; then
    inst=${2:-rc202.2} playouts=${3:-20000}
    file=$data/$inst.txt
    [ -f "$file" ] || { echo "bench/tsptw.sh: no instance $file" >&2; exit 2; }
    for k in 1 2 3; do
        "$TSPTW" --playouts "$playouts" --seed 1 "$file" > "$out/c$k" 2>&1 ||
            { cat "$out/c$k"; exit 1; }
        BANYAN_LIBRARY=$(dirname "$TSPTW")/libbanyan.so.0 PYTHONPATH=python \
            python3 examples/tsptw.py --playouts "$playouts" --seed 1 "$file" > "$out/p$k" 2>&1 ||
            { cat "$out/p$k"; exit 1; }
    done
    c=$(for k in 1 2 3; do rate "$out/c$k"; done | median)
    p=$(for k in 1 2 3; do rate "$out/p$k"; done | median)
    same=yes
    for f in "$out"/c2 "$out"/c3 "$out"/p1 "$out"/p2 "$out"/p3; do
        [ "$(grep -E '^(best|tour): ' "$f")" = "$(grep -E '^(best|tour): ' "$out/c1")" ] || same=no
    done
    echo "instance $inst, $playouts playouts, seed 1, medians of 3 runs taken in turn:"
    printf "  C domain       %12.0f playouts/s\n" "$c"
    printf "  Python domain  %12.0f playouts/s  (%.1f times slower)\n" "$p" \
        "$(awk -v c="$c" -v p="$p" 'BEGIN { print (p > 0 ? c / p : 0) }')"
    echo "  the same tour in all six runs: $same"
    grep -E '^(best|tour): ' "$out/c1" | sed 's/^/  C:      /'
    [ $same = yes ] || grep -E '^(best|tour): ' "$out/p1" | sed 's/^/  Python: /'
    exit 0
fi

secs=${1:-60} seed=${2:-1} level=${3:-}
instances=${INSTANCES:-$(ls $data/rc*.txt | sed 's|.*/||; s|\.txt$||')}
printf "%-8s %10s %10s %8s %-10s %10s\n" instance "best known" found "gap %" feasible playouts
n=0 equal=0 near=0 feasible=0
for inst in $instances; do
    file=$data/$inst.txt
    "$TSPTW" --time "$secs" --seed "$seed" --threads 1 ${level:+--level "$level"} ${OPTIONS:-} \
        "$file" > "$out/run" 2>&1
    tour=$(sed -n 's/^tour: //p' "$out/run")
    playouts=$(sed -n 's/^playouts: \([0-9]*\) .*/\1/p' "$out/run")
    n=$((n + 1))
    if [ -z "$tour" ]; then
        printf "%-8s %10s %10s %8s %-10s %10s\n" "$inst" - "failed" - - -
        sed 's/^/    | /' "$out/run" | tail -5
        continue
    fi
    python3 tools/tsptw_check.py "$file" $tour --best "$inst" > "$out/check" 2>&1
    rc=$?
    known=$(sed -n 's/^best known [^:]*: \([0-9.]*\) .*/\1/p' "$out/check")
    cost=$(sed -n 's/^cost: .*(exact \([0-9.]*\))$/\1/p' "$out/check")
    gap=$(sed -n 's/.*  gap \([-+0-9.]*\)%.*/\1/p' "$out/check")
    case $rc in 0) ok=yes ;; 1) ok=no ;; *) ok="bad tour" ;; esac
    # A gap a hair under the rounded best known (-0.001) as 0.00.
    printf "%-8s %10s %10.4f %8s %-10s %10s\n" "$inst" "${known:--}" "${cost:-0}" \
        "$(awk -v g="${gap:-0}" 'BEGIN { g = sprintf("%.2f", g); print g + 0 == 0 ? "0.00" : g }')" "$ok" "$playouts"
    if [ $rc -eq 0 ]; then
        feasible=$((feasible + 1))
        grep -q '(equal at 2 decimals)' "$out/check" && equal=$((equal + 1))
        awk -v g="${gap:-100}" 'BEGIN { exit !(g <= 1) }' && near=$((near + 1))
    fi
done
echo "equal to the best known (2 decimals): $equal of $n"
echo "within 1 % of the best known, feasible: $near of $n"
echo "feasible: $feasible of $n"
echo "($TSPTW --time $secs --seed $seed --threads 1${level:+ --level $level}${OPTIONS:+ $OPTIONS})"
