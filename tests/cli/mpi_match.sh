# tests/cli/mpi_match.sh - banyan match over the ranks of an MPI job
# (docs/MATCH.md, "On several machines"): the results of a match spread over
# 4 ranks equal those of one rank, game for game and record for record; a
# match resumed over MPI; a rank killed mid-match (kill -9) and one that
# hangs (kill -STOP) end the run within seconds with whole result lines,
# and the match resumed on 2 ranks loses and doubles no game; external
# players on every rank, and a rank whose players cannot start. Sourced by
# tests/run.sh; skipped without mpirun or without MPI in the build. The
# first check needs no MPI: a results file's unfinished last line.

# The one check without MPI: a results file whose last line lacks its
# newline (which no run of the referee leaves, but a full disk might) is
# cut there, and that game is played again.
mm_res=$tmp/mm_torn
rm -f "$mm_res"
"$BANYAN" match --game tictactoe banyan:playouts=50 banyan:playouts=50,c=0.7 --games 4 \
    --results "$mm_res" > /dev/null 2>&1
head -c -3 "$mm_res" > "$mm_res.cut"
mv "$mm_res.cut" "$mm_res"
check "mpi_match: a torn results line" "$BANYAN" match --game tictactoe banyan:playouts=50 \
    banyan:playouts=50,c=0.7 --games 4 --results "$mm_res"
has "mpi_match: the torn line cut off" 'its unfinished last line was cut off'
has "mpi_match: its game played again" '^resuming: 3 of 4 games already played$'
[ "$(grep -c '^[0-9]' "$mm_res")" -eq 4 ] && [ "$(cut -d' ' -f1 "$mm_res" | grep -c '^4$')" -eq 1 ] &&
    ok "mpi_match: four whole lines after the torn one" ||
    bad "mpi_match: four whole lines after the torn one"

# mm_mpirun ARGS...: mpirun with what this machine needs: more ranks than
# cores (--oversubscribe), root's permission where the tests run as root,
# and a deadline, so that a hang fails the check instead of the suite
# (under AddressSanitizer, the MPI library's memory held at exit is not
# looked for).
mm_mpirun() {
    OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 timeout 120 mpirun "$@"
}

# mm_wait_lines FILE N: waits until FILE holds N games (at most 60 s).
mm_wait_lines() {
    local i n
    for i in $(seq 1200); do
        n=$(grep -c '^[0-9]' "$1" 2> /dev/null)
        [ "${n:-0}" -ge "$2" ] && return 0
        sleep 0.05
    done
    return 1
}

# mm_whole FILE: every line of FILE is the identity or a whole game's line,
# and the file ends with a newline.
mm_whole() {
    [ -s "$1" ] && [ -z "$(tail -c 1 "$1")" ] &&
        ! grep -Evq '^(# match .*|[0-9]+ [01] -?[01] [0-9]+ [a-z].*)$' "$1"
}

