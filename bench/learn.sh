#!/usr/bin/env bash
# bench/learn.sh GAME DIR [GENERATIONS] - the learning loop: from a random
# network (made once, in DIR), each generation plays selfplay games with the
# best network, trains a new one on the newest records, and keeps it when
# it scores at least GATE against the best in a `banyan match`. Run again
# with the same DIR, it goes on from the last finished generation (and a
# training killed midway resumes from its checkpoint).
#
# Writes DIR/progress.csv (one line a generation: losses, gate score, Elo
# against the previous best and in all, and for Tic-tac-toe the mistakes
# against minimax) and DIR/progress.svg, a plot of them. Settings from the
# environment (defaults for Tic-tac-toe in brackets):
#   GAMES [400] selfplay games a generation   PLAYOUTS [100] playouts a move
#   STEPS [400] training steps a generation   BATCH [64]   WINDOW [20000] positions
#   FILES [4] newest records files trained on  LR [0.002]
#   GATE_GAMES [60] GATE [0.55] GATE_PLAYOUTS [PLAYOUTS] RANDOM_PLIES [2]
#   CHANNELS [16] BLOCKS [1] HIDDEN [16]      JOBS [nproc]   SEED [1]
#   TEMP [the selfplay default] plies played in proportion to the visits
#   OPENING [0] selfplay games open with 0 to OPENING random plies
#   SEARCH_BATCH [8] leaves a search gathers for one pass of the network
#   PARAMS ["", game parameters as k=v,k=v]   B [build/release], NO_MAKE [unset]
set -eu
GAME=${1:?usage: bench/learn.sh GAME DIR [GENERATIONS]}
DIR=${2:?usage: bench/learn.sh GAME DIR [GENERATIONS]}
GENS=${3:-10}
B=${B:-build/release}
GAMES=${GAMES:-400} PLAYOUTS=${PLAYOUTS:-100} STEPS=${STEPS:-400} BATCH=${BATCH:-64}
WINDOW=${WINDOW:-20000} FILES=${FILES:-4} LR=${LR:-0.002}
GATE_GAMES=${GATE_GAMES:-60} GATE=${GATE:-0.55} GATE_PLAYOUTS=${GATE_PLAYOUTS:-$PLAYOUTS}
RANDOM_PLIES=${RANDOM_PLIES:-2} CHANNELS=${CHANNELS:-16} BLOCKS=${BLOCKS:-1} HIDDEN=${HIDDEN:-16}
JOBS=${JOBS:-$(nproc)} SEED=${SEED:-1} PARAMS=${PARAMS:-} TEMP=${TEMP:-} OPENING=${OPENING:-0}
SEARCH_BATCH=${SEARCH_BATCH:-8}
BANYAN=$B/banyan
# NO_MAKE=1 with B naming a folder of binaries copied elsewhere: a long run
# that a rebuild of the tree must not disturb.
if [ -z "${NO_MAKE:-}" ]; then make -s "$BANYAN" "$B/net-check"; fi
mkdir -p "$DIR"
P=()
[ -n "$PARAMS" ] && P=(--param "$PARAMS")
T=()
[ -n "$TEMP" ] && T=(--temperature-plies "$TEMP")
csv=$DIR/progress.csv
log=$DIR/log.txt
start=$(date +%s)

if [ ! -f "$DIR/best.net" ]; then
    "$BANYAN" train --game "$GAME" "${P[@]}" --init "$DIR/gen-000.net" --channels "$CHANNELS" \
        --blocks "$BLOCKS" --hidden "$HIDDEN" --seed "$SEED" >> "$log"
    cp "$DIR/gen-000.net" "$DIR/best.net"
    echo "generation,positions,policy_loss,value_loss,gate_score,elo_vs_best,elo_total,accepted,mistakes,seconds" > "$csv"
fi

# Mistakes against minimax (Tic-tac-toe only): every position, at PLAYOUTS.
mistakes() {
    if [ "$GAME" = tictactoe ] && [ -z "$PARAMS" ]; then
        "$B/net-check" tictactoe "$1" "$PLAYOUTS" | sed -n 's/^tictactoe: \([0-9]*\) mistakes.*/\1/p'
    else
        echo ""
    fi
}

