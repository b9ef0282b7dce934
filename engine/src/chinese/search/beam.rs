//! Beam search for one player alone: the solitaire transfer, and the
//! "how many own moves until home" plans of the game searches.
//!
//! Each ply keeps the `width` best positions by the [`Army`] heuristic. The
//! children of the beam are scored from the parent's masks without being
//! built (a child is a `(parent, from, to)` triple with its cost and hash);
//! only the selected ones become positions. A transposition set of every
//! position kept so far drops children already seen at an earlier (or the
//! same) ply, so the beam never wastes room on duplicates.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::super::moves::Move;
use super::super::position::Position;
use super::super::zobrist::KEYS;
use super::heuristic::{finished, Army};
use super::parameters::{
    BEAM_CANDIDATES_PER_SLOT, BEAM_COMPACT_MIN, BEAM_MIN_CANDIDATES, BEAM_POLL, BEAM_SORT_CHUNK,
};

/// A hasher for keys that are already Zobrist hashes.
#[derive(Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) type IdSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// The outcome of a beam run: a plan of one player's moves
/// ([`solve_solitaire`](crate::chinese::solve_solitaire)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolitairePlan {
    /// The moves of the plan, from the given position.
    pub moves: Vec<Move>,
    /// Whether the plan ends with the player home (finished); otherwise it
    /// is the best partial plan found before a limit.
    pub finished: bool,
    /// Positions generated (children scored).
    pub nodes: u64,
}

/// Limits of a beam run.
#[derive(Clone, Copy, Debug)]
pub struct BeamLimits<'a> {
    /// Positions kept per ply.
    pub width: usize,
    /// Give up after this many plies.
    pub max_plies: usize,
    /// Stop when set.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

#[derive(Clone, Copy)]
struct Cand {
    cost: i32,
    hash: u64,
    parent: u32,
    from: u8,
    to: u8,
}

/// Plans the fastest way home for player `p` moving alone from `pos` (the
/// other players' pieces stay where they are), with a beam of
/// `limits.width` positions per ply. `anti_blocking` is the finishing rule.
///
/// Returns the plan found; with `finished == false` when a limit cut the
/// search (the plan then leads to the best position of the last ply).
pub fn plan(
    pos: &Position,
    p: usize,
    anti_blocking: bool,
    limits: BeamLimits<'_>,
) -> SolitairePlan {
    let width = limits.width.max(1);
    let army = Army::of(pos, p);
    let mut root = *pos;
    root.set_to_move_unchecked(p);
    let king_of = |pos: &Position| (pos.pieces(p) & pos.kings()).first();
    if finished(
        &army,
        root.pieces(p),
        king_of(&root),
        root.occupied(),
        anti_blocking,
    ) {
        return SolitairePlan {
            moves: Vec::new(),
            finished: true,
            nodes: 0,
        };
    }
    let mut beam: Vec<Position> = vec![root];
    let mut links: Vec<Vec<(u32, Move)>> = Vec::new();
    let mut seen = IdSet::default();
    seen.insert(root.hash());
    let mut nodes = 0u64;
    let mut cands: Vec<Cand> = Vec::new();
    let keys = &KEYS;
    let stopped = || {
        limits.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
    };
    let keep = width
        .saturating_mul(BEAM_CANDIDATES_PER_SLOT)
        .max(BEAM_MIN_CANDIDATES);
    // A wide beam gathers millions of children per ply: the candidates are
    // cut back to the best `keep` whenever they pass `compact_at`, so that
    // no selection runs over more than that between two looks at the clock,
    // and from then on a child no better than the last one kept is dropped
    // at once (so the cuts grow rare).
    let compact_at = keep.saturating_add(keep.max(BEAM_COMPACT_MIN));
    let by_cost = |c: &Cand| (c.cost, c.hash);
    'plies: for _ply in 0..limits.max_plies {
        cands.clear();
        let mut worst_kept: Option<(i32, u64)> = None;
        // The first ply always completes: a plan has at least one move.
        let may_stop = !links.is_empty();
        let mut done: Option<(u32, Move)> = None;
        'parents: for (i, node) in beam.iter().enumerate() {
            if i % BEAM_POLL == BEAM_POLL - 1 && may_stop && stopped() {
                // A ply cut short is dropped whole: finishing it would
                // select and sort what it gathered past the limit.
                break 'plies;
            }
            if cands.len() >= compact_at {
                cands.select_nth_unstable_by_key(keep, by_cost);
                cands.truncate(keep);
                worst_kept = cands.iter().map(by_cost).max();
            }
            let own = node.pieces(p);
            let occ = node.occupied();
            let king = king_of(node);
            for from in own {
                let dests = node.destinations_of(p, from);
                let is_king = king == Some(from);
                for to in dests {
                    nodes += 1;
                    let bits = from.bit() | to.bit();
                    let own2 = own ^ bits;
                    let occ2 = occ ^ bits;
                    let king2 = if is_king { Some(to) } else { king };
                    let mut h =
                        node.hash() ^ keys.piece[p][from.index()] ^ keys.piece[p][to.index()];
                    if is_king {
                        h ^= keys.king[from.index()] ^ keys.king[to.index()];
                    }
                    if seen.contains(&h) {
                        continue;
                    }
                    if finished(&army, own2, king2, occ2, anti_blocking) {
                        done = Some((i as u32, Move { from, to }));
                        break 'parents;
                    }
                    let cost = army.cost(own2, king2, occ2);
                    if worst_kept.is_some_and(|worst| (cost, h) >= worst) {
                        continue;
                    }
                    cands.push(Cand {
                        cost,
                        hash: h,
                        parent: i as u32,
                        from: from.index() as u8,
                        to: to.index() as u8,
                    });
                }
            }
        }
        if let Some((parent, mv)) = done {
            let mut moves = trace(&links, parent);
            moves.push(mv);
            return SolitairePlan {
                moves,
                finished: true,
                nodes,
            };
        }
        if cands.is_empty() {
            break;
        }
        if cands.len() > keep {
            cands.select_nth_unstable_by_key(keep, by_cost);
            cands.truncate(keep);
        }
        let mut next = Vec::with_capacity(width.min(cands.len()));
        let mut link = Vec::with_capacity(width.min(cands.len()));
        let mut last = None;
        // The best first, a slice of at most BEAM_SORT_CHUNK at a time (one
        // sort of all for a narrow beam), with a look at the clock between
        // slices: sorting and building a wide beam's ply takes tens of
        // milliseconds.
        let mut rest = &mut cands[..];
        while next.len() < width && !rest.is_empty() {
            if may_stop && stopped() {
                break 'plies;
            }
            let take = rest.len().min(BEAM_SORT_CHUNK);
            if take < rest.len() {
                rest.select_nth_unstable_by_key(take, by_cost);
            }
            let (slice, tail) = rest.split_at_mut(take);
            slice.sort_unstable_by_key(by_cost);
            for c in slice.iter() {
                if next.len() == width {
                    break;
                }
                if last == Some(c.hash) || !seen.insert(c.hash) {
                    last = Some(c.hash);
                    continue;
                }
                last = Some(c.hash);
                let from = super::cell(c.from);
                let to = super::cell(c.to);
                let mut child = beam[c.parent as usize];
                child.play_unchecked(&Move::new(from, to));
                child.set_to_move_unchecked(p);
                debug_assert_eq!(child.hash(), c.hash);
                next.push(child);
                link.push((c.parent, Move { from, to }));
            }
            rest = tail;
        }
        links.push(link);
        beam = next;
        if stopped() {
            break;
        }
    }
    // No finish within the limits: the plan to the best position reached.
    let moves = if links.is_empty() {
        Vec::new()
    } else {
        trace(&links, 0)
    };
    SolitairePlan {
        moves,
        finished: false,
        nodes,
    }
}

