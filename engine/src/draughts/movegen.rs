//! Legal move generation: shift-based man moves and single man captures,
//! flying-king slides, and the dispatch to the depth-first capture search
//! (`captures.rs`) when a longer capture or a king capture exists. Also the
//! bulk counter and the list-free move visitor that perft uses.
//!
//! Duplicates come from kings: a man that moves forward only has its
//! captured pieces on distinct rows, which fix the path, whereas a king can
//! reach the same end by different landing squares or by going round a ring
//! in either order. Only king captures of two or more pieces are checked for
//! duplicates, among the moves of the same king; men that capture backward
//! too can also go round a ring, and their captures of four or more are
//! checked as well.

#![allow(clippy::needless_range_loop)] // direction indices address several tables

use super::captures::{gen_captures, search_captures, CaptureOrders, MoverSets};
use super::color::Color;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::rules::{with_rules, CaptureChoice, VariantRules};
use super::tables::{
    down_left, down_right, nearest, slide, up_left, up_right, DL, DR, EVEN_ROWS, JUMP, NEIGH, NONE,
    ODD_ROWS, RAY, ROW_1, ROW_8, UL, UR,
};

#[inline(always)]
pub(super) fn mover_sets<const W: bool>(pos: &Position) -> MoverSets {
    let (me, opp) = if W {
        (pos.white, pos.black)
    } else {
        (pos.black, pos.white)
    };
    MoverSets {
        men: me & !pos.kings,
        kings: me & pos.kings,
        opp,
        opp_kings: opp & pos.kings,
        occ: me | opp,
    }
}

/// Men of the side to move that have a capture available (forward only,
/// or in all four directions under rules where men capture backward).
#[inline(always)]
fn men_that_capture<const W: bool, R: VariantRules>(s: &MoverSets) -> u32 {
    let empty = !s.occ;
    if R::MEN_CAPTURE_BACKWARD {
        s.men
            & (down_right(s.opp & down_right(empty))
                | down_left(s.opp & down_left(empty))
                | up_right(s.opp & up_right(empty))
                | up_left(s.opp & up_left(empty)))
    } else if W {
        s.men & (down_right(s.opp & down_right(empty)) | down_left(s.opp & down_left(empty)))
    } else {
        s.men & (up_right(s.opp & up_right(empty)) | up_left(s.opp & up_left(empty)))
    }
}

/// Landing squares of single forward jumps by men, one set per forward
/// direction (left, right), over pieces of `targets`.
#[inline(always)]
fn man_jump_landings<const W: bool>(s: &MoverSets, targets: u32) -> (u32, u32) {
    let empty = !s.occ;
    if W {
        (
            up_left(up_left(s.men) & targets) & empty,
            up_right(up_right(s.men) & targets) & empty,
        )
    } else {
        (
            down_left(down_left(s.men) & targets) & empty,
            down_right(down_right(s.men) & targets) & empty,
        )
    }
}

/// Squares from which a man could jump forward on the current board. A man
/// that has just jumped can continue exactly when its landing square is in
/// this set: its origin and the pieces it took are behind it, so the board
/// ahead is unchanged.
#[inline(always)]
fn jump_origins<const W: bool>(s: &MoverSets) -> u32 {
    let empty = !s.occ;
    if W {
        down_right(s.opp & down_right(empty)) | down_left(s.opp & down_left(empty))
    } else {
        up_right(s.opp & up_right(empty)) | up_left(s.opp & up_left(empty))
    }
}

/// Men that can capture at least two pieces: those with a jump landing on
/// a square from which another jump exists (`cont`, from
/// [`jump_origins`]). When any exists, single captures are never legal.
#[inline(always)]
fn multi_jumpers<const W: bool>(la: u32, lb: u32, cont: u32) -> u32 {
    let (a, b) = (la & cont, lb & cont);
    if W {
        down_right(down_right(a)) | down_left(down_left(b))
    } else {
        up_right(up_right(a)) | up_left(up_left(b))
    }
}

/// Directions back from a landing square to the jumping man, per forward
/// direction (left, right).
#[inline(always)]
const fn back_dirs<const W: bool>() -> (usize, usize) {
    if W {
        (DR, DL)
    } else {
        (UR, UL)
    }
}

