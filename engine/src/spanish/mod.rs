//! Spanish draughts (damas españolas).
