//! The game-neutral interface: one [`Game`] trait that Spanish draughts
//! ([`spanish::Draughts`](crate::spanish::Draughts)) and Chinese checkers
//! ([`chinese::Checkers`](crate::chinese::Checkers), every variant and player count)
//! implement, with the types it speaks in: [`Player`], [`Outcome`],
//! [`EndReason`] and the errors [`PlayError`] and [`PositionError`].
//!
//! Code written once against [`Game`] runs both games;
//! [`AnyGame`](crate::AnyGame) picks the game at run time.
//!
//! ```
//! use damas::{Game, Player};
//! use damas::spanish;
//!
//! fn first_move<G: Game>(game: &mut G) -> String {
//!     let mv = game.legal_moves()[0];
//!     let text = game.move_text(&mv);
//!     game.play(mv).unwrap();
//!     text
//! }
//!
//! let mut draughts = spanish::Draughts::default();
//! let played = first_move(&mut draughts);
//! assert!(spanish::Draughts::default().legal_moves_text().contains(&played));
//! assert_eq!(draughts.to_move(), Player::new(1));
//! assert!(Game::undo(&mut draughts));
//! assert_eq!(draughts.to_move(), Player::new(0));
//! ```

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::board::{Board, MoveAnatomy, Piece, PlayedTurn, Player, PlayerStatus, Point};
use crate::search::{EngineOptions, SearchInfo, SearchLimits, SearchResult};

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// Spanish draughts: the loser has no pieces left.
    NoPieces,
    /// The loser has pieces but no legal move (Spanish draughts; Chinese
    /// checkers under the CCERL rules).
    NoMoves,
    /// The same position with the same side to move for the third time
    /// (Spanish draughts; Chinese checkers under the CCERL rules).
    Repetition,
    /// Draughts: `plies` plies without a capture or a man move (80 in
    /// Spanish draughts, 40 in Portuguese draughts).
    NoProgress {
        /// The variant's limit, in plies.
        plies: u32,
    },
    /// Russian draughts: both sides have a king and the balance of the
    /// forces (no capture, no man crowned) did not change within `plies`
    /// plies, which depend on the number of pieces.
    UnchangedBalance {
        /// The limit for the pieces on the board, in plies.
        plies: u32,
    },
    /// Portuguese draughts: three kings did not beat a lone king within
    /// `plies` plies.
    ThreeKings {
        /// The variant's limit, in plies.
        plies: u32,
    },
    /// Chinese checkers: every place was decided by finishing and
    /// resigning.
    AllPlaced,
    /// Chinese checkers: a player finished and the game stops at the first
    /// finisher (two players, or play-to-the-end off).
    FirstFinisher,
    /// Chinese checkers: the move limit in rounds was reached.
    MoveLimit,
    /// Chinese checkers: the no-progress limit in rounds was reached and
    /// the remaining players were ranked.
    NoProgressLimit,
    /// Chinese checkers: no player still playing had a legal move.
    Blocked,
    /// Spanish draughts: a player resigned (or a referee forfeited them).
    Resignation,
    /// A referee stopped the game and the players still in it share the
    /// next place.
    Adjudicated,
}

impl EndReason {
    /// The reason as a stable machine name (`no_pieces`, `no_progress`,
    /// `three_kings`, …), for a front end to pick its own words by; the
    /// numbers its words need are in [`EndReason::plies`].
    pub fn code(&self) -> &'static str {
        match self {
            EndReason::NoPieces => "no_pieces",
            EndReason::NoMoves => "no_moves",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress { .. } => "no_progress",
            EndReason::ThreeKings { .. } => "three_kings",
            EndReason::UnchangedBalance { .. } => "unchanged_balance",
            EndReason::AllPlaced => "all_placed",
            EndReason::FirstFinisher => "first_finisher",
            EndReason::MoveLimit => "move_limit",
            EndReason::NoProgressLimit => "no_progress_limit",
            EndReason::Blocked => "blocked",
            EndReason::Resignation => "resignation",
            EndReason::Adjudicated => "adjudicated",
        }
    }

    /// The limit in plies a draughts draw counts to, for the reasons that
    /// have one (`NoProgress`, `ThreeKings`, `UnchangedBalance`).
    pub fn plies(&self) -> Option<u32> {
        match self {
            EndReason::NoProgress { plies }
            | EndReason::ThreeKings { plies }
            | EndReason::UnchangedBalance { plies } => Some(*plies),
            _ => None,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::NoPieces => "the loser has no pieces",
            EndReason::NoMoves => "the loser has no legal move",
            EndReason::Repetition => "draw by threefold repetition",
            EndReason::NoProgress { plies } => {
                return write!(f, "draw by {plies} plies without capture or man move")
            }
            EndReason::ThreeKings { plies } => {
                return write!(
                    f,
                    "draw: three kings did not beat a lone king within {plies} plies"
                )
            }
            EndReason::UnchangedBalance { plies } => {
                return write!(
                    f,
                    "draw: the balance of forces did not change within {plies} plies"
                )
            }
            EndReason::AllPlaced => "every place decided",
            EndReason::FirstFinisher => "the first player finished",
            EndReason::MoveLimit => "move limit reached",
            EndReason::NoProgressLimit => "no-progress limit reached",
            EndReason::Blocked => "no player can move",
            EndReason::Resignation => "the loser resigned",
            EndReason::Adjudicated => "decided by the referee",
        })
    }
}