/// Pushes single man captures landing on `landings`, coming from `back`.
#[inline(always)]
fn push_single_jumps(list: &mut MoveList, landings: u32, back: usize) {
    let mut t = landings;
    while t != 0 {
        let to = t.trailing_zeros() as usize;
        t &= t - 1;
        list.push(Move {
            from: JUMP[back][to],
            to: to as u8,
            captured: 1 << NEIGH[back][to],
            crowned: false,
        });
    }
}

/// Kings of the side to move that have a capture available.
#[inline(always)]
fn kings_that_capture(s: &MoverSets) -> u32 {
    let mut out = 0;
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        for d in 0..4 {
            let blk = RAY[d][k] & s.occ;
            if blk == 0 {
                continue;
            }
            let b = nearest(d, blk);
            if s.opp & (1 << b) == 0 {
                continue;
            }
            let j = NEIGH[d][b];
            if j != NONE && s.occ & (1 << j) == 0 {
                out |= 1 << k;
                break;
            }
        }
    }
    out
}

/// What the side to move has to do, decided once for the three users
/// (list generation, the perft visitor and the bulk counter).
#[derive(Clone, Copy)]
pub(super) enum Dispatch {
    /// No capture: man steps and king slides.
    Quiet,
    /// Only single jumps by men, as landing squares per forward direction
    /// (left, right); already restricted to the jumps that take a king when
    /// any does.
    SingleJumps(u32, u32),
    /// The depth-first capture search from these men and kings.
    Search {
        /// Men to search from.
        men: u32,
        /// Kings to search from.
        kings: u32,
    },
}

/// The capture dispatch: which capture rule applies to the side to move.
#[inline(always)]
pub(super) fn dispatch<const W: bool, R: VariantRules>(s: &MoverSets) -> Dispatch {
    // The shortcuts after the search branch read a compulsory longest
    // capture; a free choice goes through the search.
    const {
        assert!(R::MEN_CAPTURE_BACKWARD || !matches!(R::CAPTURE_CHOICE, CaptureChoice::Free));
    }
    if R::MEN_CAPTURE_BACKWARD {
        // Men jumping both ways: every capture goes through the search.
        let men = men_that_capture::<W, R>(s);
        let kings = if s.kings != 0 {
            kings_that_capture(s)
        } else {
            0
        };
        return if men | kings == 0 {
            Dispatch::Quiet
        } else {
            Dispatch::Search { men, kings }
        };
    }
    let (la, lb) = man_jump_landings::<W>(s, s.opp);
    let ck = if s.kings != 0 {
        kings_that_capture(s)
    } else {
        0
    };
    if la | lb | ck == 0 {
        return Dispatch::Quiet;
    }
    let jo = jump_origins::<W>(s);
    let multi = (la | lb) & jo != 0;
    if ck == 0 && !multi {
        // Only single jumps by men: take kings if any can be taken and the
        // rules prefer them.
        let kings_first = matches!(R::CAPTURE_CHOICE, CaptureChoice::MostPiecesThenKings);
        let (ka, kb) = if !kings_first || s.opp_kings == 0 {
            (0, 0)
        } else {
            man_jump_landings::<W>(s, s.opp_kings)
        };
        return if ka | kb != 0 {
            Dispatch::SingleJumps(ka, kb)
        } else {
            Dispatch::SingleJumps(la, lb)
        };
    }
    let men = if multi {
        multi_jumpers::<W>(la, lb, jo)
    } else {
        men_that_capture::<W, R>(s)
    };
    Dispatch::Search { men, kings: ck }
}

#[inline(always)]
fn push_steps(list: &mut MoveList, targets: u32, back: usize) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as usize;
        t &= t - 1;
        list.push(Move {
            from: NEIGH[back][to],
            to: to as u8,
            captured: 0,
            crowned: false,
        });
    }
}

