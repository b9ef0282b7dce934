"""One game played by OpenSpiel's MCTS on a damas game, unmodified.

    python python/examples/mcts_game.py                      # Spanish draughts
    python python/examples/mcts_game.py --game chinese --players 3 --move-limit 40

Each seat is an MCTS bot with random rollouts; the moves are printed in
the game's notation, then the final position and the returns.
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import damas.openspiel  # noqa: F401 (registers python_damas_spanish and python_damas_chinese)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["spanish", "chinese"], default="spanish")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--move-limit", type=int, default=60, help="rounds (Chinese checkers)")
    parser.add_argument("--simulations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    if args.game == "spanish":
        game = pyspiel.load_game("python_damas_spanish")
    else:
        game = pyspiel.load_game(
            "python_damas_chinese",
            {"players": args.players, "move_limit": args.move_limit, "no_progress_limit": 10},
        )
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                     evaluator=evaluator, random_state=rng)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        moves.append(f"p{player + 1} {state.action_to_string(player, action)}")
        state.apply_action(action)
    print(" ".join(moves))
    print(state)
    print("returns", state.returns())


if __name__ == "__main__":
    main()
