# tests/cli/match.sh - banyan match: internal and external players, openings,
# records, resuming, SPRT, and engines that crash, hang or play illegal
# moves. Sourced by tests/run.sh.
# Without Connect Four's opening book, with which the first player would win
# every game from the empty board whatever the playouts.
M="$BANYAN match --game connect4 --param book=off"

# Two internal configurations: the stronger wins most games.
check "match: internal players" $M banyan:playouts=3000 banyan:playouts=30 --games 10 -j 2
has "match: table" '^A total +[0-9]+ +[0-9]+ +[0-9]+$'
has "match: Elo with its interval" '^games 10, score [0-9.]+%, Elo [-+0-9.inf]+ \[[-+0-9.inf]+, [-+0-9.inf]+\] \(95%\), LOS [0-9.]+%$'
wins=$(sed -n 's/^A total *\([0-9]*\).*/\1/p' "$tmp/out")
[ "${wins:-0}" -ge 7 ] && ok "match: 3000 playouts beat 30 ($wins of 10)" || bad "match: 3000 playouts beat 30 ($wins of 10)"
has "match: a progress line per game" '^\[10/10\] A '

# Openings, each played twice with colours swapped; records; a results file.
rm -rf "$tmp/rec" "$tmp/res"
check "match: openings and records" $M banyan:playouts=500 banyan:playouts=500,c=0.7 \
    --openings tests/data/connect4_openings.txt --records "$tmp/rec" --results "$tmp/res"
has "match: two games per opening" '^games 10,'
[ "$(ls "$tmp/rec" | wc -l)" -eq 10 ] && ok "match: ten records" || bad "match: ten records"
head -8 "$tmp/rec/game-00003.txt" > "$tmp/out"
has "match: record header" '^# banyan game connect4$'
has "match: record starts with its opening" '^d( |$)'
# Every move after the opening with its time and the mover's evaluation.
if grep -Eq '^[a-g] [0-9]+\.[0-9]{3}s # value [01]\.[0-9]{3}$' "$tmp/rec/game-00003.txt"; then
    ok "match: record moves carry time and value"; else bad "match: record moves carry time and value"; fi
[ "$(grep -c '^[0-9]' "$tmp/res")" -eq 10 ] && ok "match: results file, a line per game" || bad "match: results file"
# A record is a game `banyan play` can load.
printf 'load %s\nquit\n' "$tmp/rec/game-00001.txt" | "$BANYAN" play connect4 --human both > "$tmp/out" 2>&1
has "match: records load in banyan play" '[Ll]oaded'

# Resuming: the ten games played are kept, two more are played.
check "match: resume" $M banyan:playouts=500 banyan:playouts=500,c=0.7 \
    --openings tests/data/connect4_openings.txt --results "$tmp/res" --games 12
has "match: resumes" '^resuming: 10 of 12 games already played$'
has "match: twelve games in the table" '^games 12,'
[ "$(grep -c '^[0-9]' "$tmp/res")" -eq 12 ] && ok "match: results file grew by two" || bad "match: results file grew by two"

# A results file belongs to one match: another match (other players, or
# another game) refuses it instead of counting its games.
$M banyan:playouts=500 banyan:playouts=400 --openings tests/data/connect4_openings.txt \
    --results "$tmp/res" > "$tmp/out" 2>&1
[ $? -eq 2 ] && ok "match: another match's results file refused" ||
    bad "match: another match's results file refused"
has "match: refusal explained" 'holds the results of another match'
$BANYAN match --game tictactoe banyan:playouts=500 banyan:playouts=500,c=0.7 \
    --results "$tmp/res" > "$tmp/out" 2>&1
[ $? -eq 2 ] && ok "match: another game's results file refused" ||
    bad "match: another game's results file refused"

# SPRT: a clear difference is decided long before 400 games.
check "match: sprt" $M banyan:playouts=3000 banyan:playouts=20 --games 400 --sprt 0,100,0.05,0.05
has "match: sprt accepts H1" 'H1 accepted'
n=$(sed -n 's/^games \([0-9]*\),.*/\1/p' "$tmp/out")
[ "${n:-400}" -lt 100 ] && ok "match: sprt stopped after $n games" || bad "match: sprt stopped after $n games"
# Without --games an SPRT runs until decided (this one takes 34 games; it
# once stopped at 10, undecided), within a cap it prints. The search alone
# (solver=off): with Connect Four's solver both sides play the ends of games
# perfectly, and the decision takes four times as many games.
check "match: sprt without --games" $M --param solver=off banyan:playouts=1000 banyan:playouts=300 \
    --sprt 0,100,0.05,0.05
has "match: sprt cap said" '^SPRT: until decided, at most 20000 games'
has "match: sprt decided" 'H1 accepted \(LLR [0-9.]+ >= 2\.94\) after 34 games$'
# With two games at a time, a game that ends after the decision is counted
# but does not turn the verdict back to undecided.
check "match: sprt with -j 2" $M --param solver=off banyan:playouts=3000 banyan:playouts=1000 \
    --sprt 0,100,0.05,0.05 -j 2
