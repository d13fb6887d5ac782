#!/usr/bin/env bash
# bench/tactics.sh [FILE...] - Gomoku tactics: each position of the files
# (lines "name | moves | accepted answers", tests/data/gomoku_defence.txt and
# gomoku_attack.txt by default) searched by `banyan analyze`, and the move
# played checked against the answers. Prints one line per position and the
# score per file. A file's companion FILE_wins.txt (tests/data/
# gomoku_attack_wins.txt) names more winning moves, refereed by a unit test,
# that the labels lack: they count, and the score by the labels alone is
# printed beside. TIME (seconds a position, default 1) and EXTRA (more
# options, e.g. "--param prover=off") change the search.
set -eu
B=${BANYAN:-build/release/banyan}
[ -x "$B" ] || make -s
TIME=${TIME:-1}
EXTRA=${EXTRA:-}
[ $# -gt 0 ] || set -- tests/data/gomoku_defence.txt tests/data/gomoku_attack.txt
echo "date: $(date -u +%Y-%m-%d), machine: $(nproc) cores, time $TIME s a position, options: ${EXTRA:-none}"
for f in "$@"; do
    good=0 all=0 labelled=0 wins=${f%.txt}_wins.txt
    while IFS='|' read -r name moves answers; do
        case "$name" in '#'*|'') continue ;; esac
        name=$(echo $name) moves=$(echo $moves) answers=$(echo $answers)
        # shellcheck disable=SC2086
        best=$("$B" analyze gomoku --position "$moves" --time "$TIME" $EXTRA | sed -n 's/^bestmove //p')
        all=$((all + 1))
        more=$([ -f "$wins" ] && sed -n "s/^$name *|.*| *//p" "$wins" || true)
        if [[ " $answers " == *" $best "* ]]; then
            good=$((good + 1)) labelled=$((labelled + 1)); echo "ok   $name: $best"
        elif [[ " $more " == *" $best "* ]]; then
            good=$((good + 1)); echo "ok   $name: $best (a refereed win the labels lack)"
        else
            echo "MISS $name: $best (answers: $answers)"
        fi
    done < "$f"
    echo "$(basename "$f"): $good of $all ($labelled by the labels alone)"
done
