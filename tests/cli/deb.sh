# tests/cli/deb.sh - the Debian packages (debian/, docs/PACKAGING.md): a copy
# of the tree built by `dpkg-buildpackage -us -uc -b` (without its own tests,
# which the suite runs already) into banyan, libbanyan0, libbanyan-dev and
# python3-banyan, with what each must hold; debian/changelog's version the
# one of include/banyan.h; the symbols file up to date; lintian without an
# error. Then, as root, the packages installed on this machine: the program
# and pbrain-banyan, the manual page rendered, planner.c built with
# pkg-config against libbanyan-dev (the shared library, then statically),
# the Python package imported from dist-packages outside the tree; then
# purged, and every file they installed gone. Sourced by tests/run.sh; in the
# slow tier (a build of the whole tree: about a minute on two cores).
deb_pkgs="banyan libbanyan0 libbanyan-dev python3-banyan"
deb_v=$(header_version)
if case "$B" in *san-*) true ;; *) false ;; esac; then
    echo "SKIPPED: Debian packages in a sanitizer build: the packages do not depend on the" \
        "build (the release pass builds them)"
elif [ -n "${BANYAN_DEB_BUILD:-}" ]; then
    echo "SKIPPED: Debian packages: this is a package's own build (debian/rules' tests)"
elif ! command -v dpkg-buildpackage > /dev/null 2>&1 || ! command -v dh > /dev/null 2>&1 ||
    ! command -v dh_python3 > /dev/null 2>&1 || ! command -v lintian > /dev/null 2>&1; then
    echo "SKIPPED: Debian packages: dpkg-buildpackage, debhelper, dh-python and lintian are" \
        "needed (apt-get install dpkg-dev debhelper dh-python lintian)"
elif ! dpkg-checkbuilddeps > "$tmp/out" 2>&1; then
    echo "SKIPPED: Debian packages: the build dependencies are missing:" \
        "$(sed -n 's/.*Unmet build dependencies: //p' "$tmp/out") (apt-get install them)"
