//! The last two plies of perft, without making the children: each move of
//! the parent gives the child's bitboards in registers, and the child's
//! moves are counted there by a copy of the bulk count for a side without
//! kings.
//!
//! A side with men only has no king slides to count and no king captures
//! to search: its count is two population counts (steps, or single jumps),
//! or, when a man can take two or more, the population counts of the
//! landing sets after two or three jumps. After a quiet move of the parent
//! the replying side's men did not move, so their step targets are
//! computed once per parent, and the man steps that give it no capture are
//! counted all at once from the parent's sets. The out-of-line bulk count
//! ([`count`]) on a made child is kept for children where the side to move
//! has kings, or a capture of two or more pieces against kings. A parent
//! that must take two or more pieces with a man, against an opponent
//! without kings, finds its moves from the same landing sets instead of
//! the capture search.

use super::captures::{gen_captures, MoverSets};
use super::color::Color;
use super::movegen::{child_of, count, dispatch, mover_sets, pop2, Dispatch};
use super::moves::MoveList;
use super::position::Position;
use super::rules::{CaptureChoice, Rules, VariantRules};
use super::tables::{
    down_left, down_right, slide, up_left, up_right, EVEN_ROWS, ODD_ROWS, ROW_1, ROW_8,
};

/// The number of legal moves of side `W` to move with men `men` and no
/// kings, against the pieces `opp` (of which kings `opp_kings`), on empty
/// squares `empty`. `child` makes the position, for the full count.
#[inline(always)]
fn count_men<const W: bool, R: VariantRules>(
    men: u32,
    opp: u32,
    opp_kings: u32,
    empty: u32,
    child: impl FnOnce() -> Position,
) -> u32 {
    // Step targets per forward direction, then single-jump landings.
    let (xa, xb) = if W {
        (up_left(men), up_right(men))
    } else {
        (down_left(men), down_right(men))
    };
    let jumps = |t: u32| {
        if W {
            (up_left(xa & t) & empty, up_right(xb & t) & empty)
        } else {
            (down_left(xa & t) & empty, down_right(xb & t) & empty)
        }
    };
    let (la, lb) = jumps(opp);
    if la | lb == 0 {
        return pop2(xa & empty, xb & empty);
    }
    // Whether any capture goes on: most replies that can capture take
    // one piece only, and two jumps from the landings decide it with
    // fewer shifts than the per-direction origins below.
    let l = la | lb;
    let on = if W {
        up_left(up_left(l) & opp) | up_right(up_right(l) & opp)
    } else {
        down_left(down_left(l) & opp) | down_right(down_right(l) & opp)
    };
    if on & empty != 0 {
        return longest_men::<W, R>(la, lb, opp, opp_kings, empty, child);
    }
    // Single jumps only; those taking a king when any does, where the
    // rules prefer kings.
    if matches!(R::CAPTURE_CHOICE, CaptureChoice::MostPiecesThenKings) && opp_kings != 0 {
        let (ka, kb) = jumps(opp_kings);
        if ka | kb != 0 {
            return pop2(ka, kb);
        }
    }
    pop2(la, lb)
}

/// The number of longest captures of two or more pieces by men of side
/// `W`, whose first jumps land on `la` and `lb`; `child` makes the
/// position for the full count.
#[inline(always)]
fn longest_men<const W: bool, R: VariantRules>(
    la: u32,
    lb: u32,
    opp: u32,
    opp_kings: u32,
    empty: u32,
    child: impl FnOnce() -> Position,
) -> u32 {
    // The squares from which a man jumps over `opp` onto `empty`, per
    // forward direction; a jump moves a man by a constant 9 or 7 bits.
    let (ca, cb) = if W {
        (
            down_right(opp & down_right(empty)),
            down_left(opp & down_left(empty)),
        )
    } else {
        (
            up_right(opp & up_right(empty)),
            up_left(opp & up_left(empty)),
        )
    };
    let ja = |x: u32| if W { (x & ca) << 9 } else { (x & ca) >> 7 };
    let jb = |x: u32| if W { (x & cb) << 7 } else { (x & cb) >> 9 };
    // Landing squares after two jumps, one set per pair of directions: a
    // man only goes forward, so the pieces it took and the square it left
    // are behind it and the board ahead is the same at every jump, and
    // the directions and the landing square fix the man and the pieces.
    let two = [ja(la), jb(la), ja(lb), jb(lb)];
    // The longest captures are the moves. Taking more kings breaks ties
    // among them, which needs the full search when the other side has
    // kings.
    if matches!(R::CAPTURE_CHOICE, CaptureChoice::MostPiecesThenKings) && opp_kings != 0 {
        return count::<W, R>(&child()) as u32;
    }
    // At most three jumps: a man jumps two rows forward each time.
    let three = two.map(|x| pop2(ja(x), jb(x)));
    if three != [0; 4] {
        three.iter().sum()
    } else {
        pop2(two[0], two[1]) + pop2(two[2], two[3])
    }
}

