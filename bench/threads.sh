#!/usr/bin/env bash
# bench/threads.sh [RUNS] - tree parallelism on this machine: playouts per
# second with 1 and 2 threads (medians of RUNS runs, default 3, side by
# side), and the strength cost of threads at equal total playouts (1 thread
# against 2 and against 4, 100 Connect Four games each, one game at a time
# so the threads have the cores). Run it on an otherwise idle machine: it
# prints the load average before and after.
set -eu
RUNS=${1:-3}
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for spec in "connect4 1000000" "gomoku 100000"; do
    set -- $spec
    for t in 1 2; do
        for i in $(seq "$RUNS"); do
            "$B" bench --game "$1" --playouts "$2" --threads "$t" | sed -n 's/^search pps *: //p'
        done | median > "/tmp/banyan-threads-$1-$t"
    done
    one=$(cat "/tmp/banyan-threads-$1-1"); two=$(cat "/tmp/banyan-threads-$1-2")
    echo "$1, $2 playouts: 1 thread $one playouts/s, 2 threads $two playouts/s, ratio $(awk -v a="$one" -v b="$two" 'BEGIN {printf "%.2f", b / a}')"
done
for t in 2 4; do
    echo "### connect4, 20000 playouts: 1 thread against $t threads"
    "$B" match --game connect4 banyan:playouts=20000 "banyan:playouts=20000,threads=$t" \
        --openings tests/data/connect4_openings.txt --games 100 -j 1 | grep -E '^(A total|games)'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
