# tests/cli/solo.sh - banyan solo on Morpion Solitaire: a budget of playouts
# reproduces a run, the best game is saved and reloads with its score (and
# with a budget is kept unless a run beats it), restarts run, the engine's
# most visited move can be followed instead of the best line, and bad input
# is refused; the nested algorithms (NRPA, NMCS) run, reproduce and
# resume. Sourced by tests/run.sh.
"$BANYAN" solo --param rule=5d --playouts 20000 --seed 3 --save "$tmp/solo.txt" > "$tmp/solo1" 2>&1
rc=$?
cp "$tmp/solo1" "$tmp/out"
best=$(sed -n 's/^best: //p' "$tmp/solo1")
[ $rc -eq 0 ] && [ -n "$best" ] && [ "$best" -ge 30 ] && [ -s "$tmp/solo.txt" ] &&
    ok "solo: a run of 20000 playouts finds a game ($best moves) and saves it" ||
    bad "solo: a run of 20000 playouts finds a game and saves it"
"$BANYAN" solo --param rule=5d --playouts 20000 --seed 3 > "$tmp/out" 2>&1
if [ "$(grep -E '^(best|moves)' "$tmp/out")" = "$(grep -E '^(best|moves)' "$tmp/solo1")" ]; then
    ok "solo: the same seed and playouts, the same game"; else bad "solo: the same seed and playouts, the same game"; fi
check "solo: --load checks the saved game" "$BANYAN" solo --load "$tmp/solo.txt"
has "solo: --load gives the saved score" "a finished game of $best moves, score $best$"
check "solo: --runs 3" "$BANYAN" solo --param rule=5t --playouts 30000 --runs 3 --share front
has "solo: three runs" '^run 3: [0-9]+ '
sed 's/^(\([0-9]*\),/(9\1,/' "$tmp/solo.txt" > "$tmp/bad.txt"
"$BANYAN" solo --load "$tmp/bad.txt" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "bad.txt" "$tmp/out" && ok "solo: a corrupt record is refused" ||
    bad "solo: a corrupt record is refused"
"$BANYAN" solo --game connect4 > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "not a single-player game" "$tmp/out" && ok "solo: two-player games refused" ||
    bad "solo: two-player games refused"
"$BANYAN" solo --runs 0 > "$tmp/out" 2>&1
rc=$?
"$BANYAN" solo --share half > "$tmp/out" 2>&1
rc2=$?
[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && ok "solo: bad options refused" || bad "solo: bad options refused"
"$BANYAN" solo --load "$tmp/solo.txt" --playouts 2000 > "$tmp/out" 2>&1
rc=$?
after=$(sed -n 's/^best: //p' "$tmp/out")
[ $rc -eq 0 ] && [ -n "$after" ] && [ "$after" -ge "$best" ] &&
    grep -qE "^run 1: [0-9]+ in .* \(best [0-9]+\)$" "$tmp/out" &&
    ok "solo: --load with a budget searches on and keeps the saved game unless beaten" ||
    bad "solo: --load with a budget searches on and keeps the saved game unless beaten"
check "solo: --follow visits" "$BANYAN" solo --param rule=5d --playouts 3000 --follow visits
has "solo: --follow visits plays a game" '^best: [0-9]+$'
# The nested algorithms: a whole NRPA run of level 2 (10,000 games), the
# same for the same seed and for two threads twice, its game saved at each
# improvement and replayed by --load; NMCS; a run started from the saved
# game; bad values refused.
"$BANYAN" solo --param rule=5d --algorithm nrpa --level 2 --seed 2 --save "$tmp/nrpa.txt" \
    --export "$tmp/nrpa.psol" > "$tmp/nrpa1" 2>&1
rc=$?
cp "$tmp/nrpa1" "$tmp/out"
nbest=$(sed -n 's/^best: //p' "$tmp/nrpa1")
[ $rc -eq 0 ] && [ -n "$nbest" ] && [ "$nbest" -ge 55 ] &&
    grep -q "^run 1: $nbest in .*, 10000 playouts" "$tmp/nrpa1" &&
    grep -q "a game of $nbest found$" "$tmp/nrpa1" &&
    ok "solo: an NRPA run of level 2 plays 10000 games and finds one of $nbest moves" ||
    bad "solo: an NRPA run of level 2 plays 10000 games and finds one of 55 moves or more"
"$BANYAN" solo --param rule=5d --algorithm nrpa --level 2 --seed 2 > "$tmp/out" 2>&1
[ "$(grep -E '^(best|moves)' "$tmp/out")" = "$(grep -E '^(best|moves)' "$tmp/nrpa1")" ] &&
    ok "solo: NRPA, the same seed, the same game" || bad "solo: NRPA, the same seed, the same game"
"$BANYAN" solo --param rule=5d --algorithm nrpa --level 2 --seed 2 --threads 2 > "$tmp/nrpa2" 2>&1
"$BANYAN" solo --param rule=5d --algorithm nrpa --level 2 --seed 2 --threads 2 > "$tmp/out" 2>&1
[ "$(grep -E '^(best|moves)' "$tmp/out")" = "$(grep -E '^(best|moves)' "$tmp/nrpa2")" ] &&
    grep -q "^best: " "$tmp/out" &&
    ok "solo: NRPA on two threads, the same seed, the same game" ||
    bad "solo: NRPA on two threads, the same seed, the same game"
check "solo: --load replays the NRPA game" "$BANYAN" solo --load "$tmp/nrpa.txt"
has "solo: the NRPA game's score" "a finished game of $nbest moves, score $nbest$"
check "solo: --export writes a Pentasol file that --position reads" "$BANYAN" show --game morpion \
    --param rule=5d --position "$(cat "$tmp/nrpa.psol")"
has "solo: the Pentasol file's game" "game over: player 1 gets $nbest$"
[ "$(head -1 "$tmp/nrpa.psol")" = "(28,28)" ] && [ "$(wc -l < "$tmp/nrpa.psol")" -eq $((nbest + 1)) ] &&
    ok "solo: the Pentasol file: the reference point, then a move a line" ||
    bad "solo: the Pentasol file: the reference point, then a move a line"
check "solo: NMCS of level 1 within 2000 playouts" "$BANYAN" solo --param rule=5t \
    --algorithm nmcs --level 1 --playouts 2000 --seed 1
has "solo: NMCS finds a game" '^best: [0-9]+$'
"$BANYAN" solo --load "$tmp/nrpa.txt" --algorithm nrpa --level 1 --runs 2 > "$tmp/out" 2>&1
rc=$?
after=$(sed -n 's/^best: //p' "$tmp/out")
[ $rc -eq 0 ] && [ "${after:-0}" -ge "$nbest" ] && grep -q "^run 2: " "$tmp/out" &&
    ok "solo: NRPA runs start from the loaded game and keep it unless beaten" ||
    bad "solo: NRPA runs start from the loaded game and keep it unless beaten"
refused=
for o in "--algorithm beam" "--level 9" "--level 0" "--iterations 0" "--alpha 0" \
    "--temperature nan" "--bias x" "--policy-memory 0"; do
    # shellcheck disable=SC2086 # o is an option and its value.
    "$BANYAN" solo --algorithm nrpa $o > "$tmp/out" 2>&1
    [ $? -eq 2 ] && grep -q "bad value for ${o%% *}" "$tmp/out" || refused="$refused [$o]"
done
[ -z "$refused" ] && ok "solo: bad values of the nested options refused" ||
    bad "solo: bad values of the nested options refused, but not$refused"
