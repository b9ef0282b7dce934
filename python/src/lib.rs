//! Python bindings of the `damas` engine library: the module `damas._damas`
//! that the Python package `damas` re-exports.
//!
//! Everything goes through the engine's game-neutral interface
//! ([`damas::Game`], [`damas::Search`], [`damas::AnyGame`], the option
//! table [`damas::options`]); no game's internals are reached. Every value
//! a Python caller passes is checked here or by the library, whose errors
//! become Python exceptions with the library's messages:
//!
//! - `damas.IllegalMoveError` for a move, pass or resignation refused
//!   ([`damas::PlayError`]);
//! - `damas.PositionError` for a position text that does not read
//!   ([`damas::PositionError`]);
//! - `damas.OptionError` for a game, player count or rule that does not fit
//!   ([`damas::options::OptionError`]) and for out-of-range arguments;
//!
//! all three subclasses of `damas.DamasError`, itself a `ValueError`.
//!
//! Counting (perft, divide) and searching release the GIL and can be
//! interrupted: by Ctrl-C in the main thread, and searches by
//! `Engine.stop()` from any thread.

mod blocking;
mod engine;
mod errors;
mod game;
mod moves;
mod rl;
mod setup;

use pyo3::prelude::*;

/// The native part of the `damas` package.
#[pymodule]
fn _damas(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<moves::PyMoveList>()?;
    m.add_class::<game::PyOutcome>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyScore>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<rl::PyRlGame>()?;
    m.add_function(wrap_pyfunction!(game::restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(rl::restore_rl_game, m)?)?;
    m.add_function(wrap_pyfunction!(setup::game_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(setup::rule_options, m)?)?;
    m.add("MAX_PLAYERS", damas::MAX_PLAYERS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
