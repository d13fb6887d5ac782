#!/bin/sh
# A GTP engine that dies on its first genmove: the referee must record a crash.
while read -r line; do
    case "$line" in
    genmove*) exit 3 ;;
    quit*) printf '=\n\n'; exit 0 ;;
    known_command*) printf '= false\n\n' ;;
    *) printf '=\n\n' ;;
    esac
done
