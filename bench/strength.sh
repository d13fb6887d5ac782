#!/usr/bin/env bash
# bench/strength.sh [NAME] - the matches of docs/RESULTS.md between Banyan's own
# configurations (from docs/journal/2026-11-30-first-matches.md on), each an
# exact `banyan match` command. With a NAME, runs only that match. Results
# are deterministic for playout-limited players (seeds are per game), so a
# rerun on any machine gives the same table; time-limited ones vary.
set -eu
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
run() {
    local name=$1; shift
    [ $# -gt 0 ] || return 0
    if [ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ]; then
        echo "### $name"
        echo "\$ banyan match $*"
        "$B" match "$@" | grep -v '^\['
        echo
    fi
}
ONLY=${1:-}
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo
run c4-playouts --game connect4 banyan:playouts=20000 banyan:playouts=2000 \
    --openings tests/data/connect4_openings.txt --games 100 -j 2
run c4-select --game connect4 banyan:playouts=20000 banyan:playouts=20000,select=puct \
    --openings tests/data/connect4_openings.txt --games 100 -j 2
run ttt-perfect --game tictactoe banyan:playouts=3000 banyan:playouts=3000,c=0.7 --games 100 -j 2
run gomoku-textbook --game gomoku banyan:playouts=2000 banyan:policy=textbook \
    --openings tests/data/gomoku_openings15.txt --games 200 -j 2
run gomoku-rollout-uniform --game gomoku banyan:playouts=2000 "banyan:playouts=2000,params=rollout=uniform" \
    --openings tests/data/gomoku_openings15.txt --games 60 -j 2
run gomoku-priors-off --game gomoku banyan:playouts=2000 "banyan:playouts=2000,params=priors=off" \
    --openings tests/data/gomoku_openings15.txt --games 60 -j 2
run gomoku-textbook-1s --game gomoku banyan:time=1 banyan:time=1,policy=textbook \
    --openings tests/data/gomoku_openings15.txt --games 200 -j 2
# 2026-12-01: the evaluation at the leaves, PUCT, and the real engines.
run gomoku-eval-vs-rollout-0.2s --game gomoku banyan:time=0.2 banyan:time=0.2,leaf=rollout,select=uct \
    --openings tests/data/gomoku_openings15.txt --games 40
run gomoku-puct-vs-uct --game gomoku banyan:playouts=2000,select=puct banyan:playouts=2000,select=uct \
    --openings tests/data/gomoku_openings15.txt --games 40
run gomoku-textbook-2000 --game gomoku banyan:playouts=2000 banyan:policy=textbook \
    --openings tests/data/gomoku_openings15.txt --games 100
# Real engines, built outside the project (docs/STRENGTH.md, "The opponents",
# says how): PELA
# and RAPFI name their pbrain programs; without them these are skipped.
[ -n "${PELA:-}" ] && run gomoku-pela-1s --game gomoku banyan:time=1 "gomocup:$PELA" --time 1 --turn-limit \
    --openings tests/data/gomoku_openings15.txt --games 40
[ -n "${RAPFI:-}" ] && run gomoku-rapfi-1s --game gomoku banyan:time=1 "gomocup@$(dirname "$RAPFI"):$RAPFI" \
    --time 1 --turn-limit --openings tests/data/gomoku_openings15.txt --games 40
true
