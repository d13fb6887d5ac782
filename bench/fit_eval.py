#!/usr/bin/env python3
"""bench/fit_eval.py - fits the weights of Gomoku's evaluation model
(games/gomoku/eval.c, gmk_eval_w) to the results of games.

    bench/fit_eval.py RECORDS_DIR[,DIR...] [--play N] [--player SPEC] [--skip K]
    bench/fit_eval.py --labels FILE[,FILE...]

With --play N, first plays N self-play games of SPEC (default
banyan:playouts=1500 against banyan:playouts=1500,seed=7, two random plies
after each opening of tests/data/gomoku_openings15.txt) into RECORDS_DIR with
`banyan match --records`. Then reads every SGF record of RECORDS_DIR, turns
each position from ply K on (default 6) into the model's inputs with
build/release/eval-features, and fits a logistic regression of the mover's
result on them (Newton's method, a small L2 penalty on all but the bias).
Prints the log-loss of the weights now in eval.c and of the fit, the same
for a fit on four games in five judged on the fifth (held out: positions of
one game are alike, so the split is by game), and the weights fitted on all
the games as a C initialiser. Deterministic: the same records give the same
weights. With --play the records go to the first folder.

With --labels, the targets are another engine's evaluations instead of
results: the files are bench/label_gomoku.py's ("ID EVAL MOVES" lines), an
evaluation E becoming the probability 1 / (1 + exp(-E / 200)) (Rapfi's
scale) and a win or loss in n plies 0.99 or 0.01; the fit minimises the
cross-entropy to those probabilities, held out by record as above.
"""
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build", "release"))


def sgf_games(folder):
    """Yields "RESULT MOVES" lines from the SGF records of folder."""
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".sgf"):
            continue
        text = open(os.path.join(folder, name), encoding="utf-8").read()
        size = int((re.search(r"SZ\[(\d+)\]", text) or [0, 15])[1])
        res = re.search(r"RE\[([^\]]*)\]", text)
        if not res:
            continue
        r = res.group(1)
        result = "B" if r.startswith("B+") else "W" if r.startswith("W+") else "D" if r in ("0", "Draw") else None
        if result is None:
            continue
        moves = []
        for colour, point in re.findall(r";([BW])\[([a-z]{2})\]", text):
            x, y = ord(point[0]) - 97, ord(point[1]) - 97
            moves.append("%s%d" % (chr(97 + x), size - y))
        if size == 15:
            yield result + " " + " ".join(moves)


