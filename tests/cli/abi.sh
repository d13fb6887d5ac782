# tests/cli/abi.sh - binary compatibility of the public structs (banyan.h,
# "Binary compatibility"; banyan_game.h, "A game table and each of its
# parts begin with their size"). A caller (tests/extra/abi_caller.c) built
# against today's headers runs against a library built from a copy of the
# headers in which banyan_config, banyan_limits, banyan_report, banyan_game
# and banyan_board each have a field appended, as a later version's would:
# the searches (one with a game table the caller made) must run and the
# caller's memory must be neither overrun nor read past (a guard after its
# report, its table and part on the heap, and AddressSanitizer in caller and
# library where the compiler links it). The other way round, a caller built
# against the grown headers gets BANYAN_EINVAL and a sentence from today's
# library, for its config and for its game table. Both libraries
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
sed -i -e 's/^} banyan_game;/    double abi_appended[8];\n} banyan_game;/' \
    -e 's/^} banyan_board;/    double abi_appended[8];\n} banyan_board;/' \
    "$abi/new/include/banyan_game.h"
abi_cc=${CC:-cc}
abi_san=
echo 'int main(void){return 0;}' | $abi_cc -fsanitize=address -x c - -o "$abi/probe" \
    > /dev/null 2>&1 && abi_san=-fsanitize=address
if [ "$(grep -c abi_appended "$abi/new/include/banyan.h")" -ne 3 ] ||
    [ "$(grep -c abi_appended "$abi/new/include/banyan_game.h")" -ne 2 ]; then
    bad "abi: the copies of the headers have a field appended to each of the five structs"
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
        has "abi: its game table is accepted" '^game table [0-9]* bytes, board part [0-9]*: accepted$'
        has "abi: a search with its game table ran" "^caller's table: searched 2000 playouts, best [a-g]\$"
        lib_line=$(grep "^library's table: " "$tmp/out" | sed 's/^library.s table/caller'"'"'s table/')
        [ -n "$lib_line" ] && grep -qxF "$lib_line" "$tmp/out" &&
            ok "abi: its game table plays as the library's own" ||
            bad "abi: its game table plays as the library's own"
        abi_found() { grep "^searched\|table: searched" "$1"; }
        [ -n "$(abi_found "$abi/same")" ] && [ "$(abi_found "$abi/same")" = "$(abi_found "$tmp/out")" ] &&
            ok "abi: it finds what it finds with its own library" ||
            bad "abi: it finds what it finds with its own library"
        ASAN_OPTIONS=detect_leaks=0 "$abi/run-new-old" > "$tmp/out" 2>&1; rc=$?
        [ $rc -eq 3 ] && ok "abi: a newer caller is refused by an older library" ||
            { cat "$tmp/out" | tail -20; bad "abi: a newer caller is refused by an older library (status $rc)"; }
        has "abi: the refusal says why" '^config refused: the config is larger than this library.s: the caller was built against a newer banyan.h$'
        has "abi: a newer game table is refused with a sentence" '^game table [0-9]* bytes, board part [0-9]*: the game table is larger than this library.s: the game was built against a newer banyan_game.h$'
    fi
fi
