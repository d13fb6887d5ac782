# tests/cli/tsptw.sh - the TSPTW example (examples/tsptw.c, examples/tsptw.py):
# the C program finds the optimum of tests/data/tsptw/tiny5.txt that
# tools/tsptw_check.py --optimum enumerates, by NRPA and by NMCS, and prints
# a tour the checker accepts at that cost; the same seed gives the same
# tour; the Python domain gives the C program's best and tour lines, byte
# for byte; a file that is no instance exits 2 with a message. Sourced by
# tests/run.sh (ok, bad, check, has; B, tmp).
tsptw=$B/example-tsptw
tiny=tests/data/tsptw/tiny5.txt
pb=tests/data/tsptw/rc202.2.txt # 14 nodes: the Python runs stay short.

# tsptw_lines FILE: its best: and tour: lines, the ones C and Python share.
tsptw_lines() { grep -E '^(best|tour): ' "$1"; }

# tsptw_refused NAME PROGRAM... FILE: exits 2 (not a crash) with a message
# that names the problem.
tsptw_refused() {
    local name=$1; shift
    "$@" > "$tmp/out" 2>&1
    local rc=$?
    local why='(cannot open|ends after|not a decimal number|node count|more than)'
    if [ $rc -eq 2 ] && grep -Eq "(example-tsptw|tsptw\.py): .*$why" "$tmp/out"; then
        ok "$name"; else echo "     (status $rc, want 2)"; bad "$name"; fi
}

if [ ! -x "$tsptw" ]; then
    rm -f "$tmp/out"; bad "tsptw: $tsptw is built (make B=$B all)"
