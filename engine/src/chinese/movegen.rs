//! Move generation: steps, set-wise jump chains, Japanese kings, paths.
//!
//! # Jump chains, set-wise
//!
//! An ordinary jump moves a piece two points along a line, so a chain never
//! leaves the *coset* of its start: the points whose file and rank have the
//! same parities. Each of the four cosets is laid out on its own grid
//! (`x/2 + 10·(y/2)`, 90 bits of a `u128`, column 9 is padding), where a
//! jump in any direction is a constant shift (`±1`, `±10`, `±11`). The
//! position keeps, per coset, the empty points and, per direction, the
//! points whose neighbour in that direction holds a jumpable piece. One
//! round of jumps from a frontier mask is then six `and`+`shift` pairs; the
//! chain is the fixpoint (`visited` starts with the start point, so no point
//! is landed on twice and the start is never a destination). A piece can
//! never be next to its start during a chain (parity), so vacating the start
//! changes nothing.
//!
//! Japanese kings jump whole lines and may change coset; the one king per
//! player goes through a plain per-cell search.

use super::geometry::{Cell, Dir, Mask, GEO};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::rules::Variant;
use arrayvec::ArrayVec;
use std::collections::VecDeque;

/// One round of ordinary jumps from `front` in coset-grid bits.
#[inline(always)]
fn jump_round(front: u128, ov: &[u128; 6]) -> u128 {
    ((front & ov[0]) << 1)
        | ((front & ov[1]) << 11)
        | ((front & ov[2]) << 10)
        | ((front & ov[3]) >> 1)
        | ((front & ov[4]) >> 11)
        | ((front & ov[5]) >> 10)
}

/// All landing points of ordinary jump chains from coset-grid bit `start`
/// of a coset with jump table `ov`, landing only on `land` (start excluded).
/// A landing on `lock` (the goal, under the goal lock; empty otherwise)
/// continues only within `lock`: the piece never leaves its goal again.
#[inline(always)]
pub(super) fn flood(start: u128, ov: &[u128; 6], land: u128, lock: u128) -> u128 {
    let mut visited = start;
    let mut front = start;
    loop {
        let free = jump_round(front & !lock, ov);
        let held = if lock == 0 {
            0
        } else {
            jump_round(front & lock, ov) & lock
        };
        let n = (free | held) & land & !visited;
        if n == 0 {
            return visited ^ start;
        }
        visited |= n;
        front = n;
    }
}

/// The points of `pieces` (coset-grid bits) with at least one jump: a
/// jumpable piece next to them in some direction (`over`, the position's
/// per-direction masks of the coset) and the point behind it `empty`.
#[inline(always)]
pub(super) fn with_a_jump(pieces: u128, over: &[u128; 6], empty: u128) -> u128 {
    pieces
        & ((over[0] & (empty >> 1))
            | (over[1] & (empty >> 11))
            | (over[2] & (empty >> 10))
            | (over[3] & (empty << 1))
            | (over[4] & (empty << 11))
            | (over[5] & (empty << 10)))
}

/// Converts coset-grid bits of coset `q` to a dense mask.
#[inline]
pub(super) fn coset_to_dense(mut bits: u128, q: usize) -> Mask {
    let mut m = 0u128;
    let table = &GEO.coset_cell[q];
    while bits != 0 {
        let b = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        m |= 1u128 << table[b];
    }
    Mask(m)
}

impl Position {
    /// The legal moves of the side to move, ordered by `from` then `to`.
    /// Empty when the side to move must pass.
    pub fn legal_moves(&self) -> MoveList {
        self.moves_of(self.to_move())
    }

    /// The moves player `p` would have if it were to move.
    pub fn moves_of(&self, p: usize) -> MoveList {
        let mut list = MoveList::new();
        for from in self.pieces[p] {
            for to in self.destinations_of(p, from) {
                list.push(Move { from, to });
            }
        }
        list
    }

    /// The points the piece on `from` can reach in one move (empty when
    /// there is no piece there).
    pub fn destinations(&self, from: Cell) -> Mask {
        match self.piece_at(from) {
            Some((p, _)) => self.destinations_of(p, from),
            None => Mask::EMPTY,
        }
    }

