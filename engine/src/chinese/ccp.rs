//! JumpStar's CCP notation, the protocol of the CCERL benchmark: cell ids,
//! the 121-character compact position and hop paths written as ids.
//!
//! CCP numbers the star's points by axial row then column, player 0's home
//! on ids 0–9. That is exactly Damas's cell order ([`Cell::index`]: rank
//! then file, from `e1`, the tip of `p1`'s home), so a CCP id is a cell
//! index and CCP player 0 is `p1` (South). The table is in
//! docs/NOTATION.md.

use super::geometry::{Cell, CELLS};
use super::{Checkers, Rules, TextError};

/// The CCP id of a cell (`0..121`; `e1` is 0, `m17` is 120).
///
/// ```
/// use damas::chinese::{ccp, Cell};
/// let e1: Cell = "e1".parse().unwrap();
/// assert_eq!(ccp::id(e1), 0);
/// assert_eq!(ccp::cell(120).map(|c| c.to_string()).as_deref(), Some("m17"));
/// ```
pub fn id(cell: Cell) -> u8 {
    cell.index() as u8
}

/// The cell with CCP id `id`, if `id < 121`.
pub fn cell(id: usize) -> Option<Cell> {
    Cell::from_index(id)
}

/// Why a CCP text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CcpError {
    /// A compact position is 121 characters, each `.`, `0` or `1`.
    #[error("a CCP position is 121 characters '.', '0' or '1' (got {0})")]
    Compact(String),
    /// The player to move is 0 or 1.
    #[error("CCP player to move must be 0 or 1 (got {0})")]
    Player(u32),
    /// A hop path is ids `0..121` joined by `-`.
    #[error("not a CCP path of cell ids: '{0}'")]
    Path(String),
    /// The pieces make no valid position.
    #[error(transparent)]
    Position(#[from] TextError),
}

fn shortened(text: &str) -> String {
    text.chars().take(40).collect()
}

/// Reads `position cells <COMPACT121> player <0|1> ply <N>` into a game of
/// `rules` (two players): player 0 is `p1`; `ply` plies were played from a
/// start that player 0 opened, so `ply / 2` rounds are complete.
///
/// ```
/// use damas::chinese::{ccp, Rules};
/// use damas::Game;
/// let start = ".".repeat(121);
/// let mut cells: Vec<char> = start.chars().collect();
/// for id in 0..10 { cells[id] = '0'; }
/// for id in 111..121 { cells[id] = '1'; }
/// let text: String = cells.into_iter().collect();
/// let game = ccp::read_position(&text, 0, 0, &Rules::ccerl()).unwrap();
/// assert_eq!(game.legal_moves().len(), 14);
/// assert_eq!(ccp::compact(&game), text);
/// ```
///
/// # Errors
///
/// [`CcpError::Player`] for a `player` other than 0 or 1;
/// [`CcpError::Compact`] unless `cells` is 121 characters of `.`, `0` and
/// `1`; [`CcpError::Position`] when the rules refuse the position (too many
/// pieces, for one).
pub fn read_position(
    cells: &str,
    player: u32,
    ply: u32,
    rules: &Rules,
) -> Result<Checkers, CcpError> {
    if player > 1 {
        return Err(CcpError::Player(player));
    }
    let bytes = cells.as_bytes();
    if bytes.len() != CELLS || !bytes.iter().all(|b| matches!(b, b'.' | b'0' | b'1')) {
        return Err(CcpError::Compact(shortened(cells)));
    }
    let list = |owner: u8| {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == owner)
            .filter_map(|(i, _)| cell(i).map(|c| c.to_string()))
            .collect::<Vec<_>>()
            .join(",")
    };
    let text = format!(
        "I2 {} {}/{} first=1 ply={ply} rounds={}",
        player + 1,
        list(b'0'),
        list(b'1'),
        ply / 2
    );
    let rules = Rules {
        players: 2,
        ..*rules
    };
    Ok(Checkers::from_text_with_defaults(&text, &rules)?)
}

/// The compact 121-character position of a two-player game (`.` empty,
/// `0` for `p1`, `1` for `p2`).
pub fn compact(game: &Checkers) -> String {
    Cell::all()
        .map(|c| match game.position().piece_at(c) {
            Some((0, _)) => '0',
            Some((1, _)) => '1',
            _ => '.',
        })
        .collect()
}

/// A path in Damas's notation (`f3-f5-h5`) written as CCP ids (`4-15-17`).
///
/// # Errors
///
/// [`CcpError::Path`] when a part of `path` is not a cell name.
pub fn ids_of_path(path: &str) -> Result<String, CcpError> {
    path.split('-')
        .map(|name| {
            name.parse::<Cell>()
                .map(|c| id(c).to_string())
                .map_err(|_| CcpError::Path(shortened(path)))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|ids| ids.join("-"))
}

/// A path of CCP ids (`4-15-17`) in Damas's notation (`f3-f5-h5`).
///
/// # Errors
///
/// [`CcpError::Path`] when a part of `ids` is not a CCP id (0 to 120).
pub fn path_of_ids(ids: &str) -> Result<String, CcpError> {
    ids.split('-')
        .map(|text| {
            text.parse::<usize>()
                .ok()
                .and_then(cell)
                .map(|c| c.to_string())
                .ok_or_else(|| CcpError::Path(shortened(ids)))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|names| names.join("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_rank_then_file_from_the_south_tip() {
        let names: Vec<String> = (0..12).filter_map(cell).map(|c| c.to_string()).collect();
        assert_eq!(
            names,
            ["e1", "e2", "f2", "e3", "f3", "g3", "e4", "f4", "g4", "h4", "a5", "b5"]
        );
        assert_eq!(ids_of_path("f3-f5-h5"), Ok("4-15-17".to_string()));
        assert_eq!(path_of_ids("4-15-17"), Ok("f3-f5-h5".to_string()));
        assert!(path_of_ids("4-121").is_err());
        assert!(ids_of_path("f3-z9").is_err());
    }

    #[test]
    fn bad_compact_positions_are_refused() {
        let rules = Rules::ccerl();
        assert!(matches!(
            read_position("...", 0, 0, &rules),
            Err(CcpError::Compact(_))
        ));
        assert!(matches!(
            read_position(&"2".repeat(121), 0, 0, &rules),
            Err(CcpError::Compact(_))
        ));
        assert!(matches!(
            read_position(&".".repeat(121), 2, 0, &rules),
            Err(CcpError::Player(2))
        ));
    }
}