fn gen<const W: bool, R: VariantRules>(pos: &Position, list: &mut MoveList) {
    let s = mover_sets::<W>(pos);
    match dispatch::<W, R>(&s) {
        Dispatch::Quiet => {}
        Dispatch::SingleJumps(la, lb) => {
            let (ba, bb) = back_dirs::<W>();
            push_single_jumps(list, la, ba);
            push_single_jumps(list, lb, bb);
            return;
        }
        Dispatch::Search { men, kings } => {
            gen_captures::<W, R>(&s, men, kings, list);
            return;
        }
    }
    let empty = !s.occ;
    if W {
        push_steps(list, up_left(s.men) & empty, DR);
        push_steps(list, up_right(s.men) & empty, DL);
    } else {
        push_steps(list, down_left(s.men) & empty, UR);
        push_steps(list, down_right(s.men) & empty, UL);
    }
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        for d in 0..4 {
            let mut t = slide(d, k, s.occ);
            while t != 0 {
                let to = t.trailing_zeros();
                t &= t - 1;
                list.push(Move {
                    from: k as u8,
                    to: to as u8,
                    captured: 0,
                    crowned: false,
                });
            }
        }
    }
}

/// The position after a move of side `W` given as bits (`from_bit` and
/// `to_bit` may coincide for a king's ring capture); `crowned` is the
/// move's crowning on the way ([`Move::crowned_on_the_way`]). The hash is
/// not updated: this is perft's make-move.
#[inline(always)]
pub(super) fn child_of<const W: bool>(
    pos: &Position,
    from_bit: u32,
    to_bit: u32,
    cap: u32,
    crowned: bool,
) -> Position {
    let promo = if W { ROW_8 } else { ROW_1 };
    let mut kings = pos.kings & !cap;
    if kings & from_bit != 0 {
        kings = (kings & !from_bit) | to_bit;
    } else if to_bit & promo != 0 || crowned {
        kings |= to_bit;
    }
    let mut c = *pos;
    c.kings = kings;
    if W {
        c.white = (pos.white & !from_bit) | to_bit;
        c.black = pos.black & !cap;
        c.side = Color::Black;
    } else {
        c.black = (pos.black & !from_bit) | to_bit;
        c.white = pos.white & !cap;
        c.side = Color::White;
    }
    c
}

/// Quiet man steps or single man jumps landing on `targets`: `from_of` maps
/// a landing bit to the origin bit, `captured_of` to the captured bit (0 for
/// a step).
#[inline(always)]
fn visit_man_steps<const W: bool, F: FnMut(&Position)>(
    pos: &Position,
    targets: u32,
    from_of: impl Fn(u32) -> u32,
    captured_of: impl Fn(u32) -> u32,
    f: &mut F,
) {
    let promo = if W { ROW_8 } else { ROW_1 };
    let mut t = targets;
    while t != 0 {
        let to_bit = t & t.wrapping_neg();
        t &= t - 1;
        let from_bit = from_of(to_bit);
        let cap = captured_of(to_bit);
        let mut c = *pos;
        c.kings = (pos.kings & !cap) | (to_bit & promo);
        if W {
            c.white = pos.white ^ (from_bit | to_bit);
            c.black = pos.black & !cap;
            c.side = Color::Black;
        } else {
            c.black = pos.black ^ (from_bit | to_bit);
            c.white = pos.white & !cap;
            c.side = Color::White;
        }
        f(&c);
    }
}

/// Calls `f` with the position after each legal move of side `W` (the side
/// to move), without building a move list for quiet moves and single man
/// captures. The children's hashes are not updated (perft only).
#[inline(always)]
pub(crate) fn visit<const W: bool, R: VariantRules, F: FnMut(&Position)>(pos: &Position, f: F) {
    let s = mover_sets::<W>(pos);
    visit_dispatched::<W, R, F>(pos, &s, dispatch::<W, R>(&s), f);
}

