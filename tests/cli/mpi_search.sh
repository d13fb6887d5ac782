# tests/cli/mpi_search.sh - one search over the ranks of an MPI job
# (dist/dsearch.c): a 4-rank analysis that finds Connect Four's proven move
# and reports every rank's simulations, a GTP session over 3 ranks (genmove,
# undo, lz-analyze), a Gomocup one over 2, the web board over 2 (sessions'
# searches over the ranks, tests/cli/mpi_web.py), commands that run on one
# machine refused, a rank killed or stopped mid-search ending the job
# within seconds, named, and NRPA's runs sharing their best games. Sourced by tests/run.sh; skipped where mpirun or a
# build with MPI is missing (.ci/run installs Open MPI).
M=$tmp/mpi
rm -rf "$M"
mkdir -p "$M"
if ! command -v mpirun > /dev/null 2>&1; then
    echo "SKIPPED: mpi_search.sh: the distributed search (mpirun not found: apt-get install openmpi-bin libopenmpi-dev)"
elif "$BANYAN" --version | grep -q '^distributed: not built'; then
    echo "SKIPPED: mpi_search.sh: the distributed search ($BANYAN was built without MPI)"
else
    # As root, Open MPI wants to be told; two cores hold more ranks than
    # cores. Under AddressSanitizer, the MPI library's own memory still held
    # at exit is not looked for (LeakSanitizer would list it).
    MPIRUN="env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 mpirun"

    check "mpi: --version names the MPI library" "$BANYAN" --version
    has "mpi: --version names the MPI library" '^distributed: (Open MPI|MPICH).*mpirun -np N'

    # f wins (the solver's word, with no book and the root's solver held to
    # one position): every rank searches, rank 0 reports the sum.
    P=5554224333234511764415115
    check "mpi: 4-rank analysis" $MPIRUN -np 4 "$BANYAN" analyze --game connect4 --param book=off \
        --position $P --solve 1 --playouts 4000
    has "mpi: 4-rank analysis finds the proven win" '^f +[0-9]+ +100\.00% .* win'
    # A draw to search on to the end: the root holds the four ranks'
    # simulations (each runs 3000), more than any one rank ran.
    check "mpi: 4-rank analysis, merged" $MPIRUN -np 4 "$BANYAN" analyze --game connect4 \
        --param book=off --position 274552224131661 --solve 1 --playouts 3000
    has "mpi: the playouts of every rank" '^playouts 12000,'
    awk '$2 ~ /^[0-9]+$/ && NF >= 5 { n += $2 } END { exit !(n > 3000 * 3) }' "$tmp/out" &&
        ok "mpi: rank 0's root holds the others' simulations" ||
        bad "mpi: rank 0's root holds the others' simulations"
    # The tree dump: rank 0 writes it, whole (every rank once wrote it, into
    # one file).
    check "mpi: --tree-dump over 4 ranks" $MPIRUN -np 4 "$BANYAN" analyze --game gomoku \
        --position "e7 e8 d7 f10 f9 c10 f11 d8" --playouts 500 --tree-dump "$M/tree.json"
    python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); sys.exit(t["visits"] != 2000)' \
        "$M/tree.json" 2> /dev/null && ok "mpi: --tree-dump: one tree of the four ranks' visits" ||
        bad "mpi: --tree-dump: one tree of the four ranks' visits"

    # In step (--share-every): one thread a rank and the default seed make
    # a search over ranks reproducible; a rank whose search ends on a proof
    # leaves no other waiting for its rounds; a timed search ends.
    for i in 1 2; do
        $MPIRUN -np 3 "$BANYAN" analyze --game gomoku --position "e7 e8 d7 f10 f9 c10 f11 d8" \
            --playouts 400 --share-every 32 --share-stats > "$M/step.$i" 2> "$M/step.err.$i"
        echo "rc $?" >> "$M/step.$i"
    done
    grep -q '^share: rank 0: 13 exchanges' "$M/step.err.1" && grep -q '^playouts 1200,' "$M/step.1" &&
        grep -q '^rc 0$' "$M/step.1" &&
        ok "mpi: --share-every 32: 12 rounds and the last in 400 simulations a rank" ||
        { bad "mpi: --share-every 32: 12 rounds and the last in 400 simulations a rank"; cat "$M/step.err.1"; }
    [ "$(grep -v '^playouts' "$M/step.1")" = "$(grep -v '^playouts' "$M/step.2")" ] &&
        ok "mpi: --share-every: the same search twice, the same statistics" ||
        bad "mpi: --share-every: the same search twice, the same statistics"
    check "mpi: --share-every, a search that ends on a proof" $MPIRUN -np 4 "$BANYAN" analyze \
        --game connect4 --param book=off --position $P --solve 1 --playouts 100000 --share-every 16
    has "mpi: --share-every, a search that ends on a proof" '^f +[0-9]+ +100\.00% .* win'
    check "mpi: --share-every, a timed search" $MPIRUN -np 3 "$BANYAN" analyze --game go \
        --param size=9 --time 0.5 --share-every 64
    has "mpi: --share-every, a timed search" '^playouts [0-9]+, [0-9.]+ s,'

    # GTP over 3 ranks: every rank follows the game, undo included, and
    # lz-analyze streams until the next command.
    mkfifo "$M/gtp.in"
    $MPIRUN -np 3 "$BANYAN" gtp --game go --param size=9 --playouts 600 < "$M/gtp.in" \
        > "$M/gtp.out" 2> "$M/gtp.err" &
    gtp_pid=$!
    exec 3> "$M/gtp.in"
    printf 'clear_board\ngenmove b\ngenmove w\ngenmove b\nundo\ngenmove b\nlz-analyze 10\n' >&3
    sleep 1
    printf 'genmove w\ngenmove b\nshowboard\nprintsgf %s\nquit\n' "$M/game.sgf" >&3
    exec 3>&-
    wait $gtp_pid
    gtp_rc=$?
    cp "$M/gtp.out" "$tmp/out"
    [ $gtp_rc -eq 0 ] && ok "mpi: gtp over 3 ranks exits 0" || bad "mpi: gtp over 3 ranks exits 0"
    [ "$(grep -c '^= [A-HJ][1-9]$' "$tmp/out")" -eq 6 ] && ok "mpi: gtp: six genmoves answered" ||
        bad "mpi: gtp: six genmoves answered"
    has "mpi: gtp: lz-analyze streams" '^info move [A-HJ][1-9] visits [0-9]+ '
    # The board: three black stones (the one undone gone), two white. A
    # row's number is followed by a space, or by the last move's "(" when
    # that move is on column A.
    [ "$(grep -E '^ [1-9][ (]' "$tmp/out" | grep -o 'X' | wc -l)" -eq 3 ] &&
        [ "$(grep -E '^ [1-9][ (]' "$tmp/out" | grep -o 'O' | wc -l)" -eq 2 ] &&
        ok "mpi: gtp: the board after undo" || bad "mpi: gtp: the board after undo"
    # printsgf FILE: rank 0 writes the record, once.
    [ "$(grep -o ';[BW]\[' "$M/game.sgf" | wc -l)" -eq 5 ] && [ "$(grep -c '(;' "$M/game.sgf")" -eq 1 ] &&
        ok "mpi: gtp: printsgf FILE written once, five moves" ||
        bad "mpi: gtp: printsgf FILE written once, five moves"

    # Gomocup over 2 ranks.
    printf 'START 15\nINFO timeout_turn 300\nBEGIN\nTURN 7,8\nEND\n' |
        $MPIRUN -np 2 "$BANYAN" gomocup > "$tmp/out" 2>&1
    [ "$(grep -cE '^[0-9]+,[0-9]+$' "$tmp/out")" -eq 2 ] && ok "mpi: gomocup over 2 ranks: two moves" ||
        bad "mpi: gomocup over 2 ranks: two moves"

    # A referee on one machine with a player that is an MPI job of its own.
    check "mpi: a match player over 2 ranks" env OMPI_ALLOW_RUN_AS_ROOT=1 \
        OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
        ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 "$BANYAN" match --game tictactoe \
        "gtp:mpirun -np 2 $BANYAN gtp --game tictactoe --playouts 100" banyan:playouts=100 --games 2
    has "mpi: a match player over 2 ranks: both games played" '^games 2, score'

    # The web board over 2 ranks (tests/cli/mpi_web.py): rank 0 serves,
    # each session's search runs over both ranks, one at a time; SIGTERM to
    # rank 0 ends the job cleanly.
    if "$BANYAN" --version | grep -q '^web board: not built'; then
        echo "SKIPPED: mpi_search.sh: the web board over MPI ($BANYAN was built without the web board)"
    elif ! command -v python3 > /dev/null 2>&1; then
        echo "SKIPPED: mpi_search.sh: the web board over MPI (python3 not found)"
    else
        rm -f "$M"/pid.*
        $MPIRUN -np 2 sh -c 'echo $$ > '"$M"'/pid.${OMPI_COMM_WORLD_RANK:-$PMI_RANK}; exec "$0" "$@"' \
            "$BANYAN" serve --port 0 --playouts 1500 > "$M/web.out" 2> "$M/web.err" &
        web_job=$!
        web_url=
        for i in $(seq 300); do
            web_url=$(head -1 "$M/web.out" 2> /dev/null | sed -n 's|^banyan serve: \(http://127\.0\.0\.1:[0-9][0-9]*/\)$|\1|p')
            [ -n "$web_url" ] && [ -s "$M/pid.0" ] && break
            sleep 0.1
        done
        if [ -z "$web_url" ]; then
            bad "mpi: serve over 2 ranks prints its address"
        else
            ok "mpi: serve over 2 ranks prints its address"
            timeout 300 python3 "$(dirname "${BASH_SOURCE[0]}")/mpi_web.py" "$web_url" 1500 2 > "$tmp/out" 2>&1
            while read -r word name; do
                case $word in ok) ok "mpi: $name" ;; FAIL) bad "mpi: $name" ;; esac
            done < "$tmp/out"
            grep -q '^ok   web over MPI: then over every rank' "$tmp/out" ||
                { bad "mpi: the web board's checks all ran"; sed -n 1,20p "$tmp/out"; }
        fi
        kill -TERM "$(cat "$M/pid.0" 2> /dev/null)" 2> /dev/null
        for i in $(seq 300); do kill -0 $web_job 2> /dev/null || break; sleep 0.1; done
        if kill -0 $web_job 2> /dev/null; then
            bad "mpi: serve over 2 ranks ends on SIGTERM to rank 0"
            kill -9 $web_job 2> /dev/null
            pkill -9 -f "$BANYAN serve --port 0 --playouts 1500" 2> /dev/null
            wait $web_job
        else
            wait $web_job
            web_rc=$?
            [ $web_rc -eq 0 ] && [ "$(wc -l < "$M/web.out")" -eq 1 ] && [ ! -s "$M/web.err" ] &&
                ok "mpi: serve over 2 ranks ends on SIGTERM to rank 0, exit 0, quiet" ||
                { bad "mpi: serve over 2 ranks ends on SIGTERM to rank 0, exit 0, quiet (rc $web_rc)"; head -5 "$M/web.err"; }
        fi
    fi

    # A command that runs on one machine says so, on rank 0 only.
    $MPIRUN -np 2 "$BANYAN" play connect4 > "$tmp/out" 2>&1 < /dev/null
    [ $? -ne 0 ] && [ "$(grep -c 'runs on one machine' "$tmp/out")" -eq 1 ] &&
        ok "mpi: play refused under mpirun" || bad "mpi: play refused under mpirun"

    # A rank that dies or hangs mid-search ends the job, named: killed,
    # mpirun stops the others; stopped (SIGSTOP), the others' timeout.
    for how in KILL STOP; do
        rm -f "$M"/pid.* "$M/kill.in"
        mkfifo "$M/kill.in"
        $MPIRUN -np 3 sh -c 'echo $$ > '"$M"'/pid.${OMPI_COMM_WORLD_RANK:-$PMI_RANK}; exec "$0" "$@"' \
            "$BANYAN" gtp --game go --param size=9 --time 60 --rank-timeout 2 \
            < "$M/kill.in" > "$M/kill.out" 2> "$M/kill.err" &
        kill_pid=$!
        exec 3> "$M/kill.in"
        printf 'genmove b\n' >&3
        for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$M/pid.2" ] && break; sleep 0.5; done
        sleep 1
        kill -$how "$(cat "$M/pid.2")"
        # Within a few seconds: 40 x 0.5 s at most (the rank timeout is 2 s).
        for i in $(seq 1 40); do kill -0 $kill_pid 2> /dev/null || break; sleep 0.5; done
        if kill -0 $kill_pid 2> /dev/null; then
            bad "mpi: a rank $how mid-search ends the job"
            kill -9 $kill_pid 2> /dev/null
            pkill -9 -f "banyan gtp --game go --param size=9 --time 60" 2> /dev/null
        else
            ok "mpi: a rank $how mid-search ends the job"
        fi
        wait $kill_pid
        kill_rc=$?
        exec 3>&-
        [ "$how" = STOP ] && kill -CONT "$(cat "$M/pid.2")" 2> /dev/null
        cp "$M/kill.err" "$tmp/out"
        [ $kill_rc -ne 0 ] && ok "mpi: a rank $how: the job fails" || bad "mpi: a rank $how: the job fails"
        if [ "$how" = STOP ]; then
            has "mpi: a stopped rank is named" 'rank 2 sent nothing for 2 s during a search'
        elif mpirun --version 2>&1 | grep -q 'Open MPI'; then
            # Open MPI's mpirun names the rank (MPICH's ends the job with its signal, silent).
            has "mpi: a killed rank is named" 'rank 2 .*(signal|exit|kill)|(signal|exit|kill).* rank 2'
        fi
    done

    # NRPA over 3 ranks sharing their best games: the job's game the same
    # twice, rank 0 alone printing and saving it, --load replaying it; NMCS
    # refused.
    for i in 1 2; do
        $MPIRUN -np 3 "$BANYAN" solo --param rule=5d --algorithm nrpa --level 2 --seed 4 \
            --save "$M/nrpa$i.txt" > "$M/nrpa$i" 2>&1
        echo "rc $?" >> "$M/nrpa$i"
    done
    cp "$M/nrpa1" "$tmp/out"
    nb=$(sed -n 's/^best: //p' "$M/nrpa1")
    [ "$(grep -c '^best: ' "$M/nrpa1")" = 1 ] && [ "${nb:-0}" -ge 55 ] && grep -q '^rc 0$' "$M/nrpa1" &&
        ok "mpi: NRPA over 3 ranks finds a game of $nb moves, printed once" ||
        bad "mpi: NRPA over 3 ranks finds a game of 55 moves or more, printed once"
    cmp -s "$M/nrpa1.txt" "$M/nrpa2.txt" && ok "mpi: NRPA over 3 ranks, the same seed, the same game" ||
        bad "mpi: NRPA over 3 ranks, the same seed, the same game"
    check "mpi: NRPA's saved game replays" "$BANYAN" solo --load "$M/nrpa1.txt"
    has "mpi: NRPA's saved game scores" "a finished game of $nb moves, score $nb$"
    $MPIRUN -np 2 "$BANYAN" solo --algorithm nmcs --level 1 > "$tmp/out" 2>&1
    [ $? -ne 0 ] && grep -q "only --algorithm nrpa runs over the ranks" "$tmp/out" &&
        ok "mpi: solo refuses NMCS over the ranks" || bad "mpi: solo refuses NMCS over the ranks"
fi
