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
use super::parameters::{BEAM_CANDIDATES_PER_SLOT, BEAM_MIN_CANDIDATES, BEAM_POLL};

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
    for _ply in 0..limits.max_plies {
        cands.clear();
        let mut done: Option<(u32, Move)> = None;
        'parents: for (i, node) in beam.iter().enumerate() {
            if i % BEAM_POLL == BEAM_POLL - 1 && !links.is_empty() && stopped() {
                break;
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
                    cands.push(Cand {
                        cost: army.cost(own2, king2, occ2),
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
        let keep = width
            .saturating_mul(BEAM_CANDIDATES_PER_SLOT)
            .max(BEAM_MIN_CANDIDATES);
        if cands.len() > keep {
            cands.select_nth_unstable_by_key(keep, |c| (c.cost, c.hash));
            cands.truncate(keep);
        }
        cands.sort_unstable_by_key(|c| (c.cost, c.hash));
        let mut next = Vec::with_capacity(width.min(cands.len()));
        let mut link = Vec::with_capacity(width.min(cands.len()));
        let mut last = None;
        for c in &cands {
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
