#!/usr/bin/env bash
# tools/dist.sh NAME DIR - writes DIR/NAME.tar.gz, the source tarball of a
# release (make dist): the checkout's files, tracked and new ones that git
# does not ignore, under NAME/, stamped with the last commit's time and no
# owner, so that the same commit gives the same bytes. Unpacked alone it
# builds and passes make check (tests/cli/dist.sh).
set -euo pipefail
name=$1
out=$2
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || {
    echo "make dist: needs the git checkout, whose files it packs" >&2
    exit 1
}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$out"
# Files deleted in the work tree but not yet in git are left out.
git ls-files -z -co --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    xargs -0 cp -P --parents -t "$stage/$name"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$(git log -1 --format=%ct 2> /dev/null || echo 0)" -cf - "$name" |
    gzip -n9 > "$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
echo "$out/$name.tar.gz"
