//! The capture search: a depth-first walk over (square, captured set) for
//! each piece that can capture, keeping only the sequences that take the
//! most pieces and then, where the rules say so, the most kings (or every
//! complete sequence, where the choice is free), and merging sequences with
//! the same (from, to, captured set).

#![allow(clippy::needless_range_loop)] // direction indices address several tables

use std::marker::PhantomData;

use arrayvec::ArrayVec;

use super::moves::{Move, MoveList, MAX_MOVES};
use super::rules::{CaptureChoice, CapturePromotion, VariantRules};
use super::tables::{down_left, down_right, nearest, slide, up_left, up_right, RAY, ROW_1, ROW_8};

/// The side to move's pieces seen generically.
#[derive(Clone, Copy)]
pub(super) struct MoverSets {
    pub(super) men: u32,
    pub(super) kings: u32,
    pub(super) opp: u32,
    pub(super) opp_kings: u32,
    pub(super) occ: u32,
}

/// Most (move, order) pairs remembered per position by [`CaptureOrders`];
/// past it a further order counts as new (no real position comes near).
const MAX_ORDERS: usize = 1024;

/// The capture orders of a position's king captures, for perft that keeps
/// duplicates as dctl does: a move that takes the same pieces from the same
/// square to the same square counts once per distinct order of the
/// captured pieces (two landing squares between the same captures are one
/// order).
pub(crate) struct CaptureOrders {
    /// For each listed move, its distinct orders beyond the first.
    pub(crate) extra: [u32; MAX_MOVES],
    /// (list index, order) pairs seen.
    seen: ArrayVec<(u16, u128), MAX_ORDERS>,
    /// The squares captured so far, in order, six bits each.
    order: u128,
}

impl CaptureOrders {
    pub(crate) fn new() -> CaptureOrders {
        CaptureOrders {
            extra: [0; MAX_MOVES],
            seen: ArrayVec::new(),
            order: 0,
        }
    }
}

/// What the capture search reports of capture orders: nothing (`()`, the
/// rules' moves, at no cost) or every distinct order ([`CaptureOrders`]).
pub(super) trait OrderLog {
    /// The list was cleared for longer captures.
    fn clear(&mut self) {}
    /// The move just listed at `index` was reached by the current order.
    fn first(&mut self, _index: usize) {}
    /// The move at `index` was reached again, maybe by another order.
    fn again(&mut self, _index: usize) {}
    /// A capture of `square` is added to the current order; returns what
    /// [`leave`](OrderLog::leave) restores.
    fn enter(&mut self, _square: usize) -> u128 {
        0
    }
    /// Back to the order before the matching `enter`.
    fn leave(&mut self, _saved: u128) {}
}

impl OrderLog for () {}

impl OrderLog for &mut CaptureOrders {
    fn clear(&mut self) {
        self.seen.clear();
    }

    fn first(&mut self, index: usize) {
        self.extra[index] = 0;
        let _ = self.seen.try_push((index as u16, self.order));
    }

    fn again(&mut self, index: usize) {
        let pair = (index as u16, self.order);
        if !self.seen.contains(&pair) {
            let _ = self.seen.try_push(pair);
            self.extra[index] += 1;
        }
    }

    fn enter(&mut self, square: usize) -> u128 {
        let saved = self.order;
        self.order = saved << 6 | (square as u128 + 1);
        saved
    }

    fn leave(&mut self, saved: u128) {
        self.order = saved;
    }
}

/// State of the capture search for the whole position. With `LIST` the
/// moves go to `list`; without, they are only counted (valid when no king
/// of the side to move can capture, since only kings make duplicates).
struct Captures<'a, const LIST: bool, R: VariantRules, O: OrderLog> {
    from: u8,
    /// Occupied squares without the moving piece (captured pieces stay).
    occ: u32,
    opp: u32,
    opp_kings: u32,
    promo: u32,
    best_n: u32,
    best_k: u32,
    /// Index of the first move of the current piece, for de-duplication.
    start: usize,
    /// Number of moves at the best (pieces, kings) so far.
    count: usize,
    /// The moving man has been crowned on the way and goes on as a king.
    crowned: bool,
    list: &'a mut MoveList,
    /// The capture orders, when they are wanted.
    orders: O,
    rules: PhantomData<R>,
}

