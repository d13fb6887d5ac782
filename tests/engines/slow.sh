#!/bin/sh
# A GTP engine for Connect Four that takes half a second over every move
# (a legal one: the first column with room, as long as the game is short).
n=0
while read -r line; do
    case "$line" in
    genmove*) sleep 0.5; n=$((n + 1)); printf '= %s\n\n' "$(echo abcdefg | cut -c$(( (n - 1) / 3 % 7 + 1 )))" ;;
    quit*) printf '=\n\n'; exit 0 ;;
    known_command*) printf '= false\n\n' ;;
    *) printf '=\n\n' ;;
    esac
done
