#!/usr/bin/env bash
# bench/nested.sh BANYAN RULE SECONDS SEEDS JOBS -- CONFIG [CONFIG ...]
#
# Morpion Solitaire (rule 5d or 5t) with `banyan solo`, for the nested
# algorithms' figures: for each CONFIG (solo options in one word, commas
# for spaces: "--algorithm,nrpa,--level,3"; "-" for the default search)
# one run of each seed 1..SEEDS, JOBS at a time, within SECONDS (0: no
# budget, whole runs). Each best game is saved, then read back by
# `banyan solo --load`, which replays it move by move and scores it; a
# line a run: the score, when it was found, the playouts and the check.
# docs/journal/2026-12-06-nrpa.md records the runs.
#
#   bench/nested.sh build/release/banyan 5d 0 5 2 -- --algorithm,nrpa,--level,3
set -eu
if [ $# -lt 7 ] || [ "$6" != "--" ]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
banyan=$1 rule=$2 secs=$3 seeds=$4 jobs=$5
shift 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
budget=
[ "$secs" != 0 ] && budget="--time $secs"
k=0
for cfg in "$@"; do
    for s in $(seq 1 "$seeds"); do
        echo "$k $s $cfg"
    done
    k=$((k + 1))
done | xargs -P "$jobs" -L 1 sh -c '
    opts=$(echo "$3" | tr "," " "); [ "$3" = - ] && opts=
    "$0" solo --game morpion --param rule='"$rule"' '"$budget"' --seed "$2" $opts \
        --save "'"$out"'/$1-$2.game" > "'"$out"'/$1-$2.txt" 2>&1' "$banyan"
k=0
for cfg in "$@"; do
    for s in $(seq 1 "$seeds"); do
        f=$out/$k-$s
        best=$(sed -n 's/^best: //p' "$f.txt")
        # The time of the last better game a nested run printed ("  12.3 s
        # run 1: a game of 80 found"), else the whole run's.
        when=$(sed -n 's/^ *\([0-9.]*\) s .*a game of .* found$/\1/p' "$f.txt" | tail -1)
        playouts=$(sed -n 's/^run .*, \([0-9]*\) playouts.*/\1/p' "$f.txt" |
            awk '{ n += $1 } END { print n + 0 }')
        check=$("$banyan" solo --load "$f.game" 2>&1 |
            sed -n 's/.*a finished game of \([0-9]*\) moves, score \([0-9.]*\).*/\1 moves, score \2/p')
        printf '%-40s seed %2d  best %4s  at %7s s  playouts %11s  replayed: %s\n' "$cfg" "$s" \
            "${best:-none}" "${when:--}" "$playouts" "${check:-FAILED}"
    done
    k=$((k + 1))
done
