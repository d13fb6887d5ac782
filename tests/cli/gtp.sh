# tests/cli/gtp.sh - GTP: golden transcripts and streaming analysis. Sourced
# by tests/run.sh. Each tests/proto/*.in starts with "# banyan gtp ARGS";
# its output must equal the .out beside it byte for byte.
for f in tests/proto/*.in; do
    args=$(head -1 "$f" | sed -n 's/^# banyan gtp //p')
    "$BANYAN" gtp $args < "$f" > "$tmp/gtp.out" 2>&1
    if cmp -s "$tmp/gtp.out" "${f%.in}.out"; then ok "gtp transcript $(basename "$f")"; else
        diff "${f%.in}.out" "$tmp/gtp.out" | head -20 > "$tmp/out"; bad "gtp transcript $(basename "$f")"; fi
done

# lz-analyze streams "info move ..." lines until the next command arrives
# (book=off: Connect Four's opening book proves every reply lost at once).
(printf 'play b d\n1 lz-analyze w 5\n'; sleep 0.6; printf '2 name\n') \
    | "$BANYAN" gtp --game connect4 --param book=off > "$tmp/out" 2>&1
has "lz-analyze: answers with its id" '^=1$'
has "lz-analyze: info lines Sabaki reads" \
    '^info move [a-g] visits [0-9]+ winrate [0-9]+ prior [0-9]+ order 0 pv [a-g]( [a-g])*( info move |$)'
n=$(grep -c '^info move' "$tmp/out")
[ "$n" -ge 3 ] && ok "lz-analyze: several updates ($n)" || bad "lz-analyze: several updates ($n)"
has "lz-analyze: the next command is answered" '^=2 Banyan$'
printf 'play b d\nlz-analyze 5\n' | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
[ $? -eq 0 ] && ok "lz-analyze: EOF ends it" || bad "lz-analyze: EOF ends it"
has "lz-analyze: stream closed by an empty line" '^info move'

# Time settings shorten genmove: 2 s main time, 20 moves to go or more.
printf 'time_settings 2 0 0\ntime_left b 2 0\ngenmove b\n' | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
has "time_settings: genmove answers" '^= [a-g]$'

# analyze --tree-dump: JSON that parses, DOT with one edge per node but the root.
check "analyze --tree-dump json" "$BANYAN" analyze --game tictactoe --playouts 2000 \
    --tree-dump "$tmp/tree.json" --depth 2 --min-visits 10 --json
has "analyze --json summary after a dump" '"playouts":2000,'
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['visits']==2000 and d['children']" "$tmp/tree.json" 2> "$tmp/out"; then
    ok "tree dump: valid JSON with the root's visits"; else bad "tree dump: valid JSON with the root's visits"; fi
check "analyze --tree-dump dot" "$BANYAN" analyze --game connect4 --param book=off --playouts 3000 --tree-dump "$tmp/tree.dot" --depth 3
nodes=$(grep -c '\[label=' "$tmp/tree.dot"); edges=$(grep -c -- '->' "$tmp/tree.dot")
[ "$edges" -eq $((nodes - 1)) ] && [ "$nodes" -gt 8 ] && ok "tree dump: DOT tree ($nodes nodes)" || bad "tree dump: DOT tree"
# Without --depth a DOT dump keeps 3 plies (a whole tree cannot be drawn).
"$BANYAN" analyze --game connect4 --param book=off --playouts 3000 --tree-dump "$tmp/tree3.dot" > "$tmp/out" 2>&1
has "tree dump: DOT depth said" 'DOT dump has 3 plies below the root'
if cmp -s "$tmp/tree.dot" "$tmp/tree3.dot"; then ok "tree dump: DOT of 3 plies by default"; else
    bad "tree dump: DOT of 3 plies by default"; fi
"$BANYAN" analyze --game connect4 --playouts 100 --tree-dump /nonexistent/dir/t.json > "$tmp/out" 2>&1
[ $? -eq 1 ] && ok "tree dump: unwritable file reported" || bad "tree dump: unwritable file reported"

# Without limits, a move searches 50,000 playouts on boards of up to 81
# cells and 50,000 * 81 / cells on larger ones (a GUI that sends no clock
# still gets a 19x19 move in seconds): Gomoku's 19x19, where playouts are
# quick, shows the count.
printf 'boardsize 19\nbanyan-analyze\n' | "$BANYAN" gtp --game gomoku > "$tmp/out" 2>&1
has "gtp: the default playouts scale with the board (19x19: 11,218)" '^playouts 11218 '

# Clocks: Japanese byo-yomi of 1 s per move: every genmove answers (the
# time each plans is checked by tests/unit/test_timeman.c, not by a clock
# here: how long a move takes depends on the machine).
printf 'kgs-time_settings byoyomi 0 1 3\ngenmove b\ngenmove w\ngenmove b\n' \
    | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
[ "$(grep -c '^= [a-g]$' "$tmp/out")" -eq 3 ] \
    && ok "kgs-time_settings byoyomi: three moves" || bad "kgs-time_settings byoyomi"
printf 'kgs-time_settings canadian 0 2 4\ntime_left b 2 4\ngenmove b\nkgs-time_settings nonsense 1\n' \
    | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
has "kgs-time_settings canadian" '^= [a-g]$'
has "kgs-time_settings: unknown system refused" '^\? syntax error$'

# Go for GUIs: scoring with dead stones, SGF in and out, cleanup, ownership.
# A finished 9x9 game (two passes) in which White's B2 and Black's H2 stand
# dead in the other's corner; every group has single-point eyes, so the
# playouts settle the rest: Black 36 points, White 45, komi 7.5.
cat > "$tmp/dead.sgf" <<'SGF'
(;GM[1]FF[4]SZ[9]KM[7.5]
;B[ba];W[ea];B[da];W[ga];B[ab];W[ia];B[bb];W[eb];B[cb];W[fb];B[db];W[gb]
;B[bc];W[hb];B[dc];W[ib];B[ad];W[ec];B[bd];W[gc];B[cd];W[ic];B[dd];W[ed]
;B[be];W[fd];B[de];W[gd];B[af];W[hd];B[bf];W[id];B[cf];W[ee];B[df];W[ge]
;B[dg];W[ie];B[dh];W[ef];B[hh];W[ff];B[di];W[gf];B[];W[hf];B[];W[if];B[]
;W[eg];B[];W[fg];B[];W[bh];B[];W[eh];B[];W[fh];B[];W[ei];B[];W[fi];B[];W[])
SGF
# Before White's last pass genmove passes too (White wins as it stands),
# but kgs-genmove_cleanup must not while H2 stands.
printf 'loadsgf %s\nfinal_status_list dead\nfinal_status_list alive\nfinal_status_list seki\nfinal_score\nkomi 6.5\nfinal_score\nfinal_status_list dead\nloadsgf %s 64\nkgs-genmove_cleanup w\nloadsgf %s/none.sgf\n' \
    "$tmp/dead.sgf" "$tmp/dead.sgf" "$tmp" \
    | "$BANYAN" gtp --game go --playouts 2000 > "$tmp/out" 2>&1
has "final_status_list dead: exactly the dead stones" '^= B2 H2$'
has "final_status_list alive: the living stones" '^= B9 D9 E9 G9 J9 A8 .* D1 E1 F1$'
[ "$(sed -n 7p "$tmp/out")" = "=" ] && ok "final_status_list seki: none" || bad "final_status_list seki: none"
has "final_score: dead stones counted for the other side" '^= W\+16\.5$'
has "komi: the game goes on with it" '^= W\+15\.5$'
[ "$(grep -c '^= B2 H2$' "$tmp/out")" -eq 2 ] && ok "final_status_list after komi" || bad "final_status_list after komi"
has "kgs-genmove_cleanup: no pass while H2 stands" '^= [A-HJ][1-9]$'
has "loadsgf: unreadable file, and why" '^\? cannot load file: cannot read ".*none.sgf": No such file or directory$'

# A handicap game as KGS and OGS write it: HA, AB (setup stones), KM, White
# first. loadsgf sets the stones up as the start (undo stops there), White
# answers genmove, the komi is the file's; printsgf writes the standard
# properties back (KM, HA, AB, PL), and a file that cannot load says why.
cat > "$tmp/kgs.sgf" <<'SGF'
(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]RU[Japanese]SZ[19]HA[2]KM[0.50]
PW[whitey]PB[blacky]DT[2023-11-04]RE[W+Resign]
AB[dp][pd]
;W[qp]WL[299.5];B[dd]BL[298.1];W[fq])
SGF
printf '(;GM[1]SZ[9];B[ee]AB[aa])\n' > "$tmp/later.sgf"
printf 'loadsgf %s 1\nshowboard\ngenmove w\nundo\nundo\nprintsgf\nkomi 6.5\nshowboard\nclear_board\nshowboard\nloadsgf %s\n' \
    "$tmp/kgs.sgf" "$tmp/later.sgf" | "$BANYAN" gtp --game go --playouts 300 > "$tmp/out" 2>&1
has "loadsgf of a handicap game: Black's stones on D4 and Q16" '^16 \. \. \. \. \. \. \. \. \. \. \. \. \. \. \. X \. \. \.$'
[ "$(grep -c '^16 \. \. \. \. \. \. \. \. \. \. \. \. \. \. \. X \. \. \.$' "$tmp/out")" -eq 2 ] &&
    ok "loadsgf of a handicap game: komi keeps the stones" || bad "loadsgf of a handicap game: komi keeps the stones"
has "loadsgf of a handicap game: clear_board empties the board" '^16( \.){19}$'
has "loadsgf of a handicap game: D4 too" '^ 4 \. \. \. X \.'
has "loadsgf of a handicap game: White answers genmove" '^= ([A-HJ-T][0-9]+|pass)$'
has "loadsgf of a handicap game: undo stops at the setup" '^\? cannot undo$'
has "printsgf of a handicap game: KM, PB, PW, DT, HA, AB, PL" \
    'KM\[0\.50\]PB\[blacky\]PW\[whitey\]DT\[2023-11-04\].*HA\[2\]AB\[pd\]\[dp\]PL\[W\]$'
has "loadsgf: a file that cannot load says why" \
    '^\? cannot load file: SGF: AB at byte 18: setup stones are read in the first node only'

# printsgf, then loadsgf of what it wrote, then printsgf again: the same
# record; loadsgf with a move number stops before that move; reg_genmove
# names a move and plays nothing.
printf 'loadsgf %s\nprintsgf %s\nloadsgf %s 3\nprintsgf\nloadsgf %s\nprintsgf\nreg_genmove b\nprintsgf\n' \
    "$tmp/dead.sgf" "$tmp/printed.sgf" "$tmp/dead.sgf" "$tmp/printed.sgf" \
    | "$BANYAN" gtp --game go --playouts 200 > "$tmp/out" 2>&1
has "printsgf: GM, SZ, KM, DT and Banyan's game" '^= \(;GM\[1\]FF\[4\].*SZ\[9\]KM\[7\.5\]DT\[[0-9]{4}-[0-9]{2}-[0-9]{2}\]XG\[go\]'
has "loadsgf N: the position before move N" '^;W\[ea\]$'
[ "$(grep -c '^;W\[ea\]' "$tmp/out")" -eq 3 ] && ok "loadsgf of a printed SGF, and printsgf to a file" \
    || bad "loadsgf of a printed SGF, and printsgf to a file"
if [ "$(grep -c '^;W\[\]$' "$tmp/printed.sgf")" -eq 1 ] && [ "$(grep -c '^;[BW]\[' "$tmp/printed.sgf")" -eq 64 ]; then
    ok "printsgf FILE: the 64 moves"; else bad "printsgf FILE: the 64 moves"; fi
# The record after reg_genmove is the one before it (as long as the game).
awk '/^= \(;GM/{n++} n==2' "$tmp/out" | sed -n '/^= (/,/^)$/p' > "$tmp/a"
awk '/^= \(;GM/{n++} n==3' "$tmp/out" | sed -n '/^= (/,/^)$/p' > "$tmp/b"
[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" && ok "reg_genmove plays nothing" || bad "reg_genmove plays nothing"

# Two moves of one colour (tests/proto/twice.in): the record keeps who
# moved, so the SGF has White's pass between Black's stones.
printf 'play b E5\nplay b D5\nprintsgf\n' | "$BANYAN" gtp --game go --param size=9 > "$tmp/out" 2>&1
[ "$(sed -n '/^;/p' "$tmp/out" | tr -d '\n')" = ";B[ee];W[];B[de]" ] &&
    ok "play twice: White's pass between in the SGF" || bad "play twice: White's pass between in the SGF"

printf 'play b E5\nreg_genmove w\nreg_genmove b\nshowboard\n' | "$BANYAN" gtp --game go --param size=9 --playouts 300 > "$tmp/out" 2>&1
has "reg_genmove: a move for the side to move" '^= [A-HJ][1-9]$'
has "reg_genmove: not for the other side" "^\? it is the other colour's turn$"

# Analysis order and lcb on 19x19, where the first updates come after a few
# visits a move: every lcb is the Wilson bound the final-move rule ranks by
# (never the win rate of a move whose few rollouts all won), orders run 0,
# 1, 2... and order 0 is the move the rule picks: the highest bound among
# the moves with a tenth of the most visits or more.
(printf 'kata-analyze b 20\n'; sleep 1; printf 'name\n') | "$BANYAN" gtp --game go > "$tmp/ka" 2>&1
awk '/^info move/ {
    n = split($0, w, " "); k = 0; most = 0; delete vis; delete lcb
    for (i = 1; i < n; i++) if (w[i] == "move") {
        v = w[i + 3]; p = w[i + 5]; l = w[i + 9]; o = w[i + 11]
        if (w[i + 2] != "visits" || w[i + 8] != "lcb" || w[i + 10] != "order") { print "format"; bad++ }
        want = (p + 2 / v - 2 * sqrt(p * (1 - p) / v + 1 / (v * v))) / (1 + 4 / v)
        if (l - want > 3e-6 || want - l > 3e-6) { print "lcb", w[i + 1], v, p, l, want; bad++ }
        if (o != k) { print "order", o, "for", k; bad++ }
        vis[k] = v; lcb[k] = l; k++; if (v > most) most = v
    }
    floor = int(most / 10) > 1 ? int(most / 10) : 1
    for (j = 1; j < k; j++) if (vis[j] >= floor && lcb[j] > lcb[0] + 3e-6) { print "order 0", lcb[0], "below", lcb[j]; bad++ }
    lines++
} END { if (!lines) print "no info lines"; exit (bad > 0 || !lines) }' "$tmp/ka" > "$tmp/out" &&
    ok "kata-analyze 19x19: lcb the Wilson bound, order 0 the move the final rule picks" ||
    bad "kata-analyze 19x19: lcb the Wilson bound, order 0 the move the final rule picks"

# kata-analyze: KataGo's info lines, then "ownership" and 81 values.
(printf 'play b E5\n1 kata-analyze w 10 ownership true\n'; sleep 0.5; printf '2 name\n') \
    | "$BANYAN" gtp --game go --param size=9 > "$tmp/out" 2>&1
has "kata-analyze: answers with its id" '^=1$'
has "kata-analyze: KataGo's info lines" \
    '^info move [A-HJ][1-9] visits [0-9]+ winrate 0\.[0-9]{6} prior [0-9.]+ lcb -?[0-9.]+ order 0 pv [A-HJ][1-9]'
n=$(grep '^info move' "$tmp/out" | awk '{n = 0; for (i = 1; i <= NF; i++) if ($i == "ownership") n = NF - i; print n}' | sort -u)
[ "$n" = 81 ] && ok "kata-analyze ownership: 81 values on each update" || bad "kata-analyze ownership: 81 values ($n)"
has "kata-analyze ownership: values in [-1, 1]" 'ownership( -?[01]\.[0-9]{6}){81}$'
has "kata-analyze: the next command is answered" '^=2 Banyan$'

# lz-analyze with Connect Four's book on the empty board: the book's move,
# proven, is order 0 (the move genmove plays), and the other moves are
# searched past the proof, not left out.
(printf '1 lz-analyze b 5\n'; sleep 0.6; printf '2 name\n') | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
has "lz-analyze: the book's proven move is order 0" '^info move d visits 0 winrate 10000 prior [0-9]+ order 0 pv d info move [abcefg] visits [1-9]'
