#!/usr/bin/env bash
# tests/run.sh BUILD_DIR - every test suite of `make test`: the unit tests,
# the bench signature, and the banyan program driven as a user would. Ends
# with one line "N passed, N failed" counting unit tests and script checks.
set -u
B=${1:-build/release}
BANYAN=$B/banyan
. tests/lib.sh

# 1. Unit tests: their own counts join ours.
echo "== unit tests"
"$B/unit" > "$tmp/unit" 2>&1
cat "$tmp/unit" | grep -v '^unit:' | head -50
line=$(grep -E '^unit: [0-9]+ passed, [0-9]+ failed' "$tmp/unit")
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/unit: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed/\1/')
    pass=$((pass + p)); fail=$((fail + f))
    echo "$line"
else
    bad "unit tests did not finish"
fi

# The networks' products: through OpenBLAS where the build found it, and then
# also against the plain C ones (test_nn_gemm_blas, test_nn_forward_blas).
if ! "$BANYAN" --version | grep -q '^networks: OpenBLAS'; then
    echo "SKIPPED: OpenBLAS against the plain C products: the build found no OpenBLAS" \
        "(Debian libopenblas-dev and pkg-config); the plain C products are tested alone"
fi

# 1b. Saved fuzz inputs, replayed: every crash ever found stays a test.
echo "== fuzz replay"
for t in tests/fuzz/corpus/*/; do
    name=$(basename "$t")
    if [ "$name" = web ] && [ ! -x "$B/fuzz-web" ]; then
        echo "SKIPPED: fuzz replay web: the program was built without the web board" \
            "(apt-get install libmicrohttpd-dev libjansson-dev, then rebuild)"
        continue
    fi
    if "$B/fuzz-$name" "$t" > "$tmp/out" 2>&1; then ok "fuzz replay $name: $(grep -o '[0-9]* passed' "$tmp/out")"; else bad "fuzz replay $name"; fi
done

# 2. The bench signature: the node count of `banyan bench`.
echo "== bench signature"
want=$(cat tests/bench.sig)
"$BANYAN" bench > "$tmp/out" 2>&1
got=$(sed -n 's/^Nodes searched *: *//p' "$tmp/out")
if [ "$got" = "$want" ]; then ok "bench signature $got"; else
    echo "bench signature: got '$got', tests/bench.sig says '$want'"; bad "bench signature"; fi
has "bench: no allocation during searches" '^allocations in searches: 0$'
# The table keeps its columns however long a position: in every row the
# node count, the speed and the best move start at the same place.
cols=$(grep '^position ' "$tmp/out" | awk '{ print index($0, " nodes "), index($0, " kpps"), index($0, " best ") }' | sort -u)
[ -n "$cols" ] && [ "$(echo "$cols" | wc -l)" -eq 1 ] && ok "bench: the table's columns line up" ||
    bad "bench: the table's columns line up ($(echo "$cols" | tr '\n' ';'))"

# 3. The program as a user drives it.
echo "== banyan program"
check "--help" "$BANYAN" --help
has "--help lists play" 'play <game>'
check "--version" "$BANYAN" --version
has "--version names the version" '^banyan [0-9]+\.[0-9]+\.[0-9]+'
"$BANYAN" nonsense > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "unknown command exits 2" || bad "unknown command exits 2"
# Every subcommand has a --help of its own: exit 0, its synopsis and options.
for c in play gtp gomocup analyze bench perft show match; do
    "$BANYAN" $c --help > "$tmp/out" 2>&1; rc=$?
    if [ $rc -eq 0 ] && grep -q "^usage: banyan $c" "$tmp/out" && grep -q -- '--game' "$tmp/out"; then
        ok "$c --help"; else bad "$c --help (status $rc)"; fi
done
"$BANYAN" play --help > "$tmp/out" 2>&1
has "play --help: its own strength" '200000 playouts a move'
has "play --help: --human" '^  --human first\|second\|both\|none'
"$BANYAN" gtp --help > "$tmp/out" 2>&1
has "gtp --help: its own strength" '50000 playouts a move'
"$BANYAN" bench extra > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "bench: a stray argument refused" || bad "bench: a stray argument refused"
"$BANYAN" bench --playouts 5 > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "bench: an option it would ignore refused" || bad "bench: an option it would ignore refused"
"$BANYAN" analyze --game connect4 --bogus 1 > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "unknown option exits 2" || bad "unknown option exits 2"
has "unknown option explained" 'unknown option --bogus'
"$BANYAN" analyze --game connect4 --playouts abc > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "bad number exits 2" || bad "bad number exits 2"
"$BANYAN" analyze --game nogame > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "unknown game exits 2" || bad "unknown game exits 2"
"$BANYAN" analyze --game connect4 --position 44x > "$tmp/out" 2>&1; [ $? -eq 1 ] && ok "bad position exits 1" || bad "bad position exits 1"
has "bad position explained" 'bad connect4 position'
"$BANYAN" analyze --game tictactoe --param m=99 > "$tmp/out" 2>&1; [ $? -eq 1 ] && ok "bad parameter exits 1" || bad "bad parameter exits 1"

