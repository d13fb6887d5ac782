#!/usr/bin/env bash
# nopass.sh COMMAND...: the GTP engine COMMAND (banyan gtp) behind a filter
# that refuses every "play COLOUR pass" and knows no banyan-game, as GRhino
# does in Othello: its passes are implicit, so a referee must stop sending
# them, and the engine must pass where the game forces it.
coproc ENGINE { "$@"; }
while IFS= read -r line; do
    case "$line" in
    [pP][lL][aA][yY]\ *\ [pP][aA][sS][sS]*) printf '? illegal move\n\n'; continue ;;
    known_command\ banyan-game*) printf '= false\n\n'; continue ;;
    esac
    printf '%s\n' "$line" >&"${ENGINE[1]}"
    while IFS= read -r out <&"${ENGINE[0]}"; do
        printf '%s\n' "$out"
        [ -z "$out" ] && break
    done
    case "$line" in quit*) exit 0 ;; esac
done
