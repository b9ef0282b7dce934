//! Monte Carlo tree search with progressive history for the full tables
//! (Nijssen and Winands, "Enhancements for Multi-Player Monte-Carlo Tree
//! Search", 2011): max-n statistics (each node keeps the reward of the
//! player who moved into it, and each player picks its own best child),
//! progressive history (a player's average reward for a move, from-to,
//! over the whole search, guides the choice among little-visited
//! children), epsilon-greedy playouts cut after a few rounds and scored by
//! the distance heuristic without its stragglers' charge
//! ([`Army::race_cost_of_own`]).
//!
//! Why at six players: best-reply search lets one rival answer each own
//! move and guesses the others, while the playouts move every player every
//! round; at a 6-player table it finishes first more often and places
//! better (docs/PERFORMANCE.md, "Three to six players").
//!
//! A node's children are the best [`WIDTH`] moves of the player to
//! move by the change of its tip distance (a move into another player's
//! goal counts as [`FOREIGN_KEY`] worse, one out of it as much
//! better). A playout is [`ROUNDS`] rounds of the full table
//! (18 plies at six seats; players still playing move in turn, so once
//! some have finished the others move more often): the best move by the same key with
//! probability 1 − ε (random tie-break), a uniformly random move
//! otherwise. A player's reward at the end is a blend of
//! its expected place (the mean, over the other players, of a logistic of
//! the difference of their costs: the share of them it finishes ahead of)
//! and its own progress since the root, so that a player far ahead or far
//! behind still prefers progress.
//!
//! Memory: the nodes live in an [`Arena`] that the engine keeps across
//! moves, with the progressive-history table: its size follows `Hash`
//! ([`Arena::max_nodes_for`]: 2^20 nodes at the default 64 MiB), its
//! capacity is reserved at the first search and kept (pages are touched
//! only as the tree grows), and nothing allocates per iteration or per
//! search after the first. A search starts from the subtree of the last
//! search's tree that the moves played since lead to (module `arena`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use arrayvec::ArrayVec;

mod arena;

pub(super) use arena::Arena;
use arena::{Node, Table, NO_PLAYER};

use super::super::geometry::{Mask, CELLS};
use super::super::moves::{Move, MAX_MOVES};
use super::super::position::Position;
use super::heuristic::{finished_in, Army};
use super::ordering::progress_key;
use crate::random::Rng;

use super::parameters::mcts::*;

/// Not finished in this iteration.
const RUNNING: u8 = u8::MAX;

/// Who finished in one iteration: `order[p]` is `p`'s place among them
/// (from 0), [`RUNNING`] for those still playing.
struct Finishes {
    order: [u8; 6],
    count: u8,
}

/// What one search reports.
pub(super) struct MctsReport {
    /// The most visited root move (`None` before the first iteration).
    pub best: Option<Move>,
    /// The most visited line, each move by the owner of its piece.
    pub pv: Vec<Move>,
    /// The root player's average reward on the chosen move (0..1).
    pub value: f64,
    /// Iterations run (the `nodes` of `info`).
    pub iterations: u64,
    /// The deepest tree ply an iteration reached.
    pub seldepth: u32,
}

/// The search state of one `go`.
pub(super) struct Mcts<'a> {
    armies: [Option<Army>; 6],
    /// The seats, who still plays and the finish rule.
    table: Table,
    arena: &'a mut Arena,
    rng: Rng,
    /// Each player's cost at the root, for the progress share.
    root_cost: [f64; 6],
    stop: &'a AtomicBool,
    iterations: u64,
    seldepth: u32,
}

