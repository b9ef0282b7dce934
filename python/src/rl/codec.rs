//! The reinforcement-learning encoding of a game: fixed action ids with a
//! legal-action mask, and observation planes, both from the point of view
//! of one player (the board turned so that the player's camp is at the
//! bottom, rows counted from it).
//!
//! Built from the game's board ([`damas::Game::board`]: point coordinates
//! and camps) and played through the game interface, so it knows no game's
//! internals.
//!
//! - Spanish draughts: 32 squares; action `(from * 32 + to) * K + k` where
//!   `k` numbers the captures that share `from` and `to` (ordered by the
//!   squares they take), `K` = [`SPANISH_CAPTURE_SLOTS`]; planes 8 × 8 × 4:
//!   own men, own kings, rival men, rival kings.
//! - Chinese checkers: 121 points; action `from * 121 + to`; planes
//!   17 × 17 × C on the star's axial coordinates: one plane of pieces per
//!   player (the observer first, then in turn order), one of kings per
//!   player in the Japanese variant, and a last plane marking the 121
//!   points of the star.

use damas::board::{BoardShape, PieceKind};
use damas::{AnyGame, AnyMove, Game, GameKind, Player, Point};

/// Captures sharing the same `from` and `to` that get their own action id
/// in Spanish draughts. A flying king's captures of equal length from one
/// square to another rarely differ in the pieces they take; a test plays
/// random games and counts the most found in one position.
pub const SPANISH_CAPTURE_SLOTS: usize = 8;

/// Side of the grid the star's observation planes are drawn on: every
/// point's axial coordinates from the centre are within ±8.
const STAR_GRID: usize = 17;

/// The encoding of one game (kind and player count).
#[derive(Debug)]
pub struct Codec {
    pub kind: GameKind,
    pub players: usize,
    /// Points of the board.
    pub points: usize,
    /// Action ids per (from, to) pair.
    pub slots: usize,
    pub height: usize,
    pub width: usize,
    pub channels: usize,
    /// `to_rel[observer * points + point]`: the point's index as the
    /// observer sees the board (where that point stands for the first
    /// player).
    to_rel: Vec<u8>,
    /// Grid cell (`row * width + col`) of each point as the first player
    /// sees the board.
    cell: Vec<u16>,
    /// Whether kings have planes of their own.
    king_planes: bool,
    /// The channel marking the board's points, if there is one.
    board_plane: Option<usize>,
}

/// A legal move with its action id.
pub type Encoded = (u32, AnyMove);

/// 60° turn of axial star coordinates about the centre: `x` along the
/// first axis, `y` along the second, 120° from it.
fn turn((x, y): (i32, i32)) -> (i32, i32) {
    (x - y, x)
}

impl Codec {
    /// The encoding of `game`'s kind and player count.
    pub fn new(game: &AnyGame) -> Result<Codec, String> {
        let board = game.board();
        let players = game.player_count();
        let points = board.points.len();
        let coords: Vec<(i32, i32)> = board.points.iter().map(|p| (p.x, p.y)).collect();
        let camp = |player: usize| -> Vec<usize> {
            let mut camp: Vec<usize> = (0..points)
                .filter(|&i| board.points[i].camp.map(Player::index) == Some(player))
                .collect();
            camp.sort_unstable();
            camp
        };
        let find = |xy: (i32, i32)| coords.iter().position(|&c| c == xy);
        let mut to_rel = vec![0u8; players * points];
        let (height, width, cell) = match board.shape {
            BoardShape::Squares { width, height } => {
                let (w, h) = (i32::from(width), i32::from(height));
                for observer in 0..players {
                    for (i, &(x, y)) in coords.iter().enumerate() {
                        // The second player sees the board turned half round.
                        let seen = if observer == 0 {
                            (x, y)
                        } else {
                            (w - 1 - x, h - 1 - y)
                        };
                        let rel = find(seen).ok_or("the board is not symmetric")?;
                        to_rel[observer * points + i] = rel as u8;
                    }
                }
                let cell = coords.iter().map(|&(x, y)| (y * w + x) as u16).collect();
                (usize::from(height), usize::from(width), cell)
            }
            BoardShape::Star => {
                let n = points as i32;
                let (sx, sy) = coords.iter().fold((0, 0), |(a, b), &(x, y)| (a + x, b + y));
                if sx % n != 0 || sy % n != 0 {
                    return Err("the star's centre is not a point".into());
                }
                let centre = (sx / n, sy / n);
                let centred: Vec<(i32, i32)> = coords
                    .iter()
                    .map(|&(x, y)| (x - centre.0, y - centre.1))
                    .collect();
                let find_centred = |xy: (i32, i32)| centred.iter().position(|&c| c == xy);
                let home = camp(0);
                for observer in 0..players {
                    let own = camp(observer);
                    // The turn that brings the observer's camp to the first
                    // player's, at the bottom.
                    let mut found = None;
                    for turns in 0..6 {
                        let mut image: Vec<usize> = Vec::with_capacity(own.len());
                        for &i in &own {
                            let mut xy = centred[i];
                            for _ in 0..turns {
                                xy = turn(xy);
                            }
                            image.push(find_centred(xy).ok_or("a turned point is off the star")?);
                        }
                        image.sort_unstable();
                        if image == home {
                            found = Some(turns);
                            break;
                        }
                    }
                    let turns = found.ok_or("no turn brings a camp to the first one")?;
                    for (i, &xy) in centred.iter().enumerate() {
                        let mut xy = xy;
                        for _ in 0..turns {
                            xy = turn(xy);
                        }
                        let rel = find_centred(xy).ok_or("a turned point is off the star")?;
                        to_rel[observer * points + i] = rel as u8;
                    }
                }
                let half = (STAR_GRID / 2) as i32;
                let mut cell = Vec::with_capacity(points);
                for &(x, y) in &centred {
                    if x.abs() > half || y.abs() > half {
                        return Err("a point lies outside the observation grid".into());
                    }
                    cell.push(((y + half) * STAR_GRID as i32 + (x + half)) as u16);
                }
                (STAR_GRID, STAR_GRID, cell)
            }
        };
        let kind = game.kind();
        let (slots, channels, king_planes, board_plane) = match kind {
            GameKind::Spanish => (SPANISH_CAPTURE_SLOTS, 4, true, None),
            GameKind::Chinese => (1, players + 1, false, Some(players)),
            GameKind::Japanese => (1, 2 * players + 1, true, Some(2 * players)),
        };
        Ok(Codec {
            kind,
            players,
            points,
            slots,
            height,
            width,
            channels,
            to_rel,
            cell,
            king_planes,
            board_plane,
        })
    }

