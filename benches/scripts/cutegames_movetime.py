#!/usr/bin/env python3
"""Engine against itself at a fixed movetime, judged as cutegames judges.

usage: cutegames_movetime.py DAMAS_BINARY GAMES MOVETIME_MS BUFFER_MS CONCURRENCY [Name=Value ...]

Follows cutegames' play_game (src/match/play.cpp) for a UGI game: both
engines `isready` and `uginewgame`, `query p1turn`; then each move
`isready`, `position startpos moves ...`, `query gameover` (the game ends
when the side to move says so) and `go movetime MS`, timed from sending
`go` to reading `bestmove`; a move slower than MOVETIME + BUFFER loses on
time, as `timeoutbuffer` rules there (cutegames' default 50 ms in its
documentation's settings, 25 in res/settings.json). Games stop after 300
full moves. Name=Value pairs are `setoption`s for both engines. Prints the
time losses and the slowest moves.
Example (docs/PERFORMANCE.md, "Time on a loaded machine"):
  cutegames_movetime.py target/release/damas 100 100 50 2
"""
import subprocess
import sys
import threading
import time

binary, games, movetime, buffer, concurrency = sys.argv[1], *map(int, sys.argv[2:6])
options = [arg.split("=", 1) for arg in sys.argv[6:]]
MAX_FULL_MOVES = 300
lock = threading.Lock()
results = {"losses": 0, "games": 0, "moves": 0, "times": []}


class Engine:
    def __init__(self):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("ugi")
        self.wait_for(lambda w: w == ["ugiok"])
        for name, value in options:
            self.send(f"setoption name {name} value {value}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, wanted):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            words = line.split()
            if wanted(words):
                return words

    def is_ready(self):
        self.send("isready")
        self.wait_for(lambda w: w == ["readyok"])

    def query(self, what):
        self.send(f"query {what}")
        return self.wait_for(lambda w: len(w) == 2 and w[0] == "response")[1]

    def quit(self):
        self.send("quit")
        self.proc.wait()


def play_game():
    engines = [Engine(), Engine()]
    for engine in engines:
        engine.is_ready()
    for engine in engines:
        engine.send("uginewgame")
    moves = []
    lost_on_time = False
    while len(moves) < 2 * MAX_FULL_MOVES:
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        engines[0].send(position)
        p1 = engines[0].query("p1turn") == "true"
        us = engines[0] if p1 else engines[1]
        us.is_ready()
        us.send(position)
        if us.query("gameover") == "true":
            break
        start = time.perf_counter()
        us.send(f"go movetime {movetime}")
        move = us.wait_for(lambda w: len(w) == 2 and w[0] == "bestmove")[1]
        took = (time.perf_counter() - start) * 1000
        with lock:
            results["times"].append(took)
        if took > movetime + buffer:
            lost_on_time = True
            break
        moves.append(move)
    for engine in engines:
        engine.quit()
    with lock:
        results["games"] += 1
        results["moves"] += len(moves)
        results["losses"] += int(lost_on_time)


def worker(count):
    for _ in range(count):
        play_game()


start = time.time()
shares = [games // concurrency + (1 if i < games % concurrency else 0) for i in range(concurrency)]
threads = [threading.Thread(target=worker, args=(n,)) for n in shares]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
times = sorted(results["times"])
slowest = ", ".join(f"{t:.0f}" for t in times[-5:])
print(f"{results['games']} games, {results['moves']} moves, {results['losses']} lost on time "
      f"(limit {movetime + buffer} ms); median {times[len(times) // 2]:.0f} ms, "
      f"99.9th percentile {times[int(len(times) * 0.999)]:.0f} ms, slowest {slowest} ms; "
      f"{time.time() - start:.0f} s")
