//! [`Position`]: the pieces on the star and the side to move, with the
//! incremental state the move generator needs.

use super::error::{IllegalMoveError, TextError};
use super::geometry::{Cell, Dir, Mask, Triangle, CELLS, GEO, NONE};
use super::moves::Move;
use super::rules::{seats, Rules, Variant};
use super::zobrist::KEYS;
use std::sync::LazyLock;

/// The per-game constants the move generator needs (seats, goals, camp
/// restriction, goal lock), shared by all positions of a kind.
#[derive(Debug)]
pub(crate) struct Config {
    pub variant: Variant,
    pub goal_lock: bool,
    pub seat: [Triangle; 6],
    /// Goal points: the opposite triangle (international) or camp (Japanese).
    pub goal: [Mask; 6],
    pub goal_c: [[u128; 4]; 6],
    /// Points where a move of the player may end (camp restriction).
    pub allowed: [Mask; 6],
    pub allowed_c: [[u128; 4]; 6],
}

/// Converts a dense mask to the coset-grid mask of coset `q`.
pub(crate) fn to_coset(m: Mask, q: usize) -> u128 {
    let mut r = 0u128;
    for c in m & Mask(GEO.coset_mask[q]) {
        r |= 1u128 << GEO.cbit[c.index()];
    }
    r
}

fn config_index(players: u8, variant: Variant, goal_lock: bool) -> usize {
    (players as usize - 1) * 4 + (variant == Variant::Japanese) as usize * 2 + goal_lock as usize
}

static CONFIGS: LazyLock<Vec<Config>> = LazyLock::new(|| {
    let mut v = Vec::with_capacity(24);
    for players in 1..=6u8 {
        for variant in [Variant::International, Variant::Japanese] {
            for goal_lock in [false, true] {
                let s = seats(players);
                let mut seat = [Triangle::South; 6];
                let mut goal = [Mask::EMPTY; 6];
                let mut allowed = [Mask::ALL; 6];
                for (p, &t) in s.iter().enumerate() {
                    seat[p] = t;
                    goal[p] = match variant {
                        Variant::International => t.opposite().cells(),
                        Variant::Japanese => t.opposite().camp(),
                    };
                }
                if variant == Variant::Japanese {
                    for p in 0..s.len() {
                        let mut others = Mask::EMPTY;
                        for (o, &t) in s.iter().enumerate() {
                            if o != p {
                                others |= t.camp();
                            }
                        }
                        let own = s[p].camp() | goal[p];
                        allowed[p] = !(others & !own);
                    }
                }
                let mut goal_c = [[0; 4]; 6];
                let mut allowed_c = [[0; 4]; 6];
                for p in 0..6 {
                    for q in 0..4 {
                        goal_c[p][q] = to_coset(goal[p], q);
                        allowed_c[p][q] = to_coset(allowed[p], q);
                    }
                }
                v.push(Config {
                    variant,
                    goal_lock,
                    seat,
                    goal,
                    goal_c,
                    allowed,
                    allowed_c,
                });
            }
        }
    }
    v
});

/// For each cell `o` and direction `d`: the coset and coset-grid bit of the
/// cell `c` whose `d`-neighbour is `o` (so that a piece on `o` can be jumped
/// from `c` in direction `d`), or `NONE`.
static OV_UPD: LazyLock<[[(u8, u8); 6]; CELLS]> = LazyLock::new(|| {
    let mut t = [[(NONE, NONE); 6]; CELLS];
    for o in Cell::all() {
        for d in Dir::ALL {
            if let Some(c) = o.neighbour(d.opposite()) {
                t[o.index()][d as usize] = (GEO.coset[c.index()], GEO.cbit[c.index()]);
            }
        }
    }
    t
});

/// A position: whose pieces stand where and who is to move.
///
/// Besides the dense per-player [`Mask`]s it keeps, per jump coset (the
/// points reachable from each other by jumps, see `movegen`), the empty
/// points and for each direction the points from which a jump in that
/// direction has a jumpable piece next to it, all updated incrementally.
///
/// ```
/// use damas::chinese::{Position, Rules};
/// let pos = Position::start(&Rules::default());
/// assert_eq!(pos.legal_moves().len(), 14);
/// assert_eq!(pos.hash(), pos.compute_hash());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) pieces: [Mask; 6],
    pub(crate) kings: Mask,
    pub(crate) occ: Mask,
    /// Empty points per coset, in coset-grid bits.
    pub(crate) empty_c: [u128; 4],
    /// `ov[q][d]`: coset-grid points of coset `q` whose `d`-neighbour holds a
    /// non-king piece.
    pub(crate) ov: [[u128; 6]; 4],
    pub(crate) hash: u64,
    pub(crate) players: u8,
    pub(crate) to_move: u8,
    pub(crate) cfg: u8,
}

