#!/usr/bin/env bash
# bench/same_play.sh OLD NEW [GAMES] - whether two builds of banyan play the
# same: the same fixed-seed matches (one thread, playout limits, every game
# of the project) refereed by each build, their records compared move by
# move and value by value (the times of the moves left out), and then NEW
# playing OLD through GTP. A change that claims "no change in play" (a
# refactor) shows it here as well as in the bench signature: one thread and
# a fixed seed reproduce a search bit for bit, so any difference in a move
# or a reported value is a change in play.
#   bench/same_play.sh /tmp/banyan-before build/release/banyan 4
set -u
OLD=${1:?usage: bench/same_play.sh OLD NEW [GAMES]}
NEW=${2:?usage: bench/same_play.sh OLD NEW [GAMES]}
GAMES=${3:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0 differ=0
# game, its parameters, the playouts of the two players
while read -r game params a b; do
    [ "$params" = - ] && params=
    for who in old new; do
        bin=$OLD; [ $who = new ] && bin=$NEW
        "$bin" match --game "$game" ${params:+--param "$params"} \
            "banyan:playouts=$a,seed=11" "banyan:playouts=$b,seed=22" \
            --games "$GAMES" --records "$tmp/$game-$who" --records-format txt \
            > "$tmp/$game-$who.out" 2>&1 || echo "$game: the $who build's match failed"
        for f in "$tmp/$game-$who"/*.txt; do
            sed -E 's/ [0-9.]+s( |$)/\1/' "$f" > "$f.moves"
        done
    done
    if diff -r -q -x '*.txt' "$tmp/$game-old" "$tmp/$game-new" > /dev/null &&
        [ "$(ls "$tmp/$game-old" | wc -l)" -gt 0 ]; then
        same=$((same + 1))
        echo "$game${params:+ ($params)}: $GAMES games, every move and value the same" \
            "($(grep -h '^games' "$tmp/$game-new.out"))"
    else
        differ=$((differ + 1))
        echo "$game${params:+ ($params)}: the builds play differently:"
        diff -r -x '*.txt' "$tmp/$game-old" "$tmp/$game-new" | head -20
    fi
done <<'GAMES'
tictactoe - 400 200
connect4 book=off 3000 1500
othello - 2000 1000
gomoku - 2000 1000
go size=9 2000 1000
GAMES
# The builds against each other: NEW in this process, OLD through GTP.
"$NEW" match --game othello "banyan:playouts=2000,seed=11" \
    "gtp:$OLD gtp --game othello --playouts 2000 --seed 11" --games "$GAMES" \
    > "$tmp/cross.out" 2>&1
echo "othello, NEW against OLD (GTP), the same settings: $(grep -h '^games' "$tmp/cross.out")"
echo "matches played the same: $same, differently: $differ"
[ "$differ" -eq 0 ]
