#!/usr/bin/env bash
# bench/connect4_solve.sh [PLAYOUTS] - Connect Four's exact solver on the
# three reference sets of ../shared/data/connect4 (or tests/data): the time
# a position, every score checked; then the engine at PLAYOUTS (default
# 200000) playouts a move on every position, checking that its move keeps
# the game-theoretic value. Figures in docs/journal/2026-12-02-connect4-solver.md.
#
# bench/connect4_solve.sh --score [RUNS] - the score alone, as Pascal Pons'
# benchmark times it (table cleared before each position), on his six test
# sets: his three and the three begin sets made the same way
# (bench/connect4_sets.py), RUNS times in turns (default 3). With PONS set to
# a program that reads the same lines on stdin and prints one summary line
# (a timing main around his solver, built outside the project), it runs in
# turn with Banyan's. Figures in docs/journal/2026-12-07-connect4-pons.md.
set -eu
B=${B:-build/release}
make -s "$B/connect4-solve"
echo "date    : $(date -u +%Y-%m-%d)"
echo "machine : $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${1:-}" = --score ]; then
    RUNS=${2:-3}
    for set in L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3; do
        f=tests/data/connect4_$set.txt
        for run in $(seq "$RUNS"); do
            echo "$set run $run banyan: $("$B/connect4-solve" --score "$f" | sed 's/^[^ ]* *//')"
            if [ -n "${PONS:-}" ]; then
                echo "$set run $run pons  : $("$PONS" < "$f")"
            fi
        done
    done
    exit 0
fi
PLAYOUTS=${1:-200000}
"$B/connect4-solve" --engine "$PLAYOUTS" tests/data/connect4_L3_R1.txt tests/data/connect4_L2_R1.txt \
    tests/data/connect4_L2_R2.txt
