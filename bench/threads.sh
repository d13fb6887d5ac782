#!/usr/bin/env bash
# bench/threads.sh [RUNS] - parallel search on this machine: playouts per
# second with 1 thread and with 2 threads on one shared tree and on a tree
# each (medians of RUNS runs, default 3, side by side), and the strength
# cost of threads at equal total playouts (1 thread against 2 and against 4
# on a shared tree, and against 2 on a tree each, 100 Connect Four games
# each, one game at a time so the threads have the cores). Run it on an otherwise idle machine: it
# prints the load average before and after.
set -eu
RUNS=${1:-3}
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", b / a}'; }
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# Connect Four without its opening book, which proves the empty board before
# any simulation (the bench would time nothing).
for spec in "connect4 1000000 book=off" "gomoku 100000 rule=freestyle"; do
    set -- $spec
    for run in $(seq "$RUNS"); do
        for mode in "1 tree" "2 tree" "2 root"; do
            set -- $spec $mode
            printf '%s ' "$(echo $mode | tr ' ' -)"
            "$B" bench --game "$1" --param "$3" --playouts "$2" --threads "$4" --parallel "$5" |
                sed -n 's/^search pps *: //p'
        done
    done > /tmp/banyan-threads
    set -- $spec
    one=$(grep '^1-tree' /tmp/banyan-threads | cut -d' ' -f2 | median)
    tree=$(grep '^2-tree' /tmp/banyan-threads | cut -d' ' -f2 | median)
    root=$(grep '^2-root' /tmp/banyan-threads | cut -d' ' -f2 | median)
    echo "$1, $2 playouts: 1 thread $one playouts/s; 2 threads, one tree $tree" \
        "($(ratio "$one" "$tree")x); 2 threads, a tree each $root ($(ratio "$one" "$root")x)"
done
for opp in threads=2 threads=4 threads=2,parallel=root; do
    echo "### connect4, 20000 playouts: 1 thread against $opp"
    "$B" match --game connect4 banyan:playouts=20000 "banyan:playouts=20000,$opp" \
        --openings tests/data/connect4_openings.txt --games 100 -j 1 | grep -E '^(A total|games)'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
