# tests/cli/ponder.sh - pondering (searching on the opponent's time) in the
# three front-ends: GTP and Gomocup with --ponder, play by default. Sourced
# by tests/run.sh (ok, bad, check, has; BANYAN, tmp), so it must not exit.
# Input is written with pauses between lines, as a person or a controller
# would. A stop while pondering takes a few ms (shown, not checked: it
# depends on the machine); a ponder search that ran on (for 10^6 s) would
# be stopped by the watchdog, ponder_watch, and fail with its status 124.
# To run these checks alone against another build
# (ThreadSanitizer, say): bash tests/one.sh build/san-thread tests/cli/ponder.sh

ponder_now() { date +%s%N; }
# ponder_feed FILE ARGS...: runs $BANYAN ARGS, its input written by the
# shell function ponder_input (which calls ponder_mark just before the line
# whose effect is timed), output in $tmp/out. Sets ponder_rc to the exit
# status and ponder_ms to the milliseconds from the mark to the exit.
ponder_mark() { ponder_now > "$tmp/ponder.mark"; }
# ponder_wait N PATTERN: in ponder_input, waits (up to 20 s) until the
# output holds N lines matching PATTERN, so that the pause that follows is
# spent pondering even in a slow build.
ponder_wait() {
    local i
    for i in $(seq 2000); do
        [ "$(grep -Ec -- "$2" "$tmp/out")" -ge "$1" ] && return 0
        sleep 0.01
    done
}
ponder_watch=600
ponder_feed() {
    : > "$tmp/out"
    ponder_now > "$tmp/ponder.mark"
    ponder_input | { timeout -k 10 $ponder_watch "$BANYAN" "$@" > "$tmp/out" 2>&1; echo $? > "$tmp/ponder.rc"; ponder_now > "$tmp/ponder.exit"; }
    ponder_rc=$(cat "$tmp/ponder.rc")
    ponder_ms=$(( ($(cat "$tmp/ponder.exit") - $(cat "$tmp/ponder.mark")) / 1000000 ))
}
# ponder_nodes N: the number in the N-th "= nodes N" answer of $tmp/out.
ponder_nodes() { grep -E '^= nodes [0-9]+$' "$tmp/out" | sed -n "${1}s/^= nodes //p"; }

# GTP: the tree grows while the opponent thinks, only with --ponder.
ponder_input() { printf 'genmove b\n'; ponder_wait 1 '^= [a-g]$'; sleep 0.5; printf 'banyan-tree\nplay w d\nbanyan-tree\nquit\n'; }
G="gtp --game connect4 --param book=off --playouts 2000 --seed 1" # The book would answer at once.
ponder_feed $G
off1=$(ponder_nodes 1); off2=$(ponder_nodes 2)
cp "$tmp/out" "$tmp/ponder.off"
ponder_feed $G --ponder
on1=$(ponder_nodes 1); on2=$(ponder_nodes 2)
if [ "$(head -2 "$tmp/out")" = "$(head -2 "$tmp/ponder.off")" ]; then
    ok "gtp --ponder: genmove answers as without"; else bad "gtp --ponder: genmove answers as without"; fi
[ "$ponder_rc" -eq 0 ] && [ -n "$off1" ] && [ -n "$on1" ] && [ "$on1" -gt "$off1" ] \
    && ok "gtp --ponder: the tree grows on the opponent's time ($on1 nodes, $off1 without)" \
    || bad "gtp --ponder: the tree grows on the opponent's time ($on1 nodes, $off1 without)"
[ -n "$off2" ] && [ -n "$on2" ] && [ "$on2" -gt 1 ] && [ "$on2" -gt "$off2" ] \
    && ok "gtp --ponder: the opponent's move keeps its subtree ($on2 nodes, $off2 without)" \
    || bad "gtp --ponder: the opponent's move keeps its subtree ($on2 nodes, $off2 without)"
ponder_input() { printf 'genmove b\n'; ponder_wait 1 '^= [a-g]$'; sleep 0.5; ponder_mark; printf 'quit\n'; sleep 1.5; }
ponder_feed $G --ponder
[ "$ponder_rc" -eq 0 ] && ok "gtp --ponder: quit while pondering exits in $ponder_ms ms" \
    || bad "gtp --ponder: quit while pondering exits in $ponder_ms ms (status $ponder_rc)"
ponder_input() { printf 'genmove b\n'; ponder_wait 1 '^= [a-g]$'; sleep 0.5; ponder_mark; }
ponder_feed $G --ponder
[ "$ponder_rc" -eq 0 ] && ok "gtp --ponder: EOF while pondering exits in $ponder_ms ms" \
    || bad "gtp --ponder: EOF while pondering exits in $ponder_ms ms (status $ponder_rc)"
# Tic-tac-toe is proven in a moment: the ponder search ends by itself long
# before the next line stops it, and the stop must not be left pending to
# cut the next search short (a new game's, from a root not proven).
ponder_input() { printf 'banyan-game tictactoe\nplay b b2\ngenmove w\n'; ponder_wait 1 '^= [A-C][1-3]$'; sleep 0.3;
    printf 'clear_board\nbanyan-analyze 500\nquit\n'; }
