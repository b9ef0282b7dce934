"""Text rendering shared by the PettingZoo and Gymnasium environments."""

import gymnasium


def render_text(render_mode, game):
    """The game's diagram for ``render_mode`` ``"ansi"``, printed for
    ``"human"``; a warning and ``None`` without a render mode."""
    if render_mode is None:
        gymnasium.logger.warn(
            "render() was called without a render_mode; pass render_mode='ansi' or 'human'"
        )
        return None
    text = game.diagram()
    if render_mode == "ansi":
        return text
    print(text)
    return None
