# tests/cli/sabaki.sh - a real GTP client: Sabaki's controller (@sabaki/gtp,
# from npm) drives banyan gtp through whole games, and Sabaki's SGF parser
# (@sabaki/sgf) reads back the record of a whole game of Go and the
# standard properties of the SGF Banyan writes. Sourced by
# tests/run.sh. Needs node and `npm ci --prefix tests/node` (which .ci/run
# does).
if ! command -v node > /dev/null 2>&1; then
    echo "SKIPPED: @sabaki/gtp game tests: node is not installed (apt-get install nodejs npm)"
elif [ ! -d tests/node/node_modules/@sabaki/gtp ] || [ ! -d tests/node/node_modules/@sabaki/sgf ]; then
    echo "SKIPPED: @sabaki/gtp game tests: run 'npm ci --prefix tests/node' first"
else
    if node tests/node/gtp_game.mjs "$BANYAN" > "$tmp/out" 2>&1; then
        ok "@sabaki/gtp drives whole games"
    else
        bad "@sabaki/gtp drives whole games"
    fi
    grep -E '^(ok|FAIL)' "$tmp/out" | sed 's/^/     /'
    if node tests/node/gtp_go.mjs "$BANYAN" > "$tmp/out" 2>&1; then
        ok "@sabaki/gtp drives a whole game of Go, @sabaki/sgf reads its SGF back"
    else
        bad "@sabaki/gtp drives a whole game of Go, @sabaki/sgf reads its SGF back"
    fi
    grep -E '^(ok|FAIL)' "$tmp/out" | sed 's/^/     /'
    if node tests/node/sgf_go.mjs "$BANYAN" > "$tmp/out" 2>&1; then
        ok "@sabaki/sgf reads the standard properties of Banyan's SGF (KM, RE, DT, HA, AB, PL)"
    else
        bad "@sabaki/sgf reads the standard properties of Banyan's SGF (KM, RE, DT, HA, AB, PL)"
    fi
    grep -E '^(ok|FAIL)' "$tmp/out" | sed 's/^/     /'
fi
