# tests/cli/mpi_learn.sh - banyan learn under mpirun: 3 ranks write the
# records, networks and state of a one-rank run, byte for byte; a rank
# killed in the middle of a generation ends the run (mpirun names it) and
# the run started again ends as if never stopped; a rank that hangs ends the
# run within --rank-timeout seconds, named by rank 0; a network damaged on
# its way is refused by the ranks that receive it. Sourced by tests/run.sh.
if ! command -v mpirun > /dev/null 2>&1; then
    echo "SKIPPED: mpi_learn.sh: banyan learn under MPI (mpirun not found)"
elif "$BANYAN" --version | grep -q '^distributed: not built'; then
    echo "SKIPPED: mpi_learn.sh: banyan learn under MPI (the program was built without MPI)"
else
    # Open MPI refuses root without these, and more ranks than cores
    # without the last; MPICH ignores them. Under AddressSanitizer, the MPI
    # library's memory held at exit is not looked for.
    MPIRUN="env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
            OMPI_MCA_rmaps_base_oversubscribe=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
            timeout 120 mpirun"
    M=$tmp/mpi_learn
    rm -rf "$M"
    mkdir -p "$M"
    # The records, networks and state of two runs' folders are the same bytes.
    mpi_same() { diff -rq -x lock "$1" "$2" > /dev/null; }
    mpi_bytes() { if [ -f "$1" ]; then wc -c < "$1"; else echo 0; fi; }
    # The process of rank $2 among the descendants of process $1.
    mpi_rank_pid() {
        local p
        for p in $(pgrep -P "$1"); do
            tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" &&
                echo "$p"
            mpi_rank_pid "$p" "$2"
        done
    }
    A="--game tictactoe --generations 2 --games-per-gen 600 --playouts 100 --steps 30
       --channels 8 --blocks 1 --hidden 8 --gate-games 6"

    check "mpi learn: one rank" "$BANYAN" learn $A --dir "$M/one"
    check "mpi learn: 3 ranks" $MPIRUN -np 3 "$BANYAN" learn $A --dir "$M/three"
    has "mpi learn: 3 ranks said" '^learn: .*/three: 0 of 2 generations done, the best network net-0000, 3 ranks$'
    mpi_same "$M/one" "$M/three" && ok "mpi learn: 3 ranks, the records and networks of one" ||
        bad "mpi learn: 3 ranks, the records and networks of one"

    # Rank 1 killed while generation 2's games are played, then the run again.
    size=$(mpi_bytes "$M/one/games-0002.sp")
    $MPIRUN -np 3 "$BANYAN" learn $A --dir "$M/kill" > "$M/kill.out" 2>&1 &
    pid=$!
    for i in $(seq 3000); do
        [ "$(mpi_bytes "$M/kill/games-0002.sp")" -gt 4000 ] && break
        sleep 0.01
    done
    kill -9 $(mpi_rank_pid "$pid" 1) 2> /dev/null
    wait "$pid"
    rc=$?
    cp "$M/kill.out" "$tmp/out"
    [ $rc -ne 0 ] && [ "$(mpi_bytes "$M/kill/games-0002.sp")" -lt "$size" ] &&
        ok "mpi learn: rank 1 killed in the middle of generation 2 ends the run" ||
        bad "mpi learn: rank 1 killed in the middle of generation 2 ends the run (status $rc, $(mpi_bytes "$M/kill/games-0002.sp") bytes of $size)"
    has "mpi learn: mpirun names the rank killed" 'rank 1 .*(signal 9|Killed|KILLED)'
    check "mpi learn: resumed on 3 ranks" $MPIRUN -np 3 "$BANYAN" learn $A --dir "$M/kill"
    has "mpi learn: resumed in generation 2" '^learn: generation 2 of 2: 600 self-play games with net-000[01] \([0-9]+ in the records already\)$'
    mpi_same "$M/one" "$M/kill" && ok "mpi learn: killed and resumed, every game once" ||
        bad "mpi learn: killed and resumed, every game once"

    # Rank 2 stopped (kill -STOP): rank 0 names it after --rank-timeout.
    $MPIRUN -np 3 "$BANYAN" learn $A --rank-timeout 2 --dir "$M/hang" > "$M/hang.out" 2>&1 &
    pid=$!
    for i in $(seq 3000); do
        [ "$(mpi_bytes "$M/hang/games-0001.sp")" -gt 4000 ] && break
        sleep 0.01
    done
    kill -STOP $(mpi_rank_pid "$pid" 2) 2> /dev/null
    wait "$pid"
    rc=$?
    tr '\r' '\n' < "$M/hang.out" > "$tmp/out"
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "mpi learn: a rank that hangs ends the run" ||
        bad "mpi learn: a rank that hangs ends the run (status $rc)"
    has "mpi learn: rank 0 names the rank that hangs" '^banyan: rank 0: rank 2 sent nothing for 2 s: it hung or died$'

    # A network damaged on its way: refused before use, by the rank.
    BANYAN_TEST_FAULT=net-bytes $MPIRUN -np 3 "$BANYAN" learn $A --dir "$M/fault" > "$tmp/out" 2>&1
    [ $? -ne 0 ] && [ ! -e "$M/fault/net-0001.net" ] && ok "mpi learn: a damaged network stops the run" ||
        bad "mpi learn: a damaged network stops the run"
    has "mpi learn: the rank says the network failed its checksum" '^banyan: rank [12]: the network for generation 1 from rank 0 fails its checksum'
fi