/// The position with these sets, side `W` to move (no hash: perft and the
/// bulk count never read it).
#[inline(always)]
fn make<const W: bool, R: VariantRules>(white: u32, black: u32, kings: u32) -> Position {
    Position {
        white,
        black,
        kings,
        side: if W { Color::White } else { Color::Black },
        rules: Rules::of::<R>(),
        hash: 0,
    }
}

/// The reply count in the child where side `W` (the parent's side) has
/// `mine` (kings `mine_kings`) and the other side `theirs` (kings
/// `their_kings`).
#[inline(always)]
fn reply<const W: bool, R: VariantRules>(
    mine: u32,
    mine_kings: u32,
    theirs: u32,
    their_kings: u32,
) -> u32 {
    let empty = !(mine | theirs);
    let kings = mine_kings | their_kings;
    let (white, black) = if W { (mine, theirs) } else { (theirs, mine) };
    if their_kings != 0 {
        return if W {
            count::<false, R>(&make::<false, R>(white, black, kings))
        } else {
            count::<true, R>(&make::<true, R>(white, black, kings))
        } as u32;
    }
    if W {
        count_men::<false, R>(theirs, mine, mine_kings, empty, || {
            make::<false, R>(white, black, kings)
        })
    } else {
        count_men::<true, R>(theirs, mine, mine_kings, empty, || {
            make::<true, R>(white, black, kings)
        })
    }
}

/// Runs `$body` with `$to` bound to each bit of `$targets` (a loop, not
/// a closure, so that the body is always inlined).
macro_rules! each_bit {
    ($to:ident in $targets:expr => $body:block) => {{
        let mut t: u32 = $targets;
        while t != 0 {
            let $to = t & t.wrapping_neg();
            t &= t - 1;
            $body
        }
    }};
}

/// Perft 2 of a parent whose moves are the longest captures by men of two
/// or more pieces, against an opponent without kings (so no tie-break on
/// kings taken): the moves are the landing sets per direction sequence,
/// as in [`count_men`], and each landing gives its man and the pieces it
/// took by walking the sequence back, which skips the capture search and
/// the move list.
#[inline(always)]
fn men_captures<const W: bool, R: VariantRules>(s: &MoverSets) -> u64 {
    let empty = !s.occ;
    let promo = if W { ROW_8 } else { ROW_1 };
    let mine = s.men | s.kings;
    let (xa, xb) = if W {
        (up_left(s.men), up_right(s.men))
    } else {
        (down_left(s.men), down_right(s.men))
    };
    let (la, lb) = if W {
        (up_left(xa & s.opp) & empty, up_right(xb & s.opp) & empty)
    } else {
        (
            down_left(xa & s.opp) & empty,
            down_right(xb & s.opp) & empty,
        )
    };
    // The squares from which a man can jump, per direction: the board
    // ahead of a capturing man never changes (see `count_men`).
    let (ca, cb) = if W {
        (
            down_right(s.opp & down_right(empty)),
            down_left(s.opp & down_left(empty)),
        )
    } else {
        (
            up_right(s.opp & up_right(empty)),
            up_left(s.opp & up_left(empty)),
        )
    };
    let ja = |x: u32| if W { (x & ca) << 9 } else { (x & ca) >> 7 };
    let jb = |x: u32| if W { (x & cb) << 7 } else { (x & cb) >> 9 };
    // Index bits, last jump lowest: direction `a` 0, `b` 1.
    let two = [ja(la), jb(la), ja(lb), jb(lb)];
    let three = [
        ja(two[0]),
        jb(two[0]),
        ja(two[1]),
        jb(two[1]),
        ja(two[2]),
        jb(two[2]),
        ja(two[3]),
        jb(two[3]),
    ];
    debug_assert!(two != [0; 4], "the dispatch found a capture of two");
    let (sets, len): (&[u32], u32) = if three != [0; 8] {
        (&three, 3)
    } else {
        (&two, 2)
    };
    let mut n = 0u64;
    for (seq, &set) in sets.iter().enumerate() {
        each_bit!(to in set => {
            // Back over each jump: the man's square before it and the
            // piece it took.
            let (mut at, mut taken) = (to, 0);
            for k in 0..len {
                let (from, cap) = match (W, seq >> k & 1 != 0) {
                    (true, false) => (at >> 9, down_right(at)),
                    (true, true) => (at >> 7, down_left(at)),
                    (false, false) => (at << 7, up_right(at)),
                    (false, true) => (at << 9, up_left(at)),
                };
                at = from;
                taken |= cap;
            }
            let kings = s.kings | (to & promo);
            n += u64::from(reply::<W, R>(mine ^ (at | to), kings, s.opp & !taken, 0));
        });
    }
    n
}

