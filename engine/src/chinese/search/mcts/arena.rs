//! The Monte Carlo search's memory, kept by the engine from one search to
//! the next: the node arena, the progressive-history table and the last
//! search's root.
//!
//! Kept across moves: the next search finds its root in the last search's
//! tree by the moves played since (each seat's move is the one piece that
//! changed place), copies that subtree to the front of a second buffer and
//! goes on from it; the history is kept with its weight halved
//! ([`HISTORY_KEEP`]), so that the new position's own results soon
//! dominate. A tree that does not lead to the new root (another game, a
//! player who finished or passed, a move outside the tree's children) is
//! dropped, and a new game ([`Arena::forget`]) zeroes the history too.

use std::ops::Range;

use super::super::super::geometry::{Cell, Mask, CELLS};
use super::super::super::moves::Move;
use super::super::super::position::Position;
use super::super::parameters::mcts::*;

/// A tree node: the move that led to it and the statistics of its mover.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) mv: Move,
    /// The player who played `mv` (`NO_PLAYER` at the root).
    pub(super) mover: u8,
    pub(super) expanded: bool,
    pub(super) children: u16,
    pub(super) first_child: u32,
    pub(super) visits: u32,
    /// The mover's summed reward.
    pub(super) reward: f64,
}

impl Node {
    /// The indices of the node's children.
    pub(super) fn child_range(&self) -> Range<usize> {
        let first = self.first_child as usize;
        first..first + usize::from(self.children)
    }
}

pub(super) const NO_PLAYER: u8 = u8::MAX;

/// The root node before its first visit (its move is a filler).
pub(super) const ROOT: Node = Node {
    mv: super::super::NO_MOVE,
    mover: NO_PLAYER,
    expanded: false,
    children: 0,
    first_child: 0,
    visits: 0,
    reward: 0.0,
};

/// Entries of the progressive-history table: by player, from and to.
pub(super) const HISTORY_LEN: usize = 6 * CELLS * CELLS;

/// What must not change for a tree to be kept: the seats, who still
/// plays, and the rule that decides a finish.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Table {
    pub(super) players: usize,
    pub(super) active: [bool; 6],
    pub(super) anti_blocking: bool,
}

impl Table {
    /// The next seat after `p` that still plays and passes `also` (`p`
    /// when none does).
    pub(super) fn next_where(&self, p: usize, also: impl Fn(usize) -> bool) -> usize {
        (1..=self.players)
            .map(|k| (p + k) % self.players)
            .find(|&q| self.active[q] && also(q))
            .unwrap_or(p)
    }
}

/// The last search's root.
#[derive(Clone, Copy)]
struct LastRoot {
    pos: Position,
    me: usize,
    table: Table,
}

/// The memory of the Monte Carlo search, kept by the engine from one
/// search to the next.
pub(in super::super) struct Arena {
    pub(super) nodes: Vec<Node>,
    /// The buffer a kept subtree is copied into (then swapped with
    /// `nodes`).
    spare: Vec<Node>,
    /// `[summed reward, count]` by player, from and to.
    pub(super) history: Vec<[f64; 2]>,
    /// The most nodes a search may grow (a full arena stops growing the
    /// tree).
    pub(super) max_nodes: usize,
    last: Option<LastRoot>,
}

impl Arena {
    /// An empty arena for a `Hash` of `hash_mb` MiB; nothing is allocated
    /// before the first search.
    pub(in super::super) fn new(hash_mb: usize) -> Arena {
        Arena {
            nodes: Vec::new(),
            spare: Vec::new(),
            history: Vec::new(),
            max_nodes: Arena::max_nodes_for(hash_mb),
            last: None,
        }
    }

    /// The node cap for a `Hash` of `hash_mb` MiB: one node (24 bytes, in
    /// each of the two buffers) per 64 bytes of `Hash`, so 2^20 nodes at
    /// the default 64 MiB, within [`MIN_NODES`]..=[`MAX_NODES`].
    pub(super) fn max_nodes_for(hash_mb: usize) -> usize {
        (hash_mb.saturating_mul(1 << 20) / BYTES_OF_HASH_PER_NODE).clamp(MIN_NODES, MAX_NODES)
    }