# mm_reap: ends the ranks the launcher left, if any (by the pids they wrote,
# where each is still a banyan), and forgets their pids.
mm_reap() {
    local f p
    for f in "$mm"/pid/*; do
        [ -f "$f" ] || continue
        p=$(cat "$f")
        [ "$(ps -p "$p" -o comm= 2> /dev/null)" = banyan ] && kill -9 "$p" 2> /dev/null
        rm -f "$f"
    done
}

# mm_games FILE: the games' lines of a results file, in game order.
mm_games() { grep '^[0-9]' "$1" | sort -n; }

# mm_moves DIR: the records of a match without the time of each move.
mm_moves() { (cd "$1" && for f in game-*; do echo "$f"; sed -E 's/ [0-9]+\.[0-9]{3}s / /' "$f"; done); }

if ! command -v mpirun > /dev/null 2>&1; then
    echo "SKIPPED: mpi_match.sh: matches over MPI (mpirun not found)"
elif "$BANYAN" --version | grep -q '^distributed: not built'; then
    echo "SKIPPED: mpi_match.sh: matches over MPI (the program was built without MPI:" \
        "distributed: not built)"
else
    mm=$tmp/mm
    rm -rf "$mm"
    mkdir -p "$mm/pid"
    mm_bin=$(cd "$(dirname "$BANYAN")" && pwd)/$(basename "$BANYAN")
    mm_ompi=$(mpirun --version 2>&1 | grep 'Open MPI')
    # Connect Four by the search alone (no book, no solver: games differ and
    # each costs some 30 ms), 128 games in all.
    MM="match --game connect4 --param book=off --param solver=off banyan:playouts=3000 \
banyan:playouts=3000,c=0.7 -j 1"

    # The reference: the whole match on one rank, without MPI.
    check "mpi_match: one rank, 128 games" $BANYAN $MM --games 128 --results "$mm/ref" \
        --records "$mm/ref.rec"

    # The first 16 games on 4 ranks: the same games, results and records.
    check "mpi_match: 4 ranks, 16 games" mm_mpirun -np 4 $BANYAN $MM --games 16 \
        --results "$mm/res" --records "$mm/rec"
    has "mpi_match: 4 ranks: the table" '^games 16, score '
    has "mpi_match: 4 ranks: a line per game" '^\[16/16\] A '
    if [ "$(mm_games "$mm/res")" = "$(mm_games "$mm/ref" | head -16)" ] &&
        [ "$(grep -c '^#' "$mm/res")" -eq 1 ]; then
        ok "mpi_match: 4 ranks: the results of one rank, game for game"
    else
        { diff <(mm_games "$mm/ref" | head -16) <(mm_games "$mm/res"); cat "$mm/res"; } > "$tmp/out"
        bad "mpi_match: 4 ranks: the results of one rank, game for game"
    fi
    mkdir -p "$mm/ref16"
    cp "$mm"/ref.rec/game-000{0[1-9],1[0-6]}.* "$mm/ref16/"
    if [ "$(ls "$mm/rec" | wc -l)" -eq 16 ] && [ "$(mm_moves "$mm/rec")" = "$(mm_moves "$mm/ref16")" ]; then
        ok "mpi_match: 4 ranks: the records of one rank, move for move"
    else
        diff <(mm_moves "$mm/ref16") <(mm_moves "$mm/rec") > "$tmp/out"
        bad "mpi_match: 4 ranks: the records of one rank, move for move"
    fi

    # mm_kill RANK AFTER: the match resumed for 128 games on 4 ranks, and
    # RANK killed (kill -9) once AFTER more games are in: the run ends
    # within seconds with whole lines of finished games.
    mm_kill() {
        local before job t0 dt n
        before=$(grep -c '^[0-9]' "$mm/res")
        (
            cd "$mm" && mm_mpirun -np 4 sh -c 'echo $$ > pid/${OMPI_COMM_WORLD_RANK:-$PMI_RANK}; exec "$0" "$@"' \
                "$mm_bin" $MM --games 128 --results res --records rec > killed.out 2>&1
            echo $? > killed.rc
        ) &
        job=$!
        if ! mm_wait_lines "$mm/res" $((before + $2)) || [ ! -s "$mm/pid/$1" ]; then
            wait "$job"
            cp "$mm/killed.out" "$tmp/out"
            bad "mpi_match: kill -9 of rank $1 (the match did not start)"
            mm_reap
            return
        fi
        kill -9 "$(cat "$mm/pid/$1")"
        t0=$SECONDS
        wait "$job"
        dt=$((SECONDS - t0))
        mm_reap
        cp "$mm/killed.out" "$tmp/out"
        [ "$(cat "$mm/killed.rc")" != 0 ] && [ "$dt" -le 5 ] &&
            ok "mpi_match: kill -9 of rank $1 ends the run (in $dt s)" ||
            bad "mpi_match: kill -9 of rank $1 ends the run (status $(cat "$mm/killed.rc"), in $dt s)"
        # Open MPI's mpirun names the rank (MPICH's ends with its signal, silent).
        if [ -n "$mm_ompi" ]; then
            has "mpi_match: kill -9 of rank $1: the launcher names it" "rank $1"
        fi
        has "mpi_match: kill -9 of rank $1: resumed over MPI" \
            "^resuming: $before of 128 games already played\$"
        n=$(grep -c '^[0-9]' "$mm/res")
        mm_whole "$mm/res" && [ "$n" -lt 128 ] &&
            ok "mpi_match: kill -9 of rank $1: $n whole game lines kept" ||
            { cp "$mm/res" "$tmp/out"; bad "mpi_match: kill -9 of rank $1: whole lines kept ($n)"; }
    }
    # Rank 2, one that plays; then rank 0, the one that writes.
    mm_kill 2 3
    mm_kill 0 3
    n=$(grep -c '^[0-9]' "$mm/res")
    check "mpi_match: resumed on 2 ranks" mm_mpirun -np 2 $BANYAN $MM --games 128 \
        --results "$mm/res" --records "$mm/rec"
    has "mpi_match: resumed from the killed run" "^resuming: $n of 128 games already played\$"
    has "mpi_match: resumed: the table" '^games 128, score '
    if [ "$(mm_games "$mm/res")" = "$(mm_games "$mm/ref")" ] && mm_whole "$mm/res"; then
        ok "mpi_match: after the kills, every game once, as on one rank"
    else
        diff <(mm_games "$mm/ref") <(mm_games "$mm/res") > "$tmp/out"
        bad "mpi_match: after the kills, every game once, as on one rank"
    fi
    [ "$(mm_moves "$mm/rec")" = "$(mm_moves "$mm/ref.rec")" ] &&
        ok "mpi_match: after the kills, the records of one rank" ||
        bad "mpi_match: after the kills, the records of one rank"

    # A rank that hangs (kill -STOP): rank 0 hears no heartbeat from it and
    # ends the run after --rank-timeout, naming it.
    (
        cd "$mm" && mm_mpirun -np 3 sh -c 'echo $$ > pid/${OMPI_COMM_WORLD_RANK:-$PMI_RANK}; exec "$0" "$@"' \
            "$mm_bin" $MM --games 128 --results stopped --rank-timeout 2 > stopped.out 2>&1
        echo $? > stopped.rc
    ) &
    mm_job=$!
    if mm_wait_lines "$mm/stopped" 2 && [ -s "$mm/pid/1" ]; then
        kill -STOP "$(cat "$mm/pid/1")"
        mm_t0=$SECONDS
        wait "$mm_job"
        mm_dt=$((SECONDS - mm_t0))
        cp "$mm/stopped.out" "$tmp/out"
        [ "$(cat "$mm/stopped.rc")" != 0 ] && [ "$mm_dt" -le 8 ] &&
            ok "mpi_match: kill -STOP of a rank ends the run (in ${mm_dt} s, --rank-timeout 2)" ||
            bad "mpi_match: kill -STOP of a rank ends the run (in ${mm_dt} s, --rank-timeout 2)"
        # (MPICH's launcher loses rank 0's last words now and then: it ends
        # the job on MPI_Abort before it has passed on their standard error.)
        if [ -n "$mm_ompi" ]; then
            has "mpi_match: kill -STOP: the rank named" 'rank 1 sent nothing for 2 s'
        fi
        mm_whole "$mm/stopped" && ok "mpi_match: kill -STOP: whole game lines kept" ||
            bad "mpi_match: kill -STOP: whole game lines kept"
    else
        wait "$mm_job"
        cp "$mm/stopped.out" "$tmp/out"
        bad "mpi_match: kill -STOP of a rank (the match did not start)"
    fi
    mm_reap

    # External players on every rank: each started without the launcher's
    # variables (a banyan player would take itself for a rank of the job),
    # and each game played where its number was sent. The player writes the
    # rank that started it (RANK, passed down by the wrapper); on rank 2 it
    # cannot start, which stops the match before its first game.
    printf '#!/bin/sh\necho "$RANK" >> %s/ranks\n[ "$RANK" = "$FAIL_RANK" ] && exit 3\nexec %s gtp --game connect4 --playouts 100\n' \
        "$mm" "$mm_bin" > "$mm/engine.sh"
    chmod +x "$mm/engine.sh"
    mm_gtp() {
        mm_mpirun -np 3 sh -c 'RANK=${OMPI_COMM_WORLD_RANK:-$PMI_RANK} exec "$0" "$@"' \
            "$mm_bin" match --game connect4 banyan:playouts=100 "gtp:$mm/engine.sh" "$@"
    }
    rm -f "$mm/ranks"
    FAIL_RANK=none check "mpi_match: an external player on 3 ranks" mm_gtp --games 9
    has "mpi_match: external: nine games" '^games 9, '
    if grep -Eq 'crash|hang|illegal' "$tmp/out"; then bad "mpi_match: external: no forfeits"; else
        ok "mpi_match: external: no forfeits"; fi
    # Each rank starts the player once before the games: a rank named more
    # than once played games.
    n=$(sort "$mm/ranks" | uniq -c | awk '$1 > 1' | wc -l)
    [ "$n" -ge 2 ] && ok "mpi_match: external: games played on $n ranks" ||
        { sort "$mm/ranks" | uniq -c > "$tmp/out"; bad "mpi_match: external: games played on $n ranks"; }
    FAIL_RANK=2 mm_gtp --games 9 --results "$mm/failed" > "$tmp/out" 2>&1
    [ $? -ne 0 ] && ok "mpi_match: a rank whose player cannot start stops the match" ||
        bad "mpi_match: a rank whose player cannot start stops the match"
    has "mpi_match: the rank and the player named" '^banyan match: rank 2: B \(gtp:.*\): .*no game was played$'
    [ ! -e "$mm/failed" ] && ok "mpi_match: nothing written when a rank cannot play" ||
        bad "mpi_match: nothing written when a rank cannot play"
fi
