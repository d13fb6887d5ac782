#!/bin/sh
# tools/man.sh BANYAN [DATE] - writes the manual page banyan(1) on standard
# output, in roff, from the program's own help: `banyan --help` for the list
# of commands, `banyan COMMAND --help` for a section each and `banyan help
# options` for the engine options. The help is printed from the option
# tables of program/cli.c and src/options.c, so the page says what --help
# says and cannot drift from it: the Makefile writes it anew whenever the
# program changes (make man). DATE (YYYY-MM-DD) goes in the page's header;
# the default is the newest release's date in CHANGELOG.md, so the same
# sources give the same page.
#
# The help texts share one layout, which is all this reads: "usage:" and the
# lines under it that start with "banyan" or "mpirun" form the synopsis; a
# line at the margin ending in ':' heads a group of options; a line indented
# by two spaces starts an entry (the syntax, two or more spaces, then its
# meaning), and deeper lines go on with the entry above; other lines at the
# margin are running text, and an empty line ends a paragraph.
set -eu
banyan=$1
here=$(dirname "$0")
date=${2:-$(sed -n 's/^## \[[0-9.]*\] - \([0-9-]*\).*/\1/p' "$here/../CHANGELOG.md" 2>/dev/null | head -1)}
version=$("$banyan" --version | sed -n '1s/^banyan \([^ ]*\).*/\1/p')
[ -n "$version" ] || { echo "man.sh: $banyan --version names no version" >&2; exit 1; }

# The commands, in the order of `banyan --help`.
commands=$("$banyan" --help | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | grep -v '^help$')

# roff from one help text on standard input.
to_roff() {
    awk '
    function esc(s) {
        gsub(/\\/, "\\e", s)
        gsub(/-/, "\\-", s)
        sub(/^[.'\'']/, "\\\\\\&&", s)
        return s
    }
    function flush() {
        if (tag != "") {
            print ".TP"
            print "\\fB" esc(tag) "\\fR"
            if (text != "")
                print esc(text)
        }
        tag = ""; text = ""
    }
    BEGIN { in_usage = 0; tag = ""; text = "" }
    /^usage: / {
        flush()
        print ".PP"; print ".nf"
        print esc(substr($0, 8))
        in_usage = 1
        next
    }
    in_usage && /^ +(banyan|mpirun) / {
        s = $0; sub(/^ +/, "", s)
        print esc(s)
        next
    }
    in_usage { print ".fi"; in_usage = 0 }
    /^$/ { flush(); print ".PP"; next }
    /^  [^ ]/ {
        flush()
        s = substr($0, 3)
        if (match(s, /   */)) {
            tag = substr(s, 1, RSTART - 1)
            text = substr(s, RSTART + RLENGTH)
        } else {
            tag = s; text = ""
        }
        next
    }
    /^   / {
        s = $0; sub(/^ +/, "", s)
        if (tag != "")
            text = text == "" ? s : text " " s
        else
            print esc(s)
        next
    }
    /^[^ ].*:$/ { flush(); print ".PP"; print "\\fB" esc(substr($0, 1, length($0) - 1)) "\\fR"; next }
    { flush(); print esc($0) }
    END { flush(); if (in_usage) print ".fi" }
    '
}

cat <<EOF
.\" The manual page of banyan $version, written by tools/man.sh from the
.\" program's --help: edit the help (program/cli.c, src/options.c), not this.
.TH BANYAN 1 "$date" "banyan $version" "User Commands"
.SH NAME
banyan, pbrain\\-banyan \\- a Monte Carlo Tree Search engine that plays, analyses and referees games
.SH SYNOPSIS
.B banyan
.I command
.RI [ options ]
.br
.B pbrain\\-banyan
.SH DESCRIPTION
.B banyan
plays m,n,k\\-games (Tic\\-tac\\-toe by default), Connect Four, Gomoku, Othello and Go
against a person in the terminal, in a browser or through a GUI (GTP, Gomocup),
searches for the best game of one\\-player games (Morpion Solitaire), analyses
positions, referees matches between engines and learns games by self\\-play.
One thread with a fixed seed reproduces a search bit for bit.
Run as
.BR pbrain\\-banyan ,
the name Gomocup's managers (Piskvork) expect, it is a Gomocup brain, as
.BR "banyan gomocup" .
.SH COMMANDS
EOF
"$banyan" --help | sed -n '/^commands:/,/^$/p' | sed '1d;$d' | to_roff
for c in $commands; do
    printf '.SH "BANYAN %s"\n' "$(echo "$c" | tr a-z A-Z)"
    "$banyan" "$c" --help | to_roff
done
printf '.SH "ENGINE OPTIONS"\n'
"$banyan" help options | to_roff
cat <<EOF
.SH "EXIT STATUS"
0 on success, 1 when a command fails (a bad position, a file that cannot be
read or written, an engine that cannot be made), 2 on bad usage (an unknown
command or option, a value out of range).
.SH ENVIRONMENT
.TP
.B BANYAN_LIBRARY
the library the Python package loads, in place of the one installed with it.
.SH "SEE ALSO"
The documents installed with the program or in the source tree's docs/ folder:
PLAYING.md, GAMES.md, PROTOCOLS.md, MATCH.md, WEB.md, LEARNING.md,
DISTRIBUTED.md, EMBEDDING.md and PYTHON.md.
EOF
