#!/usr/bin/env bash
# tools/othello_eval.sh [GAMES [PLAYOUTS [LEAF]]] - plays GAMES self-play
# Othello games (default 4000) of PLAYOUTS simulations a move (default
# 2000) with LEAF at the leaves (rollout, the default, or eval), one
# process a core, and fits the weights of Othello's evaluation model
# (games/othello/eval.c, oth_eval_w) to their results. Prints the log-loss of
# the weights in the source and of the fit, and the fitted weights as a C
# initialiser. The games are kept in $OUT (default: a temporary folder).
# Deterministic for a given GAMES and core count. Figures in
# docs/journal/2026-12-02-othello-evaluation.md.
set -eu
GAMES=${1:-4000}
PLAYOUTS=${2:-2000}
LEAF=${3:-rollout}
B=${B:-build/release}
J=$(nproc)
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
make -s "$B/othello-eval"
echo "date    : $(date -u +%Y-%m-%d)"
echo "machine : $J cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
per=$(((GAMES + J - 1) / J))
for ((p = 0; p < J; p++)); do
    first=$((p * per))
    n=$((GAMES - first < per ? GAMES - first : per))
    "$B/othello-eval" play "$n" "$first" "$PLAYOUTS" "$LEAF" > "$OUT/games.$p" &
done
wait
echo "games   : $GAMES of $PLAYOUTS playouts a move ($LEAF) in $(($(date +%s) - start)) s, in $OUT"
cat "$OUT"/games.* | "$B/othello-eval" fit
