#!/usr/bin/env bash
# tests/run.sh BUILD_DIR [fast|all] - the test suite, in two tiers. Ends with
# one line "N passed, N failed" counting unit tests and script checks.
#   fast (make check, after every edit): the fast unit tests (unit --fast),
#     the saved fuzz inputs, the bench signature, the program's own checks
#     below, every tests/cli/*.sh file but the slow ones (CLI_SLOW), and a
#     smoke test of each front-end that those leave out.
#   all (make test, the default): every unit test and every tests/cli/*.sh
#     file, with the rest.
# The work runs in two lanes at once, one per core: lane A in the
# background, its output shown when it ends, lane B here; each lane counts
# its own checks and has its own scratch folder.
set -u
B=${1:-build/release}
tier=${2:-all}
BANYAN=$B/banyan
. tests/lib.sh
case $tier in fast | all) ;; *)
    echo "usage: tests/run.sh BUILD_DIR [fast|all]" >&2
    exit 2
    ;;
esac

# The tests/cli/*.sh files of the full tier only: the slowest (match.sh,
# python.sh, web.sh, learn.sh: 10 to 60 s of CPU each in a release build),
# and those that spend their time waiting (ponder.sh) or need node
# (sabaki.sh), abi.sh, which builds two libraries of its own (15 to 25 s),
# mpi_search.sh and mpi_learn.sh (MPI jobs, 10 to 15 s, mostly waiting) and
# mpi_match.sh (MPI jobs, 15 to 35 s on two cores), and the ways users get
# Banyan (CLI_PACKAGE: the Windows build under Wine, the Debian packages,
# the Python wheel, the source tarball: builds of their own, run in the
# release pass only).
# The fast tier runs run_smoke for them instead (abi.sh has no smoke: it
# checks the library's binary interface, which a change to include/ alone
# moves).
CLI_PACKAGE="deb.sh dist.sh wheel.sh windows.sh"
# The slow files lane A runs, beside the unit tests' first half; lane B
# runs the others. The packaging files skip in a sanitizer build, where
# lane A takes two of the MPI files instead (under ASan: match.sh 100 s,
# web.sh 50, mpi_match.sh 35, mpi_search.sh 30, the rest under 20 each).
CLI_LANE_A="match.sh deb.sh wheel.sh windows.sh"
case $B in *san-*) CLI_LANE_A="match.sh mpi_match.sh mpi_search.sh" ;; esac
CLI_SLOW="$CLI_PACKAGE abi.sh learn.sh match.sh mpi_learn.sh mpi_match.sh mpi_search.sh ponder.sh python.sh sabaki.sh tsptw.sh web.sh"