/// How a finished game ended: the place of every player and why.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Place of each player in seat order, 1-based; equal places are ties.
    pub places: Vec<u8>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// The player alone in first place, if there is one (a finished
    /// solitaire counts as a win of `p1`).
    pub fn winner(&self) -> Option<Player> {
        let mut firsts = (0..self.places.len()).filter(|&p| self.places[p] == 1);
        match (firsts.next(), firsts.next()) {
            (Some(p), None) => Player::new(p),
            _ => None,
        }
    }

    /// Whether the first place is shared (or nobody took it).
    pub fn is_draw(&self) -> bool {
        self.winner().is_none()
    }

    /// The place of `player`, if it is in the game.
    pub fn place(&self, player: Player) -> Option<u8> {
        self.places.get(player.index()).copied()
    }
}

/// Which game a [`Game`] value plays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    /// Spanish draughts.
    Spanish,
    /// Chinese checkers with the international rules.
    Chinese,
    /// Chinese checkers with the Japanese (Diamond game) rules.
    Japanese,
}

impl GameKind {
    /// Every game, in the order menus list them.
    pub const ALL: [GameKind; 3] = [GameKind::Spanish, GameKind::Chinese, GameKind::Japanese];

    /// The lower-case name (`spanish`, `chinese`, `japanese`) that options,
    /// command lines and the web board use.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Spanish => "spanish",
            GameKind::Chinese => "chinese",
            GameKind::Japanese => "japanese",
        }
    }

    /// The name for people (`Spanish draughts`).
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Spanish => "Spanish draughts",
            GameKind::Chinese => "Chinese checkers",
            GameKind::Japanese => "Chinese checkers, Japanese variant",
        }
    }

    /// How many players can sit at the board. The Japanese variant takes
    /// 2–3 players; asked for more, it plays by the international rules
    /// (see [`GameSpec::rules_warning`](crate::GameSpec::rules_warning)).
    pub fn players(self) -> std::ops::RangeInclusive<u8> {
        match self {
            GameKind::Spanish => 2..=2,
            GameKind::Chinese => 1..=6,
            GameKind::Japanese => 1..=3,
        }
    }

    /// Whether the rules fix who takes the first turn (Spanish draughts:
    /// White always opens); otherwise any seat may open
    /// ([`AnyGame::with_first_player`](crate::AnyGame::with_first_player)).
    pub fn fixed_opener(self) -> bool {
        match self {
            GameKind::Spanish => true,
            GameKind::Chinese | GameKind::Japanese => false,
        }
    }

    /// The number of players a new game of this kind has unless told.
    pub fn default_players(self) -> u8 {
        2
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not the name of a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a game (spanish, chinese or japanese)")]
pub struct GameKindParseError(String);

impl FromStr for GameKind {
    type Err = GameKindParseError;

    /// Reads [`GameKind::name`], in any case.
    fn from_str(text: &str) -> Result<GameKind, GameKindParseError> {
        let text = text.trim();
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| GameKindParseError(text.chars().take(20).collect()))
    }
}

