//! What a front end needs to draw and explain a game without knowing which
//! game it is: the seats ([`Player`]), the board's [`Point`]s and their
//! [`PointInfo`], the [`Piece`] on a point, a move's [`MoveAnatomy`], each
//! player's [`PlayerStatus`] and the turns played ([`PlayedTurn`]).
//!
//! These are the answers of [`Game::board`](crate::Game::board),
//! [`Game::piece_at`](crate::Game::piece_at),
//! [`Game::anatomy`](crate::Game::anatomy),
//! [`Game::player_status`](crate::Game::player_status) and
//! [`Game::turns`](crate::Game::turns). They allocate and are meant for front
//! ends, not for the search's hot paths.

use std::fmt;
use std::str::FromStr;

/// Most players a game can have (the six triangles of the star).
pub const MAX_PLAYERS: usize = 6;

/// A seat at the board, written `p1` … `p6`. `p1` is White in Spanish
/// draughts and the first seat of the star in Chinese checkers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Player(u8);

impl Player {
    /// The player with 0-based index `index`, if it is below
    /// [`MAX_PLAYERS`].
    pub const fn new(index: usize) -> Option<Player> {
        if index < MAX_PLAYERS {
            Some(Player(index as u8))
        } else {
            None
        }
    }

    /// The 0-based index (`p1` is 0).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The first `count` players, `p1` first (at most [`MAX_PLAYERS`]).
    pub fn all(count: usize) -> impl Iterator<Item = Player> {
        (0..count.min(MAX_PLAYERS)).map(|i| Player(i as u8))
    }

    /// Seat index as the games' own APIs take it. Only called on players
    /// of the game at hand.
    pub(crate) fn of(index: usize) -> Player {
        Player(index.min(MAX_PLAYERS - 1) as u8)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0 + 1)
    }
}

/// The text is not `p1` … `p6`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a player (p1-p6)")]
pub struct PlayerParseError(String);

impl FromStr for Player {
    type Err = PlayerParseError;

    fn from_str(text: &str) -> Result<Player, PlayerParseError> {
        let error = || PlayerParseError(text.chars().take(20).collect());
        let digits = text
            .strip_prefix('p')
            .or_else(|| text.strip_prefix('P'))
            .ok_or_else(error)?;
        let n: usize = digits.parse().map_err(|_| error())?;
        n.checked_sub(1).and_then(Player::new).ok_or_else(error)
    }
}

/// A point of a game's board: a square of the draughts board or a cell of
/// the star, by its index in [`Board::points`].
///
/// A point belongs to the game it came from; the name
/// ([`Game::point_name`](crate::Game::point_name)) is how a person sees it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Point(u8);

impl Point {
    /// The point with index `index` in [`Board::points`]; `None` past the
    /// largest board (256 points). Whether it is on a given game's board is
    /// for that game to say ([`Game::board`](crate::Game::board)).
    pub const fn new(index: usize) -> Option<Point> {
        if index <= u8::MAX as usize {
            Some(Point(index as u8))
        } else {
            None
        }
    }

    /// The index in [`Board::points`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// A point from a board index known to be in range (crate use).
    pub(crate) const fn of(index: usize) -> Point {
        Point(index as u8)
    }
}

/// How a board is laid out, so that a front end can draw it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoardShape {
    /// The dark squares of a `width` × `height` board. [`PointInfo::x`] is
    /// the file from the first player's left (0 to `width - 1`),
    /// [`PointInfo::y`] the rank from the first player's side (0 to
    /// `height - 1`).
    Squares {
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// The 121 points of the six-pointed star. [`PointInfo::x`] and
    /// [`PointInfo::y`] are axial hex coordinates: a point is drawn at
    /// `(x − y / 2, y × √3 / 2)` with `y` growing upwards, so the first
    /// seat's triangle is at the bottom.
    Star,
}

