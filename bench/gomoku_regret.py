#!/usr/bin/env python3
"""bench/gomoku_regret.py - Gomoku brains' moves judged by a stronger one.

    bench/gomoku_regret.py sample LABELS RECORDS_DIR TAG K SEED > POSITIONS
    bench/gomoku_regret.py run POSITIONS CACHE --judge [DIR:]COMMAND [--nodes N]
                           [--reference] NAME=COMMAND [NAME=COMMAND ...]

sample: K positions drawn (by a generator seeded with SEED) from those of the
labels file (tools/label_gomoku.py's lines "ID EVAL MOVES") whose record in
RECORDS_DIR (`banyan match --records ... --records-format txt`) has the
player whose command contains TAG to move, at plies 10 to 60, and which the
labels rate between 0.15 and 0.85 for that player (no win or loss seen).
Writes lines "ID MOVES".

run: each brain NAME (a Gomocup brain command; give it its own limits, say
`banyan gomocup --playouts 50000`, since the manager allows it 600 s a turn)
moves in every position, one brain process a NAME sent RESTART between
positions; then the judge (a Gomocup brain that reports "MESSAGE ... Eval X"
as Rapfi does, sent YXHASHCLEAR and RESTART between positions, limited to N
nodes by INFO MAX_NODE, default 1000000, so that a judgement does not depend
on the machine's load, though Rapfi's history tables, kept across RESTART,
make it depend a little on the positions judged before) evaluates the
position after each distinct move. The value of a move is the judge's
evaluation read as the mover's win probability
(1 - 1 / (1 + exp(-E / 200)) for the judge's E for the opponent; a win or loss
it sees: 0 or 1). With --reference, the judge's own moves at N nodes are
judged too, as the NAME "judge" (a yardstick, though the judge favours its own
choices). Prints, per NAME, the mean value, its mean difference from
the first NAME over the same positions with the standard error of that
difference, how many moves agree with the first NAME's, and how many the
judge sees lost. The moves and judgements are kept in the folder CACHE
(NAME.json, judge-N.json), so that an interrupted run resumes and a new NAME
costs only its own moves and the judgements of the moves no other NAME chose.
Brains with fixed playouts and the judge with fixed nodes do not depend on
the machine's load, so several runs may share it (each with its own NAME; the
judgements are merged under a lock, and each position after a move keeps the
one judgement it got first, so that equal moves always score alike).

A measurement tool for the Gomoku evaluation and search
(docs/journal/2026-12-05-rapfi-judged-moves.md); the judge is a sparring partner installed by hand, and no test needs it.
"""
import fcntl
import glob
import json
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import label_gomoku as lg  # noqa: E402


def win_prob(ev):
    """The probability for the player to move of an Eval field."""
    if "M" in ev:
        return 1.0 if ev.startswith("+") else 0.0
    return 1 / (1 + math.exp(-int(ev) / 200))


def sample(labels, folder, tag, k, seed):
    mover_black = {}
    for path in glob.glob(os.path.join(folder, "*.txt")):
        first = [l for l in open(path, encoding="utf-8") if l.startswith("# first")]
        if first:
            mover_black[os.path.splitext(os.path.basename(path))[0]] = tag in first[0]
    chosen = []
    for line in open(labels):
        f = line.split()
        name, ply = f[0].rsplit("_", 1)
        if not ply.isdigit() or name not in mover_black:
            continue
        ply = int(ply)
        if ply < 10 or ply > 60 or (ply % 2 == 0) != mover_black[name] or "M" in f[1]:
            continue
        if 0.15 <= win_prob(f[1]) <= 0.85:
            chosen.append((f[0], f[2:]))
    chosen.sort()
    random.Random(seed).shuffle(chosen)
    for pid, moves in sorted(chosen[:k]):
        print(pid, " ".join(moves))