done_gens=$(($(wc -l < "$csv") - 1))
elo_total=$(tail -n +2 "$csv" | awk -F, '{t = $7} END {print t == "" ? 0 : t}')
for ((g = done_gens + 1; g <= done_gens + GENS; g++)); do
    gen=$(printf '%03d' "$g")
    t0=$(date +%s)
    # 1. Selfplay with the best network (written under a temporary name, so
    #    that a killed run leaves no half file behind).
    if [ ! -f "$DIR/sp-$gen.bin" ]; then
        "$BANYAN" selfplay --game "$GAME" "${P[@]}" --net "$DIR/best.net" --out "$DIR/sp-$gen.tmp" \
            --games "$GAMES" --playouts "$PLAYOUTS" --jobs "$JOBS" --seed "$((SEED * 1000 + g))" "${T[@]}" --random-plies "$OPENING" --batch "$SEARCH_BATCH" \
            2>/dev/null >> "$log"
        mv "$DIR/sp-$gen.tmp" "$DIR/sp-$gen.bin"
    fi
    t1=$(date +%s)
    # 2. Train a candidate from the best on the newest FILES records.
    data=()
    for f in $(ls "$DIR"/sp-*.bin | sort | tail -n "$FILES"); do data+=(--data "$f"); done
    out=$("$BANYAN" train --game "$GAME" "${P[@]}" --net "$DIR/best.net" "${data[@]}" \
        --out "$DIR/gen-$gen.net" --checkpoint "$DIR/gen-$gen.ck" --steps "$STEPS" --batch "$BATCH" \
        --window "$WINDOW" --lr "$LR" --generation "$g" --seed "$((SEED * 1000 + g))" 2>/dev/null)
    echo "$out" >> "$log"
    positions=$(echo "$out" | sed -n 's/.* steps on \([0-9]*\) positions.*/\1/p')
    ploss=$(echo "$out" | sed -n 's/.*policy loss \([0-9.]*\),.*/\1/p')
    vloss=$(echo "$out" | sed -n 's/.*value loss \([0-9.]*\);.*/\1/p')
    t2=$(date +%s)
    # 3. The gate: the candidate against the best, colours swapped.
    res=$("$BANYAN" match --game "$GAME" "${P[@]}" \
        "banyan:net=$DIR/gen-$gen.net,playouts=$GATE_PLAYOUTS,seed=$g,batch=$SEARCH_BATCH" \
        "banyan:net=$DIR/best.net,playouts=$GATE_PLAYOUTS,seed=$g,batch=$SEARCH_BATCH" \
        --games "$GATE_GAMES" --random-plies "$RANDOM_PLIES" --seed "$g" -j "$JOBS" 2>/dev/null |
        grep '^games ')
    echo "gate $gen: $res" >> "$log"
    score=$(echo "$res" | sed -n 's/.*score \([0-9.]*\)%.*/\1/p')
    elo=$(echo "$res" | sed -n 's/.*Elo \([-+0-9.inf]*\).*/\1/p')
    accepted=$(awk -v s="$score" -v g="$GATE" 'BEGIN {print (s / 100 >= g) ? 1 : 0}')
    if [ "$accepted" = 1 ]; then
        cp "$DIR/gen-$gen.net" "$DIR/best.net"
        elo_total=$(awk -v a="$elo_total" -v b="$elo" 'BEGIN {
            if (b ~ /inf/) b = 400; printf "%.1f", a + b}')
    fi
    m=$(mistakes "$DIR/best.net")
    t3=$(date +%s)
    echo "$g,$positions,$ploss,$vloss,$score,$elo,$elo_total,$accepted,$m,$((t3 - t0))" >> "$csv"
    left=$(( (t3 - start) * (done_gens + GENS - g) / (g - done_gens) ))
    printf 'generation %d/%d: selfplay %d games in %ds, %d steps in %ds, gate %s%% (%s) %s; %s%d s so far, about %d s left\n' \
        "$g" "$((done_gens + GENS))" "$GAMES" "$((t1 - t0))" "$STEPS" "$((t2 - t1))" "$score" \
        "$elo" "$([ "$accepted" = 1 ] && echo accepted || echo rejected)" \
        "$([ -n "$m" ] && echo "best has $m mistakes; ")" "$((t3 - start))" "$left"
done

# The plot: losses, and the Elo with each gate's result, by generation.
awk -F, -f "$(dirname "$0")/learn_plot.awk" "$csv" > "$DIR/progress.svg"
echo "csv: $csv  plot: $DIR/progress.svg  total $(( $(date +%s) - start )) s"
