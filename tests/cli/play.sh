# tests/cli/play.sh - `banyan play` driven through stdin: every command,
# forgiving move input, one answer per bad line, game records saved and
# loaded, and end of input anywhere. Sourced by tests/run.sh (ok, bad,
# check, has; BANYAN, tmp), so it must not exit.

# play_run INPUT ARGS...: feeds INPUT (printf format) to banyan play ARGS,
# output in $tmp/out; passes the exit status on.
play_run() { local in=$1; shift; printf "$in" | "$BANYAN" play "$@" > "$tmp/out" 2>&1; }
# play_exit0 NAME INPUT ARGS...: the run exits 0.
play_exit0() { local name=$1; shift; if play_run "$@"; then ok "$name"; else bad "$name"; fi; }
# play_count NAME N PATTERN: the last output has exactly N lines matching.
play_count() {
    local n; n=$(grep -Ec -- "$3" "$tmp/out")
    if [ "$n" -eq "$2" ]; then ok "$1"; else echo "     ($n lines match, want $2)"; bad "$1"; fi
}
# play_board FILE: the last tic-tac-toe-style board in FILE, last-move marks removed.
play_board() { grep -E '^( ?[0-9]+[ (]|  ( [a-z])+$)' "$1" | tail -"${2:-4}" | sed 's/[()]/ /g; s/ *$//'; }

# Pondering would make the engine's replies depend on timing: these checks
# script exact games, so they run without it (tests/cli/ponder.sh covers it).
T="tictactoe --playouts 300 --no-ponder"
C="connect4 --playouts 300 --no-ponder"

# Commands.
play_exit0 "play: help exits 0" 'help\nquit\n' $T
has "play: help lists the commands" 'save FILE'
has "play: help lists swap" '^  swap '
play_exit0 "play: quit" 'quit\nb2\n' $T
play_count "play: nothing after quit" 0 '^Banyan plays'
play_exit0 "play: swap" 'd\nswap\nquit\n' $C
has "play: swap announced" '^Swapped: Banyan plays Red'
play_count "play: after swap Banyan moves for Red" 2 '^Banyan plays'
has "play: after swap you play Yellow" '^Yellow to move \(you\)'
play_run 'swap\nquit\n' $T --human both
has "play: swap with both sides explained" 'swap does not apply'
play_run 'swap\nquit\n' $T --human none
has "play: swap with no side explained" 'swap does not apply: Banyan plays every side'
play_exit0 "play: new" 'b2\nnew\nquit\n' $T
has "play: new announced" '^New game'
if [ "$(play_board "$tmp/out")" = "$(printf ' 3 . . .\n 2 . . .\n 1 . . .\n   a b c')" ]; then
    ok "play: new clears the board"; else bad "play: new clears the board"; fi
play_run 'undo\nquit\n' $T --human second
has "play: nothing to undo before your first move" 'Nothing to undo'
play_exit0 "play: undo" 'b2\nundo\nquit\n' $T
if [ "$(play_board "$tmp/out")" = "$(printf ' 3 . . .\n 2 . . .\n 1 . . .\n   a b c')" ]; then
    ok "play: undo takes back your move and the reply"; else bad "play: undo takes back your move and the reply"; fi
play_exit0 "play: hint" 'b2\nhint\nquit\n' $T
has "play: hint names a move" '^Hint: [a-c][1-3] \(win rate'
has "play: hint shows the line" '^  line:( [a-c][1-3])+$'
play_count "play: hint plays nothing" 1 '^Banyan plays'
has "play: engine shows its candidates" '^  [a-c][1-3] +[0-9]+ visits +[0-9.]+%'
play_exit0 "play: game over, then new" 'new\nquit\n' tictactoe --human none --playouts 2000
play_count "play: commands still work after the game ends" 2 '^Game over: a draw'
play_run 'a1\nb1\na2\nb2\na3\nc3\nundo\nb3\nquit\n' $T --human both
has "play: the winner announced with the winning line" '^Game over: X wins with a3 a2 a1\.$'
has "play: the winning line drawn in lower case" '^ 2 x O \.$'
has "play: no moves after the end" '^The game is over: type new'
has "play: undo after the end" '^ 3 \.\(X\)\.$'
play_run 'a\nb\na\nb\na\nb\na\nquit\n' $C --human both
has "play: Connect Four's winning four in lower case" '^\(x\)\. \. \. \. \. \.$'
has "play: Connect Four's win announced without cells" '^Game over: Red wins\.$'

