# tests/cli/usage.sh - the command line's own messages: every --help exits
# 0, each lists the engine options that apply there and points to the rest,
# a mistyped command gets one line and a suggestion, and every refused value
# says what is expected. Sourced by tests/run.sh (ok, bad, check, has;
# BANYAN, tmp).

# refused NAME STATUS PATTERN COMMAND...: the command exits STATUS and its
# output matches PATTERN.
refused() {
    local name=$1 want=$2 pattern=$3; shift 3
    "$@" > "$tmp/out" 2>&1
    local rc=$?
    if [ $rc -eq "$want" ] && grep -Eq -- "$pattern" "$tmp/out"; then ok "$name"; else
        echo "     (status $rc, want $want)"; bad "$name"; fi
}

# Every subcommand's --help, wherever it stands, exits 0; so does banyan help.
for c in play gtp gomocup analyze bench perft show solo games match serve selfplay train; do
    "$BANYAN" $c --help > "$tmp/out" 2>&1 && "$BANYAN" $c --game connect4 -h > /dev/null 2>&1 &&
        "$BANYAN" help $c > /dev/null 2>&1 && grep -q '^usage: banyan' "$tmp/out" &&
        ok "usage: $c --help exits 0" || bad "usage: $c --help exits 0"
done
refused "usage: help on nothing known" 2 '^banyan help: no help on "nonsense"' "$BANYAN" help nonsense

# The main help is a page of commands, not of options; banyan help options
# has them all, with where each applies.
"$BANYAN" --help > "$tmp/out" 2>&1
[ "$(wc -l < "$tmp/out")" -lt 30 ] && ok "usage: banyan --help fits a screen" || bad "usage: banyan --help fits a screen"
has "usage: banyan --help points to the options" 'help options'
check "usage: banyan help options" "$BANYAN" help options
has "usage: help options lists the search settings" '^  --fpu R\|infinite '
has "usage: help options says where pondering applies" '^  --no-ponder .*\[play, gtp and gomocup only\]$'

# A command's --help lists the engine options that apply there, and points
# to the search settings.
"$BANYAN" analyze --help > "$tmp/out" 2>&1
has "usage: analyze --help lists --playouts" '^  --playouts N '
if grep -Eq -- '^  --(ponder|no-ponder|resign|reuse|c) ' "$tmp/out"; then
    bad "usage: analyze --help leaves out what does nothing there"; else
    ok "usage: analyze --help leaves out what does nothing there"; fi
has "usage: analyze --help points to the search settings" 'banyan help options$'
"$BANYAN" gtp --help > "$tmp/out" 2>&1
has "usage: gtp --help lists --resign" '^  --resign V\|off '
"$BANYAN" play --help > "$tmp/out" 2>&1
if grep -q -- '^  --no-ponder ' "$tmp/out" && ! grep -q -- '^  --resign ' "$tmp/out"; then
    ok "usage: play --help lists pondering, not resigning"; else bad "usage: play --help lists pondering, not resigning"; fi
"$BANYAN" match --help > "$tmp/out" 2>&1
if grep -q '^  params=k=v;k=v ' "$tmp/out" && ! grep -q '^  ponder ' "$tmp/out"; then
    ok "usage: match --help lists the players' keys"; else bad "usage: match --help lists the players' keys"; fi
# What does nothing in a command is refused there, with where it applies.
refused "usage: --ponder refused in analyze" 2 '^banyan: --ponder does nothing in analyze: it applies to play, gtp and gomocup only$' \
    "$BANYAN" analyze --game connect4 --ponder
refused "usage: --resign refused in play" 2 'resign does nothing in play' "$BANYAN" play connect4 --resign 0.1
refused "usage: --playouts refused in perft" 2 '^banyan: --playouts does nothing in perft' \
    "$BANYAN" perft --game connect4 --playouts 5 3
refused "usage: --ponder refused in serve" 2 'ponder does nothing in serve' "$BANYAN" serve --ponder
refused "usage: --threads refused in train" 2 'threads does nothing in train' \
    "$BANYAN" train --game tictactoe --threads 2 --init "$tmp/x.net"

# A mistyped command: one line, with the likely command.
"$BANYAN" plya > "$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/out")" -eq 1 ]; then ok "usage: a typo gets one line"; else bad "usage: a typo gets one line"; fi
has "usage: a typo gets a suggestion" '^banyan: unknown command "plya"; did you mean "play"\? \(banyan --help lists the commands\)$'
refused "usage: no suggestion for nonsense" 2 '^banyan: unknown command "xyzzy" \(banyan --help' "$BANYAN" xyzzy

# Every refused number says its range; numbers too large for their type
# are refused, never taken as the largest one, and so is what is no decimal
# number.
max=$(sed -n 's/^#define BANYAN_MAX_THREADS *\([0-9]*\).*/\1/p' include/banyan.h)
refused "usage: --threads says its maximum" 2 "bad value for threads: \"100000\" \\(a whole number from 1 to $max expected\\)" \
    "$BANYAN" analyze --game connect4 --threads 100000
for v in "--playouts 99999999999999999999" "--playouts 18446744073709551616" "--nodes -1" \
    "--seed 99999999999999999999" "--solve 1e3" "--time 0x10" "--time inf" "--time nan" \
    "--c 1e99999" "--memory 99999999999999999999G" "--memory 0x10M" "--rave 1e400" \
    "--fpu 1e-400" "--batch 4294967297" "--expand 4294967297" "--cutoff 1.5"; do
    name=${v%% *}
    refused "usage: $v refused with what is expected" 2 "^banyan: bad value for ${name#--}: .* \\((a whole number from|a number from|a size in bytes from) [0-9]" \
        "$BANYAN" analyze --game connect4 $v
done
for v in "--depth 99999999999999999999" "--min-visits -1" "--depth 1x"; do
    refused "usage: $v refused with its range" 2 "^banyan: bad value for ${v%% *}: .*\\(a whole number from 0 to [0-9]+ expected\\)$" \
        "$BANYAN" analyze --game connect4 $v
done
refused "usage: --reuse-test's range" 2 '\(a whole number from 1 to 1000 expected\)$' \
    "$BANYAN" bench --game connect4 --reuse-test 0
refused "usage: --human's choices" 2 '\(one of first\|second\|both\|none expected\)$' \
    "$BANYAN" play connect4 --human third

# perft names the depth's limit; parameters that are each in range but do
# not go together are named with what the table says of them.
refused "usage: perft's depth limit" 2 '^banyan perft: the depth must be a whole number from 1 to [0-9]+, not "99"$' \
    "$BANYAN" perft --game tictactoe 99
refused "usage: parameters that do not go together" 1 \
    '^banyan: tictactoe cannot be set up with m=3 n=3 k=5: each value is within its range, but not with the others \(k: .*at most the larger side' \
    "$BANYAN" analyze --game tictactoe --param k=5
refused "usage: a parameter out of its range" 1 'k must be a whole number from 1 to [0-9]+, not "50"' \
    "$BANYAN" analyze --game tictactoe --param k=50
