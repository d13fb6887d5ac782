# tests/cli/columns.sh - one parser and one message for a move of Go in
# every front-end: GTP's letters skip I, so "I5" is refused with "I is not
# a Go column (GTP skips I)" by `banyan play` (9x9 and 19x19, where it once
# put the stone on J5), `banyan show`, GTP's play and the library (the
# Python package raises the engine's message). Sourced by tests/run.sh.
for size in 9 19; do
    printf 'I5\nquit\n' | "$BANYAN" play go --param size=$size --human both --no-ponder \
        > "$tmp/out" 2>&1
    has "play go $size x $size: I5 refused with the one message" \
        '^I is not a Go column \(GTP skips I\)\.$'
    if grep -q 'X' <(grep -E '^ *5 ' "$tmp/out"); then
        bad "play go $size x $size: no stone on row 5 after I5"
    else
        ok "play go $size x $size: no stone on row 5 after I5"
    fi
    printf 'J5\nquit\n' | "$BANYAN" play go --param size=$size --human both --no-ponder \
        > "$tmp/out" 2>&1
    has "play go $size x $size: J5 still plays" '^ *5 .*\(X\)'
done
"$BANYAN" show --game go --param size=9 --position "E5 I5" > "$tmp/out" 2>&1
has "show: I5 in a position refused with the one message" \
    'bad go position "E5 I5": I is not a Go column \(GTP skips I\)$'
printf 'play b I5\nplay b i19\nplay b J5\n' | "$BANYAN" gtp --game go > "$tmp/out" 2>&1
[ "$(grep -c '^? I is not a Go column (GTP skips I)$' "$tmp/out")" -eq 2 ] &&
    ok "gtp play: I5 and i19 refused with the one message" ||
    bad "gtp play: I5 and i19 refused with the one message"
has "gtp play: J5 still plays" '^=$'
if command -v python3 > /dev/null 2>&1 && [ -e "$B/libbanyan.so.0" ] &&
    ! case "$B" in *san-*) true ;; *) false ;; esac; then
    BANYAN_LIBRARY="$B/libbanyan.so.0" PYTHONPATH=python python3 -c '
import banyan
e = banyan.Engine("go", "size=9")
for call in (lambda: e.play("I5"), lambda: e.load("E5 I5")):
    try:
        call()
    except banyan.Error as x:
        print(x)
' > "$tmp/out" 2>&1
    [ "$(grep -c 'I is not a Go column (GTP skips I)$' "$tmp/out")" -eq 2 ] &&
        ok "python: play and load refuse I5 with the one message" ||
        bad "python: play and load refuse I5 with the one message"
fi