else
    has_py=
    command -v python3 > /dev/null 2>&1 && has_py=1

    # The enumerated optimum, independent of the library.
    if [ -n "$has_py" ]; then
        check "tsptw: the checker enumerates tiny5" python3 tools/tsptw_check.py "$tiny" --optimum
        opt_cost=$(sed -n 's/^optimum: \([0-9.]*\) .*optimal tours 1$/\1/p' "$tmp/out")
        opt_exact=$(sed -n 's/^optimum: .*(exact \([0-9.]*\)).*/\1/p' "$tmp/out")
        opt_tour=$(sed -n 's/^tour: //p' "$tmp/out")
        [ -n "$opt_cost" ] && [ -n "$opt_tour" ] && ok "tsptw: tiny5 has a unique optimum" ||
            bad "tsptw: tiny5 has a unique optimum"
        python3 tools/tsptw_check.py tests/data/tsptw/rc201.1.txt --optimum > "$tmp/out" 2>&1
        [ $? -eq 2 ] && grep -q 'at most 10 nodes' "$tmp/out" &&
            ok "tsptw: the checker's --optimum refuses 20 nodes" ||
            bad "tsptw: the checker's --optimum refuses 20 nodes"
    else
        # The optimum, as tiny5.txt's comment states it.
        opt_cost=63.2000 opt_exact=63.2 opt_tour="0 5 2 3 4 1 0"
        echo "SKIPPED: tsptw: the checker's checks: python3 is not installed"
    fi

    # The C program finds it by NRPA (level 2, one run) and by NMCS (level
    # 1, runs until 3,000 playouts), and the checker accepts its tour.
    for algo in "--level 2" "--algorithm nmcs --level 1 --playouts 3000"; do
        "$tsptw" $algo "$tiny" > "$tmp/c_tiny" 2>&1
        rc=$?
        cp "$tmp/c_tiny" "$tmp/out"
        if [ $rc -eq 0 ] && grep -qx "best: $opt_cost feasible (violations 0)" "$tmp/out" &&
            grep -qx "tour: $opt_tour" "$tmp/out"; then
            ok "tsptw: C $algo finds tiny5's optimum"; else bad "tsptw: C $algo finds tiny5's optimum"; fi
        if [ -n "$has_py" ]; then
            check "tsptw: the checker accepts C $algo's tour" python3 tools/tsptw_check.py "$tiny" \
                $(sed -n 's/^tour: //p' "$tmp/c_tiny")
            has "tsptw: the checker's cost of C $algo's tour is the optimum" "^cost: .*\(exact $opt_exact\)$"
        fi
    done
    cp "$tmp/c_tiny" "$tmp/out"
    has "tsptw: the four lines: instance" '^instance: tiny5 nodes 6$'
    has "tsptw: the four lines: playouts and seconds" '^playouts: 3000 seconds: [0-9]+\.[0-9]{3}$'
    has "tsptw: each better tour is printed as found" \
        '^ +[0-9]+\.[0-9]{3} s  cost [0-9]+\.[0-9]{4}  (feasible|infeasible) \(violations [0-9]+\)$'
    check "tsptw: GNRPA's bias (--bias 2) runs" "$tsptw" --level 2 --bias 2 "$tiny"
    has "tsptw: GNRPA's bias finds tiny5's optimum" "^tour: $opt_tour$"

    # A seed and a playout budget give the same tour, with threads too.
    "$tsptw" --playouts 10000 --seed 2 "$pb" > "$tmp/c_pb" 2>&1
    "$tsptw" --playouts 10000 --seed 2 "$pb" > "$tmp/out" 2>&1
    [ "$(tsptw_lines "$tmp/out")" = "$(tsptw_lines "$tmp/c_pb")" ] && [ -n "$(tsptw_lines "$tmp/out")" ] &&
        ok "tsptw: the same seed and playouts, the same tour" ||
        bad "tsptw: the same seed and playouts, the same tour"
    "$tsptw" --playouts 10000 --seed 2 --threads 2 "$pb" > "$tmp/t1" 2>&1
    "$tsptw" --playouts 10000 --seed 2 --threads 2 "$pb" > "$tmp/out" 2>&1
    [ "$(tsptw_lines "$tmp/out")" = "$(tsptw_lines "$tmp/t1")" ] && [ -n "$(tsptw_lines "$tmp/out")" ] &&
        ok "tsptw: the same seed and 2 threads, the same tour" ||
        bad "tsptw: the same seed and 2 threads, the same tour"
    if [ -n "$has_py" ]; then
        check "tsptw: the checker accepts the tour of rc202.2" python3 tools/tsptw_check.py "$pb" \
            $(sed -n 's/^tour: //p' "$tmp/c_pb")
    fi

    # Files that are no instance, and bad options: exit 2 and say why.
    printf '6\n0 1 2\n' > "$tmp/short.txt"
    sed '2s/9\.5/nine/' "$tiny" > "$tmp/word.txt"
    sed '2s/9\.5/inf/' "$tiny" > "$tmp/inf.txt"
    { cat "$tiny"; echo 7; } > "$tmp/long.txt"
    printf '300\n' > "$tmp/big.txt"
    printf '1\n0\n0 10\n' > "$tmp/one.txt"
    : > "$tmp/empty.txt"
    printf '\177ELF\002\001\001\000\000' > "$tmp/noise.txt"
    printf '6 %0200d\n' 1 > "$tmp/huge.txt"
    bad_files="missing.txt short.txt word.txt inf.txt long.txt big.txt one.txt empty.txt noise.txt huge.txt"
    for f in $bad_files; do
        tsptw_refused "tsptw: C refuses $f" "$tsptw" "$tmp/$f"
    done
    for v in "--level 0" "--level 9" "--algorithm mcts" "--time 1 --playouts 5" "--playouts 0" \
        "--threads 0" "--bias x" "--frob 1"; do
        "$tsptw" $v "$tiny" > "$tmp/out" 2>&1
        [ $? -eq 2 ] && [ -s "$tmp/out" ] && ok "tsptw: C refuses $v" || bad "tsptw: C refuses $v"
    done

    # The Python domain: the C program's lines, byte for byte.
    if [ -z "$has_py" ]; then
        echo "SKIPPED: tsptw: the Python example: python3 is not installed (apt-get install python3)"
    elif [ ! -e "$B/libbanyan.so.0" ]; then
        echo "SKIPPED: tsptw: the Python example: $B has no libbanyan.so.0 (make B=$B all)"
    elif case "$B" in *san-*) true ;; *) false ;; esac; then
        echo "SKIPPED: tsptw: the Python example in a sanitizer build: python3 would need the" \
            "sanitizer's runtime preloaded (the release pass runs it)"
    else
        tsptw_py() {
            BANYAN_LIBRARY="$B/libbanyan.so.0" PYTHONPATH=python PYTHONDONTWRITEBYTECODE=1 \
                python3 examples/tsptw.py "$@"
        }
        for run in "--level 2|$tiny" "--algorithm nmcs --level 1 --playouts 3000|$tiny" \
            "--playouts 10000 --seed 2|$pb"; do
            args=${run%|*} file=${run#*|}
            "$tsptw" $args "$file" > "$tmp/c" 2>&1
            tsptw_py $args "$file" > "$tmp/out" 2>&1
            if [ -n "$(tsptw_lines "$tmp/c")" ] &&
                [ "$(tsptw_lines "$tmp/c")" = "$(tsptw_lines "$tmp/out")" ]; then
                ok "tsptw: Python and C agree on $(basename "$file" .txt) $args"; else
                { echo "C:"; cat "$tmp/c"; } >> "$tmp/out"
                bad "tsptw: Python and C agree on $(basename "$file" .txt) $args"; fi
        done
        has "tsptw: Python prints the instance line" '^instance: rc202\.2 nodes 14$'
        for f in $bad_files; do
            tsptw_refused "tsptw: Python refuses $f" tsptw_py "$tmp/$f"
        done
    fi
fi
