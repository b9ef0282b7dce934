"""Reinforcement-learning environments of both games.

- PettingZoo AEC environments, named as PettingZoo's classic games:
  ``from damas.envs import chinese_checkers_v0, spanish_draughts_v0`` (these
  need ``pettingzoo``);
- Gymnasium single-agent environments against the engine, registered here
  as ``damas/SpanishDraughts-v0`` and ``damas/ChineseCheckers-v0``.
"""

import gymnasium

for _id, _entry in (
    ("damas/SpanishDraughts-v0", "damas.envs.gym_envs:SpanishDraughtsEnv"),
    ("damas/ChineseCheckers-v0", "damas.envs.gym_envs:ChineseCheckersEnv"),
):
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point=_entry)

__all__ = ["chinese_checkers_v0", "spanish_draughts_v0"]


def __getattr__(name):
    # The PettingZoo modules load on first use, so that the Gymnasium
    # environments work without PettingZoo installed.
    if name in __all__:
        import importlib

        return importlib.import_module(f"damas.envs.{name}")
    raise AttributeError(name)
