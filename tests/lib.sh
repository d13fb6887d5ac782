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
# The version include/banyan.h says (BANYAN_VERSION): what every product of
# a release names.
header_version() { sed -n 's/^#define BANYAN_VERSION "\(.*\)"$/\1/p' include/banyan.h; }
# py_suite LABEL SKIP FILE STATUS SUMMARY: counts the lines python/tests/run.py
# wrote to FILE, a check each named "LABEL: test" (SKIPPED lines shown with
# SKIP before their text), prints SUMMARY with %s the number of tests, and
# the failures' tracebacks when STATUS is not 0 or no test ran.
py_suite() {
    local label=$1 skip=$2 file=$3 rc=$4 n=0 line
    while IFS= read -r line; do
        case $line in
        "ok "*) ok "$label: ${line#ok }"; n=$((n + 1)) ;;
        "FAIL "*) rm -f "$tmp/out"; bad "$label: ${line#FAIL }"; n=$((n + 1)) ;;
        "SKIPPED: "*) echo "SKIPPED: $skip${line#SKIPPED: }" ;;
        esac
    done < <(sed '/^=====/,$d' "$file")
    printf "$5\n" "$n"
    if [ "$rc" -ne 0 ] || [ "$n" -eq 0 ]; then
        [ "$n" -eq 0 ] && { rm -f "$tmp/out"; bad "$label: the tests did not run"; }
        sed 's/^/     | /' "$file" | grep -v '^     | ok ' | head -80
    fi
}