impl<'a> Mcts<'a> {
    /// A search of `pos` where `active[p]` tells who still plays, in
    /// `arena`'s memory.
    pub fn new(
        pos: &Position,
        active: [bool; 6],
        anti_blocking: bool,
        stop: &'a AtomicBool,
        arena: &'a mut Arena,
    ) -> Mcts<'a> {
        let players = pos.players();
        let armies = Army::all_of(pos);
        let root_cost = std::array::from_fn(|p| match &armies[p] {
            Some(army) => f64::from(army.race_cost_of_own_in(pos, p)),
            None => 0.0,
        });
        Mcts {
            armies,
            table: Table {
                players,
                active,
                anti_blocking,
            },
            arena,
            rng: Rng::new(pos.hash() ^ SEED_SALT),
            root_cost,
            stop,
            iterations: 0,
            seldepth: 0,
        }
    }

    fn army(&self, p: usize) -> &Army {
        self.armies[p].as_ref().expect("army of a player")
    }

    fn has_finished(&self, pos: &Position, p: usize) -> bool {
        finished_in(self.army(p), pos, p, self.table.anti_blocking)
    }

    /// The next player after `p` in seat order who still plays, in the
    /// search and in this iteration (`p` when nobody else does).
    fn next(&self, p: usize, order: &[u8; 6]) -> usize {
        self.table.next_where(p, |q| order[q] == RUNNING)
    }

    /// Plays `mv` for `p` in `pos` and records `p`'s place if it finished.
    fn play(&self, pos: &mut Position, p: usize, mv: &Move, finishes: &mut Finishes) {
        pos.set_to_move_unchecked(p);
        pos.play_unchecked(mv);
        if self.has_finished(pos, p) {
            finishes.order[p] = finishes.count;
            finishes.count += 1;
        }
    }

    fn history_index(p: usize, mv: &Move) -> usize {
        (p * CELLS + mv.from.index()) * CELLS + mv.to.index()
    }

    /// The ordering key of a move of a piece from tip distance `f` to `t`
    /// (lower is better): the tree's ([`progress_key`]) with the charge for
    /// another player's goal.
    fn key(f: i32, t: i32, foreign: Mask, mv: &Move) -> i32 {
        let charge = match (foreign.contains(mv.from), foreign.contains(mv.to)) {
            (false, true) => FOREIGN_KEY,
            (true, false) => -FOREIGN_KEY,
            _ => 0,
        };
        progress_key(f, t) + charge
    }

    /// Adds the best [`WIDTH`] moves of `p` in `pos` as the children of
    /// `node` (in generation order among equal keys).
    fn expand(&mut self, node: usize, pos: &Position, p: usize) {
        let army = self.army(p);
        let (tip, foreign) = (army.tip, army.foreign);
        let mut scored: ArrayVec<(i32, u16, Move), MAX_MOVES> = ArrayVec::new();
        for from in pos.pieces(p) {
            let f = i32::from(tip[from.index()]);
            for to in pos.destinations_of(p, from) {
                let mv = Move::new(from, to);
                let k = Self::key(f, i32::from(tip[to.index()]), foreign, &mv);
                scored.push((k, scored.len() as u16, mv));
            }
        }
        if scored.len() > WIDTH {
            scored.select_nth_unstable_by_key(WIDTH, |x| (x.0, x.1));
            scored.truncate(WIDTH);
        }
        scored.sort_unstable_by_key(|x| (x.0, x.1));
        let first = self.arena.nodes.len() as u32;
        for &(_, _, mv) in &scored {
            self.arena.nodes.push(Node {
                mv,
                mover: p as u8,
                expanded: false,
                children: 0,
                first_child: 0,
                visits: 0,
                reward: 0.0,
            });
        }
        let n = &mut self.arena.nodes[node];
        n.expanded = true;
        n.first_child = first;
        n.children = scored.len() as u16;
    }

    /// The child of `node` to descend into: an unvisited one in order,
    /// else the best by UCB with progressive history for its mover.
    fn select(&self, node: usize) -> usize {
        let n = &self.arena.nodes[node];
        let ln = f64::from(n.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, n.first_child as usize);
        for i in n.child_range() {
            let c = &self.arena.nodes[i];
            if c.visits == 0 {
                return i;
            }
            let visits = f64::from(c.visits);
            let mean = c.reward / visits;
            let h = self.arena.history[Self::history_index(usize::from(c.mover), &c.mv)];
            let h_mean = if h[1] > 0.0 { h[0] / h[1] } else { 0.5 };
            let v = mean
                + EXPLORATION * (ln / visits).sqrt()
                + HISTORY * h_mean / (visits * (1.0 - mean) + 1.0);
            if v > best.0 {
                best = (v, i);
            }
        }
        best.1
    }

    /// A playout move of `p`: epsilon-greedy by the ordering key.
    fn playout_move(&mut self, pos: &Position, p: usize) -> Option<Move> {
        let army = self.army(p);
        let (tip, foreign) = (army.tip, army.foreign);
        let explore = self.rng.below(1000) < EPSILON_PERMILLE;
        let mut best: Option<(i32, u64, Move)> = None;
        let mut count = 0usize;
        let mut pick = None;
        for from in pos.pieces(p) {
            let f = i32::from(tip[from.index()]);
            for to in pos.destinations_of(p, from) {
                let mv = Move::new(from, to);
                if explore {
                    count += 1;
                    if self.rng.below(count) == 0 {
                        pick = Some(mv);
                    }
                    continue;
                }
                let k = Self::key(f, i32::from(tip[to.index()]), foreign, &mv);
                let r = self.rng.next_u64();
                if best.is_none_or(|b| (k, r) < (b.0, b.1)) {
                    best = Some((k, r, mv));
                }
            }
        }
        if explore {
            pick
        } else {
            best.map(|b| b.2)
        }
    }

    /// Every player's reward at the end of an iteration (`order[p]`: the
    /// place among the players who finished in it).
    fn rewards(&self, pos: &Position, order: &[u8; 6]) -> [f64; 6] {
        let mut cost = [f64::INFINITY; 6];
        for p in (0..self.table.players).filter(|&p| self.table.active[p]) {
            cost[p] = if order[p] != RUNNING {
                -100_000.0 + f64::from(order[p]) * 1000.0
            } else {
                f64::from(self.army(p).race_cost_of_own_in(pos, p))
            };
        }
        let mut r = [0f64; 6];
        for p in (0..self.table.players).filter(|&p| self.table.active[p]) {
            // The expected share of the other players that `p` finishes
            // ahead of: one less its expected place, scaled to 0..1.
            let (mut ahead, mut others) = (0.0, 0.0);
            for q in (0..self.table.players).filter(|&q| q != p && self.table.active[q]) {
                let d = ((cost[p] - cost[q]) / RACE_SCALE).clamp(-RACE_CLAMP, RACE_CLAMP);
                ahead += 1.0 / (1.0 + d.exp());
                others += 1.0;
            }
            // Alone at the table, a player has won its race.
            let race = if others > 0.0 { ahead / others } else { 1.0 };
            let progress = (self.root_cost[p] - cost[p]) / (ROUNDS as f64 * PROGRESS_PER_ROUND);
            r[p] = (1.0 - PROGRESS_SHARE) * race + PROGRESS_SHARE * progress.clamp(0.0, 1.0);
        }
        r
    }

    /// Runs iterations from `root` (player `me` to move) until `stop`,
    /// `deadline` (the time manager's soft limit: with a clock, the move's
    /// share; with `movetime`, that time) or `max_iterations`; calls `on_progress` every 8192
    /// iterations.
    pub fn run(
        &mut self,
        root: &Position,
        me: usize,
        deadline: Option<Instant>,
        max_iterations: Option<u64>,
        on_progress: &mut dyn FnMut(&MctsReport),
    ) -> MctsReport {
        self.arena.start(root, me, self.table);
        let mut path: ArrayVec<usize, 512> = ArrayVec::new();
        let mut trail: ArrayVec<(usize, Move), 64> = ArrayVec::new();
        loop {
            if self.iterations > 0 && self.iterations % POLL_ITERATIONS == 0 {
                if self.stop.load(Ordering::Relaxed)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                {
                    break;
                }
                if self.iterations % 8192 == 0 {
                    on_progress(&self.outcome(root));
                }
            }
            if max_iterations.is_some_and(|n| self.iterations >= n) {
                break;
            }
            self.iterations += 1;
            path.clear();
            trail.clear();
            let mut pos = *root;
            let mut to_move = me;
            let mut finishes = Finishes {
                order: [RUNNING; 6],
                count: 0,
            };
            let mut node = 0usize;
            path.push(0);
            // Selection, and the expansion of one node.
            loop {
                let n = self.arena.nodes[node];
                let grow = !n.expanded && self.arena.nodes.len() + WIDTH <= self.arena.max_nodes;
                if grow {
                    self.expand(node, &pos, to_move);
                }
                if !self.arena.nodes[node].expanded
                    || self.arena.nodes[node].children == 0
                    || path.is_full()
                {
                    break;
                }
                node = self.select(node);
                path.push(node);
                let mv = self.arena.nodes[node].mv;
                self.play(&mut pos, to_move, &mv, &mut finishes);
                let root_done = finishes.order[me] != RUNNING;
                to_move = self.next(to_move, &finishes.order);
                if grow || root_done {
                    break;
                }
            }
            self.seldepth = self.seldepth.max(path.len() as u32 - 1);
            // The playout.
            for _ in 0..ROUNDS * self.table.players {
                let p = to_move;
                if finishes.order[me] != RUNNING || trail.is_full() || finishes.order[p] != RUNNING
                {
                    break;
                }
                if let Some(mv) = self.playout_move(&pos, p) {
                    self.play(&mut pos, p, &mv, &mut finishes);
                    trail.push((p, mv));
                }
                to_move = self.next(p, &finishes.order);
            }
            // The backup: each node's mover takes its own reward.
            let r = self.rewards(&pos, &finishes.order);
            for &i in &path {
                let m = self.arena.nodes[i].mover;
                self.arena.nodes[i].visits += 1;
                if m != NO_PLAYER {
                    let m = usize::from(m);
                    self.arena.nodes[i].reward += r[m];
                    let h = Self::history_index(m, &self.arena.nodes[i].mv);
                    self.arena.history[h][0] += r[m];
                    self.arena.history[h][1] += 1.0;
                }
            }
            for &(p, mv) in &trail {
                let h = Self::history_index(p, &mv);
                self.arena.history[h][0] += r[p];
                self.arena.history[h][1] += 1.0;
            }
        }
        self.outcome(root)
    }

    /// The most visited child of `node`.
    fn most_visited(&self, node: usize) -> Option<usize> {
        let n = &self.arena.nodes[node];
        n.child_range()
            .filter(|&i| self.arena.nodes[i].visits > 0)
            .max_by_key(|&i| self.arena.nodes[i].visits)
    }

    /// The search's answer so far.
    fn outcome(&self, root: &Position) -> MctsReport {
        let mut pv = Vec::new();
        let mut node = 0;
        let mut value = 0.5;
        let mut pos = *root;
        while let Some(child) = self.most_visited(node) {
            let c = &self.arena.nodes[child];
            if node == 0 {
                value = c.reward / f64::from(c.visits);
            }
            if !pos.is_legal_for(usize::from(c.mover), &c.mv) || pv.len() >= 64 {
                break;
            }
            pos.set_to_move_unchecked(usize::from(c.mover));
            pos.play_unchecked(&c.mv);
            pv.push(c.mv);
            node = child;
        }
        MctsReport {
            best: pv.first().copied(),
            pv,
            value,
            iterations: self.iterations,
            seldepth: self.seldepth,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::middle_game;
    use super::arena::ROOT;
    use super::*;

    fn search(pos: &Position, iterations: u64, stop: &AtomicBool) -> MctsReport {
        let mut arena = Arena::new(64);
        let mut mcts = Mcts::new(pos, [true; 6], true, stop, &mut arena);
        mcts.run(pos, pos.to_move(), None, Some(iterations), &mut |_| {})
    }

    #[test]
    fn the_clock_is_read_every_poll_iterations() {
        let pos = middle_game();
        let stop = AtomicBool::new(false);
        let mut arena = Arena::new(64);
        let mut mcts = Mcts::new(&pos, [true; 6], true, &stop, &mut arena);
        let past = Some(Instant::now());
        let out = mcts.run(&pos, pos.to_move(), past, None, &mut |_| {});
        assert_eq!(out.iterations, POLL_ITERATIONS, "stopped at the first look");
        assert!(out.best.is_some_and(|mv| pos.is_legal(&mv)));
    }

    #[test]
    fn the_answer_is_legal_and_reproducible_and_its_line_is_playable() {
        let pos = middle_game();
        let stop = AtomicBool::new(false);
        let a = search(&pos, 3000, &stop);
        assert_eq!(a.iterations, 3000);
        let best = a.best.expect("a move");
        assert!(pos.is_legal(&best));
        assert_eq!(search(&pos, 3000, &stop).best, Some(best));
        // Each move of the line is legal for the owner of its piece.
        let mut line = pos;
        for mv in &a.pv {
            let (owner, _) = line.piece_at(mv.from).expect("a piece");
            assert!(line.is_legal_for(owner, mv), "{mv:?}");
            line.set_to_move_unchecked(owner);
            line.play_unchecked(mv);
        }
        assert!(a.pv.len() >= 2 && a.seldepth as usize >= a.pv.len() - 1);
        assert!((0.0..=1.0).contains(&a.value));
    }

    #[test]
    fn a_node_takes_twenty_four_bytes() {
        // The arena's size in docs/SEARCH.md: 2^20 nodes, 24 MiB, at the
        // default Hash.
        assert_eq!(std::mem::size_of::<Node>(), 24);
    }

    #[test]
    fn the_arena_follows_hash_and_is_kept_from_one_search_to_the_next() {
        assert_eq!(Arena::max_nodes_for(64), 1 << 20);
        assert_eq!(Arena::max_nodes_for(256), 1 << 22);
        assert_eq!(Arena::max_nodes_for(1), MIN_NODES);
        assert_eq!(Arena::max_nodes_for(usize::MAX), MAX_NODES);
        let pos = middle_game();
        let stop = AtomicBool::new(false);
        let mut arena = Arena::new(16);
        assert_eq!(arena.nodes.capacity(), 0, "nothing before a search");
        let search = |arena: &mut Arena| {
            Mcts::new(&pos, [true; 6], true, &stop, arena).run(
                &pos,
                pos.to_move(),
                None,
                Some(2000),
                &mut |_| {},
            )
        };
        let first = search(&mut arena);
        let (capacity, memory) = (arena.nodes.capacity(), arena.nodes.as_ptr());
        assert!(capacity >= Arena::max_nodes_for(16));
        assert_eq!(arena.nodes[0].visits, 2000);
        // The same position again goes on in the same tree.
        search(&mut arena);
        assert_eq!(arena.nodes[0].visits, 4000);
        assert_eq!(arena.nodes.as_ptr(), memory, "the same memory");
        assert_eq!(arena.nodes.capacity(), capacity);
        // A new game: an empty tree and a zeroed history, so the same
        // search again.
        arena.forget();
        let again = search(&mut arena);
        assert_eq!(arena.nodes[0].visits, 2000);
        assert_eq!(arena.nodes.capacity(), capacity);
        assert_eq!(again.best, first.best);
        assert_eq!(again.pv, first.pv);
    }

    /// The position after the first `plies` moves of `line` from `pos`, each
    /// played by its mover, and the tree node they lead to.
    fn follow(arena: &Arena, pos: &Position, line: &[Move]) -> (Position, usize) {
        let (mut pos, mut node) = (*pos, 0);
        for mv in line {
            node = arena.nodes[node]
                .child_range()
                .find(|&i| arena.nodes[i].mv == *mv)
                .expect("a child");
            pos.set_to_move_unchecked(usize::from(arena.nodes[node].mover));
            pos.play_unchecked(mv);
        }
        (pos, node)
    }

    fn check_shape(arena: &Arena) {
        for n in &arena.nodes {
            assert!(n.child_range().end <= arena.nodes.len());
            let below: u32 = n.child_range().map(|i| arena.nodes[i].visits).sum();
            assert!(below <= n.visits);
        }
    }

    #[test]
    fn the_tree_is_kept_across_a_round_of_moves() {
        let pos = middle_game();
        let me = pos.to_move();
        let stop = AtomicBool::new(false);
        let mut arena = Arena::new(64);
        let out = Mcts::new(&pos, [true; 6], true, &stop, &mut arena).run(
            &pos,
            me,
            None,
            Some(20_000),
            &mut |_| {},
        );
        assert!(out.pv.len() >= 6, "a round in the line");
        let (mut next, node) = follow(&arena, &pos, &out.pv[..6]);
        next.set_to_move_unchecked(me);
        let (visits, children) = (arena.nodes[node].visits, arena.nodes[node].children);
        assert!(visits > 1 && children > 0);
        let table = Table {
            players: 6,
            active: [true; 6],
            anti_blocking: true,
        };
        arena.start(&next, me, table);
        assert_eq!(arena.nodes[0].visits, visits);
        assert_eq!(arena.nodes[0].children, children);
        assert_eq!(arena.nodes[0].mover, NO_PLAYER);
        check_shape(&arena);
        // The search goes on from there, and its answer is legal.
        let out = Mcts::new(&next, [true; 6], true, &stop, &mut arena).run(
            &next,
            me,
            None,
            Some(2000),
            &mut |_| {},
        );
        assert_eq!(arena.nodes[0].visits, visits + 2000);
        assert!(next.is_legal(&out.best.expect("a move")));
        check_shape(&arena);
        // Another table, or a position the tree does not lead to, starts
        // afresh.
        let fewer = Table {
            active: [true, true, true, true, true, false],
            ..table
        };
        arena.start(&next, me, fewer);
        assert_eq!((arena.nodes.len(), arena.nodes[0].visits), (1, 0));
        Mcts::new(&next, [true; 6], true, &stop, &mut arena).run(
            &next,
            me,
            None,
            Some(2000),
            &mut |_| {},
        );
        let root = arena.nodes[0];
        assert!(root.children > 0);
        let outside = next
            .moves_of(me)
            .iter()
            .copied()
            .find(|mv| root.child_range().all(|i| arena.nodes[i].mv != *mv))
            .expect("a move the tree does not search");
        let mut elsewhere = next;
        elsewhere.play_unchecked(&outside);
        elsewhere.set_to_move_unchecked(me);
        arena.start(&elsewhere, me, table);
        assert_eq!((arena.nodes.len(), arena.nodes[0].visits), (1, 0));
    }

    #[test]
    fn a_full_arena_stops_growing_the_tree_but_not_the_search() {
        let pos = middle_game();
        let stop = AtomicBool::new(false);
        let mut arena = Arena::new(1);
        let out = Mcts::new(&pos, [true; 6], true, &stop, &mut arena).run(
            &pos,
            pos.to_move(),
            None,
            Some(40_000),
            &mut |_| {},
        );
        assert_eq!(out.iterations, 40_000);
        assert!(arena.nodes.len() <= MIN_NODES);
        assert!(pos.is_legal(&out.best.expect("a move")));
    }

    #[test]
    fn a_raised_stop_ends_the_search_at_the_first_check() {
        let pos = middle_game();
        let stop = AtomicBool::new(true);
        let out = search(&pos, u64::MAX, &stop);
        assert_eq!(out.iterations, POLL_ITERATIONS);
        assert!(pos.is_legal(&out.best.expect("a move")));
    }

    #[test]
    fn the_children_are_the_best_moves_by_the_ordering_key() {
        let pos = middle_game();
        let stop = AtomicBool::new(false);
        let mut arena = Arena::new(64);
        let mut mcts = Mcts::new(&pos, [true; 6], true, &stop, &mut arena);
        mcts.arena.nodes.push(ROOT);
        let p = pos.to_move();
        mcts.expand(0, &pos, p);
        let army = Army::of(&pos, p);
        let key = |mv: &Move| {
            Mcts::key(
                i32::from(army.tip[mv.from.index()]),
                i32::from(army.tip[mv.to.index()]),
                army.foreign,
                mv,
            )
        };
        let mut all: Vec<i32> = pos.moves_of(p).iter().map(key).collect();
        all.sort_unstable();
        let children: Vec<i32> = (1..=WIDTH).map(|i| key(&mcts.arena.nodes[i].mv)).collect();
        assert_eq!(usize::from(mcts.arena.nodes[0].children), WIDTH);
        assert_eq!(children, all[..WIDTH]);
    }

    #[test]
    fn a_player_far_behind_is_still_rewarded_for_progress() {
        let pos = middle_game();
        let stop = AtomicBool::new(false);
        let mut arena = Arena::new(64);
        let mut mcts = Mcts::new(&pos, [true; 6], true, &stop, &mut arena);
        // The race share is the same in both; half the full progress adds
        // half the progress share.
        let cost = f64::from(Army::of(&pos, 0).race_cost_of_own_in(&pos, 0));
        mcts.root_cost[0] = cost;
        let still = mcts.rewards(&pos, &[RUNNING; 6]);
        mcts.root_cost[0] = cost + ROUNDS as f64 * PROGRESS_PER_ROUND / 2.0;
        let gained = mcts.rewards(&pos, &[RUNNING; 6]);
        let expected = PROGRESS_SHARE / 2.0;
        assert!((gained[0] - still[0] - expected).abs() < 1e-9);
        assert_eq!(gained[1..], still[1..]);
        // A player who finished in the iteration takes the race share; the
        // others finish behind it, so they beat at most four of five.
        let mut order = [RUNNING; 6];
        order[3] = 0;
        let r = mcts.rewards(&pos, &order);
        assert!(r[3] >= (1.0 - PROGRESS_SHARE) - 1e-9);
        let most = (1.0 - PROGRESS_SHARE) * 0.8 + PROGRESS_SHARE;
        assert!(r.iter().enumerate().all(|(p, &x)| p == 3 || x <= most));
        // The race shares are the shares of the others each player is
        // expected to beat: of each pair one beats the other, so at six
        // players they add up to three (only player 0 has progress, half).
        let shares: f64 = mcts.rewards(&pos, &[RUNNING; 6]).iter().sum();
        let expected = (1.0 - PROGRESS_SHARE) * 3.0 + PROGRESS_SHARE / 2.0;
        assert!((shares - expected).abs() < 1e-9, "{shares}");
    }
}
