# tests/cli/gomocup.sh - the Gomocup (Piskvork) brain: golden transcripts
# (SWAP2BOARD included), then timing through a fifo; and Piskvork's PSQ game
# records in `banyan play` and `banyan match`. Sourced by tests/run.sh. Each
# tests/gomocup/NAME.in runs as `banyan gomocup $(cat NAME.args)` (the
# protocol has no comments); its output must equal NAME.out byte for byte,
# and the exit status must be 0. The transcripts use fixed playouts and seed
# and generous time limits (INFO timeout_turn 100000, or --time 100 where a
# transcript gives none: the default turn of 5 s was not enough for a
# sanitizer build on a busy machine, and the VCT's clock bound then cut its
# proofs), so their answers do not depend on the machine;
# they do depend on the search and on games/gomoku.c. After a change there
# that moves the engine's choices, regenerate them and review the diff:
#   for f in tests/gomocup/*.in; do build/release/banyan gomocup \
#       $(cat ${f%.in}.args) < $f > ${f%.in}.out; done
for f in tests/gomocup/*.in; do
    name=$(basename "$f" .in)
    "$BANYAN" gomocup $(cat "${f%.in}.args") < "$f" > "$tmp/gomocup.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$tmp/gomocup.out" "${f%.in}.out"; then ok "gomocup transcript $name"; else
        { echo "exit status $rc"; diff "${f%.in}.out" "$tmp/gomocup.out" | head -20; } > "$tmp/out"
        bad "gomocup transcript $name"; fi
done

# Invoked as pbrain-banyan, the program is the brain itself.
ln -sf "$(cd "$(dirname "$BANYAN")" && pwd)/$(basename "$BANYAN")" "$tmp/pbrain-banyan"
printf 'ABOUT\r\nEND\r\n' | "$tmp/pbrain-banyan" > "$tmp/out" 2>&1
has "pbrain-banyan: speaks Gomocup" '^name="Banyan", version="[0-9.]+"'
"$BANYAN" gomocup extra > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "gomocup: stray argument exits 2" || bad "gomocup: stray argument exits 2"

# Timing, through a fifo so that each command is sent when the previous
# answer has come. gomocup_ms prints the milliseconds since gomocup_t0.
gomocup_t0=0
gomocup_ms() { echo $(( ($(date +%s%N) - gomocup_t0) / 1000000 )); }
# gomocup_wait N: waits until the output holds N answers (moves or ERROR),
# however long they take; returns 1 if the brain exits first.
gomocup_wait() {
    while [ "$(grep -Ec '^([0-9]+,[0-9]+|ERROR)' "$tmp/gomocup.live")" -lt "$1" ]; do
        kill -0 "$gomocup_pid" 2> /dev/null || return 1
        sleep 0.01
    done
}
rm -f "$tmp/gomocup.fifo"; mkfifo "$tmp/gomocup.fifo"
"$BANYAN" gomocup < "$tmp/gomocup.fifo" > "$tmp/gomocup.live" 2>&1 &
gomocup_pid=$!
exec 7> "$tmp/gomocup.fifo"
# INFO timeout_turn 300: every answer within the limit. The brain allows
# itself 0.95 * 300 - 40 = 245 ms, less what the command waited, and says
# so ("time limit N ms"): that is what is checked. How long the answers took
# depends on the machine and is only shown (a busy machine or a sanitizer
# build may take longer; bench/ measures real timing).
printf 'START 15\r\nINFO timeout_turn 300\r\n' >&7
slow=0; worst=0; n=0
# The opponent's corner moves lose quickly: a RESTART midway keeps the game
# going for six timed answers.
for mv in 0,0 14,14 0,14 RESTART 14,0 7,0 0,7; do
    if [ "$mv" = RESTART ]; then printf 'RESTART\r\n' >&7; continue; fi
    n=$((n + 1))
    gomocup_t0=$(date +%s%N)
    printf 'TURN %s\r\n' "$mv" >&7
    gomocup_wait $n || slow=1
    t=$(gomocup_ms); [ "$t" -gt "$worst" ] && worst=$t
done
# An answer whose command waited so long that under 5 ms were left plays a
# few quick playouts and says no limit (a busy machine).
limits=$(sed -n 's/^MESSAGE .*, time limit \([0-9]*\) ms.*/\1/p' "$tmp/gomocup.live" | tr -d '\r')
over=$(echo "$limits" | awk '$1 > 245 || $1 < 1' | wc -l)
answers=$(grep -c '^[0-9]*,[0-9]*.$' "$tmp/gomocup.live")
[ $slow -eq 0 ] && [ "$answers" -eq 6 ] && [ "$over" -eq 0 ] && ! grep -q ERROR "$tmp/gomocup.live" \
    && ok "gomocup: timeout_turn 300 kept (limits $(echo $limits) ms; slowest answer ${worst} ms)" \
    || { cp "$tmp/gomocup.live" "$tmp/out"; bad "gomocup: timeout_turn 300 kept (limits $(echo $limits) ms)"; }
