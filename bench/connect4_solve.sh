#!/usr/bin/env bash
# bench/connect4_solve.sh [PLAYOUTS] - Connect Four's exact solver on the
# three reference sets of ../shared/data/connect4 (or tests/data): the time
# a position, every score checked; then the engine at PLAYOUTS (default
# 200000) playouts a move on every position, checking that its move keeps
# the game-theoretic value. Figures in docs/journal/2026-12-02-connect4-solver.md.
set -eu
PLAYOUTS=${1:-200000}
B=${B:-build/release}
make -s "$B/connect4-solve"
echo "date    : $(date -u +%Y-%m-%d)"
echo "machine : $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
"$B/connect4-solve" --engine "$PLAYOUTS" tests/data/connect4_L3_R1.txt tests/data/connect4_L2_R1.txt \
    tests/data/connect4_L2_R2.txt
