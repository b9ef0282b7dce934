"""Both games as OpenSpiel games, registered on import:

    import pyspiel
    import damas.openspiel
    game = pyspiel.load_game("python_damas_chinese", {"players": 3})
    spanish = pyspiel.load_game("python_damas_spanish")

Sequential, deterministic, perfect-information, zero-sum games with a
terminal reward, so OpenSpiel's algorithms (MCTS, minimax, ...) run on
them unmodified. Actions, observation tensors and returns are those of
``damas.RlGame``: fixed action ids from the mover's point of view, the
observation planes flattened (height × width × channels, float32), returns
from the places (1 first, -1 last, linear between, ties share the mean).
Forced passes are played by the game, so the player to move always has a
legal action.

Parameters of ``python_damas_chinese``: ``players`` (2–6, default 2),
``variant`` (``"international"`` or ``"japanese"``, 2–3 players),
``move_limit`` and ``no_progress_limit`` in rounds (defaults 200 and 30, as
the library's rules; the move limit must be positive so that the game
has a maximum length). ``python_damas_spanish`` has none.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from damas._damas import DamasError, RlGame

# Spanish draughts ends after 80 plies without a capture or a man move, a
# man advances at most 7 times and at most 24 pieces are taken: no game is
# longer than (24 * 7 + 24 + 1) * 80 plies.
SPANISH_MAX_LENGTH = (24 * 7 + 24 + 1) * 80

_VARIANTS = {"international": "chinese", "japanese": "japanese"}


def _game_type(short_name, long_name, min_players, max_players, parameters):
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


SPANISH_TYPE = _game_type("python_damas_spanish", "Python damas Spanish draughts", 2, 2, {})
CHINESE_TYPE = _game_type(
    "python_damas_chinese",
    "Python damas Chinese checkers",
    2,
    6,
    {"players": 2, "variant": "international", "move_limit": 200, "no_progress_limit": 30},
)


class DamasGame(pyspiel.Game):
    """An OpenSpiel game over ``damas.RlGame``."""

    def __init__(self, game_type, kind, players, rules, max_length, params):
        self._setup = (kind, players, rules)
        self._prototype = RlGame(kind, players, rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self._prototype.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_length,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self):
        return DamasState(self, self._prototype.copy())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return DamasObserver(self._prototype.observation_shape, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class SpanishDraughtsGame(DamasGame):
    """``python_damas_spanish``."""

    def __init__(self, params=None):
        super().__init__(SPANISH_TYPE, "spanish", 2, None, SPANISH_MAX_LENGTH, params or {})


class ChineseCheckersGame(DamasGame):
    """``python_damas_chinese``: ``players``, ``variant``, ``move_limit``,
    ``no_progress_limit``."""

    def __init__(self, params=None):
        params = dict(params or {})
        merged = {**CHINESE_TYPE.parameter_specification, **params}
        players = int(merged["players"])
        variant = str(merged["variant"])
        move_limit = int(merged["move_limit"])
        no_progress = int(merged["no_progress_limit"])
        if variant not in _VARIANTS:
            raise ValueError(f"variant {variant!r} is not one of {sorted(_VARIANTS)}")
        if not 2 <= players <= (3 if variant == "japanese" else 6):
            raise ValueError(f"{variant} Chinese checkers is not played by {players} players here")
        if move_limit < 1:
            raise ValueError("move_limit must be at least 1 round (OpenSpiel games have a maximum length)")
        rules = {"MoveLimit": move_limit, "NoProgressLimit": no_progress}
        # A round is one turn of each player still in the game.
        super().__init__(CHINESE_TYPE, _VARIANTS[variant], players, rules,
                         move_limit * players, params)


class DamasState(pyspiel.State):
    """A position of a damas game with its history."""

    def __init__(self, game, rl_game):
        super().__init__(game)
        self._game = rl_game

    def current_player(self):
        player = self._game.to_move
        return pyspiel.PlayerId.TERMINAL if player is None else player

    def _legal_actions(self, player):
        if player != self._game.to_move:
            return []
        return self._game.legal_actions()

    def _apply_action(self, action):
        if not self._game.step(action):
            raise ValueError(f"action {action} is not legal here")

    def _action_to_string(self, player, action):
        if player == self._game.to_move:
            try:
                return self._game.action_text(action)
            except DamasError:
                pass
        return f"action {action}"

    def is_terminal(self):
        return self._game.is_over

    def returns(self):
        # The reward is terminal: places decided mid-game (a finisher with
        # three or more players) count once the game is over.
        if not self._game.is_over:
            return [0.0] * self._game.player_count
        return [reward or 0.0 for reward in self._game.place_rewards()]

    def __str__(self):
        return self._game.position


class DamasObserver:
    """The observation planes of ``damas.RlGame``, flattened in
    ``tensor`` and shaped (height, width, channels) in
    ``dict["observation"]``."""

    def __init__(self, shape, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        self.tensor[:] = state._game.observation(player).ravel()

    def string_from(self, state, player):
        del player
        return state._game.position


pyspiel.register_game(SPANISH_TYPE, SpanishDraughtsGame)
pyspiel.register_game(CHINESE_TYPE, ChineseCheckersGame)
