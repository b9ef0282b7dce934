//! Move ordering: transposition-table move, then captures (by pieces and
//! kings taken), promotions, the two killer moves of the ply, and the
//! history heuristic (quiet moves that caused cut-offs elsewhere).

use crate::draughts::{Move, Position, MAX_MOVES};
use crate::search::MAX_PLY;

/// Never a real move: a quiet move from a square to itself.
pub const NO_MOVE: Move = Move {
    from: 0,
    to: 0,
    captured: 0,
    crowned: false,
};

use super::parameters::{
    CAPTURED_KING_BONUS, CAPTURE_SCORE, HISTORY_AGING, HISTORY_BONUS_MAX, HISTORY_LIMIT,
    KILLER1_SCORE, KILLER2_SCORE, PROMOTING_CAPTURE_BONUS, PROMOTION_SCORE, TT_SCORE,
};

/// Killers and history of one search thread.
pub struct Ordering {
    killers: [[Move; 2]; MAX_PLY + 1],
    history: [[[i32; 32]; 32]; 2],
}

impl Ordering {
    /// Empty tables, boxed (they are about 10 KiB).
    pub fn new() -> Box<Ordering> {
        Box::new(Ordering {
            killers: [[NO_MOVE; 2]; MAX_PLY + 1],
            history: [[[0; 32]; 32]; 2],
        })
    }

    /// Forgets killers and history (new game).
    pub fn clear(&mut self) {
        self.killers = [[NO_MOVE; 2]; MAX_PLY + 1];
        self.history = [[[0; 32]; 32]; 2];
    }

    /// Halves the history and forgets the killers at the start of a search,
    /// so that the history stays recent and killers (ply-relative) do not
    /// carry over to a root two plies later.
    pub fn age(&mut self) {
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= HISTORY_AGING;
                }
            }
        }
        self.killers = [[NO_MOVE; 2]; MAX_PLY + 1];
    }

    /// The sum of the history magnitudes (tests).
    #[cfg(test)]
    pub fn history_sum(&self) -> i64 {
        self.history
            .iter()
            .flatten()
            .flatten()
            .map(|h| i64::from(h.abs()))
            .sum()
    }

    /// Scores `moves` for [`pick`] into `scores`.
    pub fn score(
        &self,
        pos: &Position,
        moves: &[Move],
        tt: Option<usize>,
        ply: usize,
        scores: &mut [i32; MAX_MOVES],
    ) {
        let side = pos.to_move() as usize;
        let kings = pos.all_kings().0;
        let k = &self.killers[ply.min(MAX_PLY)];
        for (i, mv) in moves.iter().enumerate() {
            scores[i] = if Some(i) == tt {
                TT_SCORE
            } else if mv.captured != 0 {
                CAPTURE_SCORE
                    + CAPTURED_KING_BONUS * (mv.captured & kings).count_ones() as i32
                    + PROMOTING_CAPTURE_BONUS * i32::from(pos.is_promotion(mv))
            } else if pos.is_promotion(mv) {
                PROMOTION_SCORE
            } else if *mv == k[0] {
                KILLER1_SCORE
            } else if *mv == k[1] {
                KILLER2_SCORE
            } else {
                self.history[side][mv.from as usize][mv.to as usize]
            };
        }
    }

    /// Records a quiet move that failed high at `ply` with `depth` left,
    /// and penalises the quiet moves tried before it.
    pub fn cutoff(&mut self, pos: &Position, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        if mv.captured != 0 {
            return;
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
        let side = pos.to_move() as usize;
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        let h = &mut self.history[side];
        let e = &mut h[mv.from as usize][mv.to as usize];
        *e += bonus - *e * bonus / HISTORY_LIMIT;
        for t in tried {
            if *t != mv && t.captured == 0 {
                let e = &mut h[t.from as usize][t.to as usize];
                *e -= bonus + *e * bonus / HISTORY_LIMIT;
            }
        }
    }
}

/// The index of the best-scored move not yet picked among the first `n`;
/// it is marked as picked. Moves stay in generation order, so indices are
/// the ones the transposition table stores.
#[inline(always)]
pub fn pick(scores: &mut [i32; MAX_MOVES], n: usize) -> usize {
    let mut best = 0;
    for j in 1..n {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    scores[best] = i32::MIN;
    best
}
