//! Retrograde solution of one men configuration (a sub-slice).
//!
//! Zeroing moves (captures and man moves) leave the sub-slice: their
//! targets are already solved (smaller slices, slices with fewer men, or
//! configurations of this slice with men further advanced) and count with
//! their value at a no-progress count of 0. King moves stay inside; the
//! sub-slice is solved as a game whose exits are those values, by a
//! breadth-first search over king *un*-moves from the decided positions,
//! one ply of distance per level. The search runs without the no-progress
//! cap; a decided position whose distance exceeds the variant's
//! no-progress plies (80 in Spanish draughts) is a cursed win or a
//! blessed loss (docs/TABLEBASES.md explains why this gives the exact
//! values under the rule).

use super::file::Slice;
use super::index::{Indexer, Men};
use super::probe::Tablebase;
use super::{TablebaseError, Value};
use crate::draughts::tables::slide;
use crate::spanish::{Color, MoveList, Position, Rules, Variant};

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const FINAL_DRAW: u8 = 3;

/// Positions whose exits one task of the first pass finds.
const RUN: usize = 1 << 12;

/// Bytes per position that [`solve_config`] holds at its peak: the state,
/// counter, flag and distance arrays (5) with the exits found first (6),
/// or with the queue (4) and the answer (2); one more for the allocator.
pub(crate) const WORK_BYTES: u64 = 12;

/// The exits of a position: what its zeroing moves lead to and how many
/// king moves it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exits {
    /// Legal moves in all.
    pub(crate) moves: u32,
    /// King moves (they keep the no-progress count running).
    pub(crate) king_moves: u32,
    /// A zeroing move reaches a position lost for the opponent.
    pub(crate) to_loss: bool,
    /// A zeroing move reaches a drawn position.
    pub(crate) to_draw: bool,
}

/// The values of finished slices, at a no-progress count of 0: the whole
/// tables for the verifier, the slices one slice's moves reach for the
/// generator.
pub(crate) trait Finished: Sync {
    /// The stored value of `pos`, a position of another slice.
    fn value_of(&self, pos: &Position) -> Result<Value, TablebaseError>;
}

impl Finished for Tablebase {
    fn value_of(&self, pos: &Position) -> Result<Value, TablebaseError> {
        self.stored(pos).map(|(v, _)| v)
    }
}

/// The values already solved in the slice being solved, by index: man
/// moves that neither capture nor promote stay in the slice.
pub(crate) trait Current: Sync {
    /// The stored value at `index` (a configuration one advancement level
    /// above the one being solved).
    fn value_at(&self, index: u64) -> Value;
}

impl Current for Slice {
    fn value_at(&self, index: u64) -> Value {
        self.value(index)
    }
}

/// Where the generator and the verifier read solved values: the finished
/// slices, and the slice being solved for man moves inside it.
pub(crate) struct Solved<'a> {
    pub(crate) tables: &'a dyn Finished,
    pub(crate) current: &'a dyn Current,
    pub(crate) indexer: Indexer,
    /// The rules the positions are solved under.
    pub(crate) variant: Variant,
}

impl Solved<'_> {
    /// The value at a no-progress count of 0 of `child` (the side to move
    /// there), as it counts for an exit: only `Win` and `Loss` decide.
    #[inline]
    pub(crate) fn exit_value(&self, child: &Position) -> Result<Value, TablebaseError> {
        if child.pieces(child.to_move()).is_empty() {
            return Ok(Value::Loss);
        }
        let m = super::index::Material::of(child);
        if m == self.indexer.material {
            return Ok(self.current.value_at(self.indexer.index(child)));
        }
        self.tables.value_of(child)
    }

    /// The exits of `pos`.
    pub(crate) fn exits(&self, pos: &Position) -> Result<Exits, TablebaseError> {
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        let mut e = Exits {
            moves: moves.len() as u32,
            king_moves: 0,
            to_loss: false,
            to_draw: false,
        };
        for mv in &moves {
            if mv.is_capture() || pos.moves_man(mv) {
                match self.exit_value(&pos.played_unchecked(mv))? {
                    Value::Loss => e.to_loss = true,
                    Value::Win => {}
                    Value::Draw | Value::CursedWin => e.to_draw = true,
                }
            } else {
                e.king_moves += 1;
            }
        }
        Ok(e)
    }
}

