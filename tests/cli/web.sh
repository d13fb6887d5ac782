# tests/cli/web.sh - the web board, `banyan serve` (docs/WEB.md): its HTTP
# interface (tests/node/web_api.mjs), the page end to end in headless
# Chromium (web_page.mjs) and what it shows at a desktop's and a phone's
# width (web_view.mjs), the server's limits (web_limits.mjs) and 50
# sessions at once (web_load.mjs), each
# against a server started here with small limits and stopped with SIGTERM,
# which must exit 0 (under AddressSanitizer that is the leak check too) and
# print nothing but its address. Sourced by tests/run.sh (ok, bad, check,
# has; BANYAN, B, tmp), so it must not exit. Needs node; the browser test
# needs `npm ci --prefix tests/node` (playwright-core) and Debian's chromium.
# Screenshots, the saved record and the servers' and scripts' output go to
# $B/web-test/. To run these checks alone:
#   bash -c 'B=build/release; BANYAN=$B/banyan; tmp=$(mktemp -d); pass=0; fail=0;
#       ok() { pass=$((pass+1)); echo "ok   $1"; }; bad() { fail=$((fail+1)); echo "FAIL $1"; };
#       . tests/cli/web.sh; echo "$pass passed, $fail failed"'

web_about=$("$BANYAN" --version 2>/dev/null | grep '^web board:')
WEB_OUT=$B/web-test
# A sanitizer build is 2-3 times slower: longer waits, a shorter load.
case $B in *san-*) web_slow=1 web_load_s=8 ;; *) web_slow= web_load_s=12 ;; esac
export WEB_OUT

# web_start NAME ARGS...: starts `banyan serve --port 0 ARGS` in the
# background (output in $WEB_OUT/NAME.log), sets web_pid, and web_url from
# the line it prints first; returns 1 when no such line came in 30 s.
web_start() {
    local name=$1 i
    shift
    web_url=
    "$BANYAN" serve --port 0 "$@" > "$WEB_OUT/$name.log" 2>&1 &
    web_pid=$!
    for i in $(seq 300); do
        web_url=$(head -1 "$WEB_OUT/$name.log" 2> /dev/null | sed -n 's|^banyan serve: \(http://127\.0\.0\.1:[0-9][0-9]*/\)$|\1|p')
        [ -n "$web_url" ] && return 0
        kill -0 "$web_pid" 2> /dev/null || return 1
        sleep 0.1
    done
    return 1
}
# web_stop NAME: SIGTERM to the server; it must exit 0 within 30 s and its
# output must be its address alone (a sanitizer's report, a warning or an
# error message would follow it).
web_stop() {
    local name=$1 i rc
    kill -TERM "$web_pid" 2> /dev/null
    for i in $(seq 300); do
        kill -0 "$web_pid" 2> /dev/null || break
        [ "$(awk '{print $3}' "/proc/$web_pid/stat" 2> /dev/null)" = Z ] && break
        sleep 0.1
    done
    if kill -0 "$web_pid" 2> /dev/null && [ "$(awk '{print $3}' "/proc/$web_pid/stat" 2> /dev/null)" != Z ]; then
        kill -KILL "$web_pid" 2> /dev/null
        wait "$web_pid" 2> /dev/null
        : > "$tmp/out"
        bad "web: $name server stops on SIGTERM within 30 s"
        return
    fi
    wait "$web_pid"
    rc=$?
    tail -n +2 "$WEB_OUT/$name.log" | head -20 > "$tmp/out"
    if [ "$rc" -eq 0 ]; then ok "web: $name server exits 0 on SIGTERM"; else bad "web: $name server exits 0 on SIGTERM (status $rc)"; fi
    if [ -s "$tmp/out" ]; then bad "web: $name server printed nothing but its address"; else ok "web: $name server printed nothing but its address"; fi
}
# web_node NAME SECONDS SCRIPT ARGS...: runs a node script (under timeout),
# output in $WEB_OUT/NAME.out; each of its "ok" lines is a check passed, each
# "FAIL" line one failed; a script that ends otherwise than 0 with no FAIL
# line (a crash, the timeout) or that printed no "ok" fails once more.
web_node() {
    local name=$1 limit=$2 rc line n=0 f=0 t0=$SECONDS
    shift 2
    WEB_SLOW=$web_slow timeout -k 5 "$limit" node "$@" > "$WEB_OUT/$name.out" 2>&1
    rc=$?
    echo "web: $(basename "$1"): $(grep -c '^ok ' "$WEB_OUT/$name.out") passed, $(grep -c '^FAIL ' "$WEB_OUT/$name.out") failed in $((SECONDS - t0)) s"
    while IFS= read -r line; do
        case $line in
            "ok "*) n=$((n + 1)); ok "web: $(echo "${line#ok}" | sed 's/^ *//')" ;;
            "FAIL "*) f=$((f + 1)); : > "$tmp/out"; bad "web: ${line#FAIL }" ;;
            "     "*) [ -n "${BANYAN_TEST_VERBOSE:-}" ] && echo "$line" ;;
        esac
    done < "$WEB_OUT/$name.out"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] || [ "$n" -eq 0 ]; then
        grep -v '^ok ' "$WEB_OUT/$name.out" | tail -20 > "$tmp/out"
        bad "web: $name ran to its end (status $rc$([ "$rc" -eq 124 ] && echo ", over $limit s"))"
    fi
}