# END while the engine thinks for 30 s: the process exits at once, silently.
printf 'INFO timeout_turn 30000\r\nRESTART\r\nBEGIN\r\n' >&7
sleep 0.5
answers=$(grep -c '^[0-9]*,[0-9]*' "$tmp/gomocup.live")
gomocup_t0=$(date +%s%N)
printf 'END\r\n' >&7
for i in $(seq 3000); do kill -0 $gomocup_pid 2>/dev/null || break; sleep 0.01; done
t=$(gomocup_ms)
exec 7>&-
wait $gomocup_pid; rc=$?
# The stop takes a few ms (shown, not checked: it depends on the machine);
# a search that ran on would answer its move after END, which the next
# check counts.
[ $rc -eq 0 ] && ok "gomocup: END while thinking exits in ${t} ms" \
    || { cp "$tmp/gomocup.live" "$tmp/out"; bad "gomocup: END while thinking exits in ${t} ms, status $rc"; }
[ "$(grep -c '^[0-9]*,[0-9]*' "$tmp/gomocup.live")" -eq "$answers" ] && ok "gomocup: nothing printed after END" \
    || { cp "$tmp/gomocup.live" "$tmp/out"; bad "gomocup: nothing printed after END"; }

# timeout_turn 0 plays at once; a match clock of 3 s shares itself out.
printf 'START 15\r\nINFO timeout_turn 0\r\nBEGIN\r\nINFO timeout_turn 5000\r\nINFO timeout_match 3000\r\nINFO time_left 3000\r\nTURN 0,0\r\nEND\r\n' \
    > "$tmp/gomocup.in"
"$BANYAN" gomocup < "$tmp/gomocup.in" > "$tmp/out" 2>&1
n=$(grep -c '^[0-9]*,[0-9]*.$' "$tmp/out")
first=$(grep -m1 '^MESSAGE' "$tmp/out"); limit=$(grep '^MESSAGE' "$tmp/out" | sed -n '2s/.*, time limit \([0-9]*\) ms.*/\1/p')
# The second answer's share of 3 s is about 50 ms, less what the command
# waited: a few quick playouts (no time limit said) when little is left.
[ "$n" -eq 2 ] && ! echo "$first" | grep -q 'time limit' && { [ -z "$limit" ] || [ "$limit" -le 200 ]; } \
    && ok "gomocup: timeout_turn 0 plays at once, a 3 s match clock shares itself out (${limit:-quick} ms)" \
    || bad "gomocup: timeout_turn 0 and a 3 s match clock ($n answers, limit '${limit}')"

# The margin adapts to late answers: when the manager's clock (INFO
# time_left) shows a move took 10 s more than the brain's own clock saw, the
# next turn keeps half of timeout_turn 1000 back (the margin's cap), and the
# brain says so. The first answer, with nothing late yet, keeps none.
# gomocup_two_answers OUT FIRST SECOND [PREFIX...]: runs the brain (after
# PREFIX, a command such as taskset's) with output in OUT: sends FIRST, then
# SECOND once the first move is answered, then END once the second is.
gomocup_two_answers() {
    local out=$1 first=$2 second=$3 k end
    shift 3
    rm -f "$out"
    { printf "$first"
      for k in 1 2; do
          end=$(( $(date +%s%N) / 1000000 + 60000 ))
          while [ "$(grep -Ec '^[0-9]+,[0-9]+' "$out" 2>/dev/null)" -lt $k ] &&
              [ $(( $(date +%s%N) / 1000000 )) -lt $end ]; do sleep 0.01; done
          [ $k -eq 1 ] && printf "$second"
      done
      printf 'END\r\n'; } | "$@" "$BANYAN" gomocup > "$out" 2>&1
    cp "$out" "$tmp/out"
}
gomocup_two_answers "$tmp/late.out" \
    'START 15\r\nINFO timeout_turn 1000\r\nINFO timeout_match 1000000\r\nINFO time_left 1000000\r\nBEGIN\r\n' \
    'INFO time_left 990000\r\nTURN 6,6\r\n'