    /// Where the piece of `p` on `from` may land on its chain's landings
    /// (goal lock) — all points otherwise.
    #[inline(always)]
    fn landing_mask(&self, p: usize, from: Cell) -> Mask {
        let cfg = self.cfg();
        if cfg.goal_lock && cfg.goal[p].contains(from) {
            cfg.goal[p]
        } else {
            Mask::ALL
        }
    }

    /// The points that hold a piece of `p` once it lands there (its goal,
    /// under the goal lock; none otherwise): a chain that lands on one
    /// continues only within them.
    #[inline(always)]
    fn lock_mask(&self, p: usize) -> Mask {
        let cfg = self.cfg();
        if cfg.goal_lock {
            cfg.goal[p]
        } else {
            Mask::EMPTY
        }
    }

    /// The next landings of a chain from `x`, given the landings `hops`
    /// from there: only within `lock` when `x` is in it.
    #[inline(always)]
    fn locked(hops: Mask, x: Cell, lock: Mask) -> Mask {
        if lock.contains(x) {
            hops & lock
        } else {
            hops
        }
    }

    pub(crate) fn destinations_of(&self, p: usize, from: Cell) -> Mask {
        let cfg = self.cfg();
        let land = self.landing_mask(p, from);
        let allowed = cfg.allowed[p];
        let i = from.index();
        let steps = Mask(GEO.nbr_mask[i]) & !self.occ & land;
        if self.kings.contains(from) {
            return (steps | self.king_jumps(from, land, self.lock_mask(p))) & allowed;
        }
        let q = GEO.coset[i] as usize;
        let mut landc = self.empty_c[q];
        if land != Mask::ALL {
            landc &= cfg.goal_c[p][q];
        }
        let lock = if cfg.goal_lock { cfg.goal_c[p][q] } else { 0 };
        let reach = flood(1u128 << GEO.cbit[i], &self.ov[q], landc, lock) & cfg.allowed_c[p][q];
        (steps & allowed) | coset_to_dense(reach, q)
    }

    /// Landing points of king chains from `from`, landing only on `land`
    /// (and only within `lock` after a landing in it).
    fn king_jumps(&self, from: Cell, land: Mask, lock: Mask) -> Mask {
        let occ = self.occ.without(from);
        let mut visited = from.bit();
        let mut stack: ArrayVec<Cell, 128> = ArrayVec::new();
        stack.push(from);
        while let Some(x) = stack.pop() {
            let hops = Self::locked(self.king_hops(x, occ), x, lock) & land & !visited;
            visited |= hops;
            for l in hops {
                stack.push(l);
            }
        }
        visited.without(from)
    }

    /// One king jump from `x` in every direction with occupancy `occ`: over a
    /// straight line of one or more non-king pieces to the first empty point.
    fn king_hops(&self, x: Cell, occ: Mask) -> Mask {
        let mut r = Mask::EMPTY;
        for d in Dir::ALL {
            let mut t = x.neighbour(d);
            let mut n = 0;
            while let Some(c) = t {
                if !occ.contains(c) {
                    break;
                }
                if self.kings.contains(c) {
                    n = 0;
                    t = None;
                    break;
                }
                n += 1;
                t = c.neighbour(d);
            }
            if let (Some(l), true) = (t, n > 0) {
                r = r.with(l);
            }
        }
        r
    }

    /// One ordinary jump from `x` in every direction: over an adjacent
    /// non-king piece to the empty point behind it.
    fn plain_hops(&self, x: Cell, occ: Mask) -> Mask {
        let mut r = Mask::EMPTY;
        for d in Dir::ALL {
            if let Some(o) = x.neighbour(d) {
                if occ.contains(o) && !self.kings.contains(o) {
                    if let Some(l) = o.neighbour(d) {
                        if !occ.contains(l) {
                            r = r.with(l);
                        }
                    }
                }
            }
        }
        r
    }

    /// The points reachable by a single jump (one hop of a chain) from `x`
    /// for the piece that started on `from`.
    pub(crate) fn hops(&self, from: Cell, x: Cell) -> Mask {
        let occ = self.occ.without(from);
        if self.kings.contains(from) {
            self.king_hops(x, occ)
        } else {
            self.plain_hops(x, occ)
        }
    }