# web_not_started NAME: the server of NAME printed no address: what it
# printed instead is the failure's detail.
web_not_started() {
    cp "$WEB_OUT/$1.log" "$tmp/out"
    bad "web: serve ($1) prints its address"
    kill -KILL "$web_pid" 2> /dev/null
}

if [ -z "$web_about" ] || echo "$web_about" | grep -q 'not built'; then
    echo "SKIPPED: web board tests: $BANYAN is built without the web board" \
        "(Debian libmicrohttpd-dev and libjansson-dev, then make again)"
elif ! command -v node > /dev/null 2>&1; then
    echo "SKIPPED: web board tests: node is not installed (apt-get install nodejs npm)"
else
    rm -rf "$WEB_OUT"
    mkdir -p "$WEB_OUT"
    echo "web test output: $WEB_OUT"
    # The interface and the page: 4 sessions at once (web_api.mjs fills them
    # to see the 503), the engine quick.
    if web_start api --sessions 4 --memory 256M --playouts 200 --idle 120 --max-threads 2 --seed 1; then
        ok "web: serve prints its address"
        web_node api $((web_slow ? 400 : 150)) tests/node/web_api.mjs "$web_url" \
            "$("$BANYAN" games | awk '{print $1}' | paste -sd, -)"
        if [ ! -d tests/node/node_modules/playwright-core ]; then
            echo "SKIPPED: web page in a browser: playwright-core is not installed (npm ci --prefix tests/node)"
        elif [ ! -x /usr/bin/chromium ]; then
            echo "SKIPPED: web page in a browser: /usr/bin/chromium is missing (apt-get install chromium)"
        else
            web_node page $((web_slow ? 400 : 150)) tests/node/web_page.mjs "$web_url"
        fi
        web_stop api
    else
        web_not_started api
    fi
    # What the page shows: a page at a time (and a session of the interface's
    # beside it), 128 MiB each for an analysis of 19x19 Go.
    if [ ! -d tests/node/node_modules/playwright-core ] || [ ! -x /usr/bin/chromium ]; then
        :
    elif web_start view --sessions 4 --memory 512M --playouts 200 --idle 120 --max-threads 2 --seed 1; then
        web_node view $((web_slow ? 400 : 150)) tests/node/web_view.mjs "$web_url"
        web_stop view
    else
        web_not_started view
    fi
    # Limits: idle sessions closed after a second, one thread, 6 MiB a game.
    if web_start limits --sessions 2 --memory 12M --idle 1 --max-threads 1 --playouts 50 --seed 1; then
        web_node limits $((web_slow ? 200 : 60)) tests/node/web_limits.mjs "$web_url"
        web_stop limits
    else
        web_not_started limits
    fi
    # Load: 50 sessions sharing 500 MiB (10 MiB each: the least in which Connect
    # Four's solver table and a tree fit).
    if web_start load --sessions 50 --memory 500M --playouts 50 --idle 120 --seed 1; then
        web_node load $((web_load_s + (web_slow ? 200 : 60))) tests/node/web_load.mjs "$web_url" "$web_load_s" "$web_pid" 500
        web_stop load
    else
        web_not_started load
    fi
fi
