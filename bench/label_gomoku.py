#!/usr/bin/env python3
"""bench/label_gomoku.py - labels Gomoku positions with another engine's
evaluation, for bench/fit_patterns.c.

    bench/label_gomoku.py OUT RECORDS_DIR[,DIR...] --brain [DIR:]COMMAND [--ms T] [-j N]
                          [--moves MOVES] [--every K]

Takes every position from ply 8 to the third last of each record of the
folders (`banyan match --records` files: .sgf or .txt, 15x15), asks the
Gomocup brain COMMAND (run in DIR) to move in it with T milliseconds a turn
(default 120), and writes a line "ID EVAL MOVES" to OUT for each: ID is the
record's name and the ply, EVAL the last evaluation the brain reported in a
"MESSAGE ... Eval X ..." line (Rapfi's form: centi-units for the player to
move, +Mn / -Mn for a win / loss in n plies), MOVES the position. Each
position gets a fresh brain, so answers do not depend on the order. A
position already in OUT is skipped, so an interrupted run resumes. With
--moves, the brain's answers go to MOVES as lines "ID MOVES ANSWER" (the
form of bench/gomoku_moves.py), for bench/fit_patterns.c's policy fit. With
--every K, only every K-th of the positions (in the order of the records and
plies) is asked, a sample for a slower brain. The brain
is a sparring partner installed by hand (docs/STRENGTH.md says how); no test
needs it.
"""
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import threading


def records(folders):
    """Yields (name, moves) for each record of the folders."""
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            text = open(path, encoding="utf-8").read()
            if name.endswith(".sgf"):
                moves = ["%s%d" % (p[0], 15 - (ord(p[1]) - 97))
                         for p in re.findall(r";[BW]\[([a-o]{2})\]", text)]
            elif name.endswith(".txt"):
                moves = [l.split()[0] for l in text.splitlines() if l.strip() and l[0] != "#"]
            else:
                continue
            yield os.path.splitext(name)[0], moves


def ask(job):
    pid, moves, brain, ms = job
    cwd, cmd = brain.split(":", 1) if ":" in brain and os.path.isdir(brain.split(":", 1)[0]) \
        else (None, brain)
    lines = ["START 15", "INFO timeout_turn %d" % ms, "BOARD"]
    n = len(moves)
    for i, m in enumerate(moves):
        own = 1 if i % 2 == n % 2 else 2
        lines.append("%d,%d,%d" % (ord(m[0]) - 97, 15 - int(m[1:]), own))
    lines.append("DONE")
    try:
        p = subprocess.Popen(cmd, shell=True, cwd=cwd, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    except OSError:
        return None
    # A brain that never answers is killed (with the shell that started it),
    # which ends the reads below.
    kill = lambda: os.killpg(p.pid, signal.SIGKILL)
    timer = threading.Timer(5 + ms / 100, kill)
    timer.start()
    last = answer = None
    try:
        p.stdin.write("\n".join(lines) + "\n")
        p.stdin.flush()
        for line in p.stdout:
            line = line.strip()
            if " Eval " in line:
                last = line
            if re.fullmatch(r"\d+,\d+", line):
                x, y = map(int, line.split(","))
                answer = "%s%d" % (chr(97 + x), 15 - y)
                p.stdin.write("END\n")
                p.stdin.close()
                break
        p.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        kill()
        last = None
    timer.cancel()
    found = re.search(r" Eval ([-+]?M?\d+)\b", last or "")
    if not found:
        return None
    return ("%s %s %s" % (pid, found.group(1), " ".join(moves)),
            "%s %s %s" % (pid, " ".join(moves), answer) if answer else None)


def main(argv):
    args = argv[1:]
    if len(args) < 2 or "--brain" not in args:
        print(__doc__)
        return 2
    out, folders = args[0], args[1].split(",")
    opt = {"--brain": None, "--ms": "120", "-j": "1", "--moves": None, "--every": "1"}
    for i in range(2, len(args) - 1, 2):
        opt[args[i]] = args[i + 1]
    done = set()
    if os.path.exists(out):
        done = {l.split()[0] for l in open(out) if l.strip()}
    jobs = [("%s_%d" % (name, k), moves[:k], opt["--brain"], int(opt["--ms"]))
            for name, moves in records(folders) for k in range(8, len(moves) - 2)]
    jobs = [j for j in jobs[::max(1, int(opt["--every"]))] if j[0] not in done]
    answers = open(opt["--moves"], "a") if opt["--moves"] else None
    with open(out, "a") as f, multiprocessing.Pool(int(opt["-j"])) as pool:
        for got in pool.imap(ask, jobs):
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