/// Perft 2 from `pos`, side `W` to move.
pub(super) fn perft_two<const W: bool, R: VariantRules>(pos: &Position) -> u64 {
    let s = mover_sets::<W>(pos);
    let promo = if W { ROW_8 } else { ROW_1 };
    let mine = s.men | s.kings;
    let mut n = 0u64;
    match dispatch::<W, R>(&s) {
        Dispatch::Quiet => {
            let empty = !s.occ;
            // A man's step from `from` to `to`.
            macro_rules! step {
                ($to:ident, $from:expr) => {{
                    let kings = s.kings | ($to & promo);
                    let moved = mine ^ ($to | $from);
                    n += u64::from(reply::<W, R>(moved, kings, s.opp, s.opp_kings));
                }};
            }
            // Steps whose child is counted one by one: all of them,
            // unless the bulk count below takes the others (`bad_*`: the
            // targets, per direction, whose child it cannot count).
            let (mut bad_a, mut bad_b) = (u32::MAX, u32::MAX);
            let mut base = 0u64;
            // Among the `bad` steps, those whose child the single-capture
            // count below cannot take (`one_*`), and the opponent's three
            // possible captures after a step of each direction (`caps_*`).
            let (mut one_a, mut one_b) = (u32::MAX, u32::MAX);
            let (mut caps_a, mut caps_b) = ([0u32; 3], [0u32; 3]);
            let (xa, xb) = if W {
                (down_left(s.opp), down_right(s.opp))
            } else {
                (up_left(s.opp), up_right(s.opp))
            };
            // The squares the opponent's men would land on by a jump over
            // one of the mover's pieces, were they empty.
            let (ja, jb) = if W {
                (down_left(xa & mine), down_right(xb & mine))
            } else {
                (up_left(xa & mine), up_right(xb & mine))
            };
            if s.opp_kings == 0 && (ja | jb) & empty == 0 {
                // The opponent has men only and no capture here. After a
                // man's step it has one exactly when it can take the man
                // on its new square (landing on an empty square, or on
                // the square it left) or land on the square it left over
                // another piece; otherwise its count is `base` plus its
                // steps onto the vacated square, minus those onto the
                // newly held one. Directions are named from the
                // opponent's side: its men step `xa`-wise and `xb`-wise;
                // the mover's steps go the opposite ways, `bad_a` for
                // the steps against `xb` (the landing behind the man is
                // its old square), `bad_b` against `xa`.
                base = u64::from(pop2(xa & empty, xb & empty));
                let (back_a, back_b, land_a, land_b) = if W {
                    (up_right(empty), up_left(empty), up_left(ja), up_right(jb))
                } else {
                    (
                        down_right(empty),
                        down_left(empty),
                        down_left(ja),
                        down_right(jb),
                    )
                };
                bad_a = (xa & back_a) | xb | land_a;
                bad_b = xa | (xb & back_b) | land_b;
                if s.kings == 0 {
                    // The child's captures are the (up to three) new ones,
                    // taking the man on its new square or landing on its
                    // old square. Whether a capture can go on from its
                    // landing square reads only squares ahead of it,
                    // which the step did not change: the squares from
                    // which the opponent could jump in the parent (`cont`)
                    // tell. When none goes on, the child's count is the
                    // number of these captures: none takes a king (the
                    // mover has none, and a man promoted by the step stands
                    // on the opponent's back row, where nothing can take
                    // it).
                    let cont = if W {
                        up_right(mine & back_a) | up_left(mine & back_b)
                    } else {
                        down_right(mine & back_a) | down_left(mine & back_b)
                    };
                    // Steps whose new square is behind (`a`-wise, `b`-wise)
                    // a square of `cont`.
                    let (cont_a, cont_b) = if W {
                        (up_right(cont), up_left(cont))
                    } else {
                        (down_right(cont), down_left(cont))
                    };
                    caps_a = [xa & back_a, xb, land_a];
                    caps_b = [xb & back_b, xa, land_b];
                    one_a = (caps_a[0] & cont_a) | ((caps_a[1] | caps_a[2]) & cont_b);
                    one_b = (caps_b[0] & cont_b) | ((caps_b[1] | caps_b[2]) & cont_a);
                }
            }
            // The steps to `targets` (one origin shift): the bulk count of
            // those not in `bad`, then the others one by one.
            macro_rules! steps {
                ($targets:expr, $bad:ident, $one:ident, $caps:ident, |$t:ident| $from:expr) => {{
                    let targets = $targets;
                    let good = targets & !$bad;
                    if good != 0 {
                        let $t = good;
                        let from = $from;
                        n += u64::from(good.count_ones()) * base
                            + u64::from(pop2(from & xa, from & xb))
                            - u64::from(pop2(good & xa, good & xb));
                    }
                    let bad = targets & $bad;
                    let single = bad & !$one;
                    if single != 0 {
                        n += u64::from(
                            pop2(single & $caps[0], single & $caps[1])
                                + (single & $caps[2]).count_ones(),
                        );
                    }
                    each_bit!($t in bad & $one => { step!($t, $from) });
                }};
            }
            // A step moves a man by 3, 4 or 5 bits depending on the row
            // parity: split by row, each origin is a constant shift.
            if W {
                let (ta, tb) = (up_left(s.men) & empty, up_right(s.men) & empty);
                steps!(ta & ODD_ROWS, bad_a, one_a, caps_a, |to| to >> 4);
                steps!(ta & EVEN_ROWS, bad_a, one_a, caps_a, |to| to >> 5);
                steps!(tb & ODD_ROWS, bad_b, one_b, caps_b, |to| to >> 3);
                steps!(tb & EVEN_ROWS, bad_b, one_b, caps_b, |to| to >> 4);
            } else {
                let (ta, tb) = (down_left(s.men) & empty, down_right(s.men) & empty);
                steps!(ta & ODD_ROWS, bad_a, one_a, caps_a, |to| to << 4);
                steps!(ta & EVEN_ROWS, bad_a, one_a, caps_a, |to| to << 3);
                steps!(tb & ODD_ROWS, bad_b, one_b, caps_b, |to| to << 5);
                steps!(tb & EVEN_ROWS, bad_b, one_b, caps_b, |to| to << 4);
            }
            each_bit!(k in s.kings => {
                let ki = k.trailing_zeros() as usize;
                for d in 0..4 {
                    each_bit!(to in slide(d, ki, s.occ) => {
                        let (m, mk) = (mine ^ (k | to), s.kings ^ (k | to));
                        n += u64::from(reply::<W, R>(m, mk, s.opp, s.opp_kings));
                    });
                }
            });
        }
        Dispatch::SingleJumps(la, lb) => {
            // A man's jump from `from` to `to` over `cap`.
            macro_rules! jump {
                ($to:ident, $from:expr, $cap:expr) => {{
                    let cap = $cap;
                    let kings = s.kings | ($to & promo);
                    let moved = mine ^ ($to | $from);
                    let (theirs, their_kings) = (s.opp & !cap, s.opp_kings & !cap);
                    n += u64::from(reply::<W, R>(moved, kings, theirs, their_kings));
                }};
            }
            // A jump moves the man by a constant 9 or 7 bits.
            if W {
                each_bit!(to in la => { jump!(to, to >> 9, down_right(to)) });
                each_bit!(to in lb => { jump!(to, to >> 7, down_left(to)) });
            } else {
                each_bit!(to in la => { jump!(to, to << 7, up_right(to)) });
                each_bit!(to in lb => { jump!(to, to << 9, up_left(to)) });
            }
        }
        Dispatch::Search { kings: 0, .. } if s.opp_kings == 0 => n = men_captures::<W, R>(&s),
        Dispatch::Search { men, kings } => {
            let mut list = MoveList::new();
            gen_captures::<W, R>(&s, men, kings, &mut list);
            for m in &list {
                let c = child_of::<W>(
                    pos,
                    1 << m.from,
                    1 << m.to,
                    m.captured,
                    R::CROWNS_ON_THE_WAY && m.crowned,
                );
                let (mine, theirs) = if W {
                    (c.white, c.black)
                } else {
                    (c.black, c.white)
                };
                n += u64::from(reply::<W, R>(
                    mine,
                    mine & c.kings,
                    theirs,
                    theirs & c.kings,
                ));
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::movegen::visit;
    use crate::draughts::rules::SpanishRules;

    /// Perft 2 the plain way: every child made and counted in full.
    fn plain<const W: bool, R: VariantRules>(pos: &Position) -> u64 {
        let mut n = 0;
        visit::<W, R, _>(pos, |c| {
            n += if W {
                count::<false, R>(c)
            } else {
                count::<true, R>(c)
            } as u64;
        });
        n
    }

    #[test]
    fn equals_the_plain_count_along_random_games() {
        type R = SpanishRules;
        // Random games from the start (xorshift, fixed seed), every
        // position on the way checked: openings, captures, kings.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for _ in 0..300 {
            let mut pos = Position::start();
            for _ in 0..150 {
                let (fast, slow) = match pos.side {
                    Color::White => (perft_two::<true, R>(&pos), plain::<true, R>(&pos)),
                    Color::Black => (perft_two::<false, R>(&pos), plain::<false, R>(&pos)),
                };
                assert_eq!(fast, slow, "{}", pos.to_fen());
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.played_unchecked(&moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 10_000);
    }
}