/// [`visit`] with the sides and the dispatch already computed.
#[inline(always)]
pub(super) fn visit_dispatched<const W: bool, R: VariantRules, F: FnMut(&Position)>(
    pos: &Position,
    s: &MoverSets,
    d: Dispatch,
    mut f: F,
) {
    let s = *s;
    match d {
        Dispatch::Quiet => {}
        Dispatch::SingleJumps(la, lb) => {
            // A jump moves the man by a constant 9 or 7 bits.
            if W {
                visit_man_steps::<W, F>(pos, la, |t| t >> 9, down_right, &mut f);
                visit_man_steps::<W, F>(pos, lb, |t| t >> 7, down_left, &mut f);
            } else {
                visit_man_steps::<W, F>(pos, la, |t| t << 7, up_right, &mut f);
                visit_man_steps::<W, F>(pos, lb, |t| t << 9, up_left, &mut f);
            }
            return;
        }
        Dispatch::Search { men, kings } => {
            let mut list = MoveList::new();
            gen_captures::<W, R>(&s, men, kings, &mut list);
            for m in &list {
                f(&child_of::<W>(
                    pos,
                    1 << m.from,
                    1 << m.to,
                    m.captured,
                    R::CROWNS_ON_THE_WAY && m.crowned,
                ));
            }
            return;
        }
    }
    let empty = !s.occ;
    let (ta, tb) = if W {
        (up_left(s.men) & empty, up_right(s.men) & empty)
    } else {
        (down_left(s.men) & empty, down_right(s.men) & empty)
    };
    // A step moves the man by 3, 4 or 5 bits depending on the row parity:
    // splitting the targets by row makes each origin a constant shift.
    let none = |_| 0;
    if W {
        visit_man_steps::<W, F>(pos, ta & ODD_ROWS, |t| t >> 4, none, &mut f);
        visit_man_steps::<W, F>(pos, ta & EVEN_ROWS, |t| t >> 5, none, &mut f);
        visit_man_steps::<W, F>(pos, tb & ODD_ROWS, |t| t >> 3, none, &mut f);
        visit_man_steps::<W, F>(pos, tb & EVEN_ROWS, |t| t >> 4, none, &mut f);
    } else {
        visit_man_steps::<W, F>(pos, ta & ODD_ROWS, |t| t << 4, none, &mut f);
        visit_man_steps::<W, F>(pos, ta & EVEN_ROWS, |t| t << 3, none, &mut f);
        visit_man_steps::<W, F>(pos, tb & ODD_ROWS, |t| t << 5, none, &mut f);
        visit_man_steps::<W, F>(pos, tb & EVEN_ROWS, |t| t << 4, none, &mut f);
    }
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks & ks.wrapping_neg();
        let ki = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        for d in 0..4 {
            let mut t = slide(d, ki, s.occ);
            while t != 0 {
                let to_bit = t & t.wrapping_neg();
                t &= t - 1;
                let mut c = *pos;
                c.kings = pos.kings ^ (k | to_bit);
                if W {
                    c.white = pos.white ^ (k | to_bit);
                    c.side = Color::Black;
                } else {
                    c.black = pos.black ^ (k | to_bit);
                    c.side = Color::White;
                }
                f(&c);
            }
        }
    }
}

/// Population count of two sets at once: one 64-bit count is cheaper than
/// two 32-bit ones when the CPU has no `popcnt` instruction (the default
/// x86-64 target).
#[inline(always)]
pub(super) fn pop2(a: u32, b: u32) -> u32 {
    (u64::from(a) << 32 | u64::from(b)).count_ones()
}

pub(crate) fn count<const W: bool, R: VariantRules>(pos: &Position) -> usize {
    let s = mover_sets::<W>(pos);
    match dispatch::<W, R>(&s) {
        Dispatch::Quiet => {}
        Dispatch::SingleJumps(la, lb) => return pop2(la, lb) as usize,
        Dispatch::Search { men, kings } => {
            let mut list = MoveList::new();
            // Men that capture backward can reach one end by two paths,
            // as kings can: those need the list to merge them.
            return if kings == 0 && !R::MEN_CAPTURE_BACKWARD {
                search_captures::<W, false, R, ()>(&s, men, 0, &mut list, ())
            } else {
                search_captures::<W, true, R, ()>(&s, men, kings, &mut list, ())
            };
        }
    }
    let empty = !s.occ;
    let mut n = if W {
        pop2(up_left(s.men) & empty, up_right(s.men) & empty)
    } else {
        pop2(down_left(s.men) & empty, down_right(s.men) & empty)
    };
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        n += pop2(slide(UL, k, s.occ), slide(UR, k, s.occ))
            + pop2(slide(DL, k, s.occ), slide(DR, k, s.occ));
    }
    n as usize
}

