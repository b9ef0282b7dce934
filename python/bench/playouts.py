"""Random playouts per second, side by side: in Rust (the engine's
`random_playouts` example), through the plain Python API (`damas.Game`),
through the RL encoding (`damas.RlGame`), through the PettingZoo
environments, and in pure Python (pure_python_chinese.py).

    python python/bench/playouts.py [--seconds 3]

Every playout starts at the start position and plays a uniformly random
legal move (or the forced pass) to the end of the game; a ply is one turn,
an environment step one `step()` with a move. Not a test: the figures
depend on the machine and its load, printed with them.
"""

import argparse
import os
import platform
import random
import subprocess
import sys
import time

import numpy as np

import damas
from damas.envs import chinese_checkers_v0, spanish_draughts_v0

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import pure_python_chinese  # noqa: E402

GAMES = [("spanish", 2, "Spanish draughts"), ("chinese", 2, "Chinese checkers, 2 players")]


def timed(seconds, playout):
    """Runs `playout()` (returning its plies) for about `seconds`."""
    start = time.perf_counter()
    games = plies = 0
    while time.perf_counter() - start < seconds:
        plies += playout()
        games += 1
    elapsed = time.perf_counter() - start
    return plies / elapsed, games / elapsed


def rust(kind, players, seconds):
    binary = os.path.join(ROOT, "target", "release", "examples", "random_playouts")
    if not os.path.exists(binary):
        subprocess.run(
            ["cargo", "build", "--release", "-q", "-p", "damas", "--example", "random_playouts"],
            cwd=ROOT, check=True)
    out = subprocess.run([binary, kind, str(players), str(seconds)], capture_output=True,
                         text=True, check=True).stdout.split()
    fields = dict(zip(out[::2], out[1::2]))
    return float(fields["plies/s"]), float(fields["games/s"])


def plain_api(kind, players):
    rnd = random.Random(1).random

    def playout():
        game = damas.Game(kind, players=players)
        plies = 0
        while game.to_move is not None:
            moves = game.legal_moves()
            if moves:
                game.play(moves[int(rnd() * len(moves))])
            else:
                game.pass_()
            plies += 1
        return plies

    return playout


def rl_game(kind, players):
    rnd = random.Random(1).random
    game = damas.RlGame(kind, players=players)

    def playout():
        game.reset()
        plies = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.step(legal[int(rnd() * len(legal))])
            plies += 1
        return plies

    return playout


def pettingzoo(kind, players, wrapped, choose_from_mask):
    module = spanish_draughts_v0 if kind == "spanish" else chinese_checkers_v0
    kwargs = {} if kind == "spanish" else {"players": players}
    env = module.env(**kwargs) if wrapped else module.raw_env(**kwargs)
    game = env.unwrapped.game
    rnd = random.Random(1).random

    def playout():
        env.reset()
        steps = 0
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if choose_from_mask:
                legal = np.flatnonzero(obs["action_mask"])
            else:
                legal = game.legal_actions()
            env.step(legal[int(rnd() * len(legal))])
            steps += 1
        return steps

    return playout


def pure_python():
    rng = random.Random(1)
    return lambda: pure_python_chinese.playout(rng)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    s = args.seconds
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, damas {damas.__version__}")
    print(f"load before: {os.getloadavg()[0]:.2f}")
    for kind, players, title in GAMES:
        rows = [("Rust, Game trait (random_playouts example)", rust(kind, players, s))]
        rows.append(("Python, damas.Game (legal_moves, play)", timed(s, plain_api(kind, players))))
        rows.append(("Python, damas.RlGame (legal_actions, step)", timed(s, rl_game(kind, players))))
        rows.append(("PettingZoo raw_env, action from game.legal_actions()",
                     timed(s, pettingzoo(kind, players, False, False))))
        rows.append(("PettingZoo env(), action from game.legal_actions()",
                     timed(s, pettingzoo(kind, players, True, False))))
        rows.append(("PettingZoo env(), action from the observation's mask",
                     timed(s, pettingzoo(kind, players, True, True))))
        if kind == "chinese":
            rows.append(("pure Python (pure_python_chinese.py)", timed(s, pure_python())))
        rust_plies = rows[0][1][0]
        print(f"\n{title}\n")
        print("| path | plies (steps)/s | playouts/s | × Rust time |")
        print("|---|---:|---:|---:|")
        for name, (plies, games) in rows:
            print(f"| {name} | {plies:,.0f} | {games:,.1f} | {rust_plies / plies:.1f} |")
    print(f"\nload after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