impl<const LIST: bool, R: VariantRules, O: OrderLog> Captures<'_, LIST, R, O> {
    #[inline(always)]
    fn record(&mut self, to: usize, cap: u32, n: u32, may_repeat: bool) {
        let free = matches!(R::CAPTURE_CHOICE, CaptureChoice::Free);
        // Only a crowning that ends off the last row needs the flag: one
        // that ends on it is told by the square, so each move has one form.
        let crowned = R::CROWNS_ON_THE_WAY && self.crowned && (1 << to) & self.promo == 0;
        let kings_count = matches!(R::CAPTURE_CHOICE, CaptureChoice::MostPiecesThenKings);
        let k = if !kings_count || self.opp_kings == 0 {
            0
        } else {
            (cap & self.opp_kings).count_ones()
        };
        if !free && (n < self.best_n || (n == self.best_n && k < self.best_k)) {
            return;
        }
        if !free && (n > self.best_n || k > self.best_k) {
            self.list.clear();
            self.orders.clear();
            self.count = 0;
            self.start = 0;
            self.best_n = n;
            self.best_k = k;
        } else if may_repeat {
            if let Some(i) = self.list[self.start..].iter().position(|m| {
                m.to as usize == to
                    && m.captured == cap
                    && (!R::CROWNS_ON_THE_WAY || m.crowned == crowned)
            }) {
                self.orders.again(self.start + i);
                return;
            }
        }
        self.count += 1;
        if LIST {
            self.orders.first(self.list.len());
            self.list.push(Move {
                from: self.from,
                to: to as u8,
                captured: cap,
                crowned,
            });
        }
    }

    /// Continues a man's capture from the square `at` (a single bit).
    fn man<const W: bool>(&mut self, at: u32, cap: u32, n: u32) {
        if R::MEN_CAPTURE_BACKWARD {
            return self.man_both_ways(at, cap, n);
        }
        let avail = self.opp & !cap;
        let empty = !self.occ;
        let (mid_a, mid_b) = if W {
            (up_left(at) & avail, up_right(at) & avail)
        } else {
            (down_left(at) & avail, down_right(at) & avail)
        };
        let (land_a, land_b) = if W {
            (up_left(mid_a) & empty, up_right(mid_b) & empty)
        } else {
            (down_left(mid_a) & empty, down_right(mid_b) & empty)
        };
        for (land, mid) in [(land_a, mid_a), (land_b, mid_b)] {
            if land == 0 {
                continue;
            }
            let c = cap | mid;
            const {
                assert!(
                    R::MEN_CAPTURE_BACKWARD
                        || !matches!(R::CAPTURE_PROMOTION, CapturePromotion::ContinuesAsKing)
                );
            }
            // A man that goes on as a man cannot jump from its last row
            // (it moves forward only), so both remaining rules end here.
            if land & self.promo != 0 {
                self.record(land.trailing_zeros() as usize, c, n + 1, false);
            } else {
                self.man::<W>(land, c, n + 1);
            }
        }
        if land_a | land_b == 0 && cap != 0 {
            self.record(at.trailing_zeros() as usize, cap, n, false);
        }
    }

    /// A man's capture where men jump in all four directions. One that
    /// lands on its last row goes on as a man and is crowned only where the
    /// capture ends, or, where the rules say so, is crowned there and goes
    /// on as a king. Two paths may end alike, as a king's do.
    fn man_both_ways(&mut self, at: u32, cap: u32, n: u32) {
        const {
            assert!(
                !R::MEN_CAPTURE_BACKWARD
                    || !matches!(R::CAPTURE_PROMOTION, CapturePromotion::EndsMove)
            );
        }
        let avail = self.opp & !cap;
        let empty = !self.occ;
        let mut found = false;
        for (mid, land) in [
            (up_left(at) & avail, up_left(up_left(at) & avail) & empty),
            (up_right(at) & avail, up_right(up_right(at) & avail) & empty),
            (
                down_left(at) & avail,
                down_left(down_left(at) & avail) & empty,
            ),
            (
                down_right(at) & avail,
                down_right(down_right(at) & avail) & empty,
            ),
        ] {
            if land != 0 {
                found = true;
                let saved = self.orders.enter(mid.trailing_zeros() as usize);
                if matches!(R::CAPTURE_PROMOTION, CapturePromotion::ContinuesAsKing)
                    && land & self.promo != 0
                {
                    self.crowned = true;
                    self.king(land.trailing_zeros() as usize, cap | mid, n + 1);
                    self.crowned = false;
                } else {
                    self.man_both_ways(land, cap | mid, n + 1);
                }
                self.orders.leave(saved);
            }
        }
        if !found && cap != 0 {
            self.record(at.trailing_zeros() as usize, cap, n, n >= 4);
        }
    }

    /// The squares of `landings` from which a king can take another piece
    /// (not one of `cap`, which stay on the board and block).
    fn continuing(&self, landings: u32, cap: u32) -> u32 {
        let avail = self.opp & !cap;
        let mut out = 0;
        let mut t = landings;
        while t != 0 {
            let l = t.trailing_zeros() as usize;
            t &= t - 1;
            for d in 0..4 {
                let blk = RAY[d][l] & self.occ;
                if blk == 0 {
                    continue;
                }
                let b = nearest(d, blk);
                if avail & (1 << b) != 0 && slide(d, b, self.occ) != 0 {
                    out |= 1 << l;
                    break;
                }
            }
        }
        out
    }

    fn king(&mut self, sq: usize, cap: u32, n: u32) {
        let mut found = false;
        for d in 0..4 {
            let blk = RAY[d][sq] & self.occ;
            if blk == 0 {
                continue;
            }
            let b = nearest(d, blk);
            if (self.opp & !cap) & (1 << b) == 0 {
                continue;
            }
            let mut land = slide(d, b, self.occ);
            if land == 0 {
                continue;
            }
            found = true;
            let c = cap | (1 << b);
            if matches!(R::CAPTURE_CHOICE, CaptureChoice::Free) {
                // A capture that can go on must: where some landings
                // continue it, the others are not moves. Under a longest
                // capture rule those fall out by their count anyway.
                let going_on = self.continuing(land, c);
                if going_on != 0 {
                    land = going_on;
                }
            }
            let saved = self.orders.enter(b);
            while land != 0 {
                let l = land.trailing_zeros() as usize;
                land &= land - 1;
                self.king(l, c, n + 1);
            }
            self.orders.leave(saved);
        }
        if !found && cap != 0 {
            self.record(sq, cap, n, n >= 2);
        }
    }
}

