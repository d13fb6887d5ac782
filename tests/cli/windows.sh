# tests/cli/windows.sh - the Windows build (make windows, docs/WINDOWS.md),
# cross-compiled with mingw-w64 and run under Wine: the build warning-free
# and linked against Windows' own DLLs only, the DLL's exports, the zip's
# files, then from the unpacked zip a Gomocup session as Piskvork runs it
# (each answer timed against the protocol's limits), GTP and `play` sessions
# answered as the native program answers them, a referee with a GTP program
# and a Gomocup brain as child processes, and programs of one's own built
# against the DLL and the static library. Sourced by tests/run.sh (ok, bad,
# check, has; B, BANYAN, tmp), so it must not exit. Needs
# x86_64-w64-mingw32-gcc-posix and zip for the build, wine and unzip (or
# python3) for the rest; each missing tool skips what needs it.

WIN=build/windows
win_version=$(header_version)
win_zip=$WIN/banyan-$win_version-windows-x86_64.zip

# win_run COMMAND...: runs a Windows program under Wine, in a prefix kept in
# build/windows/wine (made once, which takes Wine some seconds), without a
# display and without the dialogs that offer Mono and Gecko.
WIN_ENV=(WINEPREFIX="$PWD/$WIN/wine" WINEARCH=win64 WINEDEBUG=-all DISPLAY=
    WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d")
win_run() { env "${WIN_ENV[@]}" wine "$@"; }

# win_ms: the time now in milliseconds.
win_ms() { local t=${EPOCHREALTIME/./}; echo $((${t%???})); }

# win_unzip ZIP DIR: unpacks ZIP into DIR (unzip, else python3's zipfile).
win_unzip() {
    if command -v unzip > /dev/null 2>&1; then unzip -q "$1" -d "$2"; else
        python3 -m zipfile -e "$1" "$2"; fi
}
# win_list ZIP: the zip's file names, one a line, sorted.
win_list() {
    if command -v unzip > /dev/null 2>&1; then unzip -Z1 "$1"; else
        python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' \
            "$1"; fi | grep -v '/$' | sort
}

# ---- the Gomocup session ----
# The brain runs as a coprocess; win_send writes a line as Piskvork does
# (CR LF), win_answer reads its next answer (skipping MESSAGE and DEBUG
# lines) into win_got and the milliseconds it took since the last line
# sent into win_took. win_stones holds the points played, " X,Y " each.
win_send() { printf '%s\r\n' "$1" >&"${WIN_BRAIN[1]}"; win_sent=$(win_ms); }
win_answer() {
    win_got=
    while IFS= read -r -t "${1:-30}" win_got <&"${WIN_BRAIN[0]}"; do
        win_got=${win_got%$'\r'}
        echo "$win_got" >> "$tmp/brain"
        case $win_got in MESSAGE* | DEBUG* | "") win_got= ;; *) break ;; esac
    done
    win_took=$(($(win_ms) - win_sent))
}
# win_point TEXT: whether TEXT is a point X,Y of the 15x15 board not played.
win_point() {
    [[ $1 =~ ^([0-9]+),([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -lt 15 ] &&
        [ "${BASH_REMATCH[2]}" -lt 15 ] && [[ $win_stones != *" $1 "* ]]
}
# win_move NAME LIMIT_MS: the answer is a free point, within LIMIT_MS.
win_move() {
    echo "$1: \"$win_got\" after $win_took ms (limit $2 ms)" > "$tmp/out"
    if win_point "$win_got" && [ "$win_took" -le "$2" ]; then
        ok "$1"; win_stones+=" $win_got "
    else bad "$1"; fi
}

win_gomocup() {
    local dir=$1 exe=$2 turn=1000 tol=1000 left=600 t i s
    # The tolerance on each limit is the Gomocup judge's (1000 ms): what
    # the pipes, Wine and a loaded machine add to the brain's own timing.
    # A brain that dies makes a write fail, not this shell end.
    : > "$tmp/brain"
    trap '' PIPE
    coproc WIN_BRAIN { cd "$dir" && exec env "${WIN_ENV[@]}" wine "./$exe" 2> /dev/null; }
    # Kept now: bash unsets WIN_BRAIN_PID once the brain has exited.
    local brain_pid=$WIN_BRAIN_PID
    win_send "START 15"
    win_answer 60
    echo "START 15: \"$win_got\"" > "$tmp/out"
    if [ "$win_got" != OK ]; then
        bad "windows: gomocup: $exe starts (START 15 answered OK)"
        kill "$brain_pid" 2> /dev/null
        trap - PIPE
        return
    fi
    ok "windows: gomocup: $exe starts (START 15 answered OK)"
    win_send "ABOUT"
    win_answer
    echo "ABOUT: \"$win_got\"" > "$tmp/out"
    case $win_got in *'name="'*version=\"$win_version\"*) ok "windows: gomocup: ABOUT" ;;
    *) bad "windows: gomocup: ABOUT" ;; esac
    for i in "timeout_turn $turn" "timeout_match 120000" "time_left 120000" \
        "max_memory 83886080" "rule 1" "game_type 1"; do
        win_send "INFO $i"
    done
    win_stones=
    win_send "BEGIN"
    win_answer
    win_move "windows: gomocup: BEGIN answered within timeout_turn" $((turn + tol))
    # The opponent's stones: free points near the centre.
    for t in 1 2; do
        for s in 7,8 8,8 6,7 8,6 6,6 9,9 5,5 9,7 7,9; do
            [[ $win_stones == *" $s "* ]] || break
        done
        win_stones+=" $s "
        win_send "TURN $s"
        win_answer
        win_move "windows: gomocup: TURN $t answered within timeout_turn" $((turn + tol))
    done
    win_send "RESTART"
    win_answer
    echo "RESTART: \"$win_got\"" > "$tmp/out"
    if [ "$win_got" = OK ]; then ok "windows: gomocup: RESTART"; else bad "windows: gomocup: RESTART"; fi
    win_stones=" 7,7  8,8  7,8 "
    win_send "BOARD"
    for s in 7,7,2 8,8,1 7,8,2 DONE; do win_send "$s"; done
    win_answer
    win_move "windows: gomocup: BOARD ... DONE answered within timeout_turn" $((turn + tol))
    # Little time left in the match: the answer must come within it.
    win_send "INFO time_left $left"
    win_send "TURN 6,7"
    win_stones+=" 6,7 "
    win_answer
    win_move "windows: gomocup: with time_left $left, TURN answered within it" $((left + tol))
    # Swap2: the opening's three stones, then the choice after three.
    win_send "INFO time_left 120000"
    win_send "RESTART"
    win_answer
    win_stones=
    win_send "SWAP2BOARD"
    win_send "DONE"
    win_answer
    echo "SWAP2BOARD (no stones): \"$win_got\" after $win_took ms" > "$tmp/out"
    local n=0 p
    for p in $win_got; do win_point "$p" && n=$((n + 1)) && win_stones+=" $p "; done
    if [ "$n" -eq 3 ] && [ "$(echo "$win_got" | wc -w)" -eq 3 ] && [ "$win_took" -le $((turn + tol)) ]; then
        ok "windows: gomocup: SWAP2BOARD: three stones within timeout_turn"
    else bad "windows: gomocup: SWAP2BOARD: three stones within timeout_turn"; fi
    win_send "RESTART"
    win_answer
    win_stones=" 7,7  8,7  6,8 "
    win_send "SWAP2BOARD"
    for s in 7,7 8,7 6,8 DONE; do win_send "$s"; done
    win_answer
    echo "SWAP2BOARD (3 stones): \"$win_got\" after $win_took ms" > "$tmp/out"
    if { [ "$win_got" = SWAP ] || win_point "$win_got"; } && [ "$win_took" -le $((turn + tol)) ]; then
        ok "windows: gomocup: SWAP2BOARD after 3 stones: SWAP or a free point, within timeout_turn"
    else bad "windows: gomocup: SWAP2BOARD after 3 stones: SWAP or a free point, within timeout_turn"; fi
    # END: the brain leaves at once.
    win_send "END"
    local pid=$brain_pid
    for i in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2> /dev/null; then
        cp "$tmp/brain" "$tmp/out"
        bad "windows: gomocup: END ends the brain"
        kill "$pid" 2> /dev/null
    else ok "windows: gomocup: END ends the brain"; fi
    trap - PIPE
}

# A program of one's own on the library: Tic-tac-toe's table (data the DLL
# exports) searched on one thread, and Connect Four found by name searched
# on two (winpthreads inside the library).
win_caller() {
    cat << 'CEOF'
#include <stdio.h>

#include "banyan.h"
#include "banyan_game.h"

static int search(const banyan_game *g, int threads, unsigned long long playouts)
{
    banyan_config cfg = BANYAN_CONFIG(.seed = 5, .threads = threads, .memory = 32 << 20);
    banyan_limits lim = BANYAN_LIMITS(.playouts = playouts);
    banyan_report rep = BANYAN_REPORT();
    banyan_engine *e;
    char move[16] = "?";
    if (!g || banyan_engine_new(g, threads > 1 ? "book=off" : "", &cfg, &e) != BANYAN_OK)
        return 1;
    if (banyan_engine_search(e, &lim, &rep) != BANYAN_OK) {
        printf("search refused: %s\n", banyan_errmsg(e));
        banyan_engine_free(e);
        return 1;
    }
    banyan_game_format(g, banyan_engine_state(e), rep.best, 0, move, sizeof move);
    if (threads == 1)
        printf("%s: %llu playouts, best %s, value %.4f\n", g->name,
               (unsigned long long)rep.playouts, move, rep.value);
    else
        printf("%s on %d threads: %s\n", g->name, threads,
               rep.playouts >= playouts ? "searched" : "cut short");
    banyan_engine_free(e);
    return 0;
}

int main(void)
{
    printf("library %s\n", banyan_version());
    return search(&banyan_game_tictactoe, 1, 3000) || search(banyan_game_find("connect4"), 2, 20000);
}
CEOF
}

if case "$B" in *san-*) true ;; *) false ;; esac; then
    echo "SKIPPED: the Windows build in a sanitizer build: it is built and tested once" \
        "(the release pass runs it)"
