//! BRS+ (Esser, Gras, Winands, Schadd and Lanctot, "Improving Best-Reply
//! Search", 2013): at an opponent node of the 3–6 player best-reply search,
//! the rivals who do not give the reply no longer pass; each plays its first
//! move by the move ordering, so the tree sees every rival advance (and move
//! its jump supports) every round, as in the game, while the root still
//! answers the single reply that hurts it most.
//!
//! The first moves are chosen once per opponent node, in the position
//! before the reply; one that the reply made illegal is skipped. Every
//! rival's reply list is built then, once: its head is the first move, so
//! no rival's moves are generated twice at one node.

use arrayvec::ArrayVec;

use super::super::moves::Move;
use super::super::position::Position;
use super::cell;
use super::parameters::MAX_WIDTH;

/// The first move by the ordering of each rival (by seat; `None` for a
/// rival who is not to reply or has no move).
pub(super) type FirstMoves = [Option<Move>; 6];

/// A rival's replies at a best-reply node (at most the tree's width).
pub(super) type ShortList = ArrayVec<Move, MAX_WIDTH>;

/// `list` (player `p`'s moves in `pos`, best first, as
/// [`Tree::ordered`] lists them without a hash move) with the hash move
/// `hash` first when it is a legal move of `p`: the list
/// [`Tree::ordered`] gives with that hash move.
pub(super) fn hash_first(
    pos: &Position,
    p: usize,
    list: &ShortList,
    hash: Option<(u8, u8)>,
) -> ShortList {
    let mut out = list.clone();
    let Some((from, to)) = hash else {
        return out;
    };
    let mv = Move::new(cell(from), cell(to));
    if let Some(i) = out.iter().position(|m| *m == mv) {
        out[..=i].rotate_right(1);
    } else if pos.is_legal_for(p, &mv) {
        // Beyond the limit: it takes the place of the last one.
        out.pop();
        out.insert(0, mv);
    }
    out
}

/// Plays in `child`, after `replier`'s reply, the first moves of the other
/// `rivals` that are still legal there, in the order of `rivals`, and
/// returns the rivals who moved. `child` is left with `replier` to move.
pub(super) fn play_the_others(
    child: &mut Position,
    replier: usize,
    rivals: &[usize],
    first: &FirstMoves,
) -> ArrayVec<usize, 6> {
    let mut moved = ArrayVec::new();
    for &q in rivals {
        if q == replier {
            continue;
        }
        if let Some(mv) = first[q] {
            child.set_to_move_unchecked(q);
            if child.is_legal(&mv) {
                child.play_unchecked(&mv);
                moved.push(q);
            }
        }
    }
    child.set_to_move_unchecked(replier);
    moved
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::middle_game;
    use super::*;

    #[test]
    fn the_other_rivals_play_their_first_legal_moves_after_the_reply() {
        let pos = middle_game();
        let rivals = [3, 1, 2, 4, 5];
        let first = {
            let mut f: FirstMoves = [None; 6];
            for &q in &rivals {
                // The first move of each rival by the tip distance: any
                // legal move will do for the rule under test.
                f[q] = pos.moves_of(q).first().copied();
            }
            f
        };
        let reply = pos.moves_of(3).last().copied().expect("moves");
        let mut child = pos;
        child.set_to_move_unchecked(3);
        child.play_unchecked(&reply);
        let after_reply = child;
        let moved = play_the_others(&mut child, 3, &rivals, &first);
        assert_eq!(child.to_move(), 3);
        assert!(!moved.contains(&3));
        // Replaying the moves of those who moved, in order, gives the child;
        // the rivals who did not move had a first move made illegal.
        let mut replay = after_reply;
        for &q in &rivals[1..] {
            let mv = first[q].expect("a move");
            replay.set_to_move_unchecked(q);
            if moved.contains(&q) {
                assert!(replay.is_legal(&mv));
                replay.play_unchecked(&mv);
            } else {
                assert!(!replay.is_legal(&mv));
            }
        }
        replay.set_to_move_unchecked(3);
        assert_eq!(replay.hash(), child.hash());
        assert_eq!(child.pieces(0), pos.pieces(0));
        assert_eq!(moved.len(), 4);
    }

    #[test]
    fn a_first_move_the_reply_made_illegal_is_skipped() {
        let pos = middle_game();
        // A move of rival 1 that lands where a reply of rival 3 lands.
        let (reply, clash) = pos
            .moves_of(3)
            .iter()
            .find_map(|r| {
                let m = pos.moves_of(1).iter().copied().find(|m| m.to == r.to)?;
                Some((*r, m))
            })
            .expect("rivals 1 and 3 share a destination");
        let mut first: FirstMoves = [None; 6];
        first[1] = Some(clash);
        let mut child = pos;
        child.set_to_move_unchecked(3);
        child.play_unchecked(&reply);
        child.set_to_move_unchecked(3);
        let before = child;
        let moved = play_the_others(&mut child, 3, &[3, 1], &first);
        assert!(moved.is_empty());
        assert_eq!(child.hash(), before.hash());
        assert_eq!(child.pieces(1), before.pieces(1));
    }
}
