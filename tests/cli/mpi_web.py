# tests/cli/mpi_web.py URL PLAYOUTS RANKS - the web board over MPI ranks
# (mpirun -np RANKS banyan serve --playouts PLAYOUTS; tests/cli/mpi_search.sh):
# a session's reply and its analysis run over every rank (the search event
# counts every rank's simulations), undo and a new move keep the ranks
# following the game, and a second session searching while the first
# analyses runs on rank 0 alone. Prints "ok NAME" or "FAIL NAME: why" a check.
import json
import sys
import threading
import time
import urllib.request

base, playouts, ranks = sys.argv[1].rstrip("/"), int(sys.argv[2]), int(sys.argv[3])


def api(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(base + path, data=data, method=method,
                               headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(r, timeout=60) as f:
        return json.loads(f.read())


class Watch:
    """A session's event stream, open for the whole test (closing it would
    stop the session's search, as a page closed does)."""

    def __init__(self, sid):
        self.events = []
        self.stream = urllib.request.urlopen(base + f"/api/sessions/{sid}/events", timeout=120)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        ev = None
        for line in self.stream:
            line = line.decode().strip()
            if line.startswith("event:"):
                ev = line[6:].strip()
            elif line.startswith("data:") and ev == "search":
                self.events.append(json.loads(line[5:]))

    def mark(self):
        return len(self.events)

    def done(self, since, kind):
        """The first finished search of kind after event number since."""
        for _ in range(600):
            for d in self.events[since:]:
                if d["done"] and d["kind"] == kind:
                    return d
            time.sleep(0.1)
        return None


def idle(sid, n_moves):
    for _ in range(600):
        st = api("GET", f"/api/sessions/{sid}")
        if st["status"] == "idle" and len(st["moves"]) == n_moves:
            return st
        time.sleep(0.1)
    return st


def check(name, cond, why=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + why), flush=True)


a = api("POST", "/api/sessions", {"game": "connect4", "params": "book=off", "human": "first",
                                  "playouts": playouts})["id"]
wa = Watch(a)
n = wa.mark()
api("POST", f"/api/sessions/{a}/move", {"move": "d"})
d = wa.done(n, "thinking")
st = idle(a, 2)
check("web over MPI: the reply counts every rank's simulations",
      d is not None and d["playouts"] == ranks * playouts, json.dumps(d)[:200])
check("web over MPI: the root holds them",
      d is not None and sum(m["visits"] for m in d["moves"]) > playouts, json.dumps(d)[:200])
check("web over MPI: the engine replied", len(st["moves"]) == 2, json.dumps(st["moves"]))
# Undo, another move: the other ranks follow the record.
api("POST", f"/api/sessions/{a}/undo")
n = wa.mark()
api("POST", f"/api/sessions/{a}/move", {"move": "c"})
d = wa.done(n, "thinking")
st = idle(a, 2)
check("web over MPI: after undo, a reply over every rank",
      d is not None and d["playouts"] == ranks * playouts and st["moves"][0]["move"] == "c",
      json.dumps(d)[:200])
# A analyses (holding the ranks); B's reply meanwhile runs on rank 0 alone.
n = wa.mark()
api("POST", f"/api/sessions/{a}/analyze")
b = api("POST", "/api/sessions", {"game": "connect4", "params": "book=off", "human": "first",
                                  "playouts": playouts})["id"]
wb = Watch(b)
for _ in range(100):  # The analysis has begun over the ranks.
    if any(not e["done"] and e["kind"] == "analyzing" for e in wa.events[n:]):
        break
    time.sleep(0.1)
m = wb.mark()
api("POST", f"/api/sessions/{b}/move", {"move": "a"})
d = wb.done(m, "thinking")
idle(b, 2)
check("web over MPI: a second session's search while the ranks are busy runs alone",
      d is not None and d["playouts"] == playouts, json.dumps(d)[:200])
api("POST", f"/api/sessions/{a}/stop")
st = idle(a, 2)
d = wa.done(n, "analyzing")
check("web over MPI: the analysis stops", st["status"] == "idle" and d is not None, st["status"])
# B again, the ranks free: over all of them.
m = wb.mark()
api("POST", f"/api/sessions/{b}/move", {"move": "a"})
d = wb.done(m, "thinking")
idle(b, 4)
check("web over MPI: then over every rank",
      d is not None and d["playouts"] == ranks * playouts, json.dumps(d)[:200])