impl Position {
    /// The start position of `rules` (its effective variant), player 0 to
    /// move.
    ///
    /// # Panics
    ///
    /// When `rules.players` is not 1 to 6 (every [`Rules`] this crate makes,
    /// such as [`Rules::for_players`], holds 1 to 6).
    pub fn start(rules: &Rules) -> Position {
        let variant = rules.effective_variant();
        let s = seats(rules.players);
        let mut pieces = [Mask::EMPTY; 6];
        let mut kings = Mask::EMPTY;
        for (p, &t) in s.iter().enumerate() {
            pieces[p] = match variant {
                Variant::International => t.cells(),
                Variant::Japanese => {
                    kings = kings.with(t.tip());
                    t.camp()
                }
            };
        }
        Position::from_pieces(
            rules.players,
            variant,
            rules.goal_lock,
            &pieces[..s.len()],
            kings,
            0,
        )
        .expect("start position is valid")
    }

    /// Builds a position from the pieces of each player (`pieces[p]`), the
    /// set of king points and the side to move.
    ///
    /// # Errors
    ///
    /// [`TextError::Players`] for a player count outside 1–6 or one that
    /// `pieces` does not match; [`TextError::NotAPlayer`] for `to_move` past
    /// the last player; [`TextError::Overlap`] when two players share a point;
    /// [`TextError::TooMany`] for more than 15 pieces of one player;
    /// [`TextError::King`] for a king off a piece, two kings of one player
    /// or a king in the international variant.
    pub fn from_pieces(
        players: u8,
        variant: Variant,
        goal_lock: bool,
        pieces: &[Mask],
        kings: Mask,
        to_move: usize,
    ) -> Result<Position, TextError> {
        if !(1..=6).contains(&players) || pieces.len() != players as usize {
            return Err(TextError::Players(pieces.len().max(players as usize)));
        }
        let variant = Rules {
            players,
            variant,
            ..Rules::default()
        }
        .effective_variant();
        if to_move >= players as usize {
            return Err(TextError::NotAPlayer(to_move));
        }
        let mut all = Mask::EMPTY;
        let mut ps = [Mask::EMPTY; 6];
        for (p, &m) in pieces.iter().enumerate() {
            if let Some(c) = (all & m).first() {
                return Err(TextError::Overlap(c));
            }
            if m.count() > 15 {
                return Err(TextError::TooMany(p, m.count()));
            }
            all |= m;
            ps[p] = m;
        }
        if !(kings & !all).is_empty() {
            return Err(TextError::King("a king on an empty point".into()));
        }
        if variant == Variant::International && !kings.is_empty() {
            return Err(TextError::King("kings in the international variant".into()));
        }
        for (p, m) in ps.iter().enumerate() {
            if (*m & kings).count() > 1 {
                return Err(TextError::King(format!("player {} has two kings", p + 1)));
            }
        }
        let mut pos = Position {
            pieces: ps,
            kings,
            occ: all,
            empty_c: [0; 4],
            ov: [[0; 6]; 4],
            hash: 0,
            players,
            to_move: to_move as u8,
            cfg: config_index(players, variant, goal_lock) as u8,
        };
        for q in 0..4 {
            pos.empty_c[q] = to_coset(!all, q);
        }
        for o in all & !kings {
            pos.toggle_ov(o);
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    #[inline(always)]
    pub(crate) fn cfg(&self) -> &'static Config {
        &CONFIGS[self.cfg as usize]
    }

    #[inline(always)]
    fn toggle_ov(&mut self, o: Cell) {
        let upd = &OV_UPD[o.index()];
        for (d, &(q, b)) in upd.iter().enumerate() {
            if q != NONE {
                self.ov[q as usize][d] ^= 1u128 << b;
            }
        }
    }

    #[inline(always)]
    fn toggle_empty(&mut self, c: Cell) {
        let i = c.index();
        self.empty_c[GEO.coset[i] as usize] ^= 1u128 << GEO.cbit[i];
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The variant in force (already the effective one).
    pub fn variant(&self) -> Variant {
        self.cfg().variant
    }

    /// Whether the goal-lock house rule is in force.
    pub fn goal_lock(&self) -> bool {
        self.cfg().goal_lock
    }

    /// The player to move (0-based).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// Sets the player to move (used by [`Checkers`](super::Checkers) to skip
    /// finished and resigned players). Unchecked: nothing stops handing the
    /// move to a player who has finished or resigned.
    ///
    /// # Panics
    /// If `p` is not a player.
    pub fn set_to_move_unchecked(&mut self, p: usize) {
        assert!(p < self.players(), "no player {p}");
        self.hash ^= KEYS.side[self.to_move as usize] ^ KEYS.side[p];
        self.to_move = p as u8;
    }

    /// The pieces of player `p` (king included).
    pub fn pieces(&self, p: usize) -> Mask {
        self.pieces[p]
    }

    /// All kings on the board.
    pub fn kings(&self) -> Mask {
        self.kings
    }

    /// All occupied points.
    pub fn occupied(&self) -> Mask {
        self.occ
    }

    /// The owner of the piece on `c` and whether it is a king.
    pub fn piece_at(&self, c: Cell) -> Option<(usize, bool)> {
        (0..self.players())
            .find(|&p| self.pieces[p].contains(c))
            .map(|p| (p, self.kings.contains(c)))
    }

    /// The seat (starting triangle) of player `p`.
    pub fn seat(&self, p: usize) -> Triangle {
        self.cfg().seat[p]
    }

    /// The goal points of player `p`: the opposite triangle, or the
    /// opposite camp in the Japanese variant.
    pub fn goal(&self, p: usize) -> Mask {
        self.cfg().goal[p]
    }

    /// The points where a move of player `p` may end (all points, except
    /// in the Japanese variant the other players' starting camps that are
    /// not also `p`'s own camp or goal).
    pub fn allowed_destinations(&self, p: usize) -> Mask {
        self.cfg().allowed[p]
    }

    /// Number of own pieces of `p` in its goal.
    pub fn pieces_in_goal(&self, p: usize) -> u32 {
        (self.pieces[p] & self.goal(p)).count()
    }

    /// Sum over the pieces of `p` of their step distance to the nearest goal
    /// point (0 when all stand in the goal). In the Japanese variant the
    /// king counts its distance to the goal's tip, where it must end.
    pub fn goal_distance(&self, p: usize) -> u32 {
        let g = self.seat(p).opposite();
        if self.variant() == Variant::International {
            return self.pieces[p]
                .iter()
                .map(|c| u32::from(c.distance_to(g)))
                .sum();
        }
        let tip = g.tip();
        self.pieces[p]
            .iter()
            .map(|c| {
                if self.kings.contains(c) {
                    c.hex_distance(tip)
                } else {
                    u32::from(c.distance_to_camp(g))
                }
            })
            .sum()
    }

    /// Whether `p` has finished: every goal point is occupied and (anti-
    /// blocking) at least one / (no anti-blocking) all of them hold own
    /// pieces; in the Japanese variant the own king must also be on the
    /// goal's tip.
    pub fn has_finished(&self, p: usize, anti_blocking: bool) -> bool {
        let goal = self.goal(p);
        let own = self.pieces[p] & goal;
        let full = if anti_blocking {
            (self.occ & goal) == goal && !own.is_empty()
        } else {
            own == goal
        };
        if !full {
            return false;
        }
        if self.variant() == Variant::Japanese {
            let tip = self.seat(p).opposite().tip();
            self.kings.contains(tip) && self.pieces[p].contains(tip)
        } else {
            true
        }
    }

    /// The Zobrist hash, kept incrementally.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (for tests).
    pub fn compute_hash(&self) -> u64 {
        let mut h = KEYS.side[self.to_move as usize];
        for p in 0..self.players() {
            for c in self.pieces[p] {
                h ^= KEYS.piece[p][c.index()];
            }
        }
        for c in self.kings {
            h ^= KEYS.king[c.index()];
        }
        h
    }

    /// Plays `mv` for the side to move and passes the turn to the next
    /// player in seat order. The move must be legal: nothing is checked
    /// (only debug builds assert that the piece is the mover's and `to` is
    /// empty), an illegal move corrupts the position. See [`Position::play`]
    /// for the checked form.
    #[inline]
    pub fn play_unchecked(&mut self, mv: &Move) {
        let (from, to) = (mv.from, mv.to);
        let p = self.to_move as usize;
        debug_assert!(self.pieces[p].contains(from), "no own piece on {from}");
        debug_assert!(!self.occ.contains(to), "{to} is occupied");
        let bits = from.bit() | to.bit();
        self.pieces[p] ^= bits;
        self.occ ^= bits;
        self.toggle_empty(from);
        self.toggle_empty(to);
        let keys = &KEYS;
        self.hash ^= keys.piece[p][from.index()] ^ keys.piece[p][to.index()];
        if self.kings.contains(from) {
            self.kings ^= bits;
            self.hash ^= keys.king[from.index()] ^ keys.king[to.index()];
        } else {
            self.toggle_ov(from);
            self.toggle_ov(to);
        }
        self.advance();
    }

    /// Plays `mv` after checking that it is legal for the side to move; the
    /// position is unchanged when it is not. Not for hot loops.
    ///
    /// ```
    /// use damas::chinese::{Cell, Move, Position, Rules};
    /// let mut pos = Position::start(&Rules::default());
    /// let c = |s: &str| s.parse::<Cell>().unwrap();
    /// assert!(pos.play(&Move::new(c("e4"), c("e6"))).is_err());
    /// pos.play(&Move::new(c("e4"), c("e5"))).unwrap();
    /// assert_eq!(pos.to_move(), 1);
    /// ```
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] when `mv` is not a legal move of the player to
    /// move; the position is then unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), IllegalMoveError> {
        if !self.is_legal(mv) {
            return Err(IllegalMoveError(*mv));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Passes the turn to the next player without moving. Unchecked: it does
    /// not test that the side to move has no legal move (perft and the game
    /// pass only then).
    pub fn pass_unchecked(&mut self) {
        self.advance();
    }

    #[inline(always)]
    fn advance(&mut self) {
        let old = self.to_move as usize;
        let new = if old + 1 == self.players as usize {
            0
        } else {
            old + 1
        };
        self.hash ^= KEYS.side[old] ^ KEYS.side[new];
        self.to_move = new as u8;
    }
}
