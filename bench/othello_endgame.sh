#!/usr/bin/env bash
# bench/othello_endgame.sh [FILE.obf...] - Othello's exact solver on the
# FForum endgame problems (tests/data/fforum-1-19.obf and fforum-20-39.obf
# by default): each position solved with one thread and no budget, the move
# and score checked against the file's answers, with the positions visited
# and the time per problem (build/<mode>/othello-endgame, bench/othello_endgame.c;
# --table BITS first gives the solver a table of 2^BITS entries, 24 bytes each).
# Exits 1 when a problem is solved wrongly.
set -eu
MODE=${MODE:-release}
P=build/$MODE/othello-endgame
make -s "$P"
[ $# -gt 0 ] || set -- tests/data/fforum-1-19.obf tests/data/fforum-20-39.obf
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, $(uname -m)"
exec "$P" "$@"
