"""Spanish draughts as a PettingZoo AEC environment, named as PettingZoo's
classic games are.

    from damas.envs import spanish_draughts_v0
    env = spanish_draughts_v0.env()

Agents ``player_0`` (White, moves first) and ``player_1`` (Black).
Actions: ``(from * 32 + to) * 8 + k`` over the 32 squares, numbered as the
acting player sees the board (Black's turned half round: square ``s`` is
``33 - s``), with ``k`` the index among the captures that share ``from``
and ``to`` (ordered by the squares they take; random games never show
more than two). Observations: ``"observation"`` int8 planes 8 × 8 × 4 from
the agent's point of view (row 0 its back rank, column 0 its left): own
men, own kings, rival men, rival kings; ``"action_mask"`` int8 over the
8 192 actions.
"""

from __future__ import annotations

from gymnasium.utils import EzPickle

from damas.envs._aec import DamasAECEnv, OrderEnforcing


class raw_env(DamasAECEnv):  # noqa: N801 (PettingZoo's name)
    """Spanish draughts without PettingZoo's order-enforcing wrapper."""

    metadata = dict(DamasAECEnv.metadata, name="spanish_draughts_v0")

    def __init__(self, render_mode: str | None = None, illegal_reward: float = -1.0):
        super().__init__("spanish", 2, None, render_mode, illegal_reward)
        EzPickle.__init__(self, render_mode, illegal_reward)


def env(**kwargs):
    """The environment as PettingZoo's classic games give it, in
    PettingZoo's order-enforcing wrapper (a faster subclass with the same
    checks); illegal and out-of-range actions are handled by the
    environment itself, as ``TerminateIllegalWrapper`` and
    ``AssertOutOfBoundsWrapper`` would."""
    return OrderEnforcing(raw_env(**kwargs))
