#!/usr/bin/env bash
# tests/one.sh BUILD_DIR FILE... - runs the named tests/cli/*.sh files alone,
# with what tests/run.sh gives them (ok, bad, check, has; BANYAN, B, tmp):
# the quick way to rerun one feature's checks after an edit.
set -u
B=${1:-build/release}
shift
BANYAN=$B/banyan
. tests/lib.sh
for f in "$@"; do
    echo "== $(basename "$f")"
    . "$f"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
