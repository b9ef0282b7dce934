//! Static evaluation in centi-men, from the side to move's point of view.
//!
//! Every weight is a named constant in [`weights`] so that the terms can be
//! tuned in one place. The evaluation is only called on quiet positions
//! (the side to move has no capture): the search resolves captures first.
//! It allocates nothing and uses whole-board shifts and popcounts.

use crate::spanish::tables::{down_left, down_right, slide, up_left, up_right, DL, DR, UL, UR};
use crate::spanish::{Color, Position};

/// The evaluation weights, in centi-men.
pub mod weights {
    /// A man.
    pub const MAN: i32 = 100;
    /// A king (dama); flying kings are worth about three men.
    pub const KING: i32 = 300;
    /// Advancement of a man by relative row (0 = own back row; row 7 is
    /// promotion). Scaled up as material comes off (see `ENDGAME_SCALE`).
    pub const ADVANCE: [i32; 8] = [0, 1, 3, 6, 10, 15, 22, 0];
    /// A man still on its own back row while the opponent has no king
    /// (guards against promotion), in the opening and middle game.
    pub const BACK_RANK: i32 = 7;
    /// A man on one of the four centre squares (14, 15, 18, 19).
    pub const CENTRE: i32 = 5;
    /// A man on the a- or h-file (can only move one way).
    pub const EDGE: i32 = -4;
    /// Per empty square a man can step to.
    pub const MOBILITY_MAN: i32 = 2;
    /// Per square a king can slide to.
    pub const MOBILITY_KING: i32 = 2;
    /// A side with no move at all is lost; one with very few is in danger.
    pub const LOW_MOBILITY: i32 = -12;
    /// The side to move (tempo).
    pub const TEMPO: i32 = 4;
    /// A man that no enemy man can stop (no enemy piece in its forward
    /// cone) and no enemy king: worth most of a king, less the distance.
    pub const RUNAWAY: i32 = 140;
    /// Subtracted from [`RUNAWAY`] per row still to go.
    pub const RUNAWAY_PER_ROW: i32 = 15;
    /// A king on the main diagonal (1-32) in the ending.
    pub const MAIN_DIAGONAL: i32 = 12;
    /// In won endings, per move left to the losing side (drives it into a
    /// corner).
    pub const DRIVE_MOBILITY: i32 = 4;
    /// In won endings, per piece that left the board (trade when ahead).
    pub const DRIVE_TRADE: i32 = 10;
}

use weights::*;

/// Row masks: row `r` holds bits `4r..4r+4`.
const fn row(r: u32) -> u32 {
    0xF << (4 * r)
}

/// The centre squares 14, 15, 18, 19.
const CENTRE_SQ: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// The a- and h-files.
const EDGE_SQ: u32 =
    (1 << 0) | (1 << 8) | (1 << 16) | (1 << 24) | (1 << 7) | (1 << 15) | (1 << 23) | (1 << 31);
/// The main diagonal h1-a8: squares 1, 5, 10, 14, 19, 23, 28, 32.
pub const MAIN_DIAG: u32 =
    (1 << 0) | (1 << 4) | (1 << 9) | (1 << 13) | (1 << 18) | (1 << 22) | (1 << 27) | (1 << 31);

/// The best static score magnitude; everything above is a proven result.
pub const EVAL_LIMIT: i32 = 20_000;

#[inline(always)]
fn pc(x: u32) -> i32 {
    x.count_ones() as i32
}

/// Quiet moves of a side: men steps and king slides.
#[inline(always)]
fn mobility(men: u32, kings: u32, occ: u32, white: bool) -> (i32, i32) {
    let empty = !occ;
    let m = if white {
        pc(up_left(men) & empty) + pc(up_right(men) & empty)
    } else {
        pc(down_left(men) & empty) + pc(down_right(men) & empty)
    };
    let mut k = 0;
    let mut ks = kings;
    while ks != 0 {
        let b = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        k += pc(slide(UL, b, occ) | slide(UR, b, occ) | slide(DL, b, occ) | slide(DR, b, occ));
    }
    (m, k)
}

/// Terms of one side that do not depend on the opponent's structure
/// beyond occupancy: advancement, back rank, centre, edges, runaways.
#[inline(always)]
fn men_terms(
    men: u32,
    opp: u32,
    opp_kings: u32,
    white: bool,
    opening: bool,
    endgame_scale: i32,
) -> i32 {
    let mut s = 0;
    let mut adv = 0;
    for (r, w) in ADVANCE.iter().enumerate().take(7) {
        let rr = if white { r as u32 } else { 7 - r as u32 };
        adv += w * pc(men & row(rr));
    }
    s += adv * endgame_scale / 16;
    if opening && opp_kings == 0 {
        let back = if white { row(0) } else { row(7) };
        s += BACK_RANK * pc(men & back);
    }
    s += CENTRE * pc(men & CENTRE_SQ) + EDGE * pc(men & EDGE_SQ);
    // Runaway men: only men on the last three rows before promotion are
    // examined (the cone test is a short loop).
    if opp_kings == 0 {
        let near = if white {
            row(4) | row(5) | row(6)
        } else {
            row(3) | row(2) | row(1)
        };
        let mut cand = men & near;
        while cand != 0 {
            let b = cand.trailing_zeros();
            cand &= cand - 1;
            let r = b / 4;
            let togo = if white { 7 - r } else { r } as i32;
            let mut front = 1u32 << b;
            let mut cone = 0u32;
            for _ in 0..togo {
                front = if white {
                    up_left(front) | up_right(front)
                } else {
                    down_left(front) | down_right(front)
                };
                cone |= front;
            }
            if cone & opp == 0 {
                s += RUNAWAY - RUNAWAY_PER_ROW * togo;
            }
        }
    }
    s
}

