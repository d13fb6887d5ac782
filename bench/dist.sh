#!/usr/bin/env bash
# bench/dist.sh [PARTS] - the distributed search (dist/dsearch.c) measured
# on this machine: the cost of an exchange (--share-stats) in each game, the
# rate of 1, 2 and 4 ranks, and matches over MPI (docs/DISTRIBUTED.md has
# the figures of docs/RESULTS.md):
#   merge  4 ranks x N/4 playouts against 1 rank x N (equal simulations):
#          the merge neither loses nor double-counts if this scores 50%;
#   pays   4 ranks x N against 1 rank x N (equal simulations a rank).
# PARTS: any of cost rates merge pays (default: all four); GAMES=200 games a
# match by default, GAMES_LIST the games (default "connect4 gomoku go"),
# OUT=bench-dist (results files, resumable: run again to go on).
set -u
B=${B:-build/release}
BANYAN=$(cd "$(dirname "$B/banyan")" && pwd)/banyan
OUT=${OUT:-bench-dist}
GAMES=${GAMES:-200}
GAMES_LIST=${GAMES_LIST:-"connect4 gomoku go"}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPI="mpirun -np 4"

# The settings of each game: its parameters, N, the exchange interval (a
# few exchanges a move at N/4 a rank), the openings.
game_setup() {
    case $1 in
    connect4) GAME="connect4 --param book=off"; KEYS="solve=1,memory=64M"; OWN="--solve 1 --memory 64M"
        N=20000; MS=5; OPEN="--random-plies 4" ;;
    gomoku) GAME="gomoku"; KEYS="memory=64M"; OWN="--memory 64M"; N=2000; MS=10
        OPEN="--openings /work/shared/data/gomoku/openings_freestyle15.txt"
        [ -f ../shared/data/gomoku/openings_freestyle15.txt ] &&
            OPEN="--openings ../shared/data/gomoku/openings_freestyle15.txt" ;;
    go) GAME="go --param size=9"; KEYS="memory=64M"; OWN="--memory 64M"; N=2000; MS=10
        OPEN="--random-plies 2" ;;
    esac
}

PARTS=${*:-cost rates merge pays}
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

for m in merge pays; do
    part $m || continue
    for g in $GAMES_LIST; do
        game_setup $g
        per=$N
        [ $m = merge ] && per=$((N / 4))
        echo "== $m, $g: 4 ranks x $per playouts against 1 rank x $N, $GAMES games"
        "$BANYAN" match --game $GAME \
            "gtp:$MPI $BANYAN gtp --game $GAME $OWN --playouts $per --share-ms $MS" \
            "banyan:playouts=$N,$KEYS" --games $GAMES $OPEN --results "$OUT/$m-$g.results" |
            tail -6
    done
done
