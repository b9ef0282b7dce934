//! The exceptions the module raises, one per library error type, and the
//! conversions from the library's errors (their `Display` is the message).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    damas,
    DamasError,
    PyValueError,
    "An error of the damas library; the message is the library's own."
);
create_exception!(
    damas,
    IllegalMoveError,
    DamasError,
    "A move, pass or resignation the game refused (it stays unchanged)."
);
create_exception!(
    damas,
    PositionError,
    DamasError,
    "A position text that could not be read."
);
create_exception!(
    damas,
    OptionError,
    DamasError,
    "A game, player count, rule, engine setting or argument out of range."
);

/// Adds the exception types to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DamasError", py.get_type::<DamasError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    Ok(())
}

/// A refused move as `IllegalMoveError`.
pub fn play_error(error: damas::PlayError) -> PyErr {
    IllegalMoveError::new_err(error.to_string())
}

/// An unreadable position as `PositionError`.
pub fn position_error(error: damas::PositionError) -> PyErr {
    PositionError::new_err(error.to_string())
}

/// A bad option or argument as `OptionError`.
pub fn option_error(message: impl std::fmt::Display) -> PyErr {
    OptionError::new_err(message.to_string())
}