/// The moves leading to entry `idx` of the last layer in `links`.
fn trace(links: &[Vec<(u32, Move)>], mut idx: u32) -> Vec<Move> {
    let mut moves = Vec::with_capacity(links.len() + 1);
    for layer in links.iter().rev() {
        let (parent, mv) = layer[idx as usize];
        moves.push(mv);
        idx = parent;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::Rules;

    fn solitaire() -> Position {
        Position::start(&Rules::for_players(1))
    }

    #[test]
    fn a_stopped_wide_beam_drops_the_ply_it_was_in() {
        let pos = solitaire();
        let raised = AtomicBool::new(true);
        let wide = BeamLimits {
            width: 100_000,
            max_plies: 200,
            stop: Some(&raised),
            deadline: None,
        };
        let stopped = plan(&pos, 0, true, wide);
        // The first ply always completes (a plan has a move); the second
        // is dropped at its first look, after BEAM_POLL parents.
        assert_eq!(stopped.moves.len(), 1);
        assert!(!stopped.finished);
        let first_ply = plan(
            &pos,
            0,
            true,
            BeamLimits {
                max_plies: 1,
                stop: None,
                ..wide
            },
        )
        .nodes;
        let per_parent = 200;
        assert!(
            stopped.nodes <= first_ply + (BEAM_POLL as u64) * per_parent,
            "{} nodes after the first ply's {first_ply}",
            stopped.nodes
        );
        assert!(pos.is_legal(&stopped.moves[0]));
        // A deadline already past stops it the same way.
        let past = plan(
            &pos,
            0,
            true,
            BeamLimits {
                stop: None,
                deadline: Some(Instant::now()),
                ..wide
            },
        );
        assert_eq!(past.moves.len(), 1);
    }

    #[test]
    fn a_wide_beam_cut_back_while_gathering_plans_legal_moves() {
        // Width 20,000 keeps 60,000 candidates and cuts them back past
        // 191,072: from the fifth ply on, a ply gathers more than that.
        let pos = solitaire();
        let plan = plan(
            &pos,
            0,
            true,
            BeamLimits {
                width: 20_000,
                max_plies: 8,
                stop: None,
                deadline: None,
            },
        );
        assert_eq!(plan.moves.len(), 8);
        let mut line = pos;
        for mv in &plan.moves {
            assert!(line.is_legal(mv), "{mv:?}");
            line.play_unchecked(mv);
            line.set_to_move_unchecked(0);
        }
    }
}
