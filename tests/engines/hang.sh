#!/bin/sh
# A GTP engine that never answers genmove: the referee must record a hang
# and kill it (with the shell's children: sleep runs in the same group).
while read -r line; do
    case "$line" in
    genmove*) sleep 1000 ;;
    quit*) printf '=\n\n'; exit 0 ;;
    known_command*) printf '= false\n\n' ;;
    *) printf '=\n\n' ;;
    esac
done