/// Runs the capture search for the given men and kings; returns the number
/// of legal captures (also pushed to `list` when `LIST`, with their
/// capture orders in `orders` when given).
pub(super) fn search_captures<const W: bool, const LIST: bool, R: VariantRules, O: OrderLog>(
    s: &MoverSets,
    men: u32,
    kings: u32,
    list: &mut MoveList,
    orders: O,
) -> usize {
    let mut g = Captures::<LIST, R, O> {
        from: 0,
        occ: s.occ,
        opp: s.opp,
        opp_kings: s.opp_kings,
        promo: if W { ROW_8 } else { ROW_1 },
        best_n: 0,
        best_k: 0,
        start: 0,
        count: 0,
        crowned: false,
        list,
        orders,
        rules: PhantomData,
    };
    let mut m = men;
    while m != 0 {
        let sq = m.trailing_zeros() as usize;
        m &= m - 1;
        g.from = sq as u8;
        g.occ = s.occ & !(1 << sq);
        g.start = g.list.len();
        g.man::<W>(1 << sq, 0, 0);
    }
    let mut k = kings;
    while k != 0 {
        let sq = k.trailing_zeros() as usize;
        k &= k - 1;
        g.from = sq as u8;
        g.occ = s.occ & !(1 << sq);
        g.start = g.list.len();
        g.king(sq, 0, 0);
    }
    g.count
}

pub(super) fn gen_captures<const W: bool, R: VariantRules>(
    s: &MoverSets,
    men: u32,
    kings: u32,
    list: &mut MoveList,
) {
    search_captures::<W, true, R, ()>(s, men, kings, list, ());
}
