# tests/cli/man.sh - the manual page banyan(1) (tools/man.sh, make man):
# written from this build's --help and so the same as a page written now,
# a section for every command with every option its --help lists, and
# rendered by man(1) without a warning. Sourced by tests/run.sh.
page=$B/man/banyan.1
if [ ! -f "$page" ]; then
    bad "man: $page is missing (make B=$B all writes it)"
else
    tools/man.sh "$BANYAN" > "$tmp/page.1" 2> "$tmp/out"
    cmp -s "$tmp/page.1" "$page" && ok "man: the page is what tools/man.sh writes from --help now" ||
        bad "man: the page is what tools/man.sh writes from --help now"
    if ! command -v man > /dev/null 2>&1; then
        echo "SKIPPED: man: rendering banyan(1): man is not installed (apt-get install man-db)"
    else
        MANWIDTH=100 man --warnings -E UTF-8 -l "$page" > "$tmp/man" 2> "$tmp/out"
        [ $? -eq 0 ] && [ ! -s "$tmp/out" ] && grep -q '^BANYAN(1)' "$tmp/man" &&
            ok "man: man -l renders the page without a warning" ||
            bad "man: man -l renders the page without a warning"
        # Every command of --help has its section, and every option its
        # --help lists is in that section.
        missing=
        for c in $("$BANYAN" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | grep -v '^help$'); {
            C=$(echo "$c" | tr a-z A-Z)
            sed -n "/^BANYAN $C\$/,/^[A-Z]/p" "$tmp/man" | sed 's/‐//g' > "$tmp/section"
            [ -s "$tmp/section" ] || { missing="$missing section:$c"; continue; }
            for o in $("$BANYAN" "$c" --help | grep -oE '^  (-j, )?--[a-z][a-z-]*' | sed 's/.*--/--/'); do
                grep -q -- "$o" "$tmp/section" || missing="$missing $c:$o"
            done
        }
        rm -f "$tmp/out"
        [ -z "$missing" ] && ok "man: a section for every command, with every option of its --help" ||
            bad "man: a section for every command, with every option of its --help (missing:$missing)"
    fi
fi