    /// Number of action ids.
    pub fn num_actions(&self) -> usize {
        self.points * self.points * self.slots
    }

    fn rel(&self, observer: usize, point: Point) -> usize {
        usize::from(self.to_rel[observer * self.points + point.index()])
    }

    /// The legal moves of the player to move with their action ids, in
    /// id order, and how many legal moves have no id (captures past the
    /// [`SPANISH_CAPTURE_SLOTS`]-th with the same ends; never seen).
    pub fn encode_legal(&self, game: &AnyGame) -> (Vec<Encoded>, usize) {
        let Some(mover) = game.to_move() else {
            return (Vec::new(), 0);
        };
        let observer = mover.index();
        let slots = self.slots as u32;
        let points = self.points as u32;
        let mut encoded: Vec<Encoded> = game
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let (from, to) = mv.ends();
                let pair = self.rel(observer, from) as u32 * points + self.rel(observer, to) as u32;
                (pair * slots, mv)
            })
            .collect();
        encoded.sort_by_key(|&(id, _)| id);
        let mut dropped = 0;
        if self.slots > 1 {
            let mut start = 0;
            while start < encoded.len() {
                let base = encoded[start].0;
                let mut end = start + 1;
                while end < encoded.len() && encoded[end].0 == base {
                    end += 1;
                }
                if end - start > 1 {
                    // Captures with the same ends, told apart by the
                    // squares they take as the mover sees them.
                    let group = &mut encoded[start..end];
                    group.sort_by_cached_key(|(_, mv)| {
                        let mut taken: Vec<usize> = game
                            .anatomy(mv)
                            .captured
                            .iter()
                            .map(|&p| self.rel(observer, p))
                            .collect();
                        taken.sort_unstable();
                        taken
                    });
                    for (k, entry) in group.iter_mut().enumerate() {
                        // A capture past the slots has no id (dropped below).
                        entry.0 = if k < self.slots {
                            base + k as u32
                        } else {
                            u32::MAX
                        };
                    }
                }
                start = end;
            }
            let before = encoded.len();
            encoded.retain(|&(id, _)| id != u32::MAX);
            dropped = before - encoded.len();
        }
        (encoded, dropped)
    }

    /// Writes the observation of `observer` into `out` (zeroed, length
    /// [`Codec::observation_len`]).
    pub fn observe(&self, game: &AnyGame, observer: usize, out: &mut [i8]) {
        let channels = self.channels;
        let n = self.players;
        for index in 0..self.points {
            let Some(point) = Point::new(index) else {
                break;
            };
            let Some(piece) = game.piece_at(point) else {
                continue;
            };
            let seat = (piece.owner.index() + n - observer) % n;
            let cell = usize::from(self.cell[self.rel(observer, point)]);
            let king = piece.kind == PieceKind::King;
            match self.kind {
                GameKind::Spanish => out[cell * channels + 2 * seat + usize::from(king)] = 1,
                GameKind::Chinese | GameKind::Japanese => {
                    out[cell * channels + seat] = 1;
                    if king && self.king_planes {
                        out[cell * channels + n + seat] = 1;
                    }
                }
            }
        }
        if let Some(plane) = self.board_plane {
            for &cell in &self.cell {
                out[usize::from(cell) * channels + plane] = 1;
            }
        }
    }
}
