//! JumpStar's CCP (the protocol of the CCERL benchmark) for game-neutral
//! front ends: a compact position read into an [`AnyGame`] of a
//! [`GameSpec`], and move paths between the game's cell names (`f3-f5-h5`)
//! and CCP cell ids (`4-15-17`). The notation itself is
//! [`crate::chinese::ccp`].

use crate::any::{AnyGame, GameSpec};
use crate::chinese::ccp;

/// Why [`read_cells`] built no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellsError {
    /// CCP positions are of two-player Chinese checkers, and the game
    /// asked for is another.
    #[error("a CCP position needs two-player Chinese checkers")]
    WrongGame,
    /// The cells, the player or the pieces make no position.
    #[error(transparent)]
    Invalid(#[from] ccp::CcpError),
}

/// The game of `spec` at the CCP position `cells` (121 characters `.`,
/// `0`, `1`) with CCP player `player` (0 or 1) to move after `ply` plies;
/// `spec` must be a two-player Chinese checkers game.
///
/// ```
/// use damas::{ccp, chinese::Rules, Game, GameSpec};
/// let mut cells = vec!['.'; 121];
/// cells[..10].fill('0');
/// cells[111..].fill('1');
/// let cells: String = cells.into_iter().collect();
/// let spec = GameSpec::Chinese(Rules::ccerl());
/// let game = ccp::read_cells(&spec, &cells, 0, 0).unwrap();
/// assert_eq!(game.legal_moves().len(), 14);
/// assert!(ccp::read_cells(&GameSpec::default(), &cells, 0, 0).is_err());
/// ```
///
/// # Errors
///
/// [`CellsError::WrongGame`] unless `spec` is two-player Chinese checkers;
/// otherwise the reasons of [`chinese::ccp::read_position`](crate::chinese::ccp::read_position)
/// (a player other than 0 or 1, cells that are not 121 of `.`, `0`, `1`, or
/// a position the rules refuse).
pub fn read_cells(
    spec: &GameSpec,
    cells: &str,
    player: u32,
    ply: u32,
) -> Result<AnyGame, CellsError> {
    match spec {
        GameSpec::Chinese(rules) if rules.players == 2 => {
            let game = ccp::read_position(cells, player, ply, rules)?;
            Ok(AnyGame::Chinese(Box::new(game)))
        }
        _ => Err(CellsError::WrongGame),
    }
}

/// The CCP position of `game`: its 121 cells (`.`, `0`, `1`) and the plies
/// played, as `position cells ... ply N` sends them; `None` for a game that
/// is not Chinese checkers.
///
/// ```
/// use damas::{ccp, chinese::Rules, AnyGame, Game, GameSpec};
/// let mut game = AnyGame::new(&GameSpec::Chinese(Rules::ccerl()));
/// game.play_text("e4-e5").unwrap();
/// let (cells, ply) = ccp::cells(&game).unwrap();
/// assert_eq!((cells.len(), ply), (121, 1));
/// assert_eq!(ccp::cells(&AnyGame::new(&GameSpec::default())), None);
/// ```
pub fn cells(game: &AnyGame) -> Option<(String, u32)> {
    match game {
        AnyGame::Chinese(game) => Some((ccp::compact(game), game.ply())),
        AnyGame::Spanish(_) => None,
    }
}

/// A move path in cell names (`f3-f5-h5`) as CCP ids (`4-15-17`), or
/// `None` when it is no such path (a draughts move, `pass`).
pub fn ids_of_path(path: &str) -> Option<String> {
    ccp::ids_of_path(path).ok()
}

/// A path of CCP ids (`4-15-17`) in cell names (`f3-f5-h5`), or `None`
/// when it is no such path.
pub fn path_of_ids(ids: &str) -> Option<String> {
    ccp::path_of_ids(ids).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::Rules;

    #[test]
    fn paths_convert_both_ways_and_other_moves_are_none() {
        assert_eq!(ids_of_path("f3-f5-h5").as_deref(), Some("4-15-17"));
        assert_eq!(path_of_ids("4-15-17").as_deref(), Some("f3-f5-h5"));
        assert_eq!(ids_of_path("11-15"), None);
        assert_eq!(ids_of_path("pass"), None);
        assert_eq!(path_of_ids("4-121"), None);
    }

    #[test]
    fn cells_need_two_player_chinese_checkers() {
        let empty = ".".repeat(121);
        for spec in [
            GameSpec::default(),
            GameSpec::Chinese(Rules::for_players(3)),
        ] {
            assert_eq!(
                read_cells(&spec, &empty, 0, 0).err(),
                Some(CellsError::WrongGame)
            );
        }
        let two = GameSpec::Chinese(Rules::ccerl());
        assert!(matches!(
            read_cells(&two, "...", 0, 0),
            Err(CellsError::Invalid(_))
        ));
    }
}