class Brain:
    """A Gomocup brain started at its first question and sent the lines of
    reset before each later one."""

    def __init__(self, cmd, reset):
        self.cmd, self.reset, self.p = cmd, list(reset), None

    def ask(self, lines):
        """(the last Eval message or None, the move) of the brain's answer."""
        first = self.p is None
        if first:
            self.p = lg.start(self.cmd)
        return lg.converse(self.p, (["START 15"] if first else self.reset) + lines)

    def close(self):
        if self.p:
            self.p.kill()


TURN = ["INFO timeout_turn 600000"]
JUDGE_RESET = ["YXHASHCLEAR", "RESTART"]


def brain_moves(cache, name, brain, info, positions):
    path = os.path.join(cache, name + ".json")
    moves = json.load(open(path)) if os.path.exists(path) else {}
    for i, (pid, ms) in enumerate(positions):
        if pid in moves:
            continue
        moves[pid] = brain.ask(TURN + info + lg.board_lines(ms))[1]
        if i % 20 == 0:
            json.dump(moves, open(path, "w"))
    json.dump(moves, open(path, "w"))
    brain.close()
    return moves


def merge(path, judged):
    """Merges judged with what other runs wrote meanwhile, a judgement
    written first winning, and writes it back."""
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kept = json.load(open(path)) if os.path.exists(path) else {}
        for key, ev in judged.items():
            kept.setdefault(key, ev)
        json.dump(kept, open(path + ".tmp", "w"))
        os.replace(path + ".tmp", path)
        judged.update(kept)


def run(positions, cache, judge, nodes, engines, reference):
    os.makedirs(cache, exist_ok=True)
    limit = ["INFO MAX_NODE %d" % nodes]
    moves = {name: brain_moves(cache, name, Brain(cmd, ["RESTART"]), [], positions)
             for name, cmd in engines}
    if reference:
        engines = engines + [("judge", judge)]
        moves["judge"] = brain_moves(cache, "judge-%d-moves" % nodes,
                                     Brain(judge, JUDGE_RESET), limit, positions)
    path = os.path.join(cache, "judge-%d.json" % nodes)
    judged = json.load(open(path)) if os.path.exists(path) else {}
    judge_brain = Brain(judge, JUDGE_RESET)
    for k, (pid, ms) in enumerate(positions):
        for name, _ in engines:
            after = ms + [moves[name][pid]]
            key = " ".join(after)
            if key in judged:
                continue
            judged[key] = lg.evaluation(judge_brain.ask(TURN + limit + lg.board_lines(after))[0])
            if judged[key] is None:
                sys.exit("the judge gave no evaluation after " + key)
        if k % 10 == 0:
            merge(path, judged)
    merge(path, judged)
    judge_brain.close()
    value = {name: [1 - win_prob(judged[" ".join(ms + [moves[name][pid]])])
                    for pid, ms in positions] for name, _ in engines}
    base, n = engines[0][0], len(positions)
    for name, _ in engines:
        d = [a - b for a, b in zip(value[name], value[base])]
        mean = sum(d) / n
        se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n) if n > 1 else 0
        same = sum(1 for pid, _ in positions if moves[name][pid] == moves[base][pid])
        lost = sum(1 for v in value[name] if v == 0)
        print("%-12s mean %.4f  against %s %+.4f +- %.4f  same move %d/%d  lost %d"
              % (name, sum(value[name]) / n, base, mean, se, same, n, lost))


def main(argv):
    if len(argv) >= 7 and argv[1] == "sample":
        sample(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]))
        return 0
    if len(argv) >= 6 and argv[1] == "run":
        judge, nodes, reference, engines = None, 1000000, False, []
        args = iter(argv[4:])
        for arg in args:
            if arg == "--judge":
                judge = next(args, None)
            elif arg == "--nodes":
                nodes = int(next(args, "0"))
            elif arg == "--reference":
                reference = True
            elif "=" in arg:
                engines.append(tuple(arg.split("=", 1)))
            else:
                engines = []
                break
        if judge and nodes > 0 and engines:
            positions = [(f[0], f[1:]) for f in map(str.split, open(argv[2])) if f]
            run(positions, argv[3], judge, nodes, engines, reference)
            return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