/// One point of the board, as [`Game::board`](crate::Game::board) lists it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PointInfo {
    /// The name the notation uses (`11`, `e4`).
    pub name: String,
    /// Horizontal coordinate (see [`BoardShape`]).
    pub x: i32,
    /// Vertical coordinate (see [`BoardShape`]).
    pub y: i32,
    /// The player whose starting camp this point is part of.
    pub camp: Option<Player>,
    /// The player whose goal this point is part of (Chinese checkers).
    pub goal: Option<Player>,
    /// The player whose men are promoted on this point (draughts).
    pub promotion: Option<Player>,
}

/// The board of a game: its shape and every point in index order.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// How to draw it.
    pub shape: BoardShape,
    /// Every point; `points[p.index()]` describes `p`.
    pub points: Vec<PointInfo>,
}

impl Board {
    /// The point named `name` (case-insensitive), if the board has one.
    pub fn point(&self, name: &str) -> Option<Point> {
        let name = name.trim();
        self.points
            .iter()
            .position(|info| info.name.eq_ignore_ascii_case(name))
            .map(Point::of)
    }
}

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// A draughts man, or a Chinese checkers piece.
    Man,
    /// A draughts king (dama: in Spanish draughts a flying king), or the
    /// king of the Japanese variant.
    King,
}

/// A piece on a point: whose and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The player it belongs to.
    pub owner: Player,
    /// Man or king.
    pub kind: PieceKind,
}

/// How a move goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// One step to a neighbouring point (or along a free diagonal, for a
    /// flying king).
    Step,
    /// One or more jumps over pieces that stay (Chinese checkers).
    Jump,
    /// One or more captures: the pieces jumped are taken.
    Capture,
}

impl fmt::Display for MoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveKind::Step => "step",
            MoveKind::Jump => "jump",
            MoveKind::Capture => "capture",
        })
    }
}

/// A move taken apart: where it starts and ends, every point it lands on,
/// what it takes and whether it promotes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveAnatomy {
    /// The point the piece leaves.
    pub from: Point,
    /// The point it ends on.
    pub to: Point,
    /// Every point the piece stands on, `from` first and `to` last: two
    /// points for a step, one more for each jump or capture of a chain.
    pub path: Vec<Point>,
    /// The points of the pieces taken, in the order they are jumped.
    pub captured: Vec<Point>,
    /// Whether a man becomes a king.
    pub promotes: bool,
    /// Step, jump or capture.
    pub kind: MoveKind,
}

/// Where a player stands in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerStatus {
    /// Still in the game.
    Playing,
    /// Reached the goal (Chinese checkers) and took `place`.
    Finished {
        /// The place taken, 1-based.
        place: u8,
    },
    /// Resigned (or was forfeited) and took `place`.
    Resigned {
        /// The place taken, 1-based.
        place: u8,
    },
    /// Out of play without finishing or resigning: placed when the game
    /// ended (a draughts win, loss or draw, a ranking by a limit, a
    /// referee's ruling).
    Out {
        /// The place given, 1-based; equal places are ties.
        place: u8,
    },
}

impl PlayerStatus {
    /// The place decided, if any.
    pub fn place(self) -> Option<u8> {
        match self {
            PlayerStatus::Playing => None,
            PlayerStatus::Finished { place }
            | PlayerStatus::Resigned { place }
            | PlayerStatus::Out { place } => Some(place),
        }
    }
}

/// What a turn did.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TurnAction {
    /// A move.
    Move(MoveAnatomy),
    /// A pass: the player had no legal move.
    Pass,
    /// A resignation (or a referee's forfeit).
    Resign,
}

/// One turn of the game's history, as [`Game::turns`](crate::Game::turns)
/// lists them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayedTurn {
    /// Who took the turn.
    pub player: Player,
    /// Its text in the game's notation (the canonical move text, `pass` or
    /// `resign`), as a record writes it.
    pub text: String,
    /// What it did.
    pub action: TurnAction,
}
