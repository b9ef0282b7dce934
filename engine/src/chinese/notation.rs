//! Move text: paths of cell names joined by `-`.
//!
//! A step prints as `e4-e5`, a chain as every landing point in order,
//! `e3-e5-g7`. Input accepts the full path or just the two ends, in any
//! case, with `-` or `x` as separator (see [`Checkers::play_text`]).
//!
//! [`Checkers::play_text`]: crate::Game::play_text

use super::error::CheckersError;
use super::geometry::Cell;
use super::moves::Move;
use std::str::FromStr;

/// Writes a path as `e1-e3-g5`.
///
/// ```
/// use damas::chinese::{format_path, parse_path};
/// let p = parse_path("e3-e5-g7").unwrap();
/// assert_eq!(format_path(&p), "e3-e5-g7");
/// ```
pub fn format_path(path: &[Cell]) -> String {
    path.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// Reads a path of two or more cell names separated by `-` (or `x`).
///
/// # Errors
///
/// [`CheckersError::Syntax`] for fewer than two parts or an empty one; the
/// cell-name error (as a [`CheckersError`]) for a part that is no cell of the
/// star.
pub fn parse_path(text: &str) -> Result<Vec<Cell>, CheckersError> {
    let t = text.trim();
    let parts: Vec<&str> = t.split(['-', 'x', 'X']).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(CheckersError::Syntax(t.to_string()));
    }
    parts
        .iter()
        .map(|p| p.parse::<Cell>().map_err(CheckersError::from))
        .collect()
}

impl FromStr for Move {
    type Err = CheckersError;

    /// Reads a move without a position: a path (`e1-e3-g5`) or its two ends
    /// (`e1-g5`) give the move from the first point to the last. Whether it
    /// is legal is for the position to say ([`Position::play`]).
    ///
    /// ```
    /// use damas::chinese::Move;
    /// let mv: Move = "e3-e5-g7".parse().unwrap();
    /// assert_eq!(mv.to_string(), "e3-g7");
    /// assert!("e3".parse::<Move>().is_err());
    /// ```
    ///
    /// [`Position::play`]: super::Position::play
    fn from_str(s: &str) -> Result<Move, CheckersError> {
        let cells = parse_path(s)?;
        Ok(Move::new(cells[0], cells[cells.len() - 1]))
    }
}
