"""The blocking bot of benches/scripts (a UGI player that seals its home
base): it takes its three tip pieces out, keeps its seven front-row home
pieces while another piece can move, and answers bad input with one
error line."""

import importlib.util
import pathlib
import random
import subprocess
import sys

import damas

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "benches" / "scripts" / "blocking_bot.py"


def ask(lines):
    out = subprocess.run(
        [sys.executable, str(SCRIPT)],
        input="\n".join(lines + ["quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.splitlines()


def bestmoves(lines):
    return [line.split()[1] for line in lines if line.startswith("bestmove ")]


def test_the_bot_speaks_ugi():
    lines = ask(["ugi", "isready"])
    assert lines[-2:] == ["ugiok", "readyok"]


def test_a_tip_piece_leaves_before_any_front_row_piece_moves():
    # After e3-e5 k15-k13 e1-e3 the north tip pieces can jump out.
    lines = ask(["setoption name Rules value ccerl", "position startpos moves e3-e5 k15-k13 e1-e3", "go"])
    (move,) = bestmoves(lines)
    assert move.split("-")[0] in {"l16", "m16", "m17"}


def test_the_seal_stays_while_another_piece_can_move():
    # The sealed position of a CCERL game with the north side to move: it
    # holds its seven front-row points and has three pieces in the south
    # (f2, e3, f4), and 20 of its 33 moves are front-row moves.
    sealed = "I2 2 k10,j11,k11,m11,j12,k12,l12,m12,k13,m13/f2,e3,f4,j14,k14,l14,m14,k15,l15,m15"
    for seed in range(5):
        lines = ask([f"setoption name Seed value {seed}", "setoption name Rules value ccerl", f"position fen {sealed}", "go"])
        (move,) = bestmoves(lines)
        assert move.split("-")[0] in {"f2", "e3", "f4"}


def test_a_bad_position_gets_one_error_line_and_no_move():
    lines = ask(["position startpos moves e3-e5 k15-k13 f2-f3", "go"])
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1
    assert bestmoves(lines) == ["(none)"]


def load_bot():
    spec = importlib.util.spec_from_file_location("blocking_bot", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Bot()


def test_the_tips_leave_and_the_seven_front_row_points_are_kept():
    # Against a rival that advances greedily, from random 2-ply openings:
    # within 16 plies the bot (north) holds its seven front-row points
    # with its three tip points empty behind them.
    for seed in range(6):
        rng = random.Random(seed)
        bot = load_bot()
        bot.rng = random.Random(seed)
        home, seal = bot.HOMES[1]
        game = damas.Game("chinese", players=2, rules={"Rules": "ccerl"})
        for ply in range(16):
            moves = list(game.legal_moves())
            if ply < 2:
                move = rng.choice(moves)
            elif game.to_move == 1:
                move = bot.choose(game)
            else:
                move = max(moves, key=lambda m: (int(m.to[1:]) - int(m.from_[1:]), m.text))
            game.play(move)
        north = {p for p in home if (game.piece_at(p) or (None,))[0] == 1}
        assert north == seal, f"seed {seed}: {sorted(north)}"
