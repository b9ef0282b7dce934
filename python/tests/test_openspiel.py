"""The OpenSpiel games pass OpenSpiel's random-simulation test, clone,
pickle and serialise, and MCTS plays on them."""

import pickle

import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import damas.openspiel  # noqa: F401 (registers the games)

GAMES = [
    ("python_damas_spanish", {}),
    ("python_damas_chinese", {"players": 2}),
    ("python_damas_chinese", {"players": 3}),
    ("python_damas_chinese", {"players": 4}),
    ("python_damas_chinese", {"players": 6}),
    ("python_damas_chinese", {"players": 2, "variant": "japanese"}),
    ("python_damas_chinese", {"players": 3, "variant": "japanese", "move_limit": 60}),
]


@pytest.mark.parametrize("name,params", GAMES)
def test_random_simulation_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_spanish_simulations_with_serialisation():
    game = pyspiel.load_game("python_damas_spanish")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_clone_pickle_and_serialise_a_state():
    game = pyspiel.load_game("python_damas_chinese", {"players": 3})
    state = game.new_initial_state()
    for _ in range(7):
        state.apply_action(state.legal_actions()[-1])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state)
    with pytest.raises(Exception):
        state.apply_action(0)


def test_parameters_are_checked():
    for params in [{"players": 1}, {"players": 7}, {"players": 4, "variant": "japanese"},
                   {"variant": "dutch"}, {"move_limit": 0}]:
        with pytest.raises(Exception):
            pyspiel.load_game("python_damas_chinese", params)


def test_mcts_plays_moves():
    game = pyspiel.load_game("python_damas_spanish")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator)
    state = game.new_initial_state()
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
