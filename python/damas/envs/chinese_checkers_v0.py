"""Chinese checkers for 1–6 players (and the Japanese variant for 1–3) as a
PettingZoo AEC environment, named as PettingZoo's classic games are.

    from damas.envs import chinese_checkers_v0
    env = chinese_checkers_v0.env(players=3, variant="international")

Actions: ``from * 121 + to`` over the 121 points of the star, numbered as
the acting player sees the board (turned so that its camp is at the
bottom). Observations: ``"observation"`` int8 planes 17 × 17 × C on the
star's axial coordinates from the agent's point of view (row 0 on its
side): one plane of pieces per player, the agent first and then in turn
order, one of kings per player in the Japanese variant, and a last plane
marking the star's points (C = players + 1, or 2 × players + 1 for the
Japanese variant); ``"action_mask"`` int8 over the 14 641 actions.
``rules`` sets rule options by name (``{"MoveLimit": 100}``, see
``damas.rule_options()``).
"""

from __future__ import annotations

from gymnasium.utils import EzPickle

from damas.envs._aec import DamasAECEnv, OrderEnforcing

VARIANTS = {"international": "chinese", "japanese": "japanese"}


class raw_env(DamasAECEnv):  # noqa: N801 (PettingZoo's name)
    """Chinese checkers without PettingZoo's order-enforcing wrapper."""

    metadata = dict(DamasAECEnv.metadata, name="chinese_checkers_v0")

    def __init__(
        self,
        players: int = 2,
        variant: str = "international",
        render_mode: str | None = None,
        rules: dict | None = None,
        illegal_reward: float = -1.0,
    ):
        if variant not in VARIANTS:
            raise ValueError(f"variant {variant!r} is not one of {sorted(VARIANTS)}")
        if variant == "japanese" and not 1 <= players <= 3:
            raise ValueError(
                f"the Japanese variant is for 1-3 players, not {players}"
            )
        super().__init__(VARIANTS[variant], players, rules, render_mode, illegal_reward)
        EzPickle.__init__(self, players, variant, render_mode, rules, illegal_reward)


def env(**kwargs):
    """The environment as PettingZoo's classic games give it, in
    PettingZoo's order-enforcing wrapper (a faster subclass with the same
    checks); illegal and out-of-range actions are handled by the
    environment itself, as ``TerminateIllegalWrapper`` and
    ``AssertOutOfBoundsWrapper`` would."""
    return OrderEnforcing(raw_env(**kwargs))
