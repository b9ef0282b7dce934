"""The PettingZoo AEC environment shared by both games.

Every seat is an agent, ``player_0`` … ``player_{n-1}`` (``player_0`` is
White in Spanish draughts, the bottom seat of the star in Chinese
checkers). Observations are dicts as in PettingZoo's classic games:
``"observation"``, the int8 planes from the agent's point of view, and
``"action_mask"``, int8 over the fixed action space (all zero for an agent
that is not to move). See ``damas.RlGame`` and python/README.md for the
encodings.

Rewards come when an agent's place is decided: 1 for the first place, -1
for the last, linear between, tied agents sharing the mean of their
places (a two-player draw is 0 for both; a finished game's rewards sum to
0). An agent whose place is decided is terminated and leaves after its
``step(None)``; the game goes on for the others when its rules say so
(Chinese checkers with 3 or more players). A forced pass is played by the
environment. An illegal action ends the game: the agent gets
``illegal_reward`` (default -1) and the others 0, as PettingZoo's
``TerminateIllegalWrapper`` does; an action outside the action space
raises ``ValueError``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from damas._damas import RlGame
from ._render import render_text


class DamasAECEnv(AECEnv, EzPickle):
    """A PettingZoo AEC environment over a ``damas.RlGame``; each game's
    ``raw_env`` records its own arguments for pickling (``EzPickle``)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "damas",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        kind: str,
        players: int | None = None,
        rules: dict | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self._illegal_reward = float(illegal_reward)
        self._game = RlGame(kind, players, rules)
        count = self._game.player_count
        self._num_actions = self._game.num_actions
        self.possible_agents = [f"player_{i}" for i in range(count)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0, 1, self._game.observation_shape, dtype=np.int8
                ),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self._num_actions) for a in self.possible_agents
        }
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def game(self) -> RlGame:
        """The game being played (read it; play through ``step``)."""
        return self._game

    def observe(self, agent):
        planes, mask = self._game.observe(self._seat[agent])
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed=None, options=None):
        # The games have no chance: the seed changes nothing.
        self._game.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        # Whether `rewards` holds anything but zeros (only after a step that
        # decided places): most steps then touch no dict but their own.
        self._rewards_set = False
        self.agent_selection = self.possible_agents[self._game.to_move]
        if self.render_mode == "human":
            self.render()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        if self._rewards_set:
            for other in rewards:
                rewards[other] = 0.0
            self._rewards_set = False
        placed = self._game.step_places(action)
        if placed is None:
            if not 0 <= int(action) < self._num_actions:
                raise ValueError(
                    f"action {action} is not in the action space 0-{self._num_actions - 1}"
                )
            for other in self.agents:
                self.terminations[other] = True
            rewards[agent] = self._illegal_reward
            self.infos[agent] = {"illegal_action": int(action)}
            placed = ()
            self._rewards_set = True
        for seat, reward in placed:
            other = self.possible_agents[seat]
            rewards[other] = reward
            self.terminations[other] = True
            self._rewards_set = True
        to_move = self._game.to_move
        if to_move is not None:
            self.agent_selection = self.possible_agents[to_move]
        if self._rewards_set:
            self._accumulate_rewards()
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self):
        return render_text(self.render_mode, self._game)

    def close(self):
        pass


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, whose
    per-step calls (``last``, ``step``, ``observe``, the iterator's
    ``agents`` and ``agent_selection``) go straight to the environment
    instead of through ``__getattr__``, which costs more than the step."""

    def _reset_attribute(self, name):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    agents = property(lambda self: self._reset_attribute("agents"))
    agent_selection = property(lambda self: self._reset_attribute("agent_selection"))
    rewards = property(lambda self: self._reset_attribute("rewards"))
    terminations = property(lambda self: self._reset_attribute("terminations"))
    truncations = property(lambda self: self._reset_attribute("truncations"))
    infos = property(lambda self: self._reset_attribute("infos"))

    def last(self, observe=True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action):
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)
