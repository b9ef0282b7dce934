"""The PettingZoo, Gymnasium and OpenSpiel environments pass their
libraries' own checks."""

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import damas.envs
from damas.envs import chinese_checkers_v0, spanish_draughts_v0

PETTINGZOO = [
    (spanish_draughts_v0, {}),
    (chinese_checkers_v0, {"players": 1}),
    (chinese_checkers_v0, {"players": 2}),
    (chinese_checkers_v0, {"players": 3}),
    (chinese_checkers_v0, {"players": 4}),
    (chinese_checkers_v0, {"players": 6, "variant": "international"}),
    (chinese_checkers_v0, {"players": 2, "variant": "japanese"}),
    (chinese_checkers_v0, {"players": 3, "variant": "japanese"}),
]


@pytest.mark.parametrize("module,kwargs", PETTINGZOO)
def test_pettingzoo_api_and_seed_tests(module, kwargs):
    api_test(module.env(**kwargs), num_cycles=2000, verbose_progress=False)
    seed_test(lambda **_: module.env(**kwargs), num_cycles=200)


def play_out(env, seed):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    order = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            order.append(agent)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals, order


def test_three_players_leave_as_their_places_are_decided():
    env = chinese_checkers_v0.env(players=3, rules={"MoveLimit": 80})
    totals, order = play_out(env, seed=4)
    assert sorted(order) == env.possible_agents and env.agents == []
    assert abs(sum(totals.values())) < 1e-9
    places = env.unwrapped.game.outcome.places
    for seat, agent in enumerate(env.possible_agents):
        mean = places[seat] + (places.count(places[seat]) - 1) / 2
        assert totals[agent] == pytest.approx((3 + 1 - 2 * mean) / 2)


def test_illegal_and_out_of_range_actions():
    env = spanish_draughts_v0.env()
    env.reset()
    with pytest.raises(ValueError):
        env.step(8192)
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    obs, reward, terminated, _, info = env.last()
    assert terminated and info.get("illegal_action") == illegal


def test_render_and_pickle():
    env = chinese_checkers_v0.env(players=2, render_mode="ansi")
    env.reset()
    assert "1 1 1 1" in env.render()
    again = pickle.loads(pickle.dumps(env.unwrapped))
    again.reset()
    assert again.possible_agents == ["player_0", "player_1"]
    with pytest.raises(ValueError):
        chinese_checkers_v0.env(players=4, variant="japanese")
    with pytest.raises(ValueError):
        chinese_checkers_v0.env(variant="dutch")


GYMNASIUM = [
    ("damas/SpanishDraughts-v0", {}),
    ("damas/SpanishDraughts-v0", {"level": 1, "seat": 1}),
    ("damas/SpanishDraughts-v0", {"level": 4, "nodes": 500}),
    ("damas/ChineseCheckers-v0", {}),
    ("damas/ChineseCheckers-v0", {"players": 3, "level": 1}),
    ("damas/ChineseCheckers-v0", {"players": 2, "level": 3}),
    ("damas/ChineseCheckers-v0", {"players": 2, "variant": "japanese", "level": 2}),
]


@pytest.mark.parametrize("env_id,kwargs", GYMNASIUM)
def test_gymnasium_check_env(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    steps = 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[-1]))
        steps += 1
        if terminated or truncated:
            break
    assert reward in (-1.0, 0.0, 1.0) or -1.0 < reward < 1.0
    env.close()


def test_gymnasium_is_repeatable_and_ends_on_illegal_actions():
    def episode(seed):
        env = gym.make("damas/ChineseCheckers-v0", players=3, level=2)
        obs, info = env.reset(seed=seed)
        trail = [obs.tobytes()]
        for _ in range(20):
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trail.append(obs.tobytes())
            if terminated:
                break
        return trail

    assert episode(5) == episode(5)
    env = gym.make("damas/SpanishDraughts-v0")
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, _ = env.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    with pytest.raises(ValueError):
        env.step(-5)
    with pytest.raises(ValueError):
        gym.make("damas/SpanishDraughts-v0", level=9)