/// A move, pass or resignation that [`Game::play`], [`Game::play_text`],
/// [`Game::pass`] or [`Game::resign`] refused. The messages are the games'
/// own, in words a user can act on; [`PlayError::code`] names the kind of
/// refusal for a program, and the variants carry what it is about (the
/// player, the move text, why the move is not legal) as typed fields, so
/// that a front end never reads the sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The player named is not (or no longer) playing.
    #[error("{0} is not playing")]
    NotPlaying(Player),
    /// `pass` while the player to move has legal moves.
    #[error("cannot pass with {0} legal moves")]
    CannotPass(usize),
    /// A square or cell name that is not one of the board's: the game's
    /// sentence naming what the board has.
    #[error("{0}")]
    BadSquare(String),
    /// The text is not a move in the game's notation: the game's sentence
    /// saying what is wrong with it.
    #[error("{0}")]
    Notation(String),
    /// A well-formed move that is not legal here (or, in Spanish draughts,
    /// a short capture text that fits several legal captures): why, and
    /// the move.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// A move of one game given to the other ([`AnyGame`](crate::AnyGame)).
    #[error("the move is for another game")]
    WrongGame,
}

impl PlayError {
    /// The kind of refusal as a stable machine name: `game_over`,
    /// `not_playing`, `cannot_pass`, `bad_square`, `notation`,
    /// `wrong_game`, or for an illegal move its
    /// [`IllegalReason::code`].
    ///
    /// ```
    /// use damas::{spanish::Draughts, Game, PlayError};
    /// let mut game = Draughts::default();
    /// assert_eq!(game.play_text("11-16").unwrap_err().code(), "illegal_move");
    /// assert_eq!(game.play_text("11x15").unwrap_err().code(), "not_a_capture");
    /// assert_eq!(game.play_text("11").unwrap_err().code(), "notation");
    /// assert_eq!(PlayError::GameOver.code(), "game_over");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver => "game_over",
            PlayError::NotPlaying(_) => "not_playing",
            PlayError::CannotPass(_) => "cannot_pass",
            PlayError::BadSquare(_) => "bad_square",
            PlayError::Notation(_) => "notation",
            PlayError::Illegal(illegal) => illegal.reason.code(),
            PlayError::WrongGame => "wrong_game",
        }
    }
}

/// Why a well-formed move is not legal (see [`IllegalMove`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalReason {
    /// No legal move matches, and no more precise reason applies.
    NotLegal,
    /// A move that does not capture while a capture is mandatory (Spanish
    /// draughts).
    CaptureMandatory,
    /// Written as a capture, but the move between those squares does not
    /// capture (Spanish draughts).
    NotACapture,
    /// No legal capture takes exactly the pieces listed (Spanish
    /// draughts).
    WrongCaptures,
    /// A short capture text that fits several legal captures; their long
    /// forms tell them apart (Spanish draughts).
    Ambiguous,
}

impl IllegalReason {
    /// Every reason, in declaration order.
    pub const ALL: [IllegalReason; 5] = [
        IllegalReason::NotLegal,
        IllegalReason::CaptureMandatory,
        IllegalReason::NotACapture,
        IllegalReason::WrongCaptures,
        IllegalReason::Ambiguous,
    ];

    /// The reason as a stable machine name: `illegal_move`,
    /// `capture_mandatory`, `not_a_capture`, `wrong_captures` or
    /// `ambiguous_move`.
    pub fn code(self) -> &'static str {
        match self {
            IllegalReason::NotLegal => "illegal_move",
            IllegalReason::CaptureMandatory => "capture_mandatory",
            IllegalReason::NotACapture => "not_a_capture",
            IllegalReason::WrongCaptures => "wrong_captures",
            IllegalReason::Ambiguous => "ambiguous_move",
        }
    }
}

/// A well-formed move that is not legal here ([`PlayError::Illegal`]): why,
/// the move as given (or as the game writes it, for a move played as a
/// value), and the game's sentence, which is its `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// Why the move is not legal.
    pub reason: IllegalReason,
    /// The move's text.
    pub text: String,
    /// The game's sentence for people.
    pub message: String,
}