has "match: sprt verdict stands" 'H1 accepted'

# External GTP players: banyan gtp in its own process against an internal one.
check "match: external gtp player" $M "gtp:$BANYAN gtp --game connect4 --playouts 300" \
    banyan:playouts=300 --games 4 -j 2
has "match: external games finish" '^games 4,'
if grep -Eq 'crash|hang|illegal' "$tmp/out"; then bad "match: no forfeits with banyan gtp"; else ok "match: no forfeits with banyan gtp"; fi
# Othello against a program that refuses passes (tests/engines/nopass.sh, as
# GRhino does): from an opening after which Black must pass, each side in
# turn. The referee plays a forced pass for it, stops telling it of passes,
# and banyan gtp passes where the game forces it: both games end normally
# (played out: --resign off).
echo "f5 f6 d3 g5 h5 h4 f7 h6" > "$tmp/pass.txt"
rm -f "$tmp/res"
check "match: a program that passes implicitly" $BANYAN match --game othello banyan:playouts=200 \
    "gtp:tests/engines/nopass.sh $BANYAN gtp --game othello --playouts 200 --resign off" \
    --openings "$tmp/pass.txt" --games 2 --results "$tmp/res"
[ "$(grep -c ' normal$' "$tmp/res")" -eq 2 ] && ok "match: implicit passes, two normal games" ||
    bad "match: implicit passes, two normal games"

# gtp@DIR: the command runs in DIR.
check "match: gtp@DIR" $M "gtp@tests/engines:./illegal.sh" banyan:playouts=100 --games 2
has "match: illegal moves recorded" '^illegal move: A 2, B 0$'

# Engines that crash or hang lose, are recorded, and never stop the referee.
check "match: crashing engine" $M "gtp:tests/engines/crash.sh" banyan:playouts=100 --games 2
has "match: crash recorded" '^crash: A 2, B 0$'
check "match: hanging engine" $M banyan:playouts=100 "gtp:tests/engines/hang.sh" --games 2 --move-timeout 1
has "match: hang recorded" '^hang: A 0, B 2$'
# Hangs cost only the timeout: the referee kills a hung engine rather than
# waiting for it (for 1000 s), so that none is left.
# (A killed process may take a moment to go on a loaded machine: up to 10 s.)
for i in $(seq 100); do pgrep -f 'tests/engines/hang.sh' > /dev/null || break; sleep 0.1; done
pgrep -f 'tests/engines/hang.sh' > /dev/null && bad "match: hung engines are killed" || ok "match: hung engines are killed"

# A total time control: games end without time forfeits at 2 s + 0.1 s.
check "match: time control" $M banyan banyan:c=1 --tc 2+0.1 --games 2 -j 2
if grep -q 'time forfeit' "$tmp/out"; then bad "match: no time forfeits"; else ok "match: no time forfeits"; fi
# External programs get the time control (time_settings, INFO timeout_match)
# and their clocks with each move, and manage them. (6 s a game: at 2 s, two
# games at once among the test suite's other lanes on a loaded machine lost
# on time, each move's share being under 50 ms.)
check "match: gtp sudden death" $M "gtp:$BANYAN gtp --game connect4" \
    "gtp:$BANYAN gtp --game connect4 --c 1" --tc 6 --games 2 -j 2
if grep -Eq 'forfeit|crash|hang|illegal' "$tmp/out"; then bad "match: gtp programs keep their clocks"; else ok "match: gtp programs keep their clocks"; fi
# (The per-move limit itself is enforced in bench runs only: sanitizer
# builds are too slow to keep a tight one.)
check "match: gomocup match clock" $BANYAN match --game gomoku \
    "gomocup:$BANYAN gomocup" "gomocup:$BANYAN gomocup" --time 1 --tc 10 --games 2 -j 2 \
    --openings tests/data/gomoku_openings15.txt
if grep -Eq 'forfeit|crash|hang|illegal' "$tmp/out"; then bad "match: gomocup brains keep their clocks"; else ok "match: gomocup brains keep their clocks"; fi

# A player that cannot play stops the match before its first game, with a
# sentence: a command not found, one that ends at once, one that never
# answers, an engine of this process the game refuses. No game is played,
# no table printed, no results file written.
rm -f "$tmp/res"
$M banyan:playouts=100 gtp:/no/such/engine --games 2 --results "$tmp/res" > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "match: a missing engine stops the match" || bad "match: a missing engine stops the match"
has "match: a missing engine explained" '^banyan match: B \(gtp:/no/such/engine\): could not be started: command not found .*; no game was played$'
if grep -q '^games ' "$tmp/out" || [ -e "$tmp/res" ]; then bad "match: no game, no table, no results file"; else
    ok "match: no game, no table, no results file"; fi
