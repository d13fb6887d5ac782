#!/usr/bin/env bash
# bench/dist.sh [PARTS] - the distributed search (dist/dsearch.c) measured
# on this machine: the cost of an exchange (--share-stats) in each game, the
# rate of 1, 2 and 4 ranks, and matches over MPI (docs/DISTRIBUTED.md has
# the figures of docs/RESULTS.md):
#   merge  4 ranks x N/4 playouts against 1 rank x N (equal simulations):
#          the merge neither loses nor double-counts if this scores 50%;
#   pays   4 ranks x N against 1 rank x N (equal simulations a rank).
#   agree  without games: how often a search's move in the first NPOS=80 balanced
#          Gomoku openings is that of 1 rank x REF=50,000 playouts (saved in
#          OUT), for 1 rank x 2000 and x 500, 4 threads of one tree and 4 trees
#          (root parallelism), and 4 ranks x 500 (and 2 x 1000) exchanging by
#          time or in step, with and without phantom walks (a minute or so each).
#   leaves without games: the distinct nodes with visits in rank 0's tree
#          (--tree-dump) after 2000 simulations from one Gomoku position, one a
#          simulation where no two reach the same leaf: 1 x 2000, 4 threads,
#          4 ranks x 500 in step every 16 and every 10 ms, with and without
#          phantom walks (seconds).
# PARTS: any of cost rates time merge pays agree leaves (default: all but agree and leaves; time: the
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

# agree: the share of positions where a search's move is the reference's.
if part agree; then
    NPOS=${NPOS:-80}
    REF=${REF:-50000}
    OPENINGS=../shared/data/gomoku/openings_freestyle15.txt
    [ -f $OPENINGS ] || OPENINGS=/work/shared/data/gomoku/openings_freestyle15.txt
    ref_file="$OUT/agree-gomoku-ref$REF.txt"
    best() { "$@" 2> /dev/null < /dev/null | sed -n 's/^bestmove //p'; }
    if [ "$(wc -l < "$ref_file" 2> /dev/null)" != "$NPOS" ]; then
        head -$NPOS $OPENINGS | while read -r p; do
            best "$BANYAN" analyze --game gomoku --memory 256M --position "$p" --playouts $REF
        done > "$ref_file"
    fi
    echo "== agree: the move of 1 rank x $REF playouts, $NPOS Gomoku openings"
    G="--game gomoku --memory 64M"
    while read -r label np args; do
        n=0 same=0
        while read -r p && read -r want <&3; do
            if [ "$np" = 0 ]; then
                got=$(best "$BANYAN" analyze $G --position "$p" $args)
            else
                got=$(best mpirun -np $np "$BANYAN" analyze $G --position "$p" $args)
            fi
            n=$((n + 1))
            [ "$got" = "$want" ] && same=$((same + 1))
        done < <(head -$NPOS $OPENINGS) 3< "$ref_file"
        echo "$label: $same of $n"
    done <<'CONFIGS'
1x2000 0 --playouts 2000
1x500 0 --playouts 500
4-threads-one-tree 0 --playouts 2000 --threads 4
4-trees-root-parallel 0 --playouts 2000 --threads 4 --parallel root
4x500-10ms 4 --playouts 500 --share-ms 10
4x500-10ms-no-phantoms 4 --playouts 500 --share-ms 10 --share-phantoms off
4x500-every16 4 --playouts 500 --share-every 16
4x500-every16-no-phantoms 4 --playouts 500 --share-every 16 --share-phantoms off
2x1000-every16 2 --playouts 1000 --share-every 16
2x1000-every16-no-phantoms 2 --playouts 1000 --share-every 16 --share-phantoms off
CONFIGS
fi

# leaves: distinct nodes with visits in the tree of 2000 simulations.
if part leaves; then
    echo "== leaves: distinct nodes with visits of 2000 simulations, Gomoku after e7 e8 d7 f10 f9 c10 f11 d8"
    G=(--game gomoku --memory 64M --position "e7 e8 d7 f10 f9 c10 f11 d8")
    count() {
        python3 -c 'import json, sys
def n(t): return (t["visits"] > 0) + sum(n(c) for c in t.get("children", []))
t = json.load(open(sys.argv[1])); print("%d of %d" % (n(t) - 1, t["visits"]))' "$1"
    }
    while read -r label np args; do
        rm -f "$OUT/leaves.json"
        if [ "$np" = 0 ]; then
            "$BANYAN" analyze "${G[@]}" $args --tree-dump "$OUT/leaves.json" > /dev/null 2>&1 < /dev/null
        else
            mpirun -np $np "$BANYAN" analyze "${G[@]}" $args --tree-dump "$OUT/leaves.json" \
                > /dev/null 2>&1 < /dev/null
        fi
        echo "$label: $(count "$OUT/leaves.json")"
    done <<'CONFIGS'
1x2000 0 --playouts 2000
4-threads-one-tree 0 --playouts 2000 --threads 4
4x500-every16 4 --playouts 500 --share-every 16
4x500-every16-no-phantoms 4 --playouts 500 --share-every 16 --share-phantoms off
4x500-10ms 4 --playouts 500 --share-ms 10
2x1000-every16 2 --playouts 1000 --share-every 16
CONFIGS
fi