# Forgiving move input: the 8x8 board shows X on h8 for each spelling.
for mv in 'h8' 'H8' '8h' ' h 8 ' '\xef\xbd\x88\xef\xbc\x98' '\xe3\x80\x80H8'; do
    play_run "$mv\nquit\n" tictactoe --param m=8 --param n=8 --param k=5 --human both
    if grep -Eq '^ 8( \.){7}\(X\)$' "$tmp/out"; then ok "play: move $mv"; else bad "play: move $mv"; fi
done
play_run '\xef\xbd\x84\nquit\n' connect4 --human both
has "play: full-width d" '^ \. \. \.\(X\)\. \. \.$'

# Every bad line: one line saying why, then the prompt again.
play_exit0 "play: bad lines" 'z9\nb2\nb2\nzz\nfoo bar\n\n   \nundo now\nsave\n\xff\xfe\x80\n\x1b[31m\nquit\n' $T
play_count "play: off the board" 1 '^z9 is off the board\.$'
play_count "play: occupied" 1 '^b2 is occupied\.$'
play_count "play: gibberish" 1 '^"zz" is not a move'
play_count "play: unknown command" 1 '^Unknown command "foo"'
play_count "play: empty line" 2 '^Empty line'
has "play: argument refused" '^undo takes nothing after it'
has "play: save needs a file" '^save needs a file name'
play_count "play: invalid UTF-8 is gibberish" 1 '^"\?\?\?" is not a move'
play_count "play: control characters are gibberish" 1 '^"\?\[31m" is not a move'
play_count "play: one prompt per line" 12 'X> '
if grep -q "$(printf '\033')" "$tmp/out"; then bad "play: no escape codes off a terminal"; else
    ok "play: no escape codes off a terminal"; fi
{ head -c 5000 /dev/zero | tr '\0' 'a'; printf '\nb2\nquit\n'; } | "$BANYAN" play $T > "$tmp/out" 2>&1
[ $? -eq 0 ] && ok "play: over-long line" || bad "play: over-long line"
play_count "play: over-long line refused once" 1 'too long'
play_count "play: the line after it counts" 1 '^Banyan plays'
{ printf 'b\000'; printf '2\nquit\n'; } | "$BANYAN" play $T > "$tmp/out" 2>&1
has "play: a NUL byte is gibberish" '^"b\?2" is not a move'

# End of input anywhere: a clean exit.
play_exit0 "play: EOF at the prompt" 'b2\n' $T
play_exit0 "play: EOF inside a line" 'b2\nc' $T
has "play: a last line without newline counts" '^c is not a move|^"c" is not a move'
play_exit0 "play: EOF at once" '' $T

# Game records: save in one process, load in another, same position.
play_exit0 "play: save" "b2\nc3\nsave $tmp/g 1.txt\nquit\n" $T --param m=4 --param n=4 --param k=3
has "play: save reported" '^Saved 4 moves'
play_board "$tmp/out" 5 > "$tmp/board1"
if grep -qx '# banyan game tictactoe' "$tmp/g 1.txt" && grep -qx '# params m=4 n=4 k=3' "$tmp/g 1.txt" &&
    [ "$(grep -vc '^#' "$tmp/g 1.txt")" -eq 4 ]; then ok "play: record format"; else bad "play: record format"; fi
play_exit0 "play: load" "load  $tmp/g 1.txt \nsave $tmp/g2.txt\nquit\n" $T
has "play: load reported" '^Loaded 4 moves'
play_board "$tmp/out" 5 > "$tmp/board2"
"$BANYAN" show --game tictactoe --param m=4 --param n=4 --param k=3 \
    --position "$(grep -v '^#' "$tmp/g 1.txt" | sed 's/ .*//' | tr '\n' ' ')" > "$tmp/show" 2>&1