    /// A new game: the next search starts from an empty tree and a zeroed
    /// history.
    pub(in super::super) fn forget(&mut self) {
        self.last = None;
    }

    /// Ready for a search of `root` with `me` to move at `table`: the
    /// subtree of the last search's tree that leads to `root` if there is
    /// one, else an empty tree; the history kept (halved) or zeroed.
    /// Memory is reserved at the first search and kept.
    pub(super) fn start(&mut self, root: &Position, me: usize, table: Table) {
        if self.nodes.capacity() < self.max_nodes {
            self.nodes = Vec::with_capacity(self.max_nodes);
            self.last = None;
        }
        let kept = self.find_root(root, me, table);
        match kept {
            Some(0) => {}
            Some(r) => self.keep_subtree(r),
            None => {
                self.nodes.clear();
                self.nodes.push(ROOT);
            }
        }
        let same_seats = self.last.is_some_and(|l| l.table.players == table.players);
        if self.history.len() != HISTORY_LEN {
            self.history = vec![[0.0; 2]; HISTORY_LEN];
        } else if same_seats {
            for h in &mut self.history {
                h[0] *= HISTORY_KEEP;
                h[1] *= HISTORY_KEEP;
            }
        } else {
            self.history.fill([0.0; 2]);
        }
        self.last = Some(LastRoot {
            pos: *root,
            me,
            table,
        });
    }

    /// The node of the last tree whose position is `root` with `me` to
    /// move, following each seat's move in turn from the last root.
    fn find_root(&self, root: &Position, me: usize, table: Table) -> Option<usize> {
        let last = self.last.filter(|l| l.table == table)?;
        let mut pos = last.pos;
        let mut to_move = last.me;
        let mut node = 0usize;
        for _ in 0..=2 * table.players {
            if to_move == me && same_pieces(&pos, root, table.players) {
                return Some(node);
            }
            let n = self.nodes.get(node)?;
            let (from, to) = moved_piece(&pos, root, to_move)?;
            let child = n.child_range().find(|&i| {
                let c = &self.nodes[i];
                c.mv.from == from && c.mv.to == to && usize::from(c.mover) == to_move
            })?;
            pos.set_to_move_unchecked(to_move);
            pos.play_unchecked(&self.nodes[child].mv);
            node = child;
            to_move = table.next_where(to_move, |_| true);
        }
        None
    }

    /// Makes the subtree under `r` the whole tree, breadth first in the
    /// spare buffer (a node's children stay together).
    fn keep_subtree(&mut self, r: usize) {
        if self.spare.capacity() < self.max_nodes {
            self.spare = Vec::with_capacity(self.max_nodes);
        }
        self.spare.clear();
        self.spare.push(Node {
            mover: NO_PLAYER,
            reward: 0.0,
            ..self.nodes[r]
        });
        let mut i = 0;
        while i < self.spare.len() {
            let range = self.spare[i].child_range();
            if !range.is_empty() {
                self.spare[i].first_child = self.spare.len() as u32;
                self.spare.extend_from_slice(&self.nodes[range]);
            }
            i += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
    }
}

/// Whether every seat's pieces stand on the same points in `a` and `b`.
fn same_pieces(a: &Position, b: &Position, players: usize) -> bool {
    (0..players).all(|p| a.pieces(p) == b.pieces(p))
}

/// The one piece of `p` that stands elsewhere in `after` than in
/// `before`: its old and new point.
fn moved_piece(before: &Position, after: &Position, p: usize) -> Option<(Cell, Cell)> {
    let (b, a) = (before.pieces(p).bits(), after.pieces(p).bits());
    let gone = Mask::from_bits(b & !a)?;
    let came = Mask::from_bits(a & !b)?;
    if gone.count() != 1 || came.count() != 1 {
        return None;
    }
    Some((gone.first()?, came.first()?))
}