/// The legal moves of side `W` into `list` (cleared first), with the
/// distinct capture orders of each king capture in `orders` (two orders of
/// taking the same pieces, ending on the same square, are one move in the
/// rules). Perft that keeps duplicates, as dctl counts them, weighs each
/// move by `1 + orders.extra[i]`.
pub(crate) fn legal_moves_with_orders<const W: bool, R: VariantRules>(
    pos: &Position,
    list: &mut MoveList,
    orders: &mut CaptureOrders,
) {
    list.clear();
    let s = mover_sets::<W>(pos);
    if let Dispatch::Search { men, kings } = dispatch::<W, R>(&s) {
        search_captures::<W, true, R, _>(&s, men, kings, list, orders);
        return;
    }
    gen::<W, R>(pos, list);
    orders.extra[..list.len()].fill(0);
}

/// The number of legal moves of side `W` with every capture order counted
/// (see [`legal_moves_with_orders`]).
pub(crate) fn count_with_orders<const W: bool, R: VariantRules>(pos: &Position) -> u64 {
    let s = mover_sets::<W>(pos);
    match dispatch::<W, R>(&s) {
        Dispatch::Search { men, kings } if kings != 0 || R::MEN_CAPTURE_BACKWARD => {
            let mut list = MoveList::new();
            let mut orders = CaptureOrders::new();
            let n = search_captures::<W, true, R, _>(&s, men, kings, &mut list, &mut orders);
            n as u64 + orders.extra[..n].iter().map(|&r| u64::from(r)).sum::<u64>()
        }
        _ => count::<W, R>(pos) as u64,
    }
}

impl Position {
    /// All legal moves: if any capture exists, only captures (in Spanish
    /// draughts those that take the most pieces and, among those, the most
    /// kings; the variant's [`Rules::capture_choice`](super::Rules::capture_choice)
    /// says which); otherwise every step of a man and every slide of a king.
    /// Each (from, to, captured set) appears once.
    ///
    /// ```
    /// use damas::spanish::Position;
    /// // A white king on 1 and black men on 10 and 19: the king must take both.
    /// let pos: Position = "W:WK1:B10,19".parse().unwrap();
    /// let moves = pos.legal_moves();
    /// assert!(moves.iter().all(|m| m.capture_count() == 2));
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Like [`Position::legal_moves`], but fills a caller's list (cleared
    /// first), which avoids moving the list on return in hot loops.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        with_rules!(self.rules.variant(), R => match self.side {
            Color::White => gen::<true, R>(self, list),
            Color::Black => gen::<false, R>(self, list),
        })
    }

    /// Number of legal moves, counted without listing them when no capture
    /// is available (perft's bulk counting); same name and type as
    /// [`chinese::Position::count_legal_moves`](crate::chinese::Position::count_legal_moves).
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        (with_rules!(self.rules.variant(), R => match self.side {
            Color::White => count::<true, R>(self),
            Color::Black => count::<false, R>(self),
        })) as u64
    }

    /// Whether the side to move has a capture (and so must capture).
    pub fn has_capture(&self) -> bool {
        with_rules!(self.rules.variant(), R => match self.side {
            Color::White => {
                let s = mover_sets::<true>(self);
                men_that_capture::<true, R>(&s) != 0 || kings_that_capture(&s) != 0
            }
            Color::Black => {
                let s = mover_sets::<false>(self);
                men_that_capture::<false, R>(&s) != 0 || kings_that_capture(&s) != 0
            }
        })
    }

    /// Whether neither side has a capture: neither the side to move nor
    /// the opponent, were it to move. Such positions are what a static
    /// evaluation judges best (the training positions of `damas datagen`).
    ///
    /// ```
    /// use damas::spanish::Position;
    /// assert!(Position::start().is_quiet());
    /// // Black to move cannot take 14 (11 is held), but White on 14 could take 18.
    /// let pos: Position = "B:W11,14:B18".parse().unwrap();
    /// assert!(!pos.has_capture());
    /// assert!(!pos.is_quiet());
    /// ```
    pub fn is_quiet(&self) -> bool {
        let white = mover_sets::<true>(self);
        let black = mover_sets::<false>(self);
        with_rules!(self.rules.variant(), R => {
            men_that_capture::<true, R>(&white) == 0
                && kings_that_capture(&white) == 0
                && men_that_capture::<false, R>(&black) == 0
                && kings_that_capture(&black) == 0
        })
    }
}
