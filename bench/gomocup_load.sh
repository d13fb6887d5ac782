#!/usr/bin/env bash
# bench/gomocup_load.sh [GAMES] [HOGS] [TIME] - the Gomocup brain's time
# safety on a busy machine: GAMES games (default 100) of `banyan gomocup`
# against itself at TIME seconds a move (default 1) under Gomocup's turn limit
# (`--turn-limit`: an answer that takes longer loses on time), from the
# balanced 15x15 openings, one game at a time, while HOGS busy loops (default:
# as many as the machine has cores) compete for the cores. Prints the match's
# result, its forfeits, the answers' times (median, 99th percentile, slowest)
# and the load average. The brains see no match clock, so only their own
# clock tells them of late answers (proto/gomocup.c, "Time").
set -eu
GAMES=${1:-100}
HOGS=${2:-$(nproc)}
TIME=${3:-1}
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
dir=$(mktemp -d)
hogs=()
stop() {
    [ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2> /dev/null
    rm -rf "$dir"
}
trap stop EXIT
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, $HOGS busy loops, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$HOGS"); do
    sh -c 'while :; do :; done' &
    hogs+=($!)
done
BRAIN="$(cd "$(dirname "$B")" && pwd)/$(basename "$B") gomocup"
"$B" match --game gomoku "gomocup:$BRAIN" "gomocup:$BRAIN" --time "$TIME" --turn-limit \
    --openings tests/data/gomoku_openings15.txt --games "$GAMES" -j 1 \
    --records "$dir/rec" --records-format txt > "$dir/out" 2>&1 || true
grep -E '^(A total|games|time forfeit)' "$dir/out"
echo "time forfeits: $(grep -l 'time forfeit' "$dir"/rec/*.txt 2> /dev/null | wc -l) of $(ls "$dir"/rec | wc -l) games"
# The answers' times: the records' "MOVE 0.123s" lines.
sed -n 's/^[a-v][0-9]* \([0-9.]*\)s$/\1/p' "$dir"/rec/*.txt | sort -g |
    awk -v t="$TIME" '{a[NR] = $1}
        END {p = int(NR * 0.99); if (p < 1) p = 1
             if (NR) printf "answers: %d, median %.3f s, 99th percentile %.3f s, slowest %.3f s (limit %s s)\n", NR, a[int((NR + 1) / 2)], a[p], a[NR], t}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
