#!/usr/bin/env python3
"""tools/label_gomoku.py - labels Gomoku positions with another engine's
evaluation, for tools/fit_patterns.c.

    tools/label_gomoku.py OUT RECORDS_DIR[,DIR...] --brain [DIR:]COMMAND [--ms T] [-j N]
                          [--moves MOVES] [--every K] [--reuse 1] [--deviate N]
                          [--positions 1] [--rule freestyle|standard|renju] [--size N]

Takes every position from ply 8 to the third last of each record of the
folders (`banyan match --records` files: .sgf or .txt), asks the
Gomocup brain COMMAND (run in DIR) to move in it with T milliseconds a turn
(default 120), and writes a line "ID EVAL MOVES" to OUT for each: ID is the
record's name and the ply, EVAL the last evaluation the brain reported in a
"MESSAGE ... Eval X ..." line (Rapfi's form: centi-units for the player to
move, +Mn / -Mn for a win / loss in n plies), MOVES the position. Without
--reuse each position gets a fresh brain, so answers do not depend on the
order. A position already in OUT is skipped, so an interrupted run resumes. With
--moves, the brain's answers go to MOVES as lines "ID MOVES ANSWER" (the
form of tools/gomoku_moves.py), for tools/fit_patterns.c's policy fit. With
--every K, only every K-th of the positions (in the order of the records and
plies) is asked, a sample for a slower brain. With --reuse 1, each worker
keeps one brain and sends it YXHASHCLEAR and RESTART between positions (a
brain that knows these, such as Rapfi): three times as many positions a
second, since starting the brain costs more than 50 ms of search, but what
the brain keeps besides its hash (its history tables) may make an answer
depend a little on the positions before it. With --deviate N (N > 0), each
position taken (after --every) is labelled after one more move instead, an
empty cell within distance 2 of a stone (those next to a stone twice as
likely) drawn by a generator seeded from the position's ID and N, so that
each N gives another move; its ID is the position's plus "dN", so that
tools/fit_patterns.c holds it out with its record. These are the positions a
search meets after moves the games do not play, which the evaluation must
judge too. With --positions 1, the second argument is instead a file of
positions, lines "ID MOVES" (bench/gomoku_children.c's list of the children
of labelled positions), each labelled as it is, in the file's order. With
--rule, the brain plays under that rule (`INFO rule 0, 1 or 4`; default
freestyle), the records' own. With --size N (default 15), the board is N x N
(`START N`; `tools/gomoku_openings.py` labels 20x20 openings so). The
brain is a sparring partner installed by hand (docs/STRENGTH.md, "The
opponents", says how); no test needs it.
"""
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import zlib


def records(folders):
    """Yields (name, moves) for each record of the folders."""
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            text = open(path, encoding="utf-8").read()
            if name.endswith(".sgf"):
                moves = ["%s%d" % (p[0], SIZE[0] - (ord(p[1]) - 97))
                         for p in re.findall(r";[BW]\[([a-v]{2})\]", text)]
            elif name.endswith(".txt"):
                moves = [l.split()[0] for l in text.splitlines() if l.strip() and l[0] != "#"]
            else:
                continue
            yield os.path.splitext(name)[0], moves


def deviate(moves, key):
    """moves and one more: an empty cell within distance 2 of a stone, drawn
    by a generator seeded from key (those next to a stone twice as likely)."""
    taken = {(ord(m[0]) - 97, int(m[1:]) - 1) for m in moves}
    near = {}
    for a, b in taken:
        for x in range(max(0, a - 2), min(SIZE[0], a + 3)):
            for y in range(max(0, b - 2), min(SIZE[0], b + 3)):
                d = max(abs(x - a), abs(y - b))
                if (x, y) not in taken and near.get((x, y), 3) > d:
                    near[x, y] = d
    cells = [c for c in sorted(near) for _ in range(3 - near[c])]
    rng = random.Random(zlib.crc32(key.encode()))
    x, y = rng.choice(cells)
    return moves + ["%s%d" % (chr(97 + x), y + 1)]


def split_brain(brain):
    """(folder or None, command) of a --brain argument."""
    return brain.split(":", 1) if ":" in brain and os.path.isdir(brain.split(":", 1)[0]) \
        else (None, brain)


def board_lines(moves):
    """The BOARD command of a position, the player to move's stones as 1."""
    lines = ["BOARD"]
    n = len(moves)
    for i, m in enumerate(moves):
        own = 1 if i % 2 == n % 2 else 2
        lines.append("%d,%d,%d" % (ord(m[0]) - 97, SIZE[0] - int(m[1:]), own))
    return lines + ["DONE"]


def evaluation(message):
    """The X of a message "MESSAGE ... Eval X ..." (None or no such field: None)."""
    found = re.search(r" Eval ([-+]?M?\d+)\b", message or "")
    return found.group(1) if found else None


