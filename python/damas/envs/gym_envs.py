"""Gymnasium single-agent environments: one seat against the engine.

Registered on ``import damas.envs`` as ``damas/SpanishDraughts-v0`` and
``damas/ChineseCheckers-v0``:

    import gymnasium as gym
    import damas.envs
    env = gym.make("damas/ChineseCheckers-v0", players=3, level=2)

The agent plays seat ``seat`` (default 0, who opens); the engine plays
every other seat at ``level``: 1 a uniformly random legal move (drawn from
the environment's seeded generator), 2 the greedy baseline (the best move
one ply ahead), 3 the plain alpha-beta baseline to depth 3, 4 the full
engine with ``nodes`` nodes per move (default 20 000). Every level is
deterministic for a seed: searches are limited by depth or nodes, never by
time, on one thread, and the engine is cleared at each reset.

Observations are the int8 planes of ``damas.RlGame`` from the agent's point
of view (the PettingZoo environments' ``"observation"``); the legal-action
mask is ``info["action_mask"]``, as Gymnasium's own games with masks give
it. The reward comes when the agent's place is decided (1 first, -1 last,
linear between, ties share the mean), which ends the episode. An illegal
action ends it with ``illegal_reward`` (default -1); one outside the
action space raises ``ValueError``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from damas._damas import Engine, RlGame
from ._render import render_text

LEVELS = (1, 2, 3, 4)


class DamasGymEnv(gym.Env):
    """One seat of a damas game against the engine."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 2}

    def __init__(
        self,
        kind: str = "spanish",
        players: int | None = None,
        rules: dict | None = None,
        level: int = 2,
        seat: int = 0,
        nodes: int = 20_000,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ):
        if level not in LEVELS:
            raise ValueError(f"level {level!r} is not one of {LEVELS}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        if not isinstance(nodes, int) or nodes < 1:
            raise ValueError(f"nodes {nodes!r} is not a positive int")
        self._game = RlGame(kind, players, rules)
        if not 0 <= seat < self._game.player_count:
            raise ValueError(
                f"seat {seat} is not a seat of a {self._game.player_count}-player game"
            )
        if self._game.player_count < 2:
            raise ValueError("a game against the engine needs at least 2 players")
        self.level = level
        self.seat = seat
        self.nodes = nodes
        self.render_mode = render_mode
        self._illegal_reward = float(illegal_reward)
        self._num_actions = self._game.num_actions
        self.observation_space = spaces.Box(
            0, 1, self._game.observation_shape, dtype=np.int8
        )
        self.action_space = spaces.Discrete(self._num_actions)
        self._engine = None

    @property
    def game(self) -> RlGame:
        """The game being played (read it; play through ``step``)."""
        return self._game

    def _new_engine(self):
        if self.level == 1:
            return None
        style = {2: "greedy", 3: "plain", 4: "best"}[self.level]
        seed = int(self.np_random.integers(1, 2**31 - 1))
        return Engine(hash_mb=4, threads=1, style=style, seed=seed)

    def _opponent_action(self):
        game = self._game
        if self.level == 1:
            legal = game.legal_actions()
            return legal[int(self.np_random.integers(len(legal)))]
        if self.level == 2:
            return game.engine_action(self._engine, depth=1)
        if self.level == 3:
            return game.engine_action(self._engine, depth=3)
        return game.engine_action(self._engine, nodes=self.nodes)

    def _play_opponents(self):
        game = self._game
        while game.to_move is not None and game.to_move != self.seat:
            if game.place_rewards()[self.seat] is not None:
                return
            action = self._opponent_action()
            if action is None or not game.step(action):
                raise RuntimeError("the engine found no legal action")  # a library bug

    def _observation(self):
        return self._game.observation(self.seat)

    def _info(self):
        if self._game.to_move == self.seat:
            return {"action_mask": self._game.action_mask()}
        return {"action_mask": np.zeros(self._num_actions, dtype=np.int8)}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._game.reset()
        self._engine = self._new_engine()
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        game = self._game
        if game.place_rewards()[self.seat] is not None:
            raise RuntimeError("the episode is over: call reset()")
        if not game.step(action):
            if not 0 <= int(action) < self._num_actions:
                raise ValueError(
                    f"action {action} is not in the action space 0-{self._num_actions - 1}"
                )
            info = self._info()
            info["illegal_action"] = int(action)
            return self._observation(), self._illegal_reward, True, False, info
        self._play_opponents()
        reward = game.place_rewards()[self.seat]
        if self.render_mode == "human":
            self.render()
        terminated = reward is not None
        return self._observation(), float(reward or 0.0), terminated, False, self._info()

    def render(self):
        return render_text(self.render_mode, self._game)


class SpanishDraughtsEnv(DamasGymEnv):
    """Spanish draughts against the engine (``damas/SpanishDraughts-v0``)."""

    def __init__(self, level: int = 2, seat: int = 0, nodes: int = 20_000,
                 render_mode: str | None = None, illegal_reward: float = -1.0):
        super().__init__("spanish", 2, None, level, seat, nodes, render_mode, illegal_reward)


class ChineseCheckersEnv(DamasGymEnv):
    """Chinese checkers against the engine (``damas/ChineseCheckers-v0``):
    ``players`` 2–6, ``variant`` ``"international"`` or ``"japanese"``
    (2–3 players), ``rules`` rule options by name."""

    def __init__(self, players: int = 2, variant: str = "international",
                 rules: dict | None = None, level: int = 2, seat: int = 0,
                 nodes: int = 20_000, render_mode: str | None = None,
                 illegal_reward: float = -1.0):
        kinds = {"international": "chinese", "japanese": "japanese"}
        if variant not in kinds:
            raise ValueError(f"variant {variant!r} is not one of {sorted(kinds)}")
        if variant == "japanese" and not 2 <= players <= 3:
            raise ValueError(f"the Japanese variant is for 2-3 players, not {players}")
        super().__init__(kinds[variant], players, rules, level, seat, nodes,
                         render_mode, illegal_reward)
