//! A game: start position, history, and the end-of-game rules.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{Color, FenError, Move, MoveParseError, Position};

/// Plies without a capture or a man move after which Spanish draughts is
/// drawn (40 moves by each side); [`Rules::no_progress_plies`](super::Rules::no_progress_plies) gives each
/// variant's.
pub const NO_PROGRESS_PLIES: u32 = 80;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no pieces left.
    NoPieces,
    /// The loser has pieces but no legal move (blocked).
    NoMoves,
    /// The loser resigned, or a referee forfeited them
    /// ([`resign`](crate::Game::resign)).
    Resignation,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move occurred three times.
    Repetition,
    /// 80 plies without a capture and without a man moving (40 in
    /// Portuguese draughts, 30 in Russian).
    NoProgress,
    /// Russian draughts: with both sides having a king, the balance of the
    /// forces did not change within the plies of
    /// [`Rules::unchanged_balance_plies`](super::Rules::unchanged_balance_plies).
    UnchangedBalance,
    /// Three kings did not beat a lone king within the plies of
    /// [`Rules::three_kings_plies`](super::Rules::three_kings_plies) (Portuguese draughts: 24).
    ThreeKings,
    /// A referee stopped the game
    /// ([`adjudicate_draw`](crate::Game::adjudicate_draw)).
    Adjudicated,
}

/// State of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// The side to move has a legal move and no draw applies.
    Ongoing,
    /// Decided.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl GameStatus {
    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != GameStatus::Ongoing
    }
}

/// Why a move, resignation or move text was refused; the trait's
/// [`PlayError`](crate::PlayError) carries its message.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum DraughtsError {
    /// The move is not legal in the current position.
    #[error("illegal move {0}")]
    Illegal(Move),
    /// The game has already ended.
    #[error("the game is over")]
    GameOver(GameStatus),
    /// The move text was not accepted.
    #[error(transparent)]
    Parse(#[from] MoveParseError),
}

/// A game of Spanish draughts with its history.
///
/// The game-level operations (legal moves, playing, resigning, taking
/// back) are those of the [`crate::Game`] trait.
///
/// ```
/// use damas::spanish::{Draughts, GameStatus};
/// use damas::Game;
/// let mut game = Draughts::default();
/// assert_eq!(game.play_text("11-15").unwrap(), "11-15");
/// assert_eq!(game.moves()[0].to().number(), 15);
/// assert_eq!(game.status(), GameStatus::Ongoing);
/// assert_eq!(game.plies_without_progress(), 0); // a man moved
/// assert_eq!(game.history_hashes().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Draughts {
    start: Position,
    /// Every position from the start to the current one.
    pub(super) positions: Vec<Position>,
    /// Hashes of `positions`.
    pub(super) hashes: Vec<u64>,
    pub(super) moves: Vec<Move>,
    /// No-progress count after each position in `positions`.
    pub(super) counts: Vec<u32>,
    /// A resignation or a referee's ruling that ended the game after the
    /// last position.
    pub(super) ruling: Option<GameStatus>,
}

impl Default for Draughts {
    fn default() -> Draughts {
        Draughts::new(Position::start())
    }
}

impl Draughts {
    /// A game starting from `start` with an empty history and the
    /// no-progress count at zero.
    pub fn new(start: Position) -> Draughts {
        Draughts {
            start,
            positions: vec![start],
            hashes: vec![start.hash()],
            moves: Vec::new(),
            counts: vec![0],
            ruling: None,
        }
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of every position from the start to the current one inclusive
    /// (for repetition detection in search).
    pub fn history_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Plies since the last capture or man move (or since the start).
    pub fn plies_without_progress(&self) -> u32 {
        self.counts.last().copied().unwrap_or(0)
    }

    /// How many times the current position (with the same side to move) has
    /// occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        // Positions before the last capture or man move cannot recur.
        let window = self.plies_without_progress() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .filter(|p| *p == cur)
            .count()
    }

    /// Plies played since three kings first stood against a lone king, when
    /// they do now (the side with three kings and nothing else, the other
    /// with one king and nothing else); `None` otherwise. The material
    /// only shrinks, so the ending is the last stretch of the game.
    pub fn three_kings_plies_played(&self) -> Option<u32> {
        let ending = |p: &Position| {
            let (white, black) = (p.white.count_ones(), p.black.count_ones());
            (p.white | p.black) & !p.kings == 0 && matches!((white, black), (3, 1) | (1, 3))
        };
        self.plies_within(ending)
    }

