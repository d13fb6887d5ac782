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

# Clocks: Japanese byo-yomi of 1 s per move: every genmove answers inside
# its period (allowing 0.5 s for process start-up and a busy machine).
t0=$(date +%s%N)
printf 'kgs-time_settings byoyomi 0 1 3\ngenmove b\ngenmove w\ngenmove b\n' \
    | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$(grep -c '^= [a-g]$' "$tmp/out")" -eq 3 ] && [ "$ms" -lt 3500 ] \
    && ok "kgs-time_settings byoyomi: three moves in ${ms} ms" || bad "kgs-time_settings byoyomi (${ms} ms)"
printf 'kgs-time_settings canadian 0 2 4\ntime_left b 2 4\ngenmove b\nkgs-time_settings nonsense 1\n' \
    | "$BANYAN" gtp --game connect4 > "$tmp/out" 2>&1
has "kgs-time_settings canadian" '^= [a-g]$'
has "kgs-time_settings: unknown system refused" '^\? syntax error$'