elif ! command -v x86_64-w64-mingw32-gcc-posix > /dev/null 2>&1 || ! command -v zip > /dev/null 2>&1; then
    echo "SKIPPED: the Windows build: no mingw-w64 cross compiler or zip" \
        "(apt-get install gcc-mingw-w64-x86-64-posix zip)"
else
    # The build: warning-free, the programs and the DLL needing only DLLs
    # of Windows itself, the DLL exporting what libbanyan.so does.
    check "windows: make windows builds" make --no-print-directory -j2 WERROR=1 windows
    for win_f in banyan.exe pbrain-banyan64.exe banyan.dll; do
        x86_64-w64-mingw32-objdump -p "$WIN/$win_f" | sed -n 's/^\tDLL Name: //p' > "$tmp/out"
        if [ -s "$tmp/out" ] && ! grep -qviE '^(kernel32|msvcrt|advapi32|user32|ws2_32|ntdll)\.dll$' \
            "$tmp/out"; then ok "windows: $win_f needs only Windows' own DLLs"; else
            bad "windows: $win_f needs only Windows' own DLLs"; fi
    done
    x86_64-w64-mingw32-objdump -p "$WIN/banyan.dll" |
        sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' | awk '/\[/ && NR > 1 { print $NF }' |
        sort > "$tmp/dll-exports"
    if [ -e "$B/libbanyan.so" ]; then
        nm -D --defined-only "$B/libbanyan.so" | awk '$3 ~ /^banyan_/ { print $3 }' |
            sort > "$tmp/so-exports"
        diff "$tmp/so-exports" "$tmp/dll-exports" > "$tmp/out"
        if [ -s "$tmp/dll-exports" ] && [ ! -s "$tmp/out" ]; then
            ok "windows: banyan.dll exports what libbanyan.so does ($(wc -l < "$tmp/dll-exports") names)"
        else bad "windows: banyan.dll exports what libbanyan.so does"; fi
    else
        echo "SKIPPED: windows: the DLL's exports against libbanyan.so: $B has none"
    fi
    if cmp -s "$WIN/pbrain-banyan.exe" "$WIN/banyan.exe" &&
        cmp -s "$WIN/pbrain-banyan64.exe" "$WIN/banyan.exe"; then
        ok "windows: pbrain-banyan.exe and pbrain-banyan64.exe are banyan.exe"
    else bad "windows: pbrain-banyan.exe and pbrain-banyan64.exe are banyan.exe"; fi

    # The zip.
    printf '%s\n' LICENSE README.md WINDOWS.md banyan.dll banyan.exe include/banyan.h \
        include/banyan_game.h lib/banyan.def lib/libbanyan.a lib/libbanyan.dll.a \
        pbrain-banyan64.exe | sort > "$tmp/want"
    win_list "$win_zip" > "$tmp/got" 2> /dev/null
    diff "$tmp/want" "$tmp/got" > "$tmp/out"
    if [ -s "$tmp/got" ] && [ ! -s "$tmp/out" ]; then ok "windows: the zip holds the release's files"
    else bad "windows: the zip holds the release's files"; fi
    win_pkg=$tmp/pkg
    mkdir -p "$win_pkg"
    win_unzip "$win_zip" "$win_pkg" > /dev/null 2>&1

    # Programs of one's own, built against the zip's headers and libraries.
    win_caller > "$tmp/caller.c"
    check "windows: a program built against the DLL's import library" \
        x86_64-w64-mingw32-gcc-posix -std=c11 -Wall -Wextra -Werror -I"$win_pkg/include" \
        -o "$win_pkg/caller-dll.exe" "$tmp/caller.c" -L"$win_pkg/lib" -lbanyan.dll
    check "windows: a program built against the static library" \
        x86_64-w64-mingw32-gcc-posix -std=c11 -Wall -Wextra -Werror -I"$win_pkg/include" -static \
        -o "$win_pkg/caller-static.exe" "$tmp/caller.c" "$win_pkg/lib/libbanyan.a" -pthread
    x86_64-w64-mingw32-objdump -p "$win_pkg/caller-dll.exe" 2> /dev/null > "$tmp/out"
    has "windows: the first one takes the library from banyan.dll" 'DLL Name: banyan.dll'

    if ! command -v wine > /dev/null 2>&1; then
        echo "SKIPPED: windows: the programs under Wine: wine is not installed" \
            "(apt-get install wine wine64)"
    elif ! command -v unzip > /dev/null 2>&1 && ! command -v python3 > /dev/null 2>&1; then
        echo "SKIPPED: windows: the programs under Wine: nothing unpacks the zip" \
            "(apt-get install unzip)"
    else
        [ -e "$WIN/wine/system.reg" ] || win_run wineboot --init > /dev/null 2>&1
        # A program that reads a fifo held open by a sleep keeps Wine's
        # server up for the whole test: one left without programs ends a few
        # seconds later, and a program starting at that moment fails to reach
        # it. (Wine's own services, which the first program starts, inherit
        # its descriptors: it has no others.)
        mkfifo "$tmp/hold"
        sleep 900 > "$tmp/hold" &
        win_sleep=$!
        win_run "$WIN/banyan.exe" gtp --game tictactoe < "$tmp/hold" > /dev/null 2>&1 &
        win_hold=$!
        win_run "$win_pkg/banyan.exe" --version > "$tmp/out" 2>&1
        has "windows: banyan.exe --version" "^banyan $win_version \(x86_64-w64-mingw32"

        # The embedding programs under Wine, against the same program built
        # natively on the same library.
        if cc -std=c11 -Iinclude -o "$tmp/caller" "$tmp/caller.c" "$B/libbanyan.a" -pthread -lm \
            2> /dev/null; then
            "$tmp/caller" > "$tmp/caller.want"
            for win_k in dll static; do
                # (The program's stdout is in text mode: its lines end in CR LF.)
                (cd "$win_pkg" && win_run "./caller-$win_k.exe") 2>&1 | tr -d '\r' > "$tmp/out"
                if cmp -s "$tmp/out" "$tmp/caller.want" && grep -q '^connect4 on 2 threads: searched' \
                    "$tmp/out"; then ok "windows: the program built against the $win_k library searches"
                else bad "windows: the program built against the $win_k library searches"; fi
            done
        else
            echo "SKIPPED: windows: the embedding programs: cc cannot build the native one"
        fi

        # A Gomocup session as Piskvork runs it, with the zip's brain.
        win_gomocup "$win_pkg" pbrain-banyan64.exe
        printf 'START 15\r\nEND\r\n' | win_run "$WIN/pbrain-banyan.exe" > "$tmp/out" 2>&1
        if [ "$(tr -d '\r' < "$tmp/out")" = OK ]; then ok "windows: pbrain-banyan.exe is a brain too"
        else bad "windows: pbrain-banyan.exe is a brain too"; fi

        # GTP and play: the same answers as the native program's.
        # (printsgf's record is made in memory; its date and times are left out.)
        printf '%s\n' name version protocol_version 'boardsize 9' clear_board 'komi 7' 'play b e5' \
            'genmove w' 'play b c3' 'genmove w' showboard printsgf undo final_score quit > "$tmp/gtp.in"
        "$BANYAN" gtp --game go --playouts 300 < "$tmp/gtp.in" 2>&1 |
            sed 's/\(DT\|XT\)\[[^]]*\]//g' > "$tmp/gtp.want"
        (cd "$win_pkg" && win_run ./banyan.exe gtp --game go --playouts 300) < "$tmp/gtp.in" 2>&1 |
            sed 's/\(DT\|XT\)\[[^]]*\]//g' > "$tmp/out"
        if cmp -s "$tmp/out" "$tmp/gtp.want" && grep -q '^= [A-HJ-T][0-9]' "$tmp/out" &&
            grep -q ';W\[' "$tmp/out"; then
            ok "windows: a GTP session of Go, answered as natively"
        else
            diff "$tmp/gtp.want" "$tmp/out" > "$tmp/diff"; mv "$tmp/diff" "$tmp/out"
            bad "windows: a GTP session of Go, answered as natively"
        fi
        printf 'd\nd\nc\ne\nundo\nf\nd\n' > "$tmp/play.in"
        "$BANYAN" play connect4 --playouts 300 --no-ponder < "$tmp/play.in" 2>&1 |
            sed 's/, [0-9.]* s[,)]/, T)/' > "$tmp/play.want"
        (cd "$win_pkg" && win_run ./banyan.exe play connect4 --playouts 300 --no-ponder) \
            < "$tmp/play.in" > "$tmp/play.got" 2>&1
        win_rc=$?
        sed 's/, [0-9.]* s[,)]/, T)/' "$tmp/play.got" > "$tmp/out"
        if [ "$win_rc" -eq 0 ] && cmp -s "$tmp/out" "$tmp/play.want" &&
            grep -q '^Banyan plays' "$tmp/out"; then
            ok "windows: play connect4 fed a game, answered as natively"
        else
            diff "$tmp/play.want" "$tmp/out" > "$tmp/diff"; mv "$tmp/diff" "$tmp/out"
            bad "windows: play connect4 fed a game, answered as natively (exit $win_rc)"
        fi
        # A whole game against the engine, which ponders while the prompt
        # waits (a line waiting stops it); every point is offered in turn.
        printf 'b2\na1\nc3\na3\nc1\nb1\na2\nc2\nb3\nquit\n' |
            (cd "$win_pkg" && win_run ./banyan.exe play tictactoe --playouts 300) > "$tmp/out" 2>&1
        win_rc=$?
        if [ "$win_rc" -eq 0 ]; then has "windows: play tictactoe, a whole game to its end" \
            '^Game over: '
        else bad "windows: play tictactoe, a whole game to its end (exit $win_rc)"; fi

        # The referee, with a GTP program and a Gomocup brain as children:
        # two games at once, records written whole, a brain found in its
        # folder, a folder or a program that does not exist.
        (cd "$win_pkg" && win_run ./banyan.exe match --game tictactoe --games 2 -j 2 --log logs \
            --records recs "gtp:banyan.exe gtp --game tictactoe --playouts 50" banyan:playouts=50) \
            > "$tmp/out" 2>&1
        has "windows: match against a GTP program, two games at once" '^games 2, score '
        if grep -q '> genmove' "$win_pkg"/logs/game-00001-A.log 2> /dev/null &&
            [ -s "$win_pkg/recs/game-00002.txt" ] && ! ls "$win_pkg/recs" | grep -qv '^game-0000[12]\.txt$'; then
            ok "windows: match: the GTP program's log and the records"
        else bad "windows: match: the GTP program's log and the records"; fi
        mkdir -p "$win_pkg/engine"
        cp "$win_pkg/banyan.exe" "$win_pkg/engine/brain.exe"
        (cd "$win_pkg" && win_run ./banyan.exe match --game gomoku --games 2 banyan:playouts=100 \
            "gomocup@engine:brain.exe gomocup --playouts 100") > "$tmp/out" 2>&1
        has "windows: match against a Gomocup brain in its folder" '^games 2, score '
        (cd "$win_pkg" && win_run ./banyan.exe match --game tictactoe --games 2 banyan:playouts=50 \
            "gtp@no-such-folder:banyan.exe gtp") > "$tmp/out" 2>&1
        has "windows: match: a folder that does not exist is named" 'cannot enter no-such-folder'
        (cd "$win_pkg" && win_run ./banyan.exe match --game tictactoe --games 2 banyan:playouts=50 \
            "gtp:no-such-engine.exe gtp") > "$tmp/out" 2>&1
        has "windows: match: a program that cannot be started is named" \
            'no-such-engine.exe gtp\): could not be started'

        # banyan learn: its folder, its state replaced whole each generation,
        # its lock against a second run.
        win_learn="--game tictactoe --games-per-gen 300 --playouts 60 --steps 30 --channels 8 --blocks 1
           --hidden 8 --gate-games 6"
        (cd "$win_pkg" && win_run ./banyan.exe learn $win_learn --generations 2 --dir learn) > "$tmp/out" 2>&1
        if grep -q '^learn: 2 of 2 generations done' "$tmp/out" && [ -s "$win_pkg/learn/net-0002.net" ] &&
            grep -q '^generations 2$' "$win_pkg/learn/state" && ! ls "$win_pkg/learn" | grep -q 'tmp'; then
            ok "windows: learn: 2 generations, the state and networks written whole"
        else bad "windows: learn: 2 generations, the state and networks written whole"; fi
        (cd "$win_pkg" && exec env "${WIN_ENV[@]}" wine ./banyan.exe learn $win_learn --generations 50 \
            --dir busy) > /dev/null 2>&1 &
        win_busy=$!
        for win_i in $(seq 1000); do
            [ -s "$win_pkg/busy/games-0001.sp" ] && break
            sleep 0.02
        done
        (cd "$win_pkg" && win_run ./banyan.exe learn $win_learn --generations 50 --dir busy) > "$tmp/out" 2>&1
        has "windows: learn: a folder in use refused" 'another run is working in busy$'
        kill -9 "$win_busy" 2> /dev/null
        wait "$win_busy" 2> /dev/null
        kill "$win_sleep"
        wait "$win_hold" "$win_sleep" 2> /dev/null
    fi
fi