    /// Plies played since the first position of the stretch that ends
    /// the game so far where every position meets `within`; `None` when
    /// the current one does not.
    fn plies_within(&self, within: impl Fn(&Position) -> bool) -> Option<u32> {
        let stretch = self
            .positions
            .iter()
            .rev()
            .take_while(|p| within(p))
            .count();
        (stretch > 0).then(|| stretch as u32 - 1)
    }

    /// Plies played since the balance of the forces (each side's men and
    /// kings) last changed, when both sides have a king now and had one
    /// all along; `None` when a side has no king.
    pub fn unchanged_balance_plies_played(&self) -> Option<u32> {
        let balance = |p: &Position| {
            let (kings, men) = (p.kings, (p.white | p.black) & !p.kings);
            [
                (p.white & kings).count_ones(),
                (p.black & kings).count_ones(),
                (p.white & men).count_ones(),
                (p.black & men).count_ones(),
            ]
        };
        let now = balance(self.position());
        if now[0] == 0 || now[1] == 0 {
            return None;
        }
        self.plies_within(|p| balance(p) == now)
    }

    /// The state of the game. A win (no pieces, then no legal move) takes
    /// precedence over the draws; then threefold repetition, then the
    /// no-progress rule of the variant ([`Rules::no_progress_plies`](super::Rules::no_progress_plies): 80
    /// plies, 40 in Portuguese draughts, 30 in Russian), then Russian
    /// draughts' unchanged balance of forces, then three kings against one
    /// ([`Rules::three_kings_plies`](super::Rules::three_kings_plies)). A side without pieces has lost whoever is
    /// to move, so a FEN with one side empty is over as soon as it is read.
    pub fn status(&self) -> GameStatus {
        if let Some(ruling) = self.ruling {
            return ruling;
        }
        let pos = self.position();
        let side = pos.to_move();
        for loser in [side, side.opposite()] {
            if pos.pieces(loser).is_empty() {
                return GameStatus::Win {
                    winner: loser.opposite(),
                    reason: WinReason::NoPieces,
                };
            }
        }
        if pos.count_legal_moves() == 0 {
            return GameStatus::Win {
                winner: side.opposite(),
                reason: WinReason::NoMoves,
            };
        }
        if self.repetitions() >= 3 {
            return GameStatus::Draw {
                reason: DrawReason::Repetition,
            };
        }
        let rules = pos.rules();
        if self.plies_without_progress() >= rules.no_progress_plies() {
            return GameStatus::Draw {
                reason: DrawReason::NoProgress,
            };
        }
        let pieces = pos.occupied().count();
        if let (Some(limit), Some(played)) = (
            rules.unchanged_balance_plies(pieces),
            self.unchanged_balance_plies_played(),
        ) {
            if played >= limit {
                return GameStatus::Draw {
                    reason: DrawReason::UnchangedBalance,
                };
            }
        }
        if let (Some(limit), Some(played)) =
            (rules.three_kings_plies(), self.three_kings_plies_played())
        {
            if played >= limit {
                return GameStatus::Draw {
                    reason: DrawReason::ThreeKings,
                };
            }
        }
        GameStatus::Ongoing
    }

    /// Plays `mv`, known to be legal, and updates the counters (the
    /// trait's [`play`](crate::Game::play) checks it first).
    pub(super) fn push(&mut self, mv: Move) {
        let pos = *self.position();
        let progress = mv.is_capture() || pos.moves_man(&mv);
        let count = if progress {
            0
        } else {
            self.plies_without_progress() + 1
        };
        let next = pos.played_unchecked(&mv);
        self.positions.push(next);
        self.hashes.push(next.hash());
        self.moves.push(mv);
        self.counts.push(count);
    }
}

impl fmt::Display for Draughts {
    /// Writes the FEN of the current position (as the Chinese
    /// [`Draughts`](crate::chinese::Checkers) writes its position text).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position().to_fen())
    }
}

impl FromStr for Draughts {
    type Err = FenError;

    /// Reads a FEN: a new game starting at that position.
    ///
    /// ```
    /// use damas::spanish::{Color, Draughts};
    /// use damas::Game;
    /// let mut game: Draughts = "B:W1-10,12,15:B21-32".parse().unwrap();
    /// assert_eq!(game.position().to_move(), Color::Black);
    /// assert!(game.moves().is_empty());
    /// game.play_text("22-18").unwrap();
    /// assert_eq!(game.to_string(), "W:W1-10,12,15:B18,21,23-32");
    /// assert!("W:W1:B1".parse::<Draughts>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Draughts, FenError> {
        Ok(Draughts::new(s.parse()?))
    }
}