/// The positions from which the side that just moved in `pos` reached it
/// by a king move: each of its kings slides back along an empty diagonal.
#[inline]
pub(crate) fn king_unmoves(pos: &Position, mut f: impl FnMut(Position)) {
    let mover = !pos.to_move();
    let occ = pos.occupied().bits();
    let kings = pos.kings(mover).bits();
    let mut ks = kings;
    while ks != 0 {
        let k = ks.trailing_zeros();
        ks &= ks - 1;
        for d in 0..4 {
            let mut targets = slide(d, k as usize, occ);
            while targets != 0 {
                let a = targets.trailing_zeros();
                targets &= targets - 1;
                let moved = (1u32 << k) | (1u32 << a);
                let mut p = *pos;
                match mover {
                    Color::White => p.white ^= moved,
                    Color::Black => p.black ^= moved,
                }
                p.kings ^= moved;
                p.side = mover;
                f(p);
            }
        }
    }
}

/// Solves the configuration `men`: the value and stored distance of each
/// of its positions, in local index order.
pub(crate) fn solve_config(
    solved: &Solved<'_>,
    men: Men,
) -> Result<Vec<(Value, u8)>, TablebaseError> {
    let ix = &solved.indexer;
    let n = ix.sub_len() as usize;
    // (state, distance if decided, king moves, has a drawing exit)
    type Cell = (u8, u16, u8, bool);
    let init = |local: usize| -> Result<Cell, TablebaseError> {
        let pos = ix.position(men, local as u64, solved.variant);
        let e = solved.exits(&pos)?;
        Ok(if e.moves == 0 {
            (LOSS, 0, 0, false)
        } else if e.to_loss {
            (WIN, 1, 0, false)
        } else if e.king_moves == 0 {
            if e.to_draw {
                (FINAL_DRAW, 0, 0, false)
            } else {
                (LOSS, 1, 0, false)
            }
        } else {
            (UNKNOWN, 0, e.king_moves as u8, e.to_draw)
        })
    };
    // The cells are made a run at a time (a `Result` per position would
    // take several times their size) and the queue is made once they are
    // gone, so that the peak is what WORK_BYTES counts.
    let runs = n.div_ceil(RUN);
    let make = |r: usize| -> Result<Vec<Cell>, TablebaseError> {
        (r * RUN..((r + 1) * RUN).min(n)).map(init).collect()
    };
    let cells: Vec<Result<Vec<Cell>, TablebaseError>> = if n >= 1 << 14 {
        super::par::map_range(runs, make)
    } else {
        (0..runs).map(make).collect()
    };
    let mut state = vec![UNKNOWN; n];
    let mut remaining = vec![0u8; n];
    let mut no_loss = vec![false; n];
    let mut dist = vec![0u16; n];
    let mut i = 0;
    for run in cells {
        for (s, d, r, nl) in run? {
            state[i] = s;
            dist[i] = d;
            remaining[i] = r;
            no_loss[i] = nl;
            i += 1;
        }
    }
    // Every position enters the queue at most once: distance 0 (no move)
    // first, then distance 1 (decided by an exit; only wins and losses
    // have a distance so far).
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    queue.extend((0..n as u32).filter(|&i| state[i as usize] == LOSS && dist[i as usize] == 0));
    queue.extend((0..n as u32).filter(|&i| dist[i as usize] == 1));
    let mut head = 0;
    while head < queue.len() {
        let q = queue[head] as usize;
        head += 1;
        let qpos = ix.position(men, q as u64, solved.variant);
        let next = dist[q] + 1;
        let q_lost = state[q] == LOSS;
        king_unmoves(&qpos, |p| {
            let i = ix.local_index(&p) as usize;
            if state[i] != UNKNOWN {
                return;
            }
            if q_lost {
                state[i] = WIN;
            } else {
                remaining[i] -= 1;
                if remaining[i] != 0 || no_loss[i] {
                    return;
                }
                state[i] = LOSS;
            }
            dist[i] = next;
            queue.push(i as u32);
        });
    }
    let limit = Rules::of_variant(solved.variant).no_progress_plies();
    Ok((0..n)
        .map(|i| {
            let d = dist[i];
            let stored = d.min(255) as u8;
            let late = u32::from(d) > limit;
            match state[i] {
                WIN if late => (Value::CursedWin, stored),
                WIN => (Value::Win, stored),
                LOSS if late => (Value::Draw, stored),
                LOSS => (Value::Loss, stored),
                _ => (Value::Draw, 0),
            }
        })
        .collect())
}