else
    # The version, said once: debian/changelog's newest entry is include/banyan.h's.
    deb_cv=$(dpkg-parsechangelog -S Version 2> /dev/null)
    [ -n "$deb_v" ] && [ "$deb_cv" = "$deb_v" ] &&
        ok "deb: debian/changelog's version is include/banyan.h's ($deb_v)" ||
        { rm -f "$tmp/out"; bad "deb: debian/changelog's version ('$deb_cv') is include/banyan.h's ('$deb_v'): dch -v $deb_v (docs/PACKAGING.md)"; }

    # A copy of the tree: the checkout's files (tracked, and untracked but
    # not ignored), or, outside a checkout, everything but the builds.
    deb_dir=$tmp/deb
    deb_src=$deb_dir/banyan-$deb_v
    mkdir -p "$deb_src"
    if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
        git ls-files -co --exclude-standard | while IFS= read -r f; do [ -e "$f" ] && echo "$f"; done |
            tar -cf - -T - | tar -xf - -C "$deb_src"
    else
        tar -cf - --exclude=./build --exclude=./tests/node/node_modules . | tar -xf - -C "$deb_src"
    fi
    deb_arch=$(dpkg-architecture -qDEB_HOST_ARCH)
    deb_ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
    # The flags and make's jobs of a surrounding build stay out of it.
    (cd "$deb_src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u CPPFLAGS -u LDFLAGS \
        DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b) > "$deb_dir/build.log" 2>&1
    deb_rc=$?
    deb_files=
    for p in $deb_pkgs; do deb_files="$deb_files $deb_dir/${p}_${deb_v}_$deb_arch.deb"; done
    deb_missing=$(for f in $deb_files; do [ -f "$f" ] || printf ' %s' "$(basename "$f")"; done)
    if [ $deb_rc -ne 0 ] || [ -n "$deb_missing" ]; then
        tail -15 "$deb_dir/build.log" > "$tmp/out"
        bad "deb: dpkg-buildpackage -us -uc -b builds $deb_pkgs (status $deb_rc; missing:$deb_missing)"
    else
        ok "deb: dpkg-buildpackage -us -uc -b builds $deb_pkgs"
        # dpkg-gensymbols warns when the library's symbols are not those
        # debian/libbanyan0.symbols lists (a new one: add it with the version
        # that brings it; a removed one breaks the ABI: a new SONAME).
        sed -n '/dpkg-gensymbols: warning/,/^ *dh_shlibdeps/p' "$deb_dir/build.log" > "$tmp/out"
        [ ! -s "$tmp/out" ] && ok "deb: debian/libbanyan0.symbols lists the library's symbols" ||
            bad "deb: debian/libbanyan0.symbols lists the library's symbols"
        lintian --fail-on error "$deb_dir/banyan_${deb_v}_$deb_arch.changes" > "$tmp/out" 2>&1 &&
            ok "deb: lintian finds no error" || bad "deb: lintian finds no error"

        # What each package holds.
        deb_holds() { # PACKAGE PATH...: the package's archive lists each path
            local p=$1 f miss=
            shift
            dpkg-deb -c "$deb_dir/${p}_${deb_v}_$deb_arch.deb" | awk '{ print $6 }' | sed 's|^\.||' > "$tmp/list"
            for f in "$@"; do grep -qxF "$f" "$tmp/list" || miss="$miss $f"; done
            cp "$tmp/list" "$tmp/out"
            [ -z "$miss" ] && ok "deb: $p holds $*" || bad "deb: $p holds $* (missing:$miss)"
        }
        deb_holds banyan /usr/bin/banyan /usr/bin/pbrain-banyan /usr/share/man/man1/banyan.1.gz \
            /usr/share/man/man1/pbrain-banyan.1.gz /usr/share/doc/banyan/README.md.gz
        deb_holds libbanyan0 "/usr/lib/$deb_ma/libbanyan.so.$deb_v" "/usr/lib/$deb_ma/libbanyan.so.${deb_v%%.*}"
        deb_holds libbanyan-dev /usr/include/banyan.h /usr/include/banyan_game.h \
            "/usr/lib/$deb_ma/libbanyan.a" "/usr/lib/$deb_ma/libbanyan.so" \
            "/usr/lib/$deb_ma/pkgconfig/banyan.pc" /usr/share/doc/libbanyan-dev/examples/planner.c
        deb_holds python3-banyan /usr/lib/python3/dist-packages/banyan/__init__.py \
            /usr/lib/python3/dist-packages/banyan/_installed.py
        dpkg-deb -f "$deb_dir/libbanyan-dev_${deb_v}_$deb_arch.deb" Depends > "$tmp/out"
        has "deb: libbanyan-dev depends on this very libbanyan0" "libbanyan0 \(= $deb_v\)"
        dpkg-deb -f "$deb_dir/python3-banyan_${deb_v}_$deb_arch.deb" Depends > "$tmp/out"
        has "deb: python3-banyan depends on this very libbanyan0" "libbanyan0 \(= $deb_v\)"
        dpkg-deb -f "$deb_dir/banyan_${deb_v}_$deb_arch.deb" Depends > "$tmp/out"
        grep -q 'mpi' "$tmp/out" && bad "deb: banyan does not pull in MPI" || ok "deb: banyan does not pull in MPI"

        # Installed for real (root only), then purged. Never over packages
        # already installed, nor beside a `make install` into /usr or
        # /usr/local, whose files would be overwritten, or found first.
        deb_have=$(for p in $deb_pkgs; do
            dpkg-query -W -f '${db:Status-Status}' "$p" 2> /dev/null | grep -qv '^not-installed$' && echo "$p"; done)
        deb_stray=$(for f in /usr/bin/banyan /usr/include/banyan.h /usr/lib/python3/dist-packages/banyan \
            /usr/local/lib/libbanyan.so.0 /usr/local/lib/pkgconfig/banyan.pc \
            /usr/local/lib/python3*/dist-packages/banyan; do
            [ -e "$f" ] && ! dpkg -S "$f" > /dev/null 2>&1 && echo "$f"; done)
        if [ "$(id -u)" != 0 ]; then
            echo "SKIPPED: deb: installing the packages needs root"
        elif ! command -v apt-get > /dev/null 2>&1; then
            echo "SKIPPED: deb: installing the packages needs apt-get"
        elif [ -n "$deb_have" ]; then
            echo "SKIPPED: deb: installing the packages:" $deb_have "already installed (the test" \
                "would remove them)"
        elif [ -n "$deb_stray" ]; then
            echo "SKIPPED: deb: installing the packages:" $deb_stray "exist, from no package" \
                "(make uninstall PREFIX=... removes a make install's files)"
        else
            deb_apt() { DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=300 "$@"; }
            deb_apt install --no-install-recommends $deb_files > "$tmp/out" 2>&1
            deb_rc=$?
            for p in $deb_pkgs; do dpkg -L "$p" 2> /dev/null; done | sort -u > "$deb_dir/installed"
            [ $deb_rc -eq 0 ] && ok "deb: apt-get installs the four packages" ||
                bad "deb: apt-get installs the four packages (status $deb_rc)"
            if [ $deb_rc -eq 0 ]; then
                check "deb: the installed banyan --version" /usr/bin/banyan --version
                has "deb: the installed banyan is version $deb_v" "^banyan $deb_v "
                has "deb: the installed banyan has OpenBLAS" '^networks: OpenBLAS'
                has "deb: the installed banyan has the web board" '^web board: libmicrohttpd'
                check "deb: the installed banyan analyzes" /usr/bin/banyan analyze --game connect4 \
                    --position 445566 --playouts 2000
                head -1 "$tmp/out" | grep -Eq '^bestmove [cg]$' &&
                    ok "deb: the installed banyan finds the winning move" ||
                    bad "deb: the installed banyan finds the winning move"
                printf 'START 15\nINFO timeout_turn 500\nBEGIN\nEND\n' |
                    timeout 60 /usr/bin/pbrain-banyan > "$tmp/out" 2>&1
                deb_rc=$?
                [ $deb_rc -eq 0 ] && [ "$(sed -n 1p "$tmp/out")" = OK ] &&
                    grep -Eq '^[0-9]+,[0-9]+$' "$tmp/out" &&
                    ok "deb: pbrain-banyan answers START and BEGIN, and ends on END" ||
                    bad "deb: pbrain-banyan answers START and BEGIN, and ends on END (status $deb_rc)"

                deb_page=/usr/share/man/man1/banyan.1.gz
                if ! command -v man > /dev/null 2>&1; then
                    echo "SKIPPED: deb: the installed manual page: man is not installed (apt-get install man-db)"
                elif [ ! -f "$deb_page" ] && grep -qs 'path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
                    echo "SKIPPED: deb: the installed manual page: dpkg leaves out /usr/share/man here" \
                        "(/etc/dpkg/dpkg.cfg.d)"
                else
                    MANWIDTH=100 man --warnings -E UTF-8 -l "$deb_page" 2>&1 > /dev/null | head -20 > "$tmp/out"
                    [ -f "$deb_page" ] && [ ! -s "$tmp/out" ] &&
                        ok "deb: man -l renders the installed page without a warning" ||
                        bad "deb: man -l renders the installed page without a warning"
                    for deb_name in banyan pbrain-banyan; do
                        MANWIDTH=100 MANPAGER=cat man -E UTF-8 1 "$deb_name" > "$tmp/out" 2>&1
                        has "deb: man $deb_name shows the installed page" '^BANYAN\(1\)'
                    done
                fi

                # The example against the installed library, by pkg-config's
                # own search (no PKG_CONFIG_PATH): shared, then static.
                deb_pc() { env -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR -u PKG_CONFIG_SYSROOT_DIR pkg-config "$@"; }
                deb_ex=/usr/share/doc/libbanyan-dev/examples/planner.c
                deb_pc --variable=libdir banyan > "$tmp/out" 2>&1
                has "deb: pkg-config finds banyan.pc in /usr/lib/$deb_ma" "^/usr/lib/$deb_ma\$"
                check "deb: planner.c builds with pkg-config --cflags --libs banyan" \
                    cc "$deb_ex" $(deb_pc --cflags --libs banyan) -o "$deb_dir/planner"
                # /lib is /usr/lib where /usr is merged.
                ldd "$deb_dir/planner" > "$tmp/out" 2>&1
                has "deb: the example loads the packaged libbanyan.so.0" \
                    "libbanyan\.so\.0 => (/usr)?/lib/$deb_ma/libbanyan\.so\.0 "
                ldconfig -p > "$tmp/out" 2>&1
                has "deb: the loader's cache has the packaged libbanyan.so.0" \
                    "libbanyan\.so\.0 .*=> (/usr)?/lib/$deb_ma/libbanyan\.so\.0\$"
                "$deb_dir/planner" > "$tmp/out" 2>&1
                has "deb: the example finds the optimum on the shared library" \
                    'value ([0-9]+) .* the optimum is \1$'
                check "deb: planner.c builds statically with pkg-config --static" \
                    cc -static "$deb_ex" $(deb_pc --static --cflags --libs banyan) -o "$deb_dir/planner-static"
                readelf -d "$deb_dir/planner-static" > "$tmp/out" 2>&1
                grep -q 'NEEDED' "$tmp/out" && bad "deb: the static example needs no shared library" ||
                    ok "deb: the static example needs no shared library"
                "$deb_dir/planner-static" > "$tmp/out" 2>&1
                has "deb: the static example finds the optimum" 'value ([0-9]+) .* the optimum is \1$'

                # The Python package as a user meets it: the system's python3,
                # isolated (-I: no PYTHONPATH, no user site, not the working
                # folder), started outside the tree.
                mkdir -p "$deb_dir/elsewhere"
                (cd "$deb_dir/elsewhere" && env -u BANYAN_LIBRARY /usr/bin/python3 -I -B -c '
import sys
import banyan
v, ma = sys.argv[1:]
assert banyan.__file__ == "/usr/lib/python3/dist-packages/banyan/__init__.py", banyan.__file__
assert banyan.library_path() == f"/usr/lib/{ma}/libbanyan.so.{v}", banyan.library_path()
assert banyan.version() == v, banyan.version()
with banyan.Engine("connect4", memory="16M", seed=1) as e:
    a = e.analyze("4453", playouts=2000)
    assert a.playouts == 2000 and a.best in "abcdefg", a
print("python3-banyan searches:", banyan.__file__, banyan.library_path())' "$deb_v" "$deb_ma") \
                    > "$tmp/out" 2>&1
                has "deb: /usr/bin/python3 imports banyan from dist-packages, which searches on the packaged library" \
                    '^python3-banyan searches: '
            fi

            deb_apt purge $deb_pkgs > "$tmp/out" 2>&1
            deb_rc=$?
            deb_left=$(for p in $deb_pkgs; do
                dpkg-query -W -f '${db:Status-Status}' "$p" 2> /dev/null | grep -qv '^not-installed$' &&
                    printf ' %s' "$p"; done)
            [ $deb_rc -eq 0 ] && [ -z "$deb_left" ] && ok "deb: apt-get purge removes the four packages" ||
                bad "deb: apt-get purge removes the four packages (status $deb_rc; left:$deb_left)"
            # Every file the packages installed is gone; a folder may stay
            # where another package has it too.
            [ -s "$deb_dir/installed" ] && deb_left=$(while IFS= read -r f; do
                if [ -L "$f" ] || [ -f "$f" ]; then echo "$f"
                elif [ "$f" != /. ] && [ -d "$f" ] && ! dpkg -S "$f" > /dev/null 2>&1; then echo "$f"; fi
            done < "$deb_dir/installed") || deb_left="(dpkg -L listed nothing)"
            echo "$deb_left" > "$tmp/out"
            [ -z "$deb_left" ] && ok "deb: every file the packages installed is gone" ||
                bad "deb: every file the packages installed is gone"
            (cd "$deb_dir/elsewhere" && /usr/bin/python3 -I -B -c 'import banyan') > /dev/null 2>&1 &&
                bad "deb: after the purge, python3 imports no banyan" ||
                ok "deb: after the purge, python3 imports no banyan"
            ldconfig -p | grep -E "=> (/usr)?/lib/$deb_ma/libbanyan" > "$tmp/out"
            [ ! -s "$tmp/out" ] && ok "deb: after the purge, the loader's cache has no libbanyan" ||
                bad "deb: after the purge, the loader's cache has no libbanyan"
        fi
    fi
fi
