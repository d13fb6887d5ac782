#!/usr/bin/env bash
# bench/speed.sh [RUNS] - the speed figures of docs/RESULTS.md (first run:
# docs/journal/2026-11-30-speed-foundation.md): medians
# over RUNS (default 5) runs of
#   - raw rollouts per game and the signature searches (`banyan bench`),
#   - one thread, 1M playouts from the empty Connect Four board, beside raw
#     rollouts from the same position in the same run (`banyan bench --game`).
# Run it on an otherwise idle machine; it prints the machine and the date.
set -eu
RUNS=${1:-5}
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "date    : $(date -u +%Y-%m-%d)"
echo "machine : $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(free -g | awk '/Mem:/ {print $2}') GiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary  : $($B --version)"
echo "runs    : $RUNS (medians)"
echo

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$RUNS"); do
    "$B" bench > "$tmp/bench.$i"
    "$B" bench --game connect4 --playouts 1000000 > "$tmp/c4.$i"
    "$B" bench --game tictactoe --playouts 1000000 > "$tmp/ttt.$i"
done
field() { cat "$tmp"/$1.* | sed -n "s/^$2 *: *\([0-9.]*\).*/\1/p" | median; }
# "connect4   raw rollouts:  8227248 playouts/s, searches:  1353806 playouts/s, ratio 0.165"
col() { cat "$tmp"/bench.* | awk -v g="$1" -v k="$2" '$1 == g {print $k}' | tr -d , | median; }
for g in tictactoe connect4; do
    echo "bench, $g: raw rollouts $(col $g 4)/s, searches $(col $g 7)/s, ratio $(col $g 10)"
done
echo "signature: $(field bench 'Nodes searched')"
for g in c4 ttt; do
    echo
    echo "1M playouts from the empty board, one thread: $g"
    echo "  search (playouts/s)      : $(field $g 'search pps')"
    echo "  raw, same run (playouts/s): $(field $g 'raw rollout pps')"
    echo "  search / raw             : $(field $g 'search \/ raw')"
    echo "  nodes                    : $(field $g 'nodes')"
    echo "  bytes per node           : $(field $g 'bytes per node')"
    echo "  allocations during search: $(field $g 'allocations during search')"
done
