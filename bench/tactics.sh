#!/usr/bin/env bash
# bench/tactics.sh [FILE...] - Gomoku tactics: each position of the files
# (lines "name | moves | accepted answers", tests/data/gomoku_defence.txt and
# gomoku_attack.txt by default) searched by `banyan analyze`, and the move
# played checked against the answers. Prints one line per position and the
# score per file. TIME (seconds a position, default 1) and EXTRA (more
# options, e.g. "--param prover=vcf") change the search.
set -eu
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
TIME=${TIME:-1}
EXTRA=${EXTRA:-}
[ $# -gt 0 ] || set -- tests/data/gomoku_defence.txt tests/data/gomoku_attack.txt
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, time $TIME s a position, options: ${EXTRA:-none}"
for f in "$@"; do
    good=0 all=0
    while IFS='|' read -r name moves answers; do
        case "$name" in '#'*|'') continue ;; esac
        name=$(echo $name) moves=$(echo $moves) answers=$(echo $answers)
        # shellcheck disable=SC2086
        best=$("$B" analyze gomoku --position "$moves" --time "$TIME" $EXTRA | sed -n 's/^bestmove //p')
        all=$((all + 1))
        if [[ " $answers " == *" $best "* ]]; then
            good=$((good + 1)); echo "ok   $name: $best"
        else
            echo "MISS $name: $best (answers: $answers)"
        fi
    done < "$f"
    echo "$(basename "$f"): $good of $all"
done
