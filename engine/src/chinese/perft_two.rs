//! The last two plies of perft without making most children, for the
//! international rules without goal lock (every piece ordinary, free to
//! end anywhere).
//!
//! A move changes the board at two points only. The next player's count
//! in the child is the one in the parent (computed once, as if it were to
//! move) plus the change in its steps (one more for each of its pieces
//! next to the vacated point, one fewer for each next to the newly held
//! one), unless the move touches what its jump chains read. A chain reads
//! the "jumpable neighbour" bits (`ov`) at the points it stands on (its
//! pieces and their landings, `stand`) and the empty bits at the points
//! two steps from them (`reach`); a move flips the `ov` bits of the
//! neighbours of its two points and the empty bits of the two points
//! themselves. Only when one of those lies in the sets is the child made
//! and counted in full. Early in a game the armies are apart and almost
//! no move touches the other's chains.

use super::geometry::{Mask, GEO};
use super::movegen::{coset_to_dense, flood, with_a_jump};
use super::position::Position;

/// The count of player `p` as if it were to move in `pos`, the points its
/// chains stand on (dense) and the points whose emptiness they read (per
/// coset grid).
fn count_with_reads(pos: &Position, p: usize) -> (u32, u128, [u128; 4]) {
    let own = pos.pieces[p];
    let step_to = !pos.occ;
    let mut n = 0u32;
    let mut own_c = [0u128; 4];
    for c in own {
        let i = c.index();
        n += (Mask(GEO.nbr_mask[i]) & step_to).count();
        own_c[GEO.coset[i] as usize] |= 1u128 << GEO.cbit[i];
    }
    let mut stand = own.0;
    let mut read = [0u128; 4];
    for (q, &o) in own_c.iter().enumerate() {
        if o == 0 {
            continue;
        }
        let e = pos.empty_c[q];
        let ov = &pos.ov[q];
        let mut jumpers = with_a_jump(o, ov, e);
        let mut landed = 0u128;
        while jumpers != 0 {
            let b = jumpers & jumpers.wrapping_neg();
            jumpers ^= b;
            let reach = flood(b, ov, e, 0);
            n += reach.count_ones();
            landed |= reach;
        }
        if landed != 0 {
            stand |= coset_to_dense(landed, q).0;
        }
        let v = o | landed;
        read[q] = (v << 1) | (v << 11) | (v << 10) | (v >> 1) | (v >> 11) | (v >> 10);
    }
    (n, stand, read)
}

/// Perft 2 from `pos` under the international rules without goal lock, or
/// `None` when the side to move has no move (the caller counts the pass).
pub(super) fn perft_two(pos: &Position) -> Option<u64> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let next = (pos.to_move() + 1) % pos.players();
    let (base, stand, read) = count_with_reads(pos, next);
    let theirs = pos.pieces[next].0;
    let mut n = 0u64;
    for mv in &moves {
        let (f, t) = (mv.from.index(), mv.to.index());
        let near = GEO.nbr_mask[f] | GEO.nbr_mask[t];
        let empty_read = |i: usize| read[GEO.coset[i] as usize] >> GEO.cbit[i] & 1 != 0;
        let count = if near & stand != 0 || empty_read(f) || empty_read(t) {
            let mut child = *pos;
            child.play_unchecked(mv);
            child.count_legal_moves()
        } else {
            let gained = (GEO.nbr_mask[f] & theirs).count_ones();
            let lost = (GEO.nbr_mask[t] & theirs).count_ones();
            u64::from(base + gained - lost)
        };
        // A player without a move passes, which counts as one move.
        n += count.max(1);
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::Rules;

    /// Perft 2 the plain way: every child made and counted in full.
    fn plain(pos: &Position) -> u64 {
        pos.legal_moves()
            .iter()
            .map(|mv| {
                let mut child = *pos;
                child.play_unchecked(mv);
                child.count_legal_moves().max(1)
            })
            .sum()
    }

    #[test]
    fn equals_the_plain_count_along_random_games() {
        // Random games (xorshift, fixed seed) for 2, 3 and 6 players:
        // every position on the way is checked, from the opening to
        // armies mixed in the middle and pieces packed in the goals.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut touched = 0;
        for players in [2, 3, 6] {
            let rules = Rules {
                players,
                ..Rules::default()
            };
            for _ in 0..40 {
                let mut pos = Position::start(&rules);
                for _ in 0..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        pos.pass_unchecked();
                        continue;
                    }
                    let fast = perft_two(&pos).unwrap();
                    assert_eq!(fast, plain(&pos), "{pos:?}");
                    touched += 1;
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos.play_unchecked(&moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(touched > 10_000);
    }
}
