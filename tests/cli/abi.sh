# tests/cli/abi.sh - binary compatibility of the public structs (banyan.h,
# "Binary compatibility"). A caller (tests/extra/abi_caller.c) built against
# today's include/banyan.h runs against a library built from a copy of the
# headers in which banyan_config, banyan_limits and banyan_report each have a
# field appended, as a later version's would: the search must run and the
# caller's memory must be neither overrun nor read past (a guard after its
# report, and AddressSanitizer in caller and library where the compiler
# links it). The other way round, a caller built against the grown header
# gets BANYAN_EINVAL and a sentence from today's library. Both libraries
# are built -O0 in a temporary folder by the Makefile's own rules. Sourced
# by tests/run.sh.
abi=$tmp/abi
rm -rf "$abi"
mkdir -p "$abi/old" "$abi/new"
cp -r include "$abi/old/include"
cp -r include "$abi/new/include"
# The grown structs: 64 bytes more at the end of each.
sed -i -e 's/^} banyan_config;/    double abi_appended[8];\n} banyan_config;/' \
    -e 's/^} banyan_limits;/    double abi_appended[8];\n} banyan_limits;/' \
    -e '/^struct banyan_report {/,/^};/s/^};/    double abi_appended[8];\n};/' \
    "$abi/new/include/banyan.h"
abi_cc=${CC:-cc}
abi_san=
echo 'int main(void){return 0;}' | $abi_cc -fsanitize=address -x c - -o "$abi/probe" \
    > /dev/null 2>&1 && abi_san=-fsanitize=address
if [ "$(grep -c abi_appended "$abi/new/include/banyan.h")" -ne 3 ]; then
    bad "abi: the copy of banyan.h has a field appended to each of the three structs"
else
    # Each library by the Makefile's rules, with that copy of the headers.
    abi_ok=1
    for v in old new; do
        env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 CC="$abi_cc" \
            B="$abi/$v/b" OPT="-O0 $abi_san" INCS="-I$abi/$v/include -Isrc -Igames" \
            "$abi/$v/b/libbanyan.a" > "$abi/$v/log" 2>&1 || abi_ok=0
        # The caller, against each header.
        $abi_cc -std=c11 -O0 -g $abi_san -I"$abi/$v/include" -c tests/extra/abi_caller.c \
            -o "$abi/$v/caller.o" >> "$abi/$v/log" 2>&1 || abi_ok=0
    done
    if [ $abi_ok -eq 0 ]; then
        cat "$abi/old/log" "$abi/new/log" | tail -20
        bad "abi: the libraries and the caller build"
    else
        abi_link() { # caller's header, library's header
            $abi_cc $abi_san -pthread -o "$abi/run-$1-$2" "$abi/$1/caller.o" "$abi/$2/b/libbanyan.a" -lm
        }
        abi_link old old && abi_link old new && abi_link new old || bad "abi: the callers link"
        ASAN_OPTIONS=detect_leaks=0 "$abi/run-old-old" > "$abi/same" 2>&1
        ASAN_OPTIONS=detect_leaks=0 "$abi/run-old-new" > "$tmp/out" 2>&1; rc=$?
        [ $rc -eq 0 ] && ok "abi: an older caller runs with a library whose structs grew" ||
            { cat "$tmp/out" | tail -20; bad "abi: an older caller runs with a library whose structs grew (status $rc)"; }
        has "abi: its search ran" '^searched 2000 playouts, best [a-g], report size '
        grep '^searched' "$abi/same" > "$abi/same.line"
        grep -qxF -f "$abi/same.line" "$tmp/out" && ok "abi: it finds what it finds with its own library" ||
            bad "abi: it finds what it finds with its own library"
        ASAN_OPTIONS=detect_leaks=0 "$abi/run-new-old" > "$tmp/out" 2>&1; rc=$?
        [ $rc -eq 3 ] && ok "abi: a newer caller is refused by an older library" ||
            { cat "$tmp/out" | tail -20; bad "abi: a newer caller is refused by an older library (status $rc)"; }
        has "abi: the refusal says why" '^config refused: the config is larger than this library.s: the caller was built against a newer banyan.h$'
    fi
fi
