# tests/lib.sh - what tests/run.sh and tests/one.sh give every check: a
# scratch folder tmp, the counts, and ok, bad, check and has. Sourced.
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()   { pass=$((pass + 1)); [ -n "${BANYAN_TEST_VERBOSE:-}" ] && echo "ok   $1"; return 0; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/out" ] && sed 's/^/     | /' "$tmp/out" | head -20; }
# check NAME COMMAND...: passes when the command exits 0.
check() { local name=$1; shift; if "$@" > "$tmp/out" 2>&1; then ok "$name"; else bad "$name"; fi; }
# has NAME PATTERN: the last command's output matches the extended regex.
has()  { if grep -Eq -- "$2" "$tmp/out"; then ok "$1"; else bad "$1"; fi; }
