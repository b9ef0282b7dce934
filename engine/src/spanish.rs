//! The draughts module under its earlier name: every item of
//! [`draughts`](crate::draughts), so that `damas::spanish::...` paths keep
//! working.

pub use crate::draughts::*;