    /// Number of legal moves of the side to move (distinct `(from, to)`),
    /// without building a list: the bulk count of perft.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let cfg = self.cfg();
        if cfg.variant == Variant::International && !cfg.goal_lock {
            u64::from(self.bulk_count::<false>())
        } else {
            u64::from(self.bulk_count::<true>())
        }
    }

    /// The bulk count. `GENERAL` handles kings (per-cell search), the goal
    /// lock (per-piece landing mask) and the camp restriction; without it
    /// every piece is an ordinary piece free to end anywhere.
    #[inline(always)]
    fn bulk_count<const GENERAL: bool>(&self) -> u32 {
        let p = self.to_move();
        let cfg = self.cfg();
        let own = self.pieces[p];
        let mut slow = Mask::EMPTY;
        let mut step_to = !self.occ;
        if GENERAL {
            // Kings, and pieces held by the goal lock, take the general path.
            slow = own & self.kings;
            if cfg.goal_lock {
                slow |= own & cfg.goal[p];
            }
            step_to &= cfg.allowed[p];
        }
        let mut n = 0u32;
        let mut own_c = [0u128; 4];
        for c in own & !slow {
            let i = c.index();
            n += (Mask(GEO.nbr_mask[i]) & step_to).count();
            own_c[GEO.coset[i] as usize] |= 1u128 << GEO.cbit[i];
        }
        for (q, &o) in own_c.iter().enumerate() {
            if o == 0 {
                continue;
            }
            let e = self.empty_c[q];
            let ov = &self.ov[q];
            // The own pieces of this coset that have at least one jump.
            let mut jumpers = with_a_jump(o, ov, e);
            let lock = if GENERAL && cfg.goal_lock {
                cfg.goal_c[p][q]
            } else {
                0
            };
            while jumpers != 0 {
                let b = jumpers & jumpers.wrapping_neg();
                jumpers ^= b;
                let reach = flood(b, ov, e, lock);
                n += if GENERAL {
                    (reach & cfg.allowed_c[p][q]).count_ones()
                } else {
                    reach.count_ones()
                };
            }
        }
        for c in slow {
            n += self.destinations_of(p, c).count();
        }
        n
    }

    /// Whether `mv` is legal for the side to move.
    pub fn is_legal(&self, mv: &Move) -> bool {
        self.is_legal_for(self.to_move(), mv)
    }

    /// Whether `mv` is a legal move of player `p`, whoever is to move.
    pub(crate) fn is_legal_for(&self, p: usize, mv: &Move) -> bool {
        self.pieces[p].contains(mv.from) && self.destinations_of(p, mv.from).contains(mv.to)
    }

    /// The path of a legal move of the side to move: `[from, to]` for a
    /// step, every landing point for a chain (one of the shortest chains).
    /// `None` when the move is not legal.
    pub fn path(&self, mv: &Move) -> Option<Vec<Cell>> {
        if !self.is_legal(mv) {
            return None;
        }
        if mv.from.neighbours().contains(mv.to) {
            return Some(vec![mv.from, mv.to]);
        }
        let p = self.to_move();
        let land = self.landing_mask(p, mv.from);
        let lock = self.lock_mask(p);
        let mut parent = [u8::MAX; 121];
        let mut seen = mv.from.bit();
        let mut queue = VecDeque::from([mv.from]);
        while let Some(x) = queue.pop_front() {
            for l in Self::locked(self.hops(mv.from, x), x, lock) & land & !seen {
                seen = seen.with(l);
                parent[l.index()] = x.index() as u8;
                if l == mv.to {
                    let mut path = vec![l];
                    let mut c = l;
                    while c != mv.from {
                        c = Cell::from_index(parent[c.index()] as usize)?;
                        path.push(c);
                    }
                    path.reverse();
                    return Some(path);
                }
                queue.push_back(l);
            }
        }
        None
    }

    /// Checks a written path for the side to move: a legal step, or a chain
    /// of jumps landing on distinct points (not the start), obeying the goal
    /// lock on every landing and ending on a legal destination.
    pub fn is_legal_path(&self, path: &[Cell]) -> bool {
        let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
            return false;
        };
        if path.len() < 2 || !self.is_legal(&Move { from, to }) {
            return false;
        }
        if path.len() == 2 && from.neighbours().contains(to) {
            return true;
        }
        let land = self.landing_mask(self.to_move(), from);
        let lock = self.lock_mask(self.to_move());
        let mut seen = from.bit();
        for w in path.windows(2) {
            let ok = Self::locked(self.hops(from, w[0]), w[0], lock) & land & !seen;
            if !ok.contains(w[1]) {
                return false;
            }
            seen = seen.with(w[1]);
        }
        true
    }
}
