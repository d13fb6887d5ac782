#!/usr/bin/env bash
# tools/connect4_book.sh [PLIES] - rebuilds Connect Four's opening book,
# games/connect4_book.h, to PLIES discs (default 10) with the game's solver,
# one process a core, then checks it from scratch: every position the
# first player reaches by following it has its entry, and every entry's
# move is proved to win. Times in docs/journal/2026-12-02-connect4-book.md.
set -eu
PLIES=${1:-10}
B=${B:-build/release}
J=$(nproc)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
make -s "$B/connect4-book"
echo "date    : $(date -u +%Y-%m-%d)"
echo "machine : $J cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
for ((p = 0; p < J; p++)); do
    "$B/connect4-book" build "$PLIES" "$p" "$J" > "$TMP/part.$p" 2> "$TMP/log.$p" &
done
wait
echo "build   : $(($(date +%s) - start)) s on $J processes"
cat "$TMP"/part.* | "$B/connect4-book" header "$PLIES" > "$TMP/book.h"
cp "$TMP/book.h" games/connect4_book.h
make -s "$B/connect4-book"
"$B/connect4-book" verify