ponder_feed gtp --game connect4 --ponder --playouts 3000
has "gtp --ponder: a search after pondering a proven position runs in full" '^playouts 500 '
ponder_feed gtp --game connect4 --no-ponder --playouts 3000
has "gtp --no-ponder: accepted" '^playouts 500 '

# Gomocup: BEGIN, a pause, TURN: the answer comes, from a tree kept while
# the opponent thought. The end of input, unlike END, waits for it.
ponder_input() { printf 'START 15\r\nBEGIN\r\n'; ponder_wait 1 '^[0-9]+,[0-9]+$'; sleep 0.5; printf 'TURN 8,8\r\n'; }
ponder_feed gomocup --playouts 1000 --seed 1
koff=$(sed -n 's/^MESSAGE .*kept \([0-9]*\) nodes.*/\1/p' "$tmp/out" | sed -n 2p)
ponder_feed gomocup --playouts 1000 --seed 1 --ponder
kon=$(sed -n 's/^MESSAGE .*kept \([0-9]*\) nodes.*/\1/p' "$tmp/out" | sed -n 2p)
[ "$ponder_rc" -eq 0 ] && [ "$(grep -Ec '^[0-9]+,[0-9]+$' "$tmp/out")" -eq 2 ] \
    && ok "gomocup --ponder: TURN after pondering is answered" || bad "gomocup --ponder: TURN after pondering is answered"
[ -n "$koff" ] && [ -n "$kon" ] && [ "$kon" -gt "$koff" ] \
    && ok "gomocup --ponder: TURN keeps the pondered subtree ($kon nodes, $koff without)" \
    || bad "gomocup --ponder: TURN keeps the pondered subtree ($kon nodes, $koff without)"
ponder_input() { printf 'START 15\r\nBEGIN\r\n'; ponder_wait 1 '^[0-9]+,[0-9]+$'; sleep 0.5; ponder_mark; printf 'END\r\n'; sleep 1.5; }
ponder_feed gomocup --playouts 1000 --ponder
[ "$ponder_rc" -eq 0 ] && ok "gomocup --ponder: END while pondering exits in $ponder_ms ms" \
    || bad "gomocup --ponder: END while pondering exits in $ponder_ms ms (status $ponder_rc)"
ponder_input() { printf 'START 15\r\nBEGIN\r\n'; ponder_wait 1 '^[0-9]+,[0-9]+$'; sleep 0.5; ponder_mark; }
ponder_feed gomocup --playouts 1000 --ponder
[ "$ponder_rc" -eq 0 ] && ok "gomocup --ponder: EOF while pondering exits in $ponder_ms ms" \
    || bad "gomocup --ponder: EOF while pondering exits in $ponder_ms ms (status $ponder_rc)"

# play: pondering is on by default while the person thinks.
ponder_input() {
    local n=0 mv
    for mv in d c e; do
        sleep 0.3; printf '%s\n' "$mv"; n=$((n + 1)); ponder_wait $n '^Banyan plays'
    done
    sleep 0.3; ponder_mark
}
ponder_feed play connect4 --playouts 300
[ "$ponder_rc" -eq 0 ] && [ "$(grep -c '^Banyan plays [a-g] ' "$tmp/out")" -eq 3 ] \
    && ok "play: moves answered while pondering" || bad "play: moves answered while pondering"
[ "$ponder_rc" -eq 0 ] && ok "play: EOF while pondering exits in $ponder_ms ms" \
    || bad "play: EOF while pondering exits in $ponder_ms ms (status $ponder_rc)"
ponder_input() {
    sleep 0.3; printf 'd\n'; ponder_wait 1 '^Banyan plays'; sleep 0.3
    printf 'hint\n'; ponder_wait 1 '^Hint'; sleep 0.3; ponder_mark; printf 'quit\n'; sleep 1.5
}
ponder_feed play connect4 --playouts 300
[ "$ponder_rc" -eq 0 ] && ok "play: quit while pondering exits in $ponder_ms ms" \
    || bad "play: quit while pondering exits in $ponder_ms ms (status $ponder_rc)"
has "play: hint after pondering" '^Hint: [a-g] \(win rate'
ponder_input() { printf 'd\nc\n'; }
ponder_feed play connect4 --playouts 300 --no-ponder
[ "$ponder_rc" -eq 0 ] && [ "$(grep -c '^Banyan plays [a-g] ' "$tmp/out")" -eq 2 ] \
    && ok "play --no-ponder: moves answered" || bad "play --no-ponder: moves answered"
# Pondering with Connect Four's opening book: the book proves the first
# player's turn at once, and the reply after it is still searched (every
# move gets its playouts, or says it is proven).
printf 'd\nd\nd\n' | "$BANYAN" play connect4 --playouts 2000 > "$tmp/out" 2>&1
n=$(grep -c '^Banyan plays [a-g] (win rate [0-9.]*%, 2000 playouts' "$tmp/out")
[ "$n" -eq 3 ] && ok "play: every reply searched while pondering with the book" \
    || bad "play: every reply searched while pondering with the book ($n of 3)"