$M gtp:true banyan:playouts=100 > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "match: an engine that ends at once" || bad "match: an engine that ends at once"
has "match: its end explained" '^banyan match: A \(gtp:true\): exited with status 0 while starting; no game was played$'
$M banyan:playouts=100 "gtp:sleep 100" --move-timeout 0.5 > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "match: an engine that never answers" || bad "match: an engine that never answers"
has "match: its silence explained" 'B \(gtp:sleep 100\): no answer to its first commands within 0\.5 s'
$M banyan:playouts=100 banyan:params=size=9 > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "match: a player whose parameters the game refuses" || bad "match: a player whose parameters the game refuses"
has "match: the parameters explained" 'B \(banyan:params=size=9\): it cannot play connect4: bad parameters for connect4: connect4 has no parameter "size"'
# Numbers: whole where they count, within their range, which is said.
for v in "--games 2.5" "--games 99999999999999999999" "-j 0" "--seed 1e3" "--time 0x10"; do
    $M banyan banyan $v > "$tmp/out" 2>&1
    if [ $? -eq 2 ] && grep -q "^banyan match: bad value for ${v%% *}: .*(a .*number from " "$tmp/out"; then
        ok "match: $v refused with its range"; else bad "match: $v refused with its range"; fi
done

# A brain that prints an ERROR line before each move: the ERROR is no move
# (it was once scored as an illegal one), and the table counts the lines.
rm -rf "$tmp/mlog"
check "match: a brain's ERROR lines" $BANYAN match --game gomoku --param size=9 \
    "gomocup:tests/engines/error_brain.sh $BANYAN" banyan:playouts=100 --games 2 --time 5 \
    --log "$tmp/mlog"
# --log keeps every line exchanged with the external player, time-stamped;
# the internal one has no log.
if [ -f "$tmp/mlog/game-00001-A.log" ] && [ -f "$tmp/mlog/game-00002-A.log" ] &&
    [ ! -e "$tmp/mlog/game-00001-B.log" ] &&
    grep -Eq '^ +[0-9]+\.[0-9]{3} > START 9$' "$tmp/mlog/game-00001-A.log" &&
    grep -Eq '^ +[0-9]+\.[0-9]{3} < ERROR Unknown command' "$tmp/mlog/game-00001-A.log"; then
    ok "match: --log keeps the brain's lines"; else bad "match: --log keeps the brain's lines"; fi
if grep -Eq 'illegal|crash|hang' "$tmp/out"; then bad "match: ERROR lines are not moves"; else
    ok "match: ERROR lines are not moves"; fi
has "match: ERROR lines counted" '^ERROR lines from brains \(skipped, not moves\): A [1-9][0-9]*, B 0$'

# A per-move limit: with --turn-limit a move over it loses on time; without,
# the referee waits.
check "match: turn limit" $M "gtp:tests/engines/slow.sh" banyan:playouts=100 --time 0.2 --turn-limit --games 2
has "match: slow moves forfeit" '^time forfeit: A 2, B 0$'
check "match: no turn limit" $M "gtp:tests/engines/slow.sh" banyan:playouts=100 --time 0.2 --games 2
if grep -q 'time forfeit' "$tmp/out"; then bad "match: no turn limit, no forfeit"; else ok "match: no turn limit, no forfeit"; fi

# Bad command lines.
$M banyan:playouts=10 > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "match: one player is refused" || bad "match: one player is refused"
$M banyan:bogus=1 banyan > "$tmp/out" 2>&1; [ $? -eq 2 ] && ok "match: bad option refused" || bad "match: bad option refused"
has "match: bad option named" 'unknown option bogus in "banyan:bogus=1"'
$M banyan banyan --openings /nonexistent > "$tmp/out" 2>&1; [ $? -eq 1 ] && ok "match: missing openings file" || bad "match: missing openings file"
printf '44\n4x\n' > "$tmp/bad_openings"
$M banyan banyan --openings "$tmp/bad_openings" > "$tmp/out" 2>&1
has "match: bad opening line named" 'bad_openings:2:'

# An external Gomocup brain (banyan gomocup in its own process): BEGIN and
# TURN from the empty board, BOARD after an opening; no forfeits.
check "match: external gomocup brain" $BANYAN match --game gomoku \
    "gomocup:$BANYAN gomocup --playouts 200" banyan:playouts=200 --games 2 -j 2
has "match: gomocup games finish" '^games 2,'
check "match: gomocup brain after openings" $BANYAN match --game gomoku \
    "gomocup:$BANYAN gomocup --playouts 200" banyan:playouts=200 --games 2 \
    --openings tests/data/gomoku_openings15.txt
if grep -Eq 'crash|hang|illegal|forfeit' "$tmp/out"; then bad "match: no forfeits with banyan gomocup"; else ok "match: no forfeits with banyan gomocup"; fi
