//! Chinese checkers (damas chinas) and the Japanese Diamond game.
