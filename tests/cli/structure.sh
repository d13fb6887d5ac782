# tests/cli/structure.sh - the shape of the code, checked on the build: no
# two object files call each other (the layers stay a tree), and no
# front-end (program/, proto/, web/ and its page) knows a game by name or by its parameters;
# the references between README.md and docs/*.md name files that exist.
# Sourced by tests/run.sh.
objs=$(ls "$B"/src/*.o "$B"/games/*.o "$B"/games/*/*.o "$B"/program/*.o "$B"/proto/*.o "$B"/web/*.o \
    2>/dev/null)
for o in $objs; do
    nm --defined-only "$o" 2>/dev/null | awk '$2 ~ /[TDBR]/ {print $3}' | sed "s|\$| $o|"
done | sort > "$tmp/defs"
for o in $objs; do
    nm -u "$o" 2>/dev/null | awk '{print $2}' | sed "s|\$| $o|"
done | sort > "$tmp/uses"
# "user provider" for every call or reference between two files; the files
# of one game's folder (games/gomoku/) count as one module, whose table
# names its rules, rollouts and provers, which use the rules in turn.
join -1 1 -2 1 "$tmp/uses" "$tmp/defs" | sed -E 's|/games/([a-z0-9_]+)/[a-z0-9_]+\.o|/games/\1/|g' |
    awk '$2 != $3 {print $2, $3}' | sort -u > "$tmp/edges"
awk '{print $2, $1}' "$tmp/edges" | sort > "$tmp/back"
comm -12 "$tmp/edges" "$tmp/back" > "$tmp/out"
if [ -s "$tmp/edges" ] && [ ! -s "$tmp/out" ]; then
    ok "structure: no two files call each other ($(wc -l < "$tmp/edges") links between files)"
else
    bad "structure: files that call each other (or nm found no links)"
fi
games=$("$BANYAN" games | awk '{print $1}' | tr '\n' '|' | sed 's/|$//')
params=$("$BANYAN" games --params | sed -n 's/^    \([a-z_]*\)=.*/\1/p' | sort -u | tr '\n' '|' |
    sed 's/|$//')
if grep -nE "\"($games)\"|banyan_game_($games)\b|\"($params)=([0-9]|[a-z]{2,})" \
    program/*.[ch] proto/*.[ch] web/*.[ch] web/assets/* > "$tmp/out"; then
    bad "structure: a front-end names a game or one of its parameters"
else
    ok "structure: no front-end names a game ($games) or one of its parameters ($params)"
fi
# The documents' references to each other: every docs/X.md that README.md or
# a docs/*.md names (from the repository's root), and every relative link
# target of theirs (from the file's folder, anchor dropped), is a file.
for f in README.md docs/*.md; do
    grep -oE 'docs/[A-Za-z0-9_-]+\.md' "$f" | sed "s|^|$f |"
    grep -oE '\]\([^)#[:space:]]+' "$f" | sed 's/^](//' | grep -vE '^[a-z]+:' |
        sed "s|^|$f $(dirname "$f")/|"
done > "$tmp/refs"
while read -r from to; do [ -e "$to" ] || echo "$from: $to"; done < "$tmp/refs" | sort -u > "$tmp/out"
if [ -s "$tmp/refs" ] && [ ! -s "$tmp/out" ]; then
    ok "structure: the $(wc -l < "$tmp/refs") references between README.md and docs/*.md name files"
else
    bad "structure: README.md or docs/*.md refers to a file that does not exist"
fi