impl IllegalMove {
    /// A refusal of `text` for `reason`, said by `message`.
    pub fn new(
        reason: IllegalReason,
        text: impl Into<String>,
        message: impl Into<String>,
    ) -> IllegalMove {
        IllegalMove {
            reason,
            text: text.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A position text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not a valid position text of the game: the game's own message.
    #[error("invalid position: {0}")]
    Invalid(String),
    /// A Chinese checkers text for the other variant than the one asked
    /// for.
    #[error("invalid position: {}", wrong_variant(*.found, *.wanted))]
    WrongVariant {
        /// The variant asked for.
        wanted: GameKind,
        /// The variant of the text.
        found: GameKind,
    },
}

impl PositionError {
    /// The kind of error as a stable machine name: `invalid` or
    /// `wrong_variant`.
    pub fn code(&self) -> &'static str {
        match self {
            PositionError::Invalid(_) => "invalid",
            PositionError::WrongVariant { .. } => "wrong_variant",
        }
    }

    /// What is wrong, without the `invalid position: ` the `Display` text
    /// starts with.
    ///
    /// ```
    /// use damas::{GameKind, PositionError};
    /// let error = PositionError::WrongVariant {
    ///     wanted: GameKind::Japanese,
    ///     found: GameKind::Chinese,
    /// };
    /// assert_eq!(
    ///     error.detail(),
    ///     "the text is for the chinese variant but the game is japanese"
    /// );
    /// assert_eq!(error.to_string(), format!("invalid position: {}", error.detail()));
    /// ```
    pub fn detail(&self) -> String {
        match self {
            PositionError::Invalid(detail) => detail.clone(),
            PositionError::WrongVariant { wanted, found } => wrong_variant(*found, *wanted),
        }
    }
}

/// The detail of [`PositionError::WrongVariant`].
fn wrong_variant(found: GameKind, wanted: GameKind) -> String {
    format!("the text is for the {found} variant but the game is {wanted}")
}

/// One game of either kind, with its history: the interface every front
/// end (protocol, match runner, terminal play, web board) uses.
///
/// A value is a whole game, not only a position: it knows the history
/// (repetitions, counters, finishing order) that the end-of-game rules and
/// [`undo`](Game::undo) need. Players are [`Player`]s; moves are the
/// game's own small `Copy` type.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// A move of this game.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// The search context of this game (see [`Search`]).
    type Engine: Search<Self>;

    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// How many players sit at the board (resigned and finished ones
    /// included).
    fn player_count(&self) -> usize;

    /// The player to move; `None` once the game is over.
    fn to_move(&self) -> Option<Player>;

    /// Every legal move of the player to move; empty when the game is over
    /// or the player must pass.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays a legal move of the player to move.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] once the game has ended; [`PlayError::Illegal`]
    /// when `mv` is not a legal move of the player to move. The game is then
    /// unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), PlayError>;

