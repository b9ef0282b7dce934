//! Match openings: positions from a file, or random legal plies from the
//! start.

use std::collections::HashSet;

use damas::options::Options;
use damas::{AnyGame, Game};
use fastrand::Rng;

/// A starting point for a game: a position (or the start position) and
/// moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Position text, or `None` for the start position.
    pub start: Option<String>,
    /// Moves from there, in the game's notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The game after the opening, or why the opening is not valid.
    pub fn build(&self, options: &Options) -> Result<AnyGame, String> {
        let spec = options.spec().map_err(|err| err.to_string())?;
        let mut game = match &self.start {
            None => AnyGame::new(&spec),
            Some(text) => AnyGame::from_text(&spec, text).map_err(|err| err.to_string())?,
        };
        for mv in &self.moves {
            game.play_text(mv)
                .map_err(|err| format!("opening move '{mv}': {err}"))?;
        }
        if game.is_over() {
            return Err("the opening ends the game".into());
        }
        Ok(game)
    }

    /// Parses one line of an openings file: `startpos [moves ...]`,
    /// `fen TEXT [moves ...]`, or a bare position text `TEXT [moves ...]`
    /// (the cutegames convention: whatever follows `position fen`).
    pub fn parse_line(line: &str) -> Option<Opening> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        let (head, moves) = match line.split_once(" moves") {
            Some((head, moves)) => (
                head.trim(),
                moves.split_whitespace().map(String::from).collect(),
            ),
            None => (line, Vec::new()),
        };
        let start = match head {
            "startpos" | "" => None,
            text => Some(text.strip_prefix("fen ").unwrap_or(text).trim().to_string()),
        };
        Some(Opening { start, moves })
    }
}

/// `count` random openings of `plies` random legal moves from the start,
/// each still unfinished, without repeats where the game allows it. When
/// the game has fewer distinct openings of that length (200 draws in a
/// row found nothing new), the ones found are returned: a match cycles
/// through its openings anyway.
pub fn random_openings(
    options: &Options,
    plies: usize,
    count: usize,
    rng: &mut Rng,
) -> Vec<Opening> {
    let mut openings: Vec<Opening> = Vec::with_capacity(count);
    let mut seen: HashSet<Vec<String>> = HashSet::with_capacity(count);
    // The match checked its options before asking for openings.
    let Ok(spec) = options.spec() else {
        return openings;
    };
    let mut attempts = 0;
    let mut repeats_in_a_row = 0;
    while openings.len() < count && attempts < count * 50 + 100 {
        attempts += 1;
        if repeats_in_a_row >= 200 && !openings.is_empty() {
            break;
        }
        let mut game = AnyGame::new(&spec);
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = game.legal_moves_text();
            if legal.is_empty() || game.is_over() {
                break;
            }
            let pick = legal[rng.usize(..legal.len())].clone();
            match game.play_text(&pick) {
                Ok(played) => moves.push(played),
                Err(_) => break,
            }
        }
        let repeat = seen.contains(&moves);
        repeats_in_a_row = if repeat { repeats_in_a_row + 1 } else { 0 };
        let fresh = !repeat || attempts > count * 20;
        if !game.is_over() && fresh {
            seen.insert(moves.clone());
            openings.push(Opening { start: None, moves });
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_lines_in_every_form() {
        assert_eq!(Opening::parse_line("# comment"), None);
        assert_eq!(Opening::parse_line("   "), None);
        assert_eq!(
            Opening::parse_line("startpos moves 11-15 22-18"),
            Some(Opening {
                start: None,
                moves: vec!["11-15".into(), "22-18".into()]
            })
        );
        assert_eq!(
            Opening::parse_line("fen B:W18,K3:BK30,22"),
            Some(Opening {
                start: Some("B:W18,K3:BK30,22".into()),
                moves: vec![]
            })
        );
        assert_eq!(
            Opening::parse_line("position fen W:W1-12:B21-32 moves 9-13"),
            Some(Opening {
                start: Some("W:W1-12:B21-32".into()),
                moves: vec!["9-13".into()]
            })
        );
    }

    #[test]
    fn random_openings_stop_when_the_game_has_no_more() {
        let options = Options::default();
        // Spanish draughts has 7 first moves: asking for 50 gives 7.
        let openings = random_openings(&options, 1, 50, &mut Rng::with_seed(3));
        assert_eq!(openings.len(), 7);
    }

    #[test]
    fn random_openings_are_legal_and_distinct() {
        let options = Options::default();
        let mut rng = Rng::with_seed(7);
        let openings = random_openings(&options, 4, 20, &mut rng);
        assert_eq!(openings.len(), 20);
        for (i, opening) in openings.iter().enumerate() {
            assert_eq!(opening.moves.len(), 4);
            assert!(opening.build(&options).is_ok());
            assert!(!openings[..i].contains(opening), "repeat {opening:?}");
        }
    }
}
