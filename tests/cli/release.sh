# tests/cli/release.sh - the version is said in one place, BANYAN_VERSION in
# include/banyan.h, and everything that names it reads it there: the
# library (banyan_version), the program's --version, the shared library's
# file name and SONAME, the manual page, the Python package, the Debian
# changelog and CHANGELOG.md's newest entry. Sourced by tests/run.sh.
v=$(header_version)
if ! echo "$v" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+$'; then
    bad "release: include/banyan.h says a version MAJOR.MINOR.PATCH ('$v')"
else
    ok "release: include/banyan.h says version $v"
    "$BANYAN" --version > "$tmp/out" 2>&1
    has "release: banyan --version says $v" "^banyan $v "
    so=$B/libbanyan.so.$v
    if [ ! -f "$so" ]; then
        bad "release: the shared library is $so"
    elif ! command -v readelf > /dev/null 2>&1; then
        echo "SKIPPED: release: the SONAME: readelf is not installed (apt-get install binutils)"
    else
        readelf -d "$so" > "$tmp/out" 2>&1
        has "release: the SONAME is libbanyan.so.${v%%.*}" "\(SONAME\).*\[libbanyan\.so\.${v%%.*}\]"
    fi
    grep -q "^\.TH BANYAN 1 .* \"banyan $v\"" "$B/man/banyan.1" 2> /dev/null &&
        ok "release: the manual page says $v" || bad "release: the manual page says $v"
    # The newest release's entry, below the changes not yet released.
    first=$(grep '^## \[' CHANGELOG.md | grep -v -m1 '^## \[Unreleased\]')
    case $first in "## [$v] - "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*) ok "release: CHANGELOG.md's newest entry is $v" ;;
    *) bad "release: CHANGELOG.md's newest entry is $v, dated ('$first')" ;; esac
    if [ -f debian/changelog ]; then
        d=$(sed -n '1s/^banyan (\([^)]*\)).*/\1/p' debian/changelog)
        [ "$d" = "$v" ] && ok "release: debian/changelog's newest entry is $v" ||
            bad "release: debian/changelog's newest entry is $v (it says '$d')"
    fi
    if ! command -v python3 > /dev/null 2>&1; then
        echo "SKIPPED: release: the Python package's version: python3 is not installed (apt-get install python3)"
    elif case "$B" in *san-*) true ;; *) false ;; esac; then
        echo "SKIPPED: release: the Python package's version in a sanitizer build: python3 would" \
            "need the sanitizer's runtime preloaded (the release pass checks it)"
    else
        pv=$(cd python && BANYAN_LIBRARY="$OLDPWD/$B/libbanyan.so.0" python3 -c \
            'import banyan; print(banyan.__version__)' 2>&1)
        [ "$pv" = "$v" ] && ok "release: the Python package's __version__ is $v" ||
            bad "release: the Python package's __version__ is $v (it says '$pv')"
    fi
fi