    /// The player to move, who has no legal move, passes (Chinese checkers;
    /// Spanish draughts never passes: a side without a move has lost).
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] once the game has ended;
    /// [`PlayError::CannotPass`] while the player to move has a legal move (and
    /// always in Spanish draughts).
    fn pass(&mut self) -> Result<(), PlayError>;

    /// `player` resigns or is forfeited by a referee. With two players the
    /// rival wins; with more, `player` takes the last free place and the
    /// game goes on for the others.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] once the game has ended;
    /// [`PlayError::NotPlaying`] when `player` is not at the board or has
    /// already left the game (resigned or finished).
    fn resign(&mut self, player: Player) -> Result<(), PlayError>;

    /// A referee ends the game: the players still in it share the next
    /// free place. Does nothing once the game is over.
    fn adjudicate_draw(&mut self);

    /// Takes back the last turn (move, pass or resignation) or the last
    /// ruling ([`adjudicate_draw`](Game::adjudicate_draw)), one at a time;
    /// `false` at the start of the game.
    fn undo(&mut self) -> bool;

    /// Reads a move in the game's notation, checked against the legal moves
    /// of the player to move.
    ///
    /// # Errors
    ///
    /// [`PlayError::Notation`] when `text` is not a move in the game's
    /// notation; [`PlayError::BadSquare`] when it names a point the board does
    /// not have; [`PlayError::Illegal`] when it is well formed but no legal
    /// move of the player to move (or, in Spanish draughts, fits several);
    /// [`PlayError::GameOver`] once the game has ended.
    fn parse_move(&self, text: &str) -> Result<Self::Move, PlayError>;

    /// The canonical text of a legal move of the player to move (the
    /// shortest unambiguous form in Spanish draughts, the full path in
    /// Chinese checkers).
    fn move_text(&self, mv: &Self::Move) -> String;

    /// The position text that reads back to this position: a PDN FEN
    /// (pieces and side to move) in Spanish draughts, the Chinese checkers
    /// line (with the players' states, counters and rules) otherwise.
    fn position_text(&self) -> String;

    /// A new game of the same game and rules as this one, from a position
    /// text; [`position_text`](Game::position_text) reads back to an equal
    /// position. Rule fields a Chinese checkers text leaves out come from
    /// this game's rules.
    ///
    /// # Errors
    ///
    /// [`PositionError::Invalid`] when `text` is not a position of this game
    /// (the game's own reason inside); [`PositionError::WrongVariant`] when a
    /// Chinese checkers text is for the other variant.
    fn read_position(&self, text: &str) -> Result<Self, PositionError>;

    /// A board for humans, several lines.
    fn diagram(&self) -> String;

    /// Zobrist hash of the position and the player to move.
    fn hash(&self) -> u64;

    /// The places decided so far, per player (`None` while still playing).
    fn places(&self) -> Vec<Option<u8>>;

    /// How the game ended, once it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Leaf nodes of the move tree `depth` plies deep from the current
    /// position, over `threads` threads (0: every core); `None` when `stop`
    /// was raised before the count finished (it is looked at every few
    /// milliseconds).
    fn perft_until(&self, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64>;

    /// [`perft_until`](Game::perft_until) with a transposition table of
    /// about `hash_mb` MiB (1 to [`MAX_PERFT_HASH_MB`](crate::MAX_PERFT_HASH_MB);
    /// each thread has its own share): the same counts, faster where
    /// move orders transpose.
    fn perft_hashed_until(
        &self,
        depth: u32,
        threads: usize,
        hash_mb: usize,
        stop: &AtomicBool,
    ) -> Option<u64>;

    /// The leaf counts per legal move, each row named by the move's
    /// canonical text ([`move_text`](Game::move_text)); a forced pass is a
    /// row `pass`. `None` when `stop` was raised before the count finished.
    fn divide_until(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>>;

    /// [`perft_until`](Game::perft_until) to the end.
    fn perft(&self, depth: u32, threads: usize) -> u64 {
        // The flag is never raised, so the count always completes.
        self.perft_until(depth, threads, &AtomicBool::new(false))
            .unwrap_or(0)
    }

    /// [`divide_until`](Game::divide_until) to the end.
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.divide_until(depth, &AtomicBool::new(false))
            .unwrap_or_default()
    }

    /// The legal moves of the piece on `point`; empty when it has none or
    /// the game is over.
    fn moves_from(&self, point: Point) -> Vec<Self::Move>;

    /// The board: its shape and every point, with the camps, goals and
    /// promotion rows of this game's players.
    fn board(&self) -> Board;

    /// The point named `name` (`11`, `e4`; case and surrounding spaces do
    /// not matter), or [`PlayError::BadSquare`] naming what the board has.
    ///
    /// # Errors
    ///
    /// [`PlayError::BadSquare`] when no point of the board has that name.
    fn point(&self, name: &str) -> Result<Point, PlayError>;

    /// The name of `point` in the game's notation (empty for a point that
    /// is not on this board).
    fn point_name(&self, point: Point) -> String;

    /// The piece on `point`, if any.
    fn piece_at(&self, point: Point) -> Option<Piece>;

    /// A legal move of the player to move taken apart: ends, path,
    /// captures, promotion. For a move that is not legal here the path is
    /// its two ends.
    fn anatomy(&self, mv: &Self::Move) -> MoveAnatomy;

    /// Where `player` stands (`None` for a seat the game does not have).
    fn player_status(&self, player: Player) -> Option<PlayerStatus>;

    /// The player who took the first turn.
    fn first_player(&self) -> Player;

    /// Turns taken since the start (moves, passes and resignations).
    fn turn_count(&self) -> usize;

    /// Every turn taken since the start, with its text and what it did.
    fn turns(&self) -> Vec<PlayedTurn>;

    /// How people call `player` in this game (`White`, `Black`; `Red`,
    /// `Blue`, ...): the word a front end shows.
    fn player_name(&self, player: Player) -> &'static str;

    /// The place and standing of every player, in seat order.
    fn player_statuses(&self) -> Vec<PlayerStatus> {
        Player::all(self.player_count())
            .filter_map(|player| self.player_status(player))
            .collect()
    }

    /// Whether `mv` is a legal move of the player to move.
    fn is_legal(&self, mv: &Self::Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// The starting points of the pieces that may move now, in the order
    /// of the legal moves (only those can be picked: a capture is
    /// mandatory in draughts).
    fn movable_points(&self) -> Vec<Point> {
        let mut points: Vec<Point> = Vec::new();
        for mv in self.legal_moves() {
            let from = self.anatomy(&mv).from;
            if !points.contains(&from) {
                points.push(from);
            }
        }
        points
    }

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether the player to move has no legal move and must pass.
    fn must_pass(&self) -> bool {
        self.to_move().is_some() && self.legal_moves().is_empty()
    }

    /// Plays a move in the game's notation, or `pass` or `resign` (the
    /// player to move resigns), and returns its canonical text.
    ///
    /// # Errors
    ///
    /// Those of [`parse_move`](Game::parse_move) and [`play`](Game::play) for
    /// a move; those of [`pass`](Game::pass) and [`resign`](Game::resign) for
    /// the words `pass` and `resign`.
    fn play_text(&mut self, text: &str) -> Result<String, PlayError> {
        let word = text.trim();
        if word.eq_ignore_ascii_case("pass") {
            self.pass()?;
            return Ok("pass".into());
        }
        if word.eq_ignore_ascii_case("resign") {
            let player = self.to_move().ok_or(PlayError::GameOver)?;
            self.resign(player)?;
            return Ok("resign".into());
        }
        let mv = self.parse_move(word)?;
        let canonical = self.move_text(&mv);
        self.play(mv)?;
        Ok(canonical)
    }

    /// Every legal move in canonical text; `pass` when the player to move
    /// must pass.
    fn legal_moves_text(&self) -> Vec<String> {
        if self.must_pass() {
            return vec!["pass".into()];
        }
        self.legal_moves()
            .iter()
            .map(|mv| self.move_text(mv))
            .collect()
    }

    /// The texts of `line` played in turn from here (a principal
    /// variation); stops at the first move that is not legal.
    fn line_text(&self, line: &[Self::Move]) -> Vec<String> {
        let mut game = self.clone();
        let mut out = Vec::with_capacity(line.len());
        for &mv in line {
            if !game.legal_moves().contains(&mv) {
                break;
            }
            out.push(game.move_text(&mv));
            if game.play(mv).is_err() {
                break;
            }
        }
        out
    }

    /// The character [`diagram`](Game::diagram) draws for `piece` (`w`,
    /// `B` in Spanish draughts; `1`..`6` and the kings `A`..`F` on the
    /// star), so that a front end can find and colour the pieces of the
    /// diagram; `None` for a player this game does not have. The diagram's
    /// board rows are the lines that start with their row number; a
    /// piece's character appears in a row only after that number.
    fn diagram_symbol(&self, piece: Piece) -> Option<char>;

    /// Leaf nodes `depth` plies deep counting every distinct capture
    /// order as its own move, as perft programs that keep duplicate
    /// captures do (Spanish draughts: a king taking the same pieces in two
    /// orders), with a table of about `hash_mb` MiB over `threads` threads
    /// (0: every core). `None` for a game whose moves have no duplicates
    /// (its [`perft`](Game::perft) is the count).
    fn perft_keeping_duplicates(&self, depth: u32, threads: usize, hash_mb: usize) -> Option<u64> {
        let _ = (depth, threads, hash_mb);
        None
    }
}

/// A search context for one game: the transposition table and the
/// per-thread state that live across searches. Each game's
/// [`Game::Engine`] implements it; [`AnyEngine`](crate::AnyEngine) holds
/// one for each game.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use damas::search::SearchLimits;
/// use damas::{spanish, Game, Search};
///
/// let game = spanish::Draughts::default();
/// let mut engine = <spanish::Draughts as Game>::Engine::new(1);
/// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
/// let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
/// assert!(game.legal_moves().contains(&result.best.unwrap()));
/// ```
pub trait Search<G: Game>: Send + fmt::Debug + Sized {
    /// A context with a transposition table of `hash_mb` MiB (clamped to
    /// what the game allows).
    fn new(hash_mb: usize) -> Self;

    /// Resizes the transposition table (the old one is freed first); does
    /// nothing when the size does not change.
    fn set_hash(&mut self, hash_mb: usize);

    /// The settings that come from options rather than from `go`.
    fn set_options(&mut self, options: &EngineOptions);

    /// Forgets everything learned (a new game), leaving the transposition
    /// table resident as [`Search::prepare`] does.
    fn clear(&mut self);

    /// Makes the transposition table resident: every page written once,
    /// on every core, its entries unchanged, so that no search pays for
    /// faulting pages in (a fresh table is the system's zero pages);
    /// nothing when it already is. The protocol calls it at `isready`.
    fn prepare(&mut self);

    /// Whether the transposition table is resident ([`Search::prepare`],
    /// [`Search::clear`]); a new size makes a table that is not.
    fn is_prepared(&self) -> bool;

    /// Searches the position of `game` for the player to move. Returns when
    /// a limit is reached or `stop` is raised; with no limit (or
    /// `infinite`) only once `stop` is raised. `on_info` is called at least
    /// once per completed depth.
    fn search(
        &mut self,
        game: &G,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move>;
}
