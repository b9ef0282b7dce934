#!/usr/bin/env python3
"""The first moves of a fresh engine process at each Hash size.

usage: first_moves.py DAMAS_BINARY MOVETIME_MS HASH_MB... [--game GAME --players N]

For each size: a fresh process, `setoption name Hash value N`, `isready`
(timed: the table is made resident then), then three times
`position startpos` + `isready` + `go movetime MS`, timed from `go` to
`bestmove`, then `uginewgame` + `isready` (timed). Prints one line per size.
Example (docs/PERFORMANCE.md, "Hash and the first search"):
  first_moves.py target/release/damas 100 64 1024 4096
"""
import subprocess
import sys
import time

args = sys.argv[1:]
game, players = "spanish", "2"
if "--game" in args:
    at = args.index("--game")
    game = args[at + 1]
    del args[at:at + 2]
if "--players" in args:
    at = args.index("--players")
    players = args[at + 1]
    del args[at:at + 2]
binary, movetime, sizes = args[0], int(args[1]), [int(a) for a in args[2:]]


def ms_since(start):
    return (time.perf_counter() - start) * 1000


for size in sizes:
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            if line.startswith(prefix):
                return line

    send(f"setoption name Players value {players}")
    send(f"setoption name Game value {game}")
    send(f"setoption name Hash value {size}")
    start = time.perf_counter()
    send("isready")
    wait_for("readyok")
    ready = ms_since(start)
    moves = []
    for _ in range(3):
        send("position startpos")
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"go movetime {movetime}")
        wait_for("bestmove")
        moves.append(ms_since(start))
    start = time.perf_counter()
    send("uginewgame")
    send("isready")
    wait_for("readyok")
    newgame = ms_since(start)
    send("quit")
    engine.wait()
    print(f"Hash {size}: isready {ready:.0f} ms; go movetime {movetime}: "
          + ", ".join(f"{m:.0f}" for m in moves) + f" ms; uginewgame {newgame:.0f} ms")
