#!/bin/sh
# A GTP engine that answers genmove with a move off every board, after a
# banner line the referee must skip.
echo "a banner that is not GTP"
while read -r line; do
    case "$line" in
    genmove*) printf '= z99\n\n' ;;
    quit*) printf '=\n\n'; exit 0 ;;
    known_command*) printf '= false\n\n' ;;
    *) printf '=\n\n' ;;
    esac
done
