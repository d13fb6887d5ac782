# tests/cli/dist.sh - the source tarball (make dist, tools/dist.sh): the
# checkout's files and nothing built, the same bytes when made twice, and,
# unpacked alone in an empty folder, a tree that builds and passes make
# check. Sourced by tests/run.sh; in the slow tier (a build and the fast
# tier of its own: 1 to 2 minutes on two cores).
if case "$B" in *san-*) true ;; *) false ;; esac; then
    echo "SKIPPED: make dist in a sanitizer build: the tarball does not depend on the build" \
        "(the release pass checks it)"
elif ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    echo "SKIPPED: make dist: not a git checkout (make dist packs a checkout's files)"
else
    v=$(header_version)
    ball=$tmp/dist/banyan-$v.tar.gz
    if make --no-print-directory dist DISTDIR="$tmp/dist" > "$tmp/out" 2>&1 && [ -f "$ball" ]; then
        ok "dist: make dist writes banyan-$v.tar.gz"
        cp "$ball" "$tmp/first.tar.gz"
        make --no-print-directory dist DISTDIR="$tmp/dist" > "$tmp/out" 2>&1
        cmp -s "$ball" "$tmp/first.tar.gz" && ok "dist: the same bytes made twice" ||
            bad "dist: the same bytes made twice"
        tar tzf "$ball" | sed "s|^banyan-$v/||" | grep -v '/$' | grep -v '^$' | sort > "$tmp/listed"
        git ls-files -co --exclude-standard | while IFS= read -r f; do [ -e "$f" ] && echo "$f"; done |
            sort > "$tmp/files"
        cmp -s "$tmp/listed" "$tmp/files" && ok "dist: every file of the checkout, nothing else" ||
            { diff "$tmp/files" "$tmp/listed" > "$tmp/out"; bad "dist: every file of the checkout, nothing else"; }
        grep -Eq '^(build|tests/node/node_modules)/' "$tmp/listed" && bad "dist: no build outputs" ||
            ok "dist: no build outputs"
        mkdir "$tmp/unpacked"
        tar xzf "$ball" -C "$tmp/unpacked"
        (cd "$tmp/unpacked/banyan-$v" && make -j2 all > build.log 2>&1 && make check > check.log 2>&1)
        rc=$?
        last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/unpacked/banyan-$v/check.log" 2> /dev/null | tail -1)
        if [ $rc -eq 0 ] && echo "$last" | grep -Eq ' 0 failed'; then
            ok "dist: unpacked alone, it builds and passes make check ($last)"
        else
            tail -30 "$tmp/unpacked/banyan-$v/build.log" "$tmp/unpacked/banyan-$v/check.log" > "$tmp/out" 2>&1
            bad "dist: unpacked alone, it builds and passes make check (status $rc, '$last')"
        fi
    else
        bad "dist: make dist writes banyan-$v.tar.gz"
    fi
fi