/// The static score of a quiet position for the side to move, in
/// centi-men, within ±[`EVAL_LIMIT`].
pub fn evaluate(pos: &Position) -> i32 {
    let white_to_move = pos.to_move() == Color::White;
    let score = evaluate_white(pos);
    if white_to_move {
        score + TEMPO
    } else {
        -score + TEMPO
    }
}

/// Material only (men and kings), for the side to move: the Plain and
/// Greedy baselines.
pub fn material(pos: &Position) -> i32 {
    let k = pos.kings;
    let w = MAN * pc(pos.white & !k) + KING * pc(pos.white & k);
    let b = MAN * pc(pos.black & !k) + KING * pc(pos.black & k);
    if pos.to_move() == Color::White {
        w - b
    } else {
        b - w
    }
}

/// The evaluation from White's side, without tempo.
fn evaluate_white(pos: &Position) -> i32 {
    let k = pos.kings;
    let (w, b) = (pos.white, pos.black);
    let (wm, wk, bm, bk) = (w & !k, w & k, b & !k, b & k);
    let (nwm, nwk, nbm, nbk) = (pc(wm), pc(wk), pc(bm), pc(bk));
    let occ = w | b;
    let pieces = nwm + nwk + nbm + nbk;

    // Trivial draws: king(s) against a lone king with too little to force
    // anything (1 v 1, 2 v 1, king and man v king). Tactics (an immediate
    // capture) are seen by the search before this is called.
    if nwk >= 1 && nbk >= 1 {
        let (wn, bn) = (nwm + nwk, nbm + nbk);
        if (wn <= 2 && bn == 1) || (bn <= 2 && wn == 1) {
            return 0;
        }
    }

    let mat_w = MAN * nwm + KING * nwk;
    let mat_b = MAN * nbm + KING * nbk;
    let mut s = mat_w - mat_b;

    let opening = pieces > 14;
    // 16 with all 24 pieces, 32 with 8 or fewer: advancement matters more
    // as the board empties.
    let endgame_scale = (16 + (24 - pieces.max(8)) * 16 / 16).clamp(16, 32);
    s += men_terms(wm, b, bk, true, opening, endgame_scale);
    s -= men_terms(bm, w, wk, false, opening, endgame_scale);

    let (wmm, wkm) = mobility(wm, wk, occ, true);
    let (bmm, bkm) = mobility(bm, bk, occ, false);
    s += MOBILITY_MAN * (wmm - bmm) + MOBILITY_KING * (wkm - bkm);
    let (wmob, bmob) = (wmm + wkm, bmm + bkm);
    if wmob <= 2 {
        s += LOW_MOBILITY * (3 - wmob);
    }
    if bmob <= 2 {
        s -= LOW_MOBILITY * (3 - bmob);
    }

    // Kings in the ending: the main diagonal.
    if pieces <= 12 {
        s += MAIN_DIAGONAL * (pc(wk & MAIN_DIAG) - pc(bk & MAIN_DIAG));
    }

    // Won endings: the side ahead by a king's worth trades down and takes
    // the loser's moves away; a lone king on the main diagonal against at
    // most three kings is a known fortress.
    let lead = mat_w - mat_b;
    if lead.abs() >= KING - MAN && pieces <= 10 {
        let (loser_mob, sign) = if lead > 0 { (bmob, 1) } else { (wmob, -1) };
        s += sign * (DRIVE_MOBILITY * (8 - loser_mob.min(8)) + DRIVE_TRADE * (24 - pieces));
        let (strong_m, strong_k, weak_m, weak_k) = if lead > 0 {
            (wm, wk, bm, bk)
        } else {
            (bm, bk, wm, wk)
        };
        if weak_m == 0
            && pc(weak_k) == 1
            && weak_k & MAIN_DIAG != 0
            && strong_m == 0
            && pc(strong_k) <= 3
        {
            s /= 8;
        }
    }
    s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced() {
        let pos = Position::start();
        assert_eq!(evaluate(&pos), TEMPO);
    }

    #[test]
    fn symmetric() {
        let a = Position::from_fen("W:W1-10,12,15:B21-32").unwrap();
        let b = Position::from_fen("B:W1-12:B18,21,23-32").unwrap();
        // b is a mirrored by colour and rotation (square s <-> 33 - s).
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn king_v_king_is_draw() {
        let pos = Position::from_fen("W:WK1:BK30").unwrap();
        assert_eq!(evaluate(&pos), TEMPO);
    }
}