check "analyze connect4" "$BANYAN" analyze --game connect4 --position 445566 --playouts 2000
if head -1 "$tmp/out" | grep -Eq '^bestmove [cg]$'; then ok "analyze: bestmove first, a winning move"; else bad "analyze: bestmove first"; fi
has "analyze: proven win" 'win'
check "analyze tictactoe 4x4" "$BANYAN" analyze --game tictactoe --param m=4 --param n=4 --param k=3 --playouts 3000 --seed 5
if head -1 "$tmp/out" | grep -Eq '^bestmove [a-d][1-4]$'; then ok "analyze: 4x4 move"; else bad "analyze: 4x4 move"; fi
check "analyze --json" "$BANYAN" analyze --game connect4 --param book=off --playouts 1000 --json
has "json: summary line" '^\{"bestmove":"[a-g]","playouts":1000,'
has "json: move lines" '^\{"move":"d","visits":[0-9]+,"value":0\.[0-9]+,"prior":0\.[0-9]+,"proof":"none",'
# The opening book proves d on the empty board; analyze still values the
# other moves by searching them, and prints none as an unknown 50%.
"$BANYAN" analyze --game connect4 --playouts 3000 > "$tmp/out" 2>&1
has "analyze: the book's move proven" '^d +0 +100\.00% .* win '
n=$(grep -cE '^[abcefg] +[1-9][0-9]* +[0-9.]+% ' "$tmp/out")
[ "$n" -eq 6 ] && ok "analyze: the moves the book does not know are searched" \
    || bad "analyze: the moves the book does not know are searched ($n of 6)"

# First-play urgency and widening from the command line: the children a
# small search visits (one simulation expands the root).
visited() { "$BANYAN" analyze "$@" --json | awk -F'"visits":' 'NR > 1 { split($2, a, ","); v += a[1] > 0 } END { print v + 0 }'; }
n_inf=$(visited --game connect4 --param book=off --playouts 7 --select puct --fpu infinite)
n_low=$(visited --game connect4 --param book=off --playouts 7 --fpu 0.9)
[ "$n_inf" = 6 ] && [ "$n_low" = 1 ] && ok "--fpu: infinite tries every child, 0.9 one ($n_inf, $n_low)" ||
    bad "--fpu: infinite tries every child, 0.9 one ($n_inf, $n_low)"
n_narrow=$(visited --game gomoku --position "h8 h9 i8" --playouts 2000 --widening 0.5)
n_wide=$(visited --game gomoku --position "h8 h9 i8" --playouts 2000 --widening 4)
[ "$n_narrow" -lt "$n_wide" ] && ok "--widening: fewer children at 0.5 than at 4 ($n_narrow, $n_wide)" ||
    bad "--widening: fewer children at 0.5 than at 4 ($n_narrow, $n_wide)"
"$BANYAN" analyze --game connect4 --fpu 2 > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "--fpu 2 refused" || bad "--fpu 2 refused"
has "--fpu: bad value explained" 'bad value for fpu: "2"'
"$BANYAN" analyze --game gomoku --widening 0 > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "--widening 0 refused" || bad "--widening 0 refused"

# Determinism: the same seed twice gives the same output (time excluded).
"$BANYAN" analyze --game connect4 --param book=off --playouts 20000 --seed 9 | grep -v '^playouts' > "$tmp/a"
"$BANYAN" analyze --game connect4 --param book=off --playouts 20000 --seed 9 | grep -v '^playouts' > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then ok "same seed, same search"; else bad "same seed, same search"; fi

check "perft connect4" "$BANYAN" perft --game connect4 5
has "perft connect4 5" '^perft 5 16807$'
check "perft, the game named first" "$BANYAN" perft connect4 3
has "perft connect4 3" '^perft 3 343$'
check "perft tictactoe" "$BANYAN" perft --game tictactoe 9
has "perft tictactoe 9" '^perft 9 127872$'
check "show" "$BANYAN" show --game connect4 --position 4453
has "show: legal moves" '^moves \(7\): a b c d e f g$'

# play: scripted through stdin; every bad line gets an answer and a prompt.
printf 'zz\n\nh\n9\nhelp\nd\nquit\n' | "$BANYAN" play connect4 --playouts 500 --no-ponder > "$tmp/out" 2>&1
[ $? -eq 0 ] && ok "play: quits cleanly" || bad "play: quits cleanly"
has "play: gibberish explained" '"zz" is not a move'
has "play: empty line explained" 'Empty line'
has "play: off the board explained" 'h is off the board'
has "play: help" 'Type a move'
has "play: engine replies" '^Banyan plays [a-g] '
printf 'd\n' | "$BANYAN" play connect4 --playouts 200 > "$tmp/out" 2>&1
[ $? -eq 0 ] && ok "play: EOF ends cleanly" || bad "play: EOF ends cleanly"
printf 'd\nd\nd\nd\nd\nd\nd\n' | "$BANYAN" play connect4 --playouts 200 --human both > "$tmp/out" 2>&1
has "play: full column refused" '^d is full\.$'
printf 'b2\nundo\nundo\na1\nquit\n' | "$BANYAN" play tictactoe --playouts 300 --no-ponder > "$tmp/out" 2>&1
has "play: undo" 'Nothing to undo'
printf '' | "$BANYAN" play tictactoe --human none --playouts 2000 > "$tmp/out" 2>&1
has "play: engine against itself draws tic-tac-toe" 'Game over: a draw'
head -c 5000 /dev/urandom | tr '\0' 'x' | "$BANYAN" play connect4 --playouts 100 > "$tmp/out" 2>&1
[ $? -eq 0 ] && ok "play: random bytes do not crash it" || bad "play: random bytes do not crash it"

# Further checks of the program, one file per feature: each is sourced with
# ok, bad, check and has defined, and BANYAN, B and tmp set.
for f in tests/cli/*.sh; do
    [ -f "$f" ] || continue
    echo "== $(basename "$f")"
    # A file that does not parse would run none of its checks unseen.
    if ! bash -n "$f" > "$tmp/out" 2>&1; then bad "$(basename "$f") does not parse"; continue; fi
    . "$f"
done

# 4. The embedding example finds the optimum.
if [ -x "$B/example-planner" ]; then
    "$B/example-planner" > "$tmp/out" 2>&1
    if grep -Eq 'value ([0-9]+) .* the optimum is \1$' "$tmp/out"; then ok "example planner"; else bad "example planner"; fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