first=$(grep -m1 '^MESSAGE' "$tmp/out"); second=$(grep '^MESSAGE' "$tmp/out" | sed -n 2p | tr -d '\r')
limit=$(echo "$second" | sed -n 's/.*, time limit \([0-9]*\) ms.*/\1/p')
if ! echo "$first" | grep -q 'late answers' && echo "$second" | grep -q '(late answers: margin +500 ms)' &&
    [ -n "$limit" ] && [ "$limit" -le 410 ]; then
    ok "gomocup: a move the manager's clock saw 10 s late keeps 500 ms of the next turn back (limit ${limit} ms)"; else
    bad "gomocup: the margin after a late answer ('$second')"; fi

# The margin follows a busy machine: the brain and a busy loop share one
# processor (taskset), so a search gets about half of its processor's time
# and the next turn keeps back GOMOCUP_BUSY_MS (600 ms) times the share it
# was denied, about 300 ms of timeout_turn 1000 (checked: at least 150).
if command -v taskset > /dev/null 2>&1 && taskset -c 0 true 2> /dev/null; then
    taskset -c 0 sh -c 'while :; do :; done' &
    hog=$!
    gomocup_two_answers "$tmp/busy.out" 'START 15\r\nINFO timeout_turn 1000\r\nBEGIN\r\n' \
        'TURN 6,6\r\n' taskset -c 0
    kill $hog; wait $hog 2> /dev/null
    second=$(grep '^MESSAGE' "$tmp/out" | sed -n 2p | tr -d '\r')
    margin=$(echo "$second" | sed -n 's/.*(busy machine: margin +\([0-9]*\) ms).*/\1/p')
    [ -n "$margin" ] && [ "$margin" -ge 150 ] && [ "$margin" -le 500 ] \
        && ok "gomocup: sharing its processor with a busy loop, the next turn keeps ${margin} ms back" \
        || bad "gomocup: the margin on a busy machine ('$second')"
else
    echo "SKIPPED: gomocup busy-machine margin (taskset missing or not permitted)"
fi

# SWAP2BOARD within the turn limit: the opening (26 candidates judged, each
# in 1/26 of the turn) and the choice after three stones each allow
# themselves at most the 245 ms of timeout_turn 300 in all.
# END comes only after the answer, as from a manager (an END read while the
# brain thinks stops it without an answer).
swap2_re='^([0-9]+,[0-9]+ [0-9]+,[0-9]+ [0-9]+,[0-9]+|SWAP|[0-9]+,[0-9]+)'
for stones in '' '7,7\r\n8,7\r\n9,9\r\n'; do
    what=$([ -z "$stones" ] && echo "the opening" || echo "three stones")
    { printf "START 15\r\nINFO timeout_turn 300\r\n"; sleep 0.3
      gomocup_t0=$(date +%s%N); printf "SWAP2BOARD\r\n${stones}DONE\r\n"
      end=$(( $(date +%s%N) / 1000000 + 60000 ))
      while ! grep -Eq "$swap2_re" "$tmp/out" 2>/dev/null && [ $(( $(date +%s%N) / 1000000 )) -lt $end ]; do
          sleep 0.01; done
      gomocup_ms > "$tmp/swap2.ms"; printf "END\r\n"; } | "$BANYAN" gomocup > "$tmp/out" 2>&1
    t=$(cat "$tmp/swap2.ms")
    limit=$(sed -n 's/^MESSAGE swap2.*, time limit \([0-9]*\) ms.*/\1/p' "$tmp/out")
    # On a busy machine the margin may leave too little for the searches,
    # which then play a few quick playouts and say no limit.
    if { [ -z "$limit" ] || [ "$limit" -le 245 ]; } && grep -q '^MESSAGE swap2' "$tmp/out" &&
        grep -Eq "$swap2_re\$" "$tmp/out" && ! grep -q ERROR "$tmp/out"; then
        ok "gomocup: SWAP2BOARD, $what, within timeout_turn 300 (limit ${limit:-quick} ms; answered in ${t} ms)"; else
        bad "gomocup: SWAP2BOARD, $what, within timeout_turn 300 (limit '${limit}' ms)"; fi
done

# Piskvork's PSQ records (the manager's own format, so they sit with the
# brain's checks): `banyan play` saves .psq and loads it back, a file as
# Piskvork writes it loads, and `banyan match --records-format psq` writes
# records that load.
printf 'h8\ni9\nh9\nsave %s\nquit\n' "$tmp/g.psq" |
    "$BANYAN" play gomoku --param size=20 --human both --no-ponder > "$tmp/out" 2>&1
has "psq: play saves .psq" '^Saved 3 moves'
if [ "$(head -1 "$tmp/g.psq")" = "Piskvorky 20x20, 0:0, 0" ] && [ "$(sed -n 2p "$tmp/g.psq")" = "8,13,0" ] &&
    [ "$(tail -1 "$tmp/g.psq")" = "-1" ]; then ok "psq: the file as Piskvork writes it"; else
    cp "$tmp/g.psq" "$tmp/out"; bad "psq: the file as Piskvork writes it"; fi
