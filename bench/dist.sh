#!/usr/bin/env bash
# bench/dist.sh [PARTS] - the distributed search (dist/dsearch.c) measured
# on this machine: the cost of an exchange (--share-stats) in each game, the
# rate of 1, 2 and 4 ranks, and matches over MPI (docs/DISTRIBUTED.md has
# the figures of docs/RESULTS.md):
#   merge  4 ranks x N/4 playouts against 1 rank x N (equal simulations):
#          the merge neither loses nor double-counts if this scores 50%;
#   pays   4 ranks x N against 1 rank x N (equal simulations a rank).
# PARTS: any of cost rates time merge pays (default: all five; time: the
# round trip of a GTP genmove at --time 1 on 1 and 4 ranks, in Go 9x9); GAMES=200 games a
# match by default, GAMES_LIST the games (default "connect4 gomoku go"),
# OUT=bench-dist (results files, resumable: run again to go on); EVERY=K:
# the 4 ranks exchange in step every K simulations (--share-every) in place
# of every few ms (results files then named ...-everyK); X: more options for
# the ranks (X="--share-phantoms off": results files ...-share-phantoms-off).
set -u
B=${B:-build/release}
BANYAN=$(cd "$(dirname "$B/banyan")" && pwd)/banyan
OUT=${OUT:-bench-dist}
GAMES=${GAMES:-200}
GAMES_LIST=${GAMES_LIST:-"connect4 gomoku go"}
EVERY=${EVERY:-}
X=${X:-}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPI="mpirun -np 4"

# The settings of each game: its parameters, N, the exchange interval (a
# few exchanges a move at N/4 a rank), the openings.
game_setup() {
    case $1 in
    connect4) GAME="connect4 --param book=off"; OWN="--solve 1 --memory 64M"
        N=20000; MS=2; OPEN="--random-plies 4" ;;
    gomoku) GAME="gomoku"; OWN="--memory 64M"; N=2000; MS=10
        OPEN="--openings /work/shared/data/gomoku/openings_freestyle15.txt"
        [ -f ../shared/data/gomoku/openings_freestyle15.txt ] &&
            OPEN="--openings ../shared/data/gomoku/openings_freestyle15.txt" ;;
    go) GAME="go --param size=9"; OWN="--memory 64M"; N=2000; MS=10
        OPEN="--random-plies 2" ;;
    esac
}

PARTS=${*:-cost rates time merge pays}
part() { case " $PARTS " in *" $1 "*) true ;; *) false ;; esac; }

part cost && echo "== the cost of an exchange: 4 ranks, 2 s a search, 10,000 nodes"
part cost && for g in $GAMES_LIST; do
    game_setup $g
    $MPI "$BANYAN" analyze --game $GAME $OWN --time 2 --share-stats 2>&1 | grep '^share' | sed "s/^/$g: /"
done

part rates && echo "== rates: 1, 2, 4 ranks, 2 s each (ranks beyond the cores share them)"
part rates && for g in $GAMES_LIST; do
    game_setup $g
    for n in 1 2 4; do
        r=$(mpirun -np $n "$BANYAN" analyze --game $GAME $OWN --time 2 2>&1 | grep '^playouts' | cut -d, -f1-3)
        echo "$g, $n ranks: $r"
    done
done

# A GTP engine asked for moves of 1 s: the time from the command to the answer.
gtp_round_trips() {
    python3 - "$@" <<'PY'
import subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
def ask(c):
    t0 = time.monotonic()
    p.stdin.write(c + "\n")
    p.stdin.flush()
    out = []
    while True:
        line = p.stdout.readline()
        if not line or (line.strip() == "" and out):
            break
        out.append(line.strip())
    return time.monotonic() - t0
ts = sorted(ask(c) for c in ["genmove b", "genmove w"] * 5)
ask("quit")
print("genmove --time 1: median %.3f s, most %.3f s (10 moves)" % (ts[len(ts) // 2], ts[-1]))
PY
}
if part time; then
    echo "== time: GTP genmove at --time 1, Go 9x9"
    echo "1 rank: $(gtp_round_trips "$BANYAN" gtp --game go --param size=9 --time 1)"
    echo "4 ranks: $(gtp_round_trips $MPI "$BANYAN" gtp --game go --param size=9 --time 1)"
fi

for m in merge pays; do
    part $m || continue
    for g in $GAMES_LIST; do
        game_setup $g
        per=$N
        [ $m = merge ] && per=$((N / 4))
        share="--share-ms $MS" tag=
        [ -n "$EVERY" ] && share="--share-every $EVERY" tag=-every$EVERY
        [ -n "$X" ] && share="$share $X" tag=$tag$(echo " $X" | tr -c 'a-z0-9\n' '-' | tr -s '-')
        echo "== $m, $g: 4 ranks x $per playouts ($share) against 1 rank x $N, $GAMES games"
        # Both players the same front end (GTP, with its resignation), one
        # of them over 4 ranks.
        "$BANYAN" match --game $GAME \
            "gtp:$MPI $BANYAN gtp --game $GAME $OWN --playouts $per $share" \
            "gtp:$BANYAN gtp --game $GAME $OWN --playouts $N" --games $GAMES $OPEN \
            --results "$OUT/$m-$g$tag.results" | tail -6
    done
done