def result(pid, moves, last, answer):
    """The lines for OUT and MOVES from the last Eval message and the answer."""
    ev = evaluation(last)
    if ev is None:
        return None
    return ("%s %s %s" % (pid, ev, " ".join(moves)),
            "%s %s %s" % (pid, " ".join(moves), answer) if answer else None)


def cell(line):
    """The move of an answer line "X,Y", else None."""
    if not re.fullmatch(r"\d+,\d+", line):
        return None
    x, y = map(int, line.split(","))
    return "%s%d" % (chr(97 + x), SIZE[0] - y)


def start(brain):
    cwd, cmd = split_brain(brain)
    return subprocess.Popen(cmd, shell=True, cwd=cwd, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)


def converse(p, lines):
    """Sends the lines to brain p and reads up to its answer: (the last
    Eval message or None, the move or None)."""
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        line = line.strip()
        if " Eval " in line:
            last = line
        move = cell(line)
        if move:
            return last, move
    return last, None


KEPT = {}  # --reuse: the worker's brain.
RULE = ["INFO rule 0"]  # --rule, set before the workers start.
RULES = {"freestyle": 0, "standard": 1, "renju": 4}
SIZE = [15]  # --size, set before the workers start.


def ask_reuse(job):
    pid, moves, brain, ms = job
    p = KEPT.get("p")
    try:
        if p is None:
            p = KEPT["p"] = start(brain)
            first = ["START %d" % SIZE[0]]
        else:
            time.sleep(0.005)  # Let the brain settle after its answer.
            first = ["YXHASHCLEAR", "RESTART"]
        kill = lambda: os.killpg(p.pid, signal.SIGKILL)
        timer = threading.Timer(5 + ms / 100, kill)
        timer.start()
        last, answer = converse(p, first + ["INFO timeout_turn %d" % ms] + RULE +
                                board_lines(moves))
        timer.cancel()
        if not answer:
            raise OSError("no answer")
    except OSError:
        if p is not None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
        KEPT.pop("p", None)
        return None
    return result(pid, moves, last, answer)


def ask(job):
    pid, moves, brain, ms = job
    lines = ["START %d" % SIZE[0], "INFO timeout_turn %d" % ms] + RULE + board_lines(moves)
    try:
        p = start(brain)
    except OSError:
        return None
    # A brain that never answers is killed (with the shell that started it),
    # which ends the reads below.
    kill = lambda: os.killpg(p.pid, signal.SIGKILL)
    timer = threading.Timer(5 + ms / 100, kill)
    timer.start()
    last = answer = None
    try:
        last, answer = converse(p, lines)
        if answer:
            p.stdin.write("END\n")
            p.stdin.close()
        p.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        kill()
        last = None
    timer.cancel()
    return result(pid, moves, last, answer)


def main(argv):
    args = argv[1:]
    if len(args) < 2 or "--brain" not in args:
        print(__doc__)
        return 2
    out, folders = args[0], args[1].split(",")
    opt = {"--brain": None, "--ms": "120", "-j": "1", "--moves": None, "--every": "1",
           "--reuse": "0", "--deviate": "0", "--positions": "0", "--rule": "freestyle",
           "--size": "15"}
    for i in range(2, len(args) - 1, 2):
        opt[args[i]] = args[i + 1]
    if opt["--rule"] not in RULES:
        print("label_gomoku.py: --rule is freestyle, standard or renju", file=sys.stderr)
        return 2
    RULE[0] = "INFO rule %d" % RULES[opt["--rule"]]
    if not opt["--size"].isdigit() or not 5 <= int(opt["--size"]) <= 22:
        print("label_gomoku.py: --size is 5 to 22", file=sys.stderr)
        return 2
    SIZE[0] = int(opt["--size"])
    done = set()
    if os.path.exists(out):
        done = {l.split()[0] for l in open(out) if l.strip()}
    if opt["--positions"] == "1":
        jobs = [(f[0], f[1:], opt["--brain"], int(opt["--ms"]))
                for f in map(str.split, open(args[1])) if f]
    else:
        jobs = [("%s_%d" % (name, k), moves[:k], opt["--brain"], int(opt["--ms"]))
                for name, moves in records(folders) for k in range(8, len(moves) - 2)]
    jobs = jobs[::max(1, int(opt["--every"]))]
    if opt["--deviate"] != "0":
        jobs = [("%sd%s" % (j[0], opt["--deviate"]), deviate(j[1], j[0] + opt["--deviate"]))
                + j[2:] for j in jobs]
    jobs = [j for j in jobs if j[0] not in done]
    answers = open(opt["--moves"], "a") if opt["--moves"] else None
    with open(out, "a") as f, multiprocessing.Pool(int(opt["-j"])) as pool:
        for got in pool.imap(ask_reuse if opt["--reuse"] == "1" else ask, jobs):
            if got:
                f.write(got[0] + "\n")
                f.flush()
                if answers and got[1]:
                    answers.write(got[1] + "\n")
                    answers.flush()
    if answers:
        answers.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
