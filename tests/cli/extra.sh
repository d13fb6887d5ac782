# tests/cli/extra.sh - a game that lives only in the tests (tests/extra/lines.c:
# four in a row on 5x5 with passes, and no notation of its own), added by one
# registry line (tests/extra/registry.c) to the program built as
# build/<mode>/banyan-extra. No front-end file knows it, yet GTP, the referee
# and game records play it from its description. Sourced by tests/run.sh.
X="$B/banyan-extra"
if [ ! -x "$X" ]; then
    bad "extra game: $X was not built"
else
    "$X" games > "$tmp/out" 2>&1
    has "extra game: listed" '^lines +Four in a row'

    # GTP: vertices in GTP's letters, passes, showboard, undo, no board size.
    printf 'play b C3\nplay w pass\nplay b D4\nplay w I3\nplay w F1\nplay w 13\nshowboard\nboardsize 7\ngenmove w\nundo\nundo\nundo\nundo\nundo\nquit\n' |
        "$X" gtp --game lines --playouts 300 --seed 1 > "$tmp/out" 2>&1
    if [ "$(grep -c '^=' "$tmp/out")" -eq 10 ]; then ok "extra game: gtp answers"; else bad "extra game: gtp answers"; fi
    has "extra game: gtp refuses column I" '^\? syntax error'
    has "extra game: gtp refuses a point off the board" '^\? illegal move'
    has "extra game: showboard row 3, the last move marked" '^ 3 \. \. X \. \.$'
    has "extra game: showboard row 4" '^ 4 \. \. \.\(X\)\.$'
    has "extra game: showboard labels GTP's columns" '^   A B C D E$'
    has "extra game: no board size to set" '^\? unacceptable size'
    has "extra game: genmove answers a vertex or pass" '^= ([A-E][1-5]|pass)$'
    has "extra game: undo to the start, then no more" '^\? cannot undo'

    # The referee: two internal players, records in the plain format.
    rm -rf "$tmp/xrec"
    check "extra game: match" "$X" match --game lines banyan:playouts=300 banyan:playouts=100 \
        --games 4 --records "$tmp/xrec"
    has "extra game: match table" '^games 4,'
    [ "$(ls "$tmp/xrec" | grep -c '\.txt$')" -eq 4 ] && ok "extra game: four records" ||
        bad "extra game: four records"
    has_file() { grep -Eq -- "$2" "$3" && ok "$1" || bad "$1"; }
    has_file "extra game: record names the game" '^# banyan game lines$' "$tmp/xrec/game-00001.txt"

    # A record saved by play and loaded again gives the same position; moves
    # may be typed in any coordinate system of the game ("c3", "3,2").
    printf 'c3\npass\n3,1\nsave %s/lines.txt\nquit\n' "$tmp" |
        "$X" play lines --human both --no-ponder > "$tmp/out" 2>&1
    has "extra game: play saves" '^Saved 3 moves'
    sed -n '/^ 5 /,/^   a/p' "$tmp/out" | tail -7 > "$tmp/board1"
    printf 'load %s/lines.txt\nquit\n' "$tmp" | "$X" play lines --human both --no-ponder \
        > "$tmp/out" 2>&1
    has "extra game: play loads" '^Loaded 3 moves'
    sed -n '/^ 5 /,/^   a/p' "$tmp/out" | tail -7 > "$tmp/board2"
    if [ -s "$tmp/board1" ] && cmp -s "$tmp/board1" "$tmp/board2"; then
        ok "extra game: the loaded position is the saved one"
    else
        bad "extra game: the loaded position is the saved one"
    fi
    has_file "extra game: the record holds the pass" '^25( |$)' "$tmp/lines.txt"
    printf 'load %s/xrec/game-00002.txt\nquit\n' "$tmp" | "$X" play lines --human both \
        --no-ponder > "$tmp/out" 2>&1
    has "extra game: a referee's record loads in play" '^Loaded [0-9]+ moves'
fi
