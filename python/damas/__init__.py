"""Spanish draughts and Chinese checkers from the ``damas`` engine.

``damas.Game`` plays either game through the engine's rules: legal moves
(``Move`` objects with text, ``from_``, ``to``, ``path``, ``captures``),
checked play and undo, position text in and out, outcome with places and
reason, Zobrist hash, perft and divide. ``damas.Engine`` searches a game
under limits. ``damas.RlGame`` is the reinforcement-learning encoding the
environments use: fixed action ids, legal-action masks and observation
planes.

Environments live in ``damas.envs`` (PettingZoo and Gymnasium) and
``damas.openspiel`` (OpenSpiel games); importing them needs those
libraries.
"""

from damas._damas import (
    MAX_PLAYERS,
    DamasError,
    Engine,
    Game,
    IllegalMoveError,
    Move,
    MoveList,
    OptionError,
    Outcome,
    PositionError,
    RlGame,
    Score,
    SearchResult,
    __version__,
    game_kinds,
    rule_options,
)

from collections.abc import Sequence as _Sequence

_Sequence.register(MoveList)

__all__ = [
    "MAX_PLAYERS",
    "DamasError",
    "Engine",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveList",
    "OptionError",
    "Outcome",
    "PositionError",
    "RlGame",
    "Score",
    "SearchResult",
    "__version__",
    "game_kinds",
    "rule_options",
]