# Unit tests, with the given options: their own counts join ours.
run_unit() {
    echo "== unit tests${1:+ ($*)}"
    "$B/unit" "$@" > "$tmp/unit" 2>&1
    grep -v '^unit:' "$tmp/unit" | head -50
    local line p f
    line=$(grep -E '^unit: [0-9]+ passed, [0-9]+ failed' "$tmp/unit")
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/unit: ([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed/\1/')
        pass=$((pass + p)); fail=$((fail + f))
        echo "$line"
    else
        bad "unit tests did not finish"
    fi
}

# Saved fuzz inputs, replayed: every crash ever found stays a test.
run_fuzz() {
    echo "== fuzz replay"
    local t name
    for t in tests/fuzz/corpus/*/; do
        name=$(basename "$t")
        if [ "$name" = web ] && [ ! -x "$B/fuzz-web" ]; then
            echo "SKIPPED: fuzz replay web: the program was built without the web board" \
                "(apt-get install libmicrohttpd-dev libjansson-dev, then rebuild)"
            continue
        fi
        if "$B/fuzz-$name" "$t" > "$tmp/out" 2>&1; then ok "fuzz replay $name: $(grep -o '[0-9]* passed' "$tmp/out")"; else bad "fuzz replay $name"; fi
    done
}

# The bench signature: the node count of `banyan bench`.
run_bench() {
    echo "== bench signature"
    local want got cols
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
}

# The program as a user drives it.
run_program() {
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
}

# run_cli FILE...: further checks of the program, one file per feature:
# each is sourced with ok, bad, check and has defined, and BANYAN, B and
# tmp set.
run_cli() {
    local f
    for f in "$@"; do
        [ -f "$f" ] || continue
        echo "== $(basename "$f")"
        # A file that does not parse would run none of its checks unseen.
        if ! bash -n "$f" > "$tmp/out" 2>&1; then bad "$(basename "$f") does not parse"; continue; fi
        . "$f"
    done
}

# The tests/cli/*.sh files of the tier: slow (CLI_SLOW) or not.
cli_files() {
    local f
    for f in tests/cli/*.sh; do
        case " $CLI_SLOW " in *" $(basename "$f") "*) [ "$1" = slow ] && echo "$f" ;;
        *) [ "$1" = quick ] && echo "$f" ;; esac
    done
}

# The fast tier's smoke test of each front-end whose own file is slow: a
# match, the web board's server, the Python package, the learning commands.
run_smoke() {
    echo "== smoke tests of the slow files' front-ends"
    if command -v mpirun > /dev/null 2>&1 && ! "$BANYAN" --version | grep -q '^distributed: not'; then
        check "smoke: a search over 2 MPI ranks" env OMPI_ALLOW_RUN_AS_ROOT=1 \
            OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
            ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 mpirun -np 2 "$BANYAN" analyze \
            --game tictactoe --playouts 300
        has "smoke: a search over 2 MPI ranks: both ranks' playouts" '^playouts 600,'
    else
        echo "SKIPPED: smoke: a search over MPI ranks (no mpirun, or a build without MPI)"
    fi
    check "smoke: match" "$BANYAN" match --game tictactoe banyan:playouts=30 banyan:playouts=30,c=1 \
        --games 2
    has "smoke: match: the score" '^games 2, score '
    local d=$tmp/smoke port i url=
    mkdir -p "$d"
    check "smoke: train --init" "$BANYAN" train --game tictactoe --init "$d/r.net" --channels 8 \
        --blocks 1 --hidden 8 --seed 3
    check "smoke: selfplay" "$BANYAN" selfplay --game tictactoe --net "$d/r.net" --out "$d/r.sp" \
        --games 4 --playouts 20
    has "smoke: selfplay: 4 games" '^selfplay: 4 games'
    check "smoke: analyze --net" "$BANYAN" analyze --game tictactoe --net "$d/r.net" --playouts 50
    has "smoke: analyze --net: a move" '^bestmove [a-c][1-3]$'
    if ! "$BANYAN" --version | grep '^web board:' | grep -vq 'not built'; then
        echo "SKIPPED: smoke: the web board: the program was built without it"
    else
        "$BANYAN" serve --port 0 > "$d/serve" 2>&1 &
        local pid=$!
        for i in $(seq 300); do
            url=$(sed -n 's|^banyan serve: http://127\.0\.0\.1:\([0-9][0-9]*\)/$|\1|p' "$d/serve")
            [ -n "$url" ] && break
            sleep 0.1
        done
        port=$url
        if [ -n "$port" ] && exec 3<> "/dev/tcp/127.0.0.1/$port"; then
            printf 'GET / HTTP/1.0\r\n\r\n' >&3
            cat <&3 > "$tmp/out"
            exec 3>&-
            has "smoke: serve: the page" '^HTTP/1\.[01] 200'
        else
            cp "$d/serve" "$tmp/out"; bad "smoke: serve: starts"
        fi
        kill -TERM "$pid" 2> /dev/null
        wait "$pid" && ok "smoke: serve: exits 0 on SIGTERM" || bad "smoke: serve: exits 0 on SIGTERM"
    fi
    if ! command -v python3 > /dev/null 2>&1 || [ ! -e "$B/libbanyan.so.0" ]; then
        echo "SKIPPED: smoke: Python: no python3, or no libbanyan.so.0 in $B"
    elif case "$B" in *san-*) true ;; *) false ;; esac; then
        echo "SKIPPED: smoke: Python in a sanitizer build (the release pass runs it)"
    else
        check "smoke: python" env BANYAN_LIBRARY="$B/libbanyan.so.0" PYTHONPATH=python \
            PYTHONDONTWRITEBYTECODE=1 python3 -c '
import banyan
with banyan.Engine("connect4", memory="16M") as e:
    a = e.analyze("4453", playouts=500)
    assert a.playouts == 500 and a.best in "abcdefg", a'
    fi
}

# The embedding example finds the optimum.
run_example() {
    if [ -x "$B/example-planner" ]; then
        "$B/example-planner" > "$tmp/out" 2>&1
        if grep -Eq 'value ([0-9]+) .* the optimum is \1$' "$tmp/out"; then ok "example planner"; else bad "example planner"; fi
    fi
}

# Lane A: in the background, in its own scratch folder, with its own counts.
# In the full tier each lane runs half of the unit tests (unit --shard).
lane_a() {
    if [ "$tier" = fast ]; then
        run_unit --fast
        run_fuzz
    else
        run_unit --shard 1/2
        run_fuzz
        run_cli $(printf 'tests/cli/%s\n' $CLI_LANE_A)
    fi
}
# Lane B: here. python.sh stays here: a background job ignores SIGINT,
# and the package's tests of Ctrl-C need it.
lane_b() {
    [ "$tier" = all ] && run_unit --shard 2/2
    run_bench
    run_program
    run_cli $(cli_files quick)
    if [ "$tier" = fast ]; then
        run_smoke
    else
        run_cli $(cli_files slow | grep -Fvx -f <(printf 'tests/cli/%s\n' $CLI_LANE_A))
    fi
    run_example
}

# The networks' products: through OpenBLAS where the build found it, and then
# also against the plain C ones (test_nn_gemm_blas, test_nn_forward_blas).
if ! "$BANYAN" --version | grep -q '^networks: OpenBLAS'; then
    echo "SKIPPED: OpenBLAS against the plain C products: the build found no OpenBLAS" \
        "(Debian libopenblas-dev and pkg-config); the plain C products are tested alone"
fi

(
    tmp=$tmp/lane-a
    mkdir -p "$tmp"
    pass=0 fail=0
    lane_a
    echo "$pass $fail" > "$tmp/counts"
    echo "(lane A: $SECONDS s)"
) > "$tmp/lane-a.log" 2>&1 &
lane_pid=$!
lane_b
echo "(lane B: $SECONDS s)"
wait "$lane_pid"
echo "== lane A (run alongside)"
cat "$tmp/lane-a.log"
if read -r p f < "$tmp/lane-a/counts" 2> /dev/null; then
    pass=$((pass + p)); fail=$((fail + f))
else
    bad "lane A did not finish"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
