//! The opening book of Spanish draughts: positions of the first plies with
//! the moves worth playing from each, each move's score and how often the
//! self-play that built the book chose it.
//!
//! The book is built by [`build_book`](crate::draughts::build_book) (the
//! command `damas book`) and shipped in
//! the library ([`Book::builtin`], from `engine/data/spanish_book.txt`). The
//! search plays from it when [`EngineOptions::own_book`] is on
//! ([`Engine::search`](crate::Search::search)): among the moves scored
//! within [`PLAY_MARGIN`] of the best, one is drawn at random, weighted by
//! its count, from the search's seed mixed with the position, so that a
//! seeded game replays and the others vary.
//!
//! [`EngineOptions::own_book`]: crate::search::EngineOptions::own_book
//!
//! ```
//! use damas::spanish::{Book, Position};
//! let book = Book::builtin();
//! let start = Position::start();
//! assert!(!book.moves(&start).is_empty());
//! let chosen = book.choose(&start, 7).expect("the start is in the book");
//! assert!(start.legal_moves().contains(&chosen.mv));
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::draughts::{long_text, Move, Position};
use crate::random::splitmix;

/// The moves within this many centi-men of the best are played.
pub const PLAY_MARGIN: i32 = 10;

/// The shipped book's text.
const BUILTIN: &str = include_str!("../../data/spanish_book.txt");

/// A move of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move, in centi-men (a search of the
    /// position after it).
    pub score: i32,
    /// How often the building self-play chose it.
    pub count: u32,
}

/// Why a book's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// A line that is not `FEN MOVE SCORE COUNT`, or whose position or move
    /// does not read.
    #[error("line {line}: {reason}")]
    BadLine {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl BookError {
    /// The error's machine code.
    pub fn code(&self) -> &'static str {
        match self {
            BookError::BadLine { .. } => "bad_book_line",
        }
    }
}

/// An opening book: the positions, by hash, with their moves.
#[derive(Clone, Debug, Default)]
pub struct Book {
    positions: HashMap<u64, (Position, Vec<BookMove>)>,
}

impl Book {
    /// The book shipped with the library, read once (a test reads the
    /// shipped text, which is never refused).
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::parse(BUILTIN).unwrap_or_default())
    }

    /// Reads a book's text: one move a line, `FEN MOVE SCORE COUNT`
    /// (`#` starts a comment line).
    ///
    /// # Errors
    ///
    /// [`BookError::BadLine`] for the first line that does not read.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: String| BookError::BadLine {
                line: index + 1,
                reason,
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [fen, text, score, count] = fields[..] else {
                return Err(bad("not FEN MOVE SCORE COUNT".into()));
            };
            let position = Position::from_fen(fen).map_err(|e| bad(e.to_string()))?;
            let mv = position.parse_move(text).map_err(|e| bad(e.to_string()))?;
            let score = score
                .parse::<i32>()
                .map_err(|_| bad(format!("score '{score}'")))?;
            let count = count
                .parse::<u32>()
                .map_err(|_| bad(format!("count '{count}'")))?;
            book.positions
                .entry(position.hash())
                .or_insert_with(|| (position, Vec::new()))
                .1
                .push(BookMove { mv, score, count });
        }
        Ok(book)
    }

    /// A book of these positions and moves.
    pub(crate) fn from_positions(positions: HashMap<u64, (Position, Vec<BookMove>)>) -> Book {
        Book { positions }
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The book's moves from `position` (none when it is not in the book).
    pub fn moves(&self, position: &Position) -> &[BookMove] {
        self.positions
            .get(&position.hash())
            .map_or(&[], |(_, moves)| moves.as_slice())
    }

    /// A move to play from `position`: among the legal book moves within
    /// [`PLAY_MARGIN`] of the best, one drawn by `seed` mixed with the
    /// position, weighted by count (plus one, so that a move the
    /// self-play never chose but scored as well may come up). `None` when
    /// the position is not in the book.
    pub fn choose(&self, position: &Position, seed: u64) -> Option<BookMove> {
        let legal = position.legal_moves();
        let moves: Vec<BookMove> = self
            .moves(position)
            .iter()
            .copied()
            .filter(|m| legal.contains(&m.mv))
            .collect();
        let best = moves.iter().map(|m| m.score).max()?;
        let near: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| m.score >= best - PLAY_MARGIN)
            .collect();
        let total: u64 = near.iter().map(|m| u64::from(m.count) + 1).sum();
        let (_, mixed) = splitmix(seed ^ position.hash());
        let mut pick = mixed % total.max(1);
        for m in &near {
            let weight = u64::from(m.count) + 1;
            if pick < weight {
                return Some(*m);
            }
            pick -= weight;
        }
        near.last().copied()
    }
}

impl Book {
    /// The book as text, one move a line, sorted (the same book is the same
    /// text), after `header` as `#` comment lines.
    pub fn text(&self, header: &str) -> String {
        let mut lines = BTreeMap::new();
        for (position, moves) in self.positions.values() {
            for m in moves {
                lines.insert((position.to_fen(), long_text(&m.mv)), (m.score, m.count));
            }
        }
        let mut text = String::new();
        for line in header.lines() {
            let _ = writeln!(text, "# {line}");
        }
        for ((fen, mv), (score, count)) in lines {
            let _ = writeln!(text, "{fen} {mv} {score} {count}");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_book_reads_and_holds_the_start() {
        let book = Book::parse(BUILTIN).expect("the shipped book reads");
        assert!(book.len() > 100, "{} positions", book.len());
        let start = Position::start();
        let moves = book.moves(&start);
        assert!(moves.len() >= 2, "several first moves: {moves:?}");
        for m in moves {
            assert!(start.legal_moves().contains(&m.mv));
        }
    }

    #[test]
    fn a_choice_is_a_near_best_move_and_repeats_with_its_seed() {
        let text =
            "W:W1-12:B21-32 10-14 8 5\nW:W1-12:B21-32 11-15 3 1\nW:W1-12:B21-32 9-13 -40 9\n";
        let book = Book::parse(text).expect("reads");
        let start = Position::start();
        let mut seen = Vec::new();
        for seed in 0..200u64 {
            let chosen = book.choose(&start, seed).expect("in the book");
            assert_eq!(book.choose(&start, seed), Some(chosen), "the same seed");
            // 9-13 is 48 below the best: never played.
            assert_ne!(long_text(&chosen.mv), "9-13");
            seen.push(long_text(&chosen.mv));
        }
        // Both near-best moves come up, the one chosen more often more.
        let often = seen.iter().filter(|m| *m == "10-14").count();
        let less = seen.iter().filter(|m| *m == "11-15").count();
        assert!(often > less && less > 0, "{often} and {less}");
        assert_eq!(
            book.choose(&Position::from_fen("B:W1-12:B21-32").expect("a FEN"), 1),
            None
        );
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, line) in [
            ("W:W1-12:B21-32 10-14 8\n", 1),
            (
                "# c\nW:W1-12:B21-32 10-14 8 5\nW:W1-12:B21-32 10-19 8 5\n",
                3,
            ),
            ("W:W1-12:B21-32 10-14 eight 5\n", 1),
            ("W:Q1:B2 10-14 8 5\n", 1),
        ] {
            match Book::parse(text) {
                Err(BookError::BadLine { line: at, .. }) => assert_eq!(at, line, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
