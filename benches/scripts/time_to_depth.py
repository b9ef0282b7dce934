#!/usr/bin/env python3
"""Time to a fixed depth over a file of positions, through the protocol.

usage: time_to_depth.py DAMAS_BINARY DEPTH THREADS POSITIONS_FILE [GAME PLAYERS]

Each line of POSITIONS_FILE is a position for `position fen`; every search
starts from `ucinewgame` (a fresh table). Prints the total wall time from
`go depth` to `bestmove` and the nodes of the last info lines.
Example (docs/PERFORMANCE.md, "Threads that pay"):
  time_to_depth.py target/release/damas 7 2 benches/chinese_six_player_positions.txt chinese 6
"""
import subprocess
import sys
import time

binary, depth, threads, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = sys.argv[5] if len(sys.argv) > 5 else "spanish"
players = sys.argv[6] if len(sys.argv) > 6 else "2"
positions = [line.strip() for line in open(path) if line.strip()]
engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def wait_for(prefix):
    last = None
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine ended")
        if line.startswith("info depth"):
            last = line.split()
        if line.startswith(prefix):
            return last


send("setoption name Game value " + game)
if game == "chinese":
    send("setoption name Players value " + players)
send("setoption name Threads value %d" % threads)
# Spanish draughts answers a book position at once; a timing wants the search.
if game == "spanish":
    send("setoption name OwnBook value false")
total, nodes = 0.0, 0
for fen in positions:
    send("ucinewgame")
    send("position fen " + fen)
    send("isready")
    wait_for("readyok")
    start = time.time()
    send("go depth %d" % depth)
    last = wait_for("bestmove")
    total += time.time() - start
    nodes += int(last[last.index("nodes") + 1])
send("quit")
print("threads %d depth %d positions %d time %.2f s nodes %d" % (threads, depth, len(positions), total, nodes))
