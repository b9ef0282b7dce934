"""damas.RlGame: action ids, masks, observation planes and rewards."""

import pickle
import random

import numpy as np
import pytest

import damas

# Two king captures from 31 to the same square taking different pieces.
SHARED_ENDS = "W:WK31:BK4,13-15,26,28,29,32"


def random_game(rl, rng, plies=400):
    for _ in range(plies):
        if rl.is_over:
            break
        legal = rl.legal_actions()
        assert rl.step(rng.choice(legal))


def test_action_spaces_and_shapes():
    spanish = damas.RlGame("spanish")
    assert (spanish.num_actions, spanish.observation_shape) == (32 * 32 * 8, (8, 8, 4))
    for players, channels in [(1, 2), (2, 3), (3, 4), (6, 7)]:
        chinese = damas.RlGame("chinese", players=players)
        assert chinese.num_actions == 121 * 121
        assert chinese.observation_shape == (17, 17, channels)
    assert damas.RlGame("japanese", players=3).observation_shape == (17, 17, 7)


def test_every_seat_sees_the_start_of_the_star_alike():
    rl = damas.RlGame("chinese", players=6)
    planes = [rl.observation(seat) for seat in range(6)]
    for seat in range(1, 6):
        np.testing.assert_array_equal(planes[seat], planes[0])
    assert planes[0][:, :, 6].sum() == 121
    assert list(planes[0][:, :, :6].sum(axis=(0, 1))) == [10] * 6
    # The own camp is at the bottom: rows 0-3 hold the observer's pieces.
    assert planes[0][:4, :, 0].sum() == 10


def test_the_second_player_has_the_first_players_opening_actions():
    for kind, players in [("spanish", 2), ("chinese", 2), ("japanese", 2)]:
        rl = damas.RlGame(kind, players=players)
        opening = rl.legal_actions()
        start_planes = rl.observation(0)
        # A step far from the rival's men leaves the rival the same view.
        step = next(a for a in opening if rl.copy().step(a))
        assert rl.step(step)
        assert rl.to_move == 1
        assert rl.legal_actions() == opening
        mover_view = rl.observation(1)
        assert mover_view[:, :, 0].sum() == start_planes[:, :, 0].sum()


def test_mask_legal_actions_and_texts_agree_with_the_game():
    rng = random.Random(7)
    for kind, players in [("spanish", 2), ("chinese", 2), ("chinese", 4), ("japanese", 3)]:
        rl = damas.RlGame(kind, players=players)
        for _ in range(60):
            if rl.is_over:
                break
            legal = rl.legal_actions()
            mask = rl.action_mask()
            assert mask.dtype == np.int8 and mask.shape == (rl.num_actions,)
            assert list(np.flatnonzero(mask)) == legal
            game = rl.game()
            assert len(legal) == len(game.legal_moves()) and rl.unencoded_moves() == 0
            texts = {rl.action_text(a) for a in legal}
            assert texts == set(game.legal_moves_text())
            for a in legal[:5]:
                assert rl.action_of(rl.action_text(a)) == a
            assert rl.step(rng.choice(legal))


def test_captures_sharing_both_ends_get_their_own_ids():
    game = damas.Game(position=SHARED_ENDS)
    ends = [(mv.from_, mv.to) for mv in game.legal_moves()]
    shared = [mv for mv in game.legal_moves() if ends.count((mv.from_, mv.to)) == 2]
    assert len(shared) == 2 and sorted(shared[0].captures) != sorted(shared[1].captures)
    rl = damas.RlGame("spanish", position=SHARED_ENDS)
    assert rl.capture_slots == 8
    legal = rl.legal_actions()
    assert len(legal) == len(ends) and rl.unencoded_moves() == 0
    pairs = [a // 8 for a in legal]
    twin = [a for a in legal if pairs.count(a // 8) == 2]
    assert [a % 8 for a in twin] == [0, 1]
    assert {rl.action_text(a) for a in twin} == {mv.text for mv in shared}
    rl.step(twin[1])
    rl.reset()
    assert rl.position == game.position


def test_illegal_steps_change_nothing():
    rl = damas.RlGame("chinese", players=3)
    before = rl.hash
    for bad in [-1, 0, rl.num_actions, 2**62, rl.legal_actions()[0] + 1]:
        if bad not in rl.legal_actions():
            assert not rl.step(bad)
    assert rl.hash == before and rl.turn_count == 0
    with pytest.raises(damas.IllegalMoveError):
        rl.action_text(0)
    with pytest.raises(damas.OptionError):
        rl.observation(3)


def test_place_rewards_sum_to_zero_and_rank_the_places():
    rl = damas.RlGame("spanish")
    rl.resign()
    assert rl.place_rewards() == [-1.0, 1.0]
    rng = random.Random(3)
    for players in (2, 3, 6):
        rl = damas.RlGame("chinese", players=players, rules={"MoveLimit": 60})
        random_game(rl, rng, plies=100000)
        assert rl.is_over
        rewards = rl.place_rewards()
        assert None not in rewards and abs(sum(rewards)) < 1e-9
        places = rl.outcome.places
        for a in range(players):
            for b in range(players):
                if places[a] < places[b]:
                    assert rewards[a] > rewards[b]
    three = damas.RlGame("chinese", players=3)
    three.resign(0)
    assert three.place_rewards() == [-1.0, None, None]


def test_copies_and_pickles_replay_the_same_game():
    rng = random.Random(11)
    rl = damas.RlGame("chinese", players=3, first_player=1)
    random_game(rl, rng, plies=30)
    loaded = pickle.loads(pickle.dumps(rl))
    assert (loaded.hash, loaded.turn_count, loaded.legal_actions()) == (
        rl.hash, rl.turn_count, rl.legal_actions())
    copy = rl.copy()
    copy.step(copy.legal_actions()[0])
    assert copy.turn_count == rl.turn_count + 1


def test_engine_actions_are_legal_ids():
    rl = damas.RlGame("spanish")
    engine = damas.Engine(style="greedy", seed=5)
    action = rl.engine_action(engine, depth=1)
    assert action in rl.legal_actions()
    assert rl.engine_action(damas.Engine(), nodes=500) in rl.legal_actions()
