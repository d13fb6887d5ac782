#!/usr/bin/env bash
# bench/solo.sh BANYAN RULE SECONDS SEEDS JOBS -- CONFIG [CONFIG ...]
#
# Morpion Solitaire with `banyan solo`: for each CONFIG (engine and solo
# options in one word, commas for spaces: "--c,0.1,--adaptive,on"; "-" for
# none) one search of SECONDS for each seed 1..SEEDS, JOBS at a time, then
# per config the scores, their median, mean and best.
# docs/journal/2026-12-02-morpion.md records the runs.
#
#   bench/solo.sh build/release/banyan 5d 60 8 2 -- - --adaptive,on
set -eu
if [ $# -lt 7 ] || [ "$6" != "--" ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
banyan=$1 rule=$2 secs=$3 seeds=$4 jobs=$5
shift 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
k=0
for cfg in "$@"; do
    for s in $(seq 1 "$seeds"); do
        echo "$k $s $cfg"
    done
    k=$((k + 1))
done | xargs -P "$jobs" -L 1 sh -c '
    opts=$(echo "$3" | tr "," " "); [ "$3" = - ] && opts=
    "$0" solo --game morpion --param rule='"$rule"' --time '"$secs"' --seed "$2" $opts \
        > "'"$out"'/$1-$2.txt" 2>&1' "$banyan"
k=0
for cfg in "$@"; do
    scores=$(for s in $(seq 1 "$seeds"); do
        sed -n 's/^best: //p' "$out/$k-$s.txt"; done | sort -n | tr '\n' ' ')
    echo "$cfg: $scores" | awk '{
        n = 0; sum = 0
        for (i = 2; i <= NF; i++) { v[n++] = $i; sum += $i }
        med = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
        printf "%-40s median %5.1f  mean %5.1f  best %3d  (%s)\n", $1, med, sum / n, v[n - 1],
            substr($0, index($0, $2))
    }'
    k=$((k + 1))
done