printf 'load %s\nsave %s\nquit\n' "$tmp/g.psq" "$tmp/g2.psq" |
    "$BANYAN" play gomoku --human both --no-ponder > "$tmp/out" 2>&1
has "psq: play loads .psq (and takes its size)" '^Loaded 3 moves'
cmp -s "$tmp/g.psq" "$tmp/g2.psq" && ok "psq: save, load, save round trip" || bad "psq: save, load, save round trip"
printf 'Piskvorky 15x15, 11:11, 0\r\n8,8,1500\r\n9,9,230\r\npbrain-a.exe\r\npbrain-b.exe\r\n-1\r\n' > "$tmp/p.psq"
printf 'load %s\nquit\n' "$tmp/p.psq" | "$BANYAN" play gomoku --human both --no-ponder > "$tmp/out" 2>&1
has "psq: Piskvork's file with names and -1 loads" '^Loaded 2 moves'
printf 'Piskvorky 15x15, 0:0, 0\n8,8,1\n16,1,2\n' > "$tmp/bad.psq"
printf 'load %s\nquit\n' "$tmp/bad.psq" | "$BANYAN" play gomoku --human both --no-ponder > "$tmp/out" 2>&1
has "psq: a bad file is refused with its line" 'PSQ: line 3: "16,1,2" is off the board'
printf 'save %s\nquit\n' "$tmp/c4.psq" | "$BANYAN" play connect4 --human both --no-ponder > "$tmp/out" 2>&1
has "psq: a game without X,Y moves has no .psq" 'connect4 has no PSQ form'
"$BANYAN" match --game gomoku --param size=9 banyan:playouts=50 banyan:playouts=50 --games 2 \
    --records "$tmp/psqrec" --records-format psq > "$tmp/out" 2>&1
printf 'load %s\nquit\n' "$tmp/psqrec/game-00002.psq" |
    "$BANYAN" play gomoku --human both --no-ponder > "$tmp/out" 2>&1
has "psq: match --records-format psq writes records that load" '^Loaded [0-9]+ moves'
"$BANYAN" match --game connect4 banyan:playouts=50 banyan:playouts=50 --records "$tmp/psqrec" \
    --records-format psq > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q 'connect4 has no psq records' "$tmp/out" && ok "psq: match refuses psq for connect4" ||
    bad "psq: match refuses psq for connect4"

# Balanced openings for other boards and rules (tools/gomoku_openings.py):
# place centres each opening's stones on the new board, pick keeps the
# labelled positions within the limit of even (never a win or loss), in ID
# order; and the files made so load in a match (it checks every opening's
# moves before the first game).
if command -v python3 > /dev/null 2>&1; then
    python3 tools/gomoku_openings.py place tests/data/gomoku_openings15.txt 20 "$tmp/place.txt" > "$tmp/out" 2>&1
    [ "$(sed -n 1p "$tmp/place.txt")" = "o001 k8 k9 j8 l11 l10 i11 l12 j9" ] &&
        [ "$(wc -l < "$tmp/place.txt")" -eq "$(grep -c . tests/data/gomoku_openings15.txt)" ] &&
        ok "gomoku openings: place centres each opening on 20x20" ||
        bad "gomoku openings: place centres each opening on 20x20"
    printf 'o003 -100 h8 h9\no001 +M3 h8 i9\no002 99 h8 j9\no004 101 h8 k9\no005 -M4 h8 l9\n' > "$tmp/labels.txt"
    python3 tools/gomoku_openings.py pick "$tmp/labels.txt" 100 "$tmp/pick.txt" > "$tmp/out" 2>&1
    [ "$(tr '\n' '|' < "$tmp/pick.txt")" = "h8 j9|h8 h9|" ] && grep -q '^# kept 2 of 5 within +-100$' "$tmp/out" &&
        ok "gomoku openings: pick keeps the positions within the limit, in ID order" ||
        bad "gomoku openings: pick keeps the positions within the limit, in ID order"
else
    echo "SKIPPED: gomoku openings: tools/gomoku_openings.py needs python3 (apt-get install python3)"
fi
for spec in "gomoku_openings20.txt size=20" "gomoku_openings_renju15.txt rule=renju"; do
    set -- $spec
    "$BANYAN" match --game gomoku --param "$2" banyan:playouts=20 banyan:playouts=20 --games 2 \
        --openings "tests/data/$1" > "$tmp/out" 2>&1
    [ $? -eq 0 ] && grep -q '^games 2' "$tmp/out" && ok "gomoku openings: $1 loads ($2)" ||
        bad "gomoku openings: $1 loads ($2)"
done