play_board "$tmp/show" 5 > "$tmp/board3"
if cmp -s "$tmp/board1" "$tmp/board2" && cmp -s "$tmp/board1" "$tmp/board3" &&
    [ -s "$tmp/board1" ]; then ok "play: load gives the saved position"; else
    bad "play: load gives the saved position"; fi
if cmp -s "$tmp/g 1.txt" "$tmp/g2.txt"; then ok "play: save, load, save round trip"; else
    bad "play: save, load, save round trip"; fi
play_run "load $tmp/nothing-here.txt\nquit\n" $T
has "play: load of a missing file" '^Cannot load ".*nothing-here.txt": .*No such file'
play_run "save $tmp/no/such/dir.txt\nquit\n" $T
has "play: save to a bad path" '^Cannot write ".*dir.txt": '
printf '# banyan game connect4\nd\n' > "$tmp/c4.txt"
play_run "load $tmp/c4.txt\nquit\n" $T
has "play: load of another game refused" 'a record of connect4, not tictactoe; the game goes on'
printf '# banyan game tictactoe\n# a comment\n\nb2\nb2\n' > "$tmp/bad.txt"
play_run "a1\nload $tmp/bad.txt\na1\nquit\n" $T --human both
has "play: illegal move in a file" 'line 5: "b2" is not legal here; the game goes on'
has "play: the game goes on after a bad load" '^a1 is occupied'
printf '# banyan game tictactoe\na1\nzz\n' > "$tmp/bad2.txt"
play_run "load $tmp/bad2.txt\nquit\n" $T
has "play: gibberish in a file" 'line 3: "zz" is not a move'

# Renju: a forbidden point says which rule it breaks.
play_run "h8\nquit\n" gomoku --param rule=renju --position "f8 a1 g8 a3 h6 a5 h7 a15" --human both
has "play: renju forbidden point explained" '^h8 is forbidden for Black \(a double three\)\.$'

# An Arabic-Indic digit (shown as "?") is gibberish, not a call for help.
play_run "\xd9\xa8\nquit\n" $T
has "play: a digit it cannot show is no call for help" '^"\?" is not a move'
if grep -q '^  undo ' "$tmp/out"; then bad "play: no help for a digit"; else ok "play: no help for a digit"; fi

# The side the person plays, by the player's name and the mark on the board.
play_run 'quit\n' $C
has "play: you play Red, X on the board" '^Banyan [0-9.]+: Connect Four\. You play Red \(X on the board\)\. '
play_run 'quit\n' $C --human second
has "play: you play Yellow, O on the board" ' You play Yellow \(O on the board\)\. '
play_run 'quit\n' $T
has "play: you play X (the name is the mark)" ' You play X\. '
# No last move, no mark: the empty Go board once drew a ")" at A9.
play_run 'quit\n' go --param size=9 --no-ponder
if grep -Eq '^ 9  \. ' "$tmp/out" && ! grep -E '^ ?[0-9]+ ' "$tmp/out" | grep -q '[()]'; then
    ok "play: an empty Go board has no last-move mark"; else bad "play: an empty Go board has no last-move mark"; fi
# The result as the game scores it: the margin in the game's unit, and who.
play_run 'E5\npass\npass\nquit\n' go --param size=9 --human both --no-ponder
has "play: Go's result with its margin" '^Game over: Black wins by 73\.5 points\.$'
play_run '' othello --human none --playouts 30 --no-ponder
has "play: Othello's result in discs, and who" '^Game over: (Black|White) wins by [0-9]+ discs \(Banyan\)\.$'
# Moves are named as typed, and Othello's refused pass is a sentence.
play_run 'J5\nquit\n' go --param size=9 --position J5 --human both --no-ponder
has "play: a move named as typed" '^J5 is occupied\.$'
play_run 'pass\nquit\n' othello --human both --no-ponder
has "play: a pass while there are moves" '^pass is not allowed: you have moves\.$'
