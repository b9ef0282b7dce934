//! Which moves a node of the tree searches, and in what order: a player's
//! moves ranked by the change of its distance to the goal's tip, with a
//! small push for the backward pieces, ties broken by a hash of the move
//! and the position (in generation order they favoured one side of the
//! board). The few best are kept by insertion while the destinations are
//! generated; a long list is selected from the full move list.

use arrayvec::ArrayVec;

use super::super::geometry::{Cell, Mask};
use super::super::moves::{Move, MoveList, MAX_MOVES};
use super::super::position::Position;
use super::tree::{Ordered, Tree};

use super::parameters::{PROGRESS_KEY_BACKWARD_DIVISOR, PROGRESS_KEY_STEP, SHORT_LIST};

/// What the ordering key of a move from a kept seal point adds
/// ([`Tree::kept`]): more than any race move's key.
const KEPT_LAST: i32 = 1 << 20;

/// The ordering key of a move of a piece from tip distance `from` to `to`
/// (lower is better): [`PROGRESS_KEY_STEP`] per step gained, and a small push for the backward
/// pieces, which otherwise stay behind as stragglers. Shared by the tree's
/// ordering and the Monte Carlo search's children and playouts.
#[inline(always)]
pub(super) fn progress_key(from: i32, to: i32) -> i32 {
    (to - from) * PROGRESS_KEY_STEP - from / PROGRESS_KEY_BACKWARD_DIVISOR
}

impl Tree<'_> {
    /// The moves of `p` in `pos`, best first by the change of `p`'s cost
    /// (ties broken by a hash of the move and the position), at most
    /// `limit` of them (the hash move first when given). Not inlined: its
    /// scoring buffer stays out of the recursive frame.
    #[inline(never)]
    pub(super) fn ordered(
        &self,
        pos: &Position,
        p: usize,
        limit: usize,
        first: Option<(u8, u8)>,
    ) -> Ordered {
        self.ordered_into(pos, p, limit, first)
    }

    /// [`Tree::ordered`] into a list of capacity `N`: at most `N` moves
    /// (a short list is cheap to keep several of in a frame).
    #[inline(always)]
    pub(super) fn ordered_into<const N: usize>(
        &self,
        pos: &Position,
        p: usize,
        limit: usize,
        first: Option<(u8, u8)>,
    ) -> ArrayVec<Move, N> {
        let limit = limit.min(N);
        let tip = self.army(p).tip;
        let kept = self.kept.get(p).copied().unwrap_or(Mask::EMPTY);
        let score = |from: Cell, to: Cell| {
            if first == Some((from.index() as u8, to.index() as u8)) {
                return i32::MIN;
            }
            let key = progress_key(i32::from(tip[from.index()]), i32::from(tip[to.index()]));
            if kept.contains(from) {
                key + KEPT_LAST
            } else {
                key
            }
        };
        // (score, tie-break, move), sorted by the first two. Ties are broken
        // by a hash of the move and the position: in generation order they
        // would favour the same side of the board every time.
        // The move's own bits in the low half make the order total.
        let salt = pos.hash();
        let tie = |from: Cell, to: Cell| {
            let bits = (from.index() as u32) << 8 | to.index() as u32;
            let x = (salt ^ u64::from(bits)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            ((x >> 48) as u32) << 16 | bits
        };
        if limit <= SHORT_LIST {
            // The few best by insertion, without listing every move first.
            let mut top: ArrayVec<(i32, u32, Move), SHORT_LIST> = ArrayVec::new();
            for from in pos.pieces(p) {
                for to in pos.destinations_of(p, from) {
                    let key = (score(from, to), tie(from, to));
                    if top.len() == limit {
                        if top.last().is_some_and(|x| (x.0, x.1) <= key) {
                            continue;
                        }
                        top.pop();
                    }
                    let at = top.partition_point(|x| (x.0, x.1) < key);
                    top.insert(at, (key.0, key.1, Move::new(from, to)));
                }
            }
            return top.iter().map(|x| x.2).collect();
        }
        let moves: MoveList = pos.moves_of(p);
        let mut scored: ArrayVec<(i32, u32, Move), MAX_MOVES> = ArrayVec::new();
        for &mv in moves.iter() {
            scored.push((score(mv.from, mv.to), tie(mv.from, mv.to), mv));
        }
        if scored.len() > limit {
            scored.select_nth_unstable_by_key(limit, |x| (x.0, x.1));
            scored.truncate(limit);
        }
        scored.sort_unstable_by_key(|x| (x.0, x.1));
        // By reference: moving the list into an iterator would copy its
        // whole capacity (kilobytes) at every node.
        scored.iter().map(|x| x.2).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::middle_game;
    use super::super::tree::tests::with_tree;
    use super::*;

    #[test]
    fn the_short_list_is_the_head_of_the_full_order() {
        let pos = middle_game();
        with_tree(&pos, |tree| {
            for p in 0..6 {
                let all = tree.ordered(&pos, p, usize::MAX, None);
                assert_eq!(all.len(), pos.moves_of(p).len());
                for limit in [1, 4, 16, SHORT_LIST, SHORT_LIST + 1] {
                    let head = tree.ordered(&pos, p, limit, None);
                    assert_eq!(
                        &head[..],
                        &all[..limit.min(all.len())],
                        "player {p}, limit {limit}"
                    );
                }
                // The hash move comes first whatever its score.
                let last = *all.last().expect("moves");
                let first = Some((last.from.index() as u8, last.to.index() as u8));
                assert_eq!(tree.ordered(&pos, p, 4, first)[0], last);
            }
        });
    }

    #[test]
    fn under_a_hold_the_seal_points_move_last() {
        use super::super::siege::SealPlan;
        use crate::chinese::{Checkers, Rules};
        // Both sides keep their seals; p2 has three pieces out.
        let pos = *Checkers::from_text_with_defaults(
            "I2 1 e2,e3,f3,g3,e4,f4,g4,h4,j13,k13/h6,k8,l9,j14,k14,l14,m14,k15,l15,m15 ply=40",
            &Rules::default(),
        )
        .expect("valid")
        .position();
        let plan = SealPlan::of(&pos, 0, false, true);
        let Some(SealPlan::Hold(hold, None)) = plan else {
            panic!("a hold behind a closed seal: {plan:?}");
        };
        with_tree(&pos, |tree| {
            // The race order puts a seal piece's jump forward first.
            let race = tree.ordered(&pos, 1, usize::MAX, None);
            assert!(hold.rival_ward().contains(race[0].from()));
            tree.set_seal_plan(plan, &pos);
            for (p, kept) in [(0, hold.ward()), (1, hold.rival_ward())] {
                let moves = tree.ordered(&pos, p, usize::MAX, None);
                let first_kept = moves
                    .iter()
                    .position(|m| kept.contains(m.from()))
                    .expect("a seal piece can move");
                assert!(first_kept > 0, "player {p}");
                assert!(
                    moves[first_kept..].iter().all(|m| kept.contains(m.from())),
                    "player {p}: every seal move after every other"
                );
            }
        });
    }
}