def features(lines, skip):
    exe = os.path.join(BUILD, "eval-features")
    subprocess.run(["make", "-s", "-C", ROOT, os.path.relpath(exe, ROOT)], check=True)
    out = subprocess.run([exe, str(skip)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout
    rows = [list(map(float, l.split())) for l in out.splitlines() if l.strip()]
    return [r[1:] for r in rows], [r[0] for r in rows]


def current_weights():
    text = open(os.path.join(ROOT, "games", "gomoku", "eval.c")).read()
    body = re.search(r"gmk_eval_w\[GMK_EVAL_FEATURES\] = \{([^}]*)\}", text).group(1)
    return [float(v) for v in body.replace("\n", " ").split(",") if v.strip()]


def sigmoid(z):
    return 1 / (1 + math.exp(-z)) if z > -30 else 1e-13


def logloss(w, X, y):
    total = 0.0
    for x, t in zip(X, y):
        p = min(max(sigmoid(sum(a * b for a, b in zip(w, x))), 1e-9), 1 - 1e-9)
        total -= t * math.log(p) + (1 - t) * math.log(1 - p)
    return total / len(y)


def solve(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[piv] = M[piv], M[c]
        for r in range(n):
            if r != c and M[c][c] != 0:
                f = M[r][c] / M[c][c]
                for k in range(c, n + 1):
                    M[r][k] -= f * M[c][k]
    return [M[i][n] / M[i][i] if M[i][i] else 0.0 for i in range(n)]


def fit(X, y, l2=1.0, iters=25):
    n = len(X[0])
    w = [0.0] * n
    for _ in range(iters):
        g = [0.0] * n
        H = [[0.0] * n for _ in range(n)]
        for x, t in zip(X, y):
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            d = p - t
            s = p * (1 - p)
            for i in range(n):
                g[i] += d * x[i]
                for j in range(i, n):
                    H[i][j] += s * x[i] * x[j]
        for i in range(n):
            for j in range(i):
                H[i][j] = H[j][i]
            if i > 0:
                g[i] += l2 * w[i]
                H[i][i] += l2
        step = solve(H, g)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(v) for v in step) < 1e-6:
            break
    return w


def report(X, y, Xt, yt, Xh, yh, loss, unit):
    """Prints the loss of eval.c's weights and of a fit on the training part
    (Xt, yt), each on its data and on the held-out part (Xh, yh), then the
    loss of a fit on all of it and its weights as a C initialiser."""
    now, wt, w = current_weights(), fit(Xt, yt), fit(X, y)
    print("%-30s %.4f (held-out %s: %.4f)" % (loss + " of eval.c's weights:", logloss(now, X, y),
                                             unit, logloss(now, Xh, yh)))
    print("%-30s %.4f (held-out %s: %.4f)" % ("fit on 4/5 of the " + unit + ":",
                                             logloss(wt, Xt, yt), unit, logloss(wt, Xh, yh)))
    print("%-30s %.4f" % (loss + " of the fit on all:", logloss(w, X, y)))
    print("    " + ", ".join("%.2f" % v for v in w) + ",")
    return 0


def labelled(files):
    """The model's inputs, the targets and the record of each position of
    bench/label_gomoku.py's files that the model decides."""
    target, lines = {}, []
    for name in files:
        for line in open(name):
            f = line.split()
            if len(f) < 2:
                continue
            ev = f[1]
            target[f[0]] = (0.99 if ev.startswith("+M") else 0.01 if ev.startswith("-M")
                            else 1 / (1 + math.exp(-float(ev) / 200)))
            lines.append(f[0] + " " + " ".join(f[2:]))
    exe = os.path.join(BUILD, "eval-features")
    subprocess.run(["make", "-s", "-C", ROOT, os.path.relpath(exe, ROOT)], check=True)
    out = subprocess.run([exe, "last"], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout
    X, y, rec = [], [], []
    for line in out.splitlines():
        f = line.split()
        X.append([float(v) for v in f[1:]])
        y.append(target[f[0]])
        rec.append(f[0].rsplit("_", 1)[0])
    return X, y, rec


def fit_labels(files):
    X, y, rec = labelled(files)
    names = sorted(set(rec))
    held = set(names[4::5])
    pick = lambda rows, inside: [r for r, g in zip(rows, rec) if (g in held) == inside]
    Xt, yt, Xh, yh = pick(X, False), pick(y, False), pick(X, True), pick(y, True)
    least = -sum(t * math.log(t) + (1 - t) * math.log(1 - t) for t in y) / len(y)
    print("records %d, positions %d, the targets' own entropy %.4f" % (len(names), len(y), least))
    return report(X, y, Xt, yt, Xh, yh, "cross-entropy", "records")


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__)
        return 2
    if args[0] == "--labels" and len(args) == 2:
        return fit_labels(args[1].split(","))
    folders, play, skip = args[0].split(","), 0, 6
    folder = folders[0]
    spec = ["banyan:playouts=1500", "banyan:playouts=1500,seed=7"]
    i = 1
    while i < len(args):
        if args[i] == "--play":
            play, i = int(args[i + 1]), i + 2
        elif args[i] == "--player":
            spec, i = args[i + 1].split(), i + 2
        elif args[i] == "--skip":
            skip, i = int(args[i + 1]), i + 2
        else:
            print("unknown argument " + args[i])
            return 2
    if play:
        subprocess.run(["make", "-s", "-C", ROOT], check=True)
        subprocess.run([os.path.join(BUILD, "banyan"), "match", "--game", "gomoku"] + spec +
                       ["--openings", os.path.join(ROOT, "tests", "data", "gomoku_openings15.txt"),
                        "--random-plies", "2", "--games", str(play), "--records", folder],
                       check=True)
    lines = [l for f in folders for l in sgf_games(f)]
    X, y = features(lines, skip)
    print("games %d, positions %d" % (len(lines), len(y)))
    held_lines = [l for i, l in enumerate(lines) if i % 5 == 4]
    Xh, yh = features(held_lines, skip)
    Xt, yt = features([l for i, l in enumerate(lines) if i % 5 != 4], skip)
    return report(X, y, Xt, yt, Xh, yh, "log-loss", "games")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
