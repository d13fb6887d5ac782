# tests/cli/learn_loop.sh - banyan learn on one machine: generations of
# self-play, training and a gate into a folder, reproduced by the seed; a
# run stopped (after a generation, killed in the middle of one, or cut
# inside a game's record) and started again ends with the same records,
# networks and state as a run never stopped; bad states and a second run in
# the same folder refused. Sourced by tests/run.sh.
D=$tmp/loop
rm -rf "$D"
mkdir -p "$D"
# The records, networks and state of two runs' folders are the same bytes.
loop_same() { diff -rq -x lock "$1" "$2" > /dev/null; }
loop_bytes() { if [ -f "$1" ]; then wc -c < "$1"; else echo 0; fi; }
A="--game tictactoe --games-per-gen 300 --playouts 60 --steps 30 --channels 8 --blocks 1
   --hidden 8 --gate-games 6"

check "learn: 2 generations" "$BANYAN" learn $A --generations 2 --dir "$D/a"
has "learn: generation 1" '^learn: generation 1: 300 games; net-0001 against net-0000, 6 gate games \+[0-6] =[0-6] -[0-6], [0-9.]+%: (accepted|rejected)$'
has "learn: the best network" '^learn: 2 of 2 generations done; the best network is .*/net-000[0-2]\.net$'
[ -s "$D/a/games-0002.sp" ] && [ -s "$D/a/net-0002.net" ] && ! ls "$D/a" | grep -q '\.ck$\|\.tmp$' &&
    ok "learn: a records file and a network a generation, no checkpoint left" ||
    bad "learn: a records file and a network a generation, no checkpoint left"
has "learn: the state's lines" '^learn: generation 2: 300 games;'
grep -q '^generations 2$' "$D/a/state" && grep -q '^generation 2: 300 games;' "$D/a/state" &&
    ok "learn: the state counts generations and games" ||
    bad "learn: the state counts generations and games"
check "train reads learn's records" "$BANYAN" train --game tictactoe --net "$D/a/net-0000.net" \
    --data "$D/a/games-0001.sp" --data "$D/a/games-0002.sp" --out "$D/t.net" --steps 2
has "train: both generations' games" 'train: 2 steps on [0-9]+ positions'

"$BANYAN" learn $A --generations 2 --dir "$D/b" > /dev/null 2>&1
loop_same "$D/a" "$D/b" && ok "learn: one seed, the same run" || bad "learn: one seed, the same run"
"$BANYAN" learn $A --generations 1 --seed 2 --dir "$D/s" > /dev/null 2>&1
cmp -s "$D/a/games-0001.sp" "$D/s/games-0001.sp" && bad "learn: another seed, other games" ||
    ok "learn: another seed, other games"

# One generation, then the same command asking for two: the run goes on.
"$BANYAN" learn $A --generations 1 --dir "$D/c" > /dev/null 2>&1
cp -r "$D/c" "$D/c1"
check "learn: on to generation 2" "$BANYAN" learn $A --generations 2 --dir "$D/c"
has "learn: goes on from the state" '^learn: .*/c: 1 of 2 generations done'
loop_same "$D/a" "$D/c" && ok "learn: two runs of a generation each, the same as one" ||
    bad "learn: two runs of a generation each, the same as one"

# Stopped inside a game's record: the game is cut off and played again.
cp -r "$D/c1" "$D/cut"
size=$(wc -c < "$D/a/games-0002.sp")
head -c $((size / 2)) "$D/a/games-0002.sp" > "$D/cut/games-0002.sp"
check "learn: a records file cut inside a game" "$BANYAN" learn $A --generations 2 --dir "$D/cut"
has "learn: says where the records were cut" '^learn: .*/games-0002\.sp: game [0-9]+ at byte [0-9]+ is cut short.*; those after it are played again$'
has "learn: plays the rest" '^learn: generation 2 of 2: 300 self-play games with net-000[01] \([0-9]+ in the records already\)$'
loop_same "$D/a" "$D/cut" && ok "learn: cut and resumed, every game once" ||
    bad "learn: cut and resumed, every game once"

# Killed in the middle of generation 2's games, then run again.
"$BANYAN" learn $A --generations 2 --dir "$D/k" > /dev/null 2>&1 &
pid=$!
for i in $(seq 1000); do
    [ "$(loop_bytes "$D/k/games-0002.sp")" -gt 2000 ] && break
    sleep 0.01
done
kill -9 "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
[ "$(loop_bytes "$D/k/games-0002.sp")" -lt "$size" ] && ok "learn: killed in the middle of generation 2" ||
    bad "learn: killed in the middle of generation 2 ($(loop_bytes "$D/k/games-0002.sp") bytes of $size)"
check "learn: killed, then resumed" "$BANYAN" learn $A --generations 2 --dir "$D/k"
loop_same "$D/a" "$D/k" && ok "learn: killed and resumed, every game once" ||
    bad "learn: killed and resumed, every game once"

# Refusals: another run's folder, a damaged state, a folder in use.
"$BANYAN" learn $A --generations 2 --seed 3 --dir "$D/a" > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "learn: another seed's folder refused" || bad "learn: another seed's folder refused"
has "learn: says whose run it holds" 'holds a run of tictactoe \(m=3,n=3,k=3\) with --seed 1, not this one .* with --seed 3$'
"$BANYAN" learn --game connect4 --dir "$D/a" > "$tmp/out" 2>&1
has "learn: another game's folder refused" 'holds a run of tictactoe .*, not this one of connect4'
cp -r "$D/c1" "$D/bad"
printf 'banyan learn state 1\ngame tictactoe\ngeneration 7: x\n' > "$D/bad/state"
"$BANYAN" learn $A --generations 2 --dir "$D/bad" > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "learn: a damaged state refused" || bad "learn: a damaged state refused"
has "learn: says it is damaged" 'state is damaged \(line 3\)'
head -c 300 /dev/urandom > "$D/bad/state"
"$BANYAN" learn $A --dir "$D/bad" > "$tmp/out" 2>&1
has "learn: random bytes for a state refused" 'state is damaged \(line [0-9]+\)'
"$BANYAN" learn $A --generations 50 --dir "$D/busy" > /dev/null 2>&1 &
pid=$!
for i in $(seq 500); do [ -s "$D/busy/games-0001.sp" ] && break; sleep 0.01; done
"$BANYAN" learn $A --generations 50 --dir "$D/busy" > "$tmp/out" 2>&1
has "learn: a folder in use refused" 'another run is working in .*/busy$'
kill -9 "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
"$BANYAN" learn --game tictactoe > "$tmp/out" 2>&1
[ $? -eq 2 ] && ok "learn: no --dir refused" || bad "learn: no --dir refused"
check "learn --help" "$BANYAN" help learn
has "learn --help: the synopsis" '^usage: banyan learn --game G --dir DIR'
has "learn --help: its options" '^  --gate-games M '
