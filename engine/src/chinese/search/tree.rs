//! Alpha-beta over the beam's candidates: two-player alpha-beta and, for 3
//! to 6 players, best-reply search (Schadd and Winands 2011), plus the
//! plain full-width alpha-beta / paranoid baseline.
//!
//! The searching player (the *root*) maximises its evaluation. At the
//! root's nodes only the best `width` own moves by the change of the
//! heuristic are searched (the root node itself searches them all, best
//! first). At the other nodes:
//!
//! - best-reply (the full engine, any number of players): every opponent
//!   still playing may answer, and the single reply that hurts the root
//!   most is taken, so the root gets a move every other ply whatever the
//!   number of players; with two players this is plain alpha-beta;
//!   at three players and more the rivals who do not reply play their
//!   first move by the ordering (BRS+, [`super::brs_plus`]);
//! - paranoid (the plain baseline): the players move in seat order and all
//!   of them minimise the root's evaluation.
//!
//! Finishing is exact: a root move that finishes is a win at that ply; with
//! two players an opponent who finishes is a loss, so races close to the end
//! are searched out to the last move (see also the race check in
//! [`super::race`]).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::Instant;

use super::super::geometry::Mask;
use super::super::moves::{Move, MAX_MOVES};
use super::super::position::Position;
use super::super::zobrist::KEYS;
use super::brs_plus::{hash_first, play_the_others, FirstMoves, ShortList};
use super::heuristic::{finished_in, plain_cost, Army};
use super::parameters::multi::FULL_RIVAL_WEIGHT;
use super::parameters::{
    DRAWN_REACH, MAX_WIDTH, MIN_REPLIES, MIN_WIDTH, POLL_MASK, REPEAT, REPLY_DIVISOR,
    SEAL_PLAN_DRAW, SIEGE_SCORE_DIVISOR,
};
use super::siege::SealPlan;
use super::table::{Bound, Entry, Table};
use crate::search::pv::PvTable;
use crate::search::{from_tt, to_tt, INF, MATE, MAX_PLY};
use arrayvec::ArrayVec;

/// Moves of one player, best first.
pub(crate) type Ordered = ArrayVec<Move, MAX_MOVES>;

/// The hash of the piece placement only (the side to move taken out).
pub fn piece_hash(pos: &Position) -> u64 {
    pos.hash() ^ KEYS.side[pos.to_move()]
}

/// How the tree is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Beam-pruned best-reply search on the full heuristic.
    BestReply,
    /// Full-width paranoid alpha-beta on the plain summed distance.
    Plain,
}

/// One iteration's root moves dealt out to several threads: each takes
/// the next move in the root order and searches it with the best score
/// any thread has proven so far as its alpha.
pub(crate) struct RootSplit {
    next: AtomicUsize,
    alpha: AtomicI32,
}

impl RootSplit {
    /// No move taken, no score proven.
    pub(crate) fn new() -> RootSplit {
        RootSplit {
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(-INF),
        }
    }

    /// Starts a new iteration (no thread may be searching).
    pub(crate) fn reset(&self) {
        self.next.store(0, Ordering::Relaxed);
        self.alpha.store(-INF, Ordering::Relaxed);
    }
}

/// The searcher's state for one `go`.
pub struct Tree<'a> {
    pub(crate) mode: Mode,
    pub(crate) root: usize,
    pub(crate) active: [bool; 6],
    pub(crate) players: usize,
    pub(crate) anti_blocking: bool,
    /// Percent of the best rival's cost in the evaluation.
    pub(crate) rival_weight: i32,
    pub(crate) armies: [Option<Army>; 6],
    /// Own moves searched at inner root-player nodes.
    pub(crate) width: usize,
    /// Replies searched per opponent at the opponent nodes.
    pub(crate) reply_width: usize,
    pub(crate) nodes: u64,
    pub(crate) seldepth: u32,
    pub(crate) stop: &'a AtomicBool,
    /// Raised when another thread ends the search.
    pub(crate) abort: Option<&'a AtomicBool>,
    /// The shared root moves when several threads search one iteration;
    /// `root_best` is then this thread's best among the moves it took.
    pub(crate) root_split: Option<&'a RootSplit>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) node_limit: Option<u64>,
    pub(crate) stopped: bool,
    /// The engine's table, shared with the other threads.
    tt: &'a Table,
    /// Mixed into every key: the root player (entries are scored for it).
    root_key: u64,
    pv: &'a mut PvTable<Move, MAX_PLY>,
    /// Root moves, best first (reordered after each iteration).
    pub(crate) root_order: Ordered,
    /// Piece-placement hashes of the recent positions of the game: a root
    /// move back to one of them is scored [`REPEAT`] lower, which breaks
    /// shuffles when neither side can make progress.
    pub recent: Vec<u64>,
    /// Hashes of positions the game has already seen twice: a move to one
    /// of them draws by threefold repetition (two players, when the rules
    /// say so), scored as such ([`Tree::repetition_draw`]) instead of
    /// searched.
    pub(crate) drawn: Vec<u64>,
    /// Best root move of the running iteration and its score.
    pub(crate) root_best: Option<(Move, i32)>,
    /// 3–6 players: the rivals' costs without isolation
    /// ([`Army::cost_of_own`]) at each ply, updated only for the player who
    /// moved; `None` where every cost is computed in full at the leaves.
    rival_costs: Option<Box<[[i32; 6]; MAX_PLY + 1]>>,
    /// BRS+ (3–6 players): the rivals who do not reply play their first
    /// move by the ordering instead of passing.
    pub(crate) brs_plus: bool,
    /// Two players under the CCERL rule that a side with no legal move
    /// loses (set only with two players, by `TreeSetup`): a node where a
    /// side cannot move is scored as that side's
    /// loss instead of a pass, so the search sees a win by taking away
    /// the opponent's last moves (a goal sealed by pieces kept at home is
    /// beaten by trapping the opponent's other pieces).
    pub(crate) no_move_loss: bool,
    /// Two players: the rival keeps its home base (the root's goal) and
    /// the root's cost is that of the plan against it
    /// ([`SealPlan::cost`]): break in while the seal is open, or lay
    /// siege once it is closed; where the no-progress ranking decides,
    /// hold the root's own home base too.
    seal_plan: Option<SealPlan>,
    /// The root's score of a draw by repetition under `seal_plan`
    /// ([`Tree::set_seal_plan`]).
    seal_plan_draw: i32,
    /// Under a hold behind a closed seal, the seal points each player
    /// keeps: moves from them are ordered after every other move, so that
    /// a node's short list holds the moves of the pieces out (a sealer
    /// moves its seal last, and the race order would put its seal's
    /// forward moves first).
    pub(super) kept: [Mask; 2],
}

impl<'a> Tree<'a> {
    /// Permille of the first 1000 table entries in use (by this search or
    /// an earlier one: the table is always-replace and has no age), as the
    /// protocol's `hashfull`.
    pub(crate) fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// A searcher for `root` in `pos`, with `active[p]` for the players
    /// still playing, on the engine's table and PV buffer.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: &Position,
        root: usize,
        active: [bool; 6],
        anti_blocking: bool,
        mode: Mode,
        width: usize,
        stop: &'a AtomicBool,
        tt: &'a Table,
        pv: &'a mut PvTable<Move, MAX_PLY>,
    ) -> Tree<'a> {
        let players = pos.players();
        let armies = Army::all_of(pos);
        Tree {
            mode,
            root,
            active,
            players,
            anti_blocking,
            rival_weight: FULL_RIVAL_WEIGHT,
            armies,
            width: width.clamp(MIN_WIDTH, MAX_WIDTH),
            reply_width: (width / REPLY_DIVISOR).max(MIN_REPLIES),
            nodes: 0,
            seldepth: 0,
            stop,
            abort: None,
            root_split: None,
            deadline: None,
            node_limit: None,
            stopped: false,
            tt,
            root_key: (root as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93),
            pv,
            root_order: Ordered::new(),
            root_best: None,
            recent: Vec::new(),
            drawn: Vec::new(),
            rival_costs: None,
            brs_plus: false,
            no_move_loss: false,
            seal_plan: None,
            seal_plan_draw: -SEAL_PLAN_DRAW,
            kept: [Mask::EMPTY; 2],
        }
    }

    /// Keeps the rivals' costs per ply from now on (3–6 players,
    /// best-reply): a leaf then computes only the root's own cost, not
    /// every player's, which would be most of the search's time.
    pub(crate) fn keep_rival_costs(&mut self, pos: &Position) {
        let mut costs = Box::new([[0i32; 6]; MAX_PLY + 1]);
        for p in 0..self.players {
            costs[0][p] = self.army(p).cost_of_own_in(pos, p);
        }
        self.rival_costs = Some(costs);
    }

    /// Makes the rivals' costs at `ply + 1` those at `ply`, with the cost of
    /// each rival in `movers` recomputed in `child` (the root's own cost is
    /// not kept).
    #[inline]
    fn pass_costs(&mut self, ply: usize, child: &Position, movers: &[usize]) {
        let (armies, root) = (&self.armies, self.root);
        let Some(costs) = self.rival_costs.as_deref_mut() else {
            return;
        };
        costs[ply + 1] = costs[ply];
        for &o in movers.iter().filter(|&&o| o != root) {
            let army = armies[o].as_ref().expect("army of a player");
            costs[ply + 1][o] = army.cost_of_own_in(child, o);
        }
    }

    pub(super) fn army(&self, p: usize) -> &Army {
        self.armies[p].as_ref().expect("army of a player")
    }

    /// The cost of player `p` under the mode's evaluation.
    fn cost(&self, pos: &Position, p: usize) -> i32 {
        match self.mode {
            Mode::BestReply => self.army(p).cost_in(pos, p),
            Mode::Plain => plain_cost(pos, p),
        }
    }

    /// Static evaluation for the root at `ply`: the best opponent's cost
    /// (weighted by `rival_weight` percent) minus the root's own cost.
    pub fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        let own = match &self.seal_plan {
            Some(plan) => plan.cost(pos, self.root, self.army(self.root)),
            None => self.cost(pos, self.root),
        };
        if let Some(SealPlan::Hold(hold, None)) = &self.seal_plan {
            // Behind a closed seal the game ends at the no-progress
            // ranking: the rival is measured as that ranking measures it.
            return hold.rival_cost(pos, 1 - self.root) - own;
        }
        let mut best_opp = i32::MAX;
        for p in 0..self.players {
            if p != self.root && self.active[p] {
                let c = match &self.rival_costs {
                    Some(costs) => costs[ply][p],
                    None => self.cost(pos, p),
                };
                best_opp = best_opp.min(c);
            }
        }
        let score = if best_opp == i32::MAX {
            -own
        } else {
            best_opp * self.rival_weight / FULL_RIVAL_WEIGHT - own
        };
        // The siege's costs (4 a step) would take the score past the
        // finish scores, where it reads as a forced loss.
        match self.seal_plan {
            Some(SealPlan::Siege(_)) => score / SIEGE_SCORE_DIVISOR,
            _ => score,
        }
    }

    fn has_finished(&self, pos: &Position, p: usize) -> bool {
        finished_in(self.army(p), pos, p, self.anti_blocking)
    }

    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & POLL_MASK == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.abort.is_some_and(|a| a.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The players who answer a root move: all opponents still playing
    /// (best-reply) or the next one in seat order (paranoid).
    fn repliers(&self, pos: &Position, mover: usize) -> ArrayVec<usize, 6> {
        let mut r = ArrayVec::new();
        match self.mode {
            Mode::BestReply => {
                for p in 0..self.players {
                    if p != self.root && self.active[p] {
                        r.push(p);
                    }
                }
            }
            Mode::Plain => {
                let _ = pos;
                for k in 1..=self.players {
                    let q = (mover + k) % self.players;
                    if self.active[q] {
                        r.push(q);
                        break;
                    }
                }
            }
        }
        r
    }

    /// Searches `pos` with `mover` to move to `depth` plies; the score is
    /// the root's. At ply 0 the root moves are taken from `root_order` when
    /// it is set (the iterative-deepening order), else generated.
    pub fn search(
        &mut self,
        pos: &Position,
        mover: usize,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv.clear(ply);
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 && self.out_of_time() {
            return 0;
        }
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let root_turn = mover == self.root;
        let key = pos.hash()
            ^ (mover as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(self.mode == Mode::Plain)
            ^ self.root_key;
        let mut hash_move = None;
        if let Some(e) = self.tt.probe(key) {
            hash_move = Some(e.mv);
            // A score stored before the game saw a position twice knows
            // nothing of the draw one move away: near the root it is
            // searched again while such positions exist.
            let fresh = self.drawn.is_empty() || ply > DRAWN_REACH;
            if ply > 0 && fresh && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best_move = None;
        let mut best;
        if root_turn {
            let limit = if ply == 0 || self.mode == Mode::Plain {
                usize::MAX
            } else {
                self.width
            };
            let moves = if ply == 0 && !self.root_order.is_empty() {
                self.root_order.clone()
            } else {
                self.ordered(pos, mover, limit, hash_move)
            };
            best = -INF;
            if moves.is_empty() {
                if self.no_move_loss {
                    return -(MATE - ply as i32);
                }
                // The root must pass.
                let next = self.repliers(pos, mover);
                return match next.first() {
                    Some(&q) => {
                        self.pass_costs(ply, pos, &[]);
                        self.search(pos, q, depth - 1, ply + 1, alpha, beta)
                    }
                    None => self.evaluate(pos, ply),
                };
            }
            let next = self.repliers(pos, mover);
            let split = self.root_split.filter(|_| ply == 0);
            let mut taken = 0;
            loop {
                let index = match split {
                    Some(split) => split.next.fetch_add(1, Ordering::Relaxed),
                    None => taken,
                };
                taken += 1;
                let Some(&mv) = moves.get(index) else {
                    break;
                };
                if let Some(split) = split {
                    // Only a score above what another thread proved counts.
                    alpha = alpha.max(split.alpha.load(Ordering::Relaxed));
                    best = best.max(alpha);
                }
                let mut child = *pos;
                child.set_to_move_unchecked(mover);
                child.play_unchecked(&Move::new(mv.from, mv.to));
                let score = if self.has_finished(&child, mover) {
                    MATE - ply as i32 - 1
                } else if self.players == 2
                    && next.first().is_some_and(|&q| self.has_finished(&child, q))
                {
                    -(MATE - ply as i32 - 1)
                } else if let Some(draw) = self.repetition_draw(&child) {
                    draw
                } else {
                    self.pass_costs(ply, &child, &[]);
                    match next.first() {
                        Some(&q) => self.search(&child, q, depth - 1, ply + 1, alpha, beta),
                        None => self.search(&child, mover, depth - 1, ply + 1, alpha, beta),
                    }
                };
                if self.stopped {
                    if ply > 0 {
                        return 0;
                    }
                    break;
                }
                let score = if ply == 0 && self.recent.contains(&piece_hash(&child)) {
                    score - REPEAT
                } else {
                    score
                };
                let score = match (&self.seal_plan, ply) {
                    (Some(plan), 0) => score - plan.root_penalty(pos, self.root, &mv),
                    _ => score,
                };
                if score > best {
                    best = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((mv, score));
                    }
                }
                alpha = alpha.max(score);
                if let Some(split) = split {
                    split.alpha.fetch_max(score, Ordering::Relaxed);
                }
                if alpha >= beta {
                    break;
                }
            }
        } else {
            best = INF;
            let repliers = self.repliers(pos, mover);
            let movers: ArrayVec<usize, 6> = match self.mode {
                Mode::BestReply => {
                    let mut r = repliers;
                    // The leading rival first: its best move is the likeliest
                    // worst reply, so the cut-offs come sooner.
                    if let Some(costs) = &self.rival_costs {
                        r.sort_by_key(|&o| costs[ply][o]);
                    }
                    r
                }
                Mode::Plain => {
                    let mut m = ArrayVec::new();
                    m.push(mover);
                    m
                }
            };
            let plus = self.brs_plus && self.mode == Mode::BestReply && self.players >= 3;
            // Replies to the root move itself are searched wider: a
            // sideways reply that breaks a planned chain must be seen.
            let limit = if self.mode == Mode::Plain || (ply == 1 && self.players == 2) {
                usize::MAX
            } else if ply == 1 {
                self.width
            } else {
                self.reply_width
            };
            // BRS+: every rival's replies are listed before any is played;
            // the head of each list is that rival's first move.
            let (replies, first_moves) = if plus {
                self.reply_lists(pos, &movers, limit)
            } else {
                (ArrayVec::new(), [None; 6])
            };
            let mut any = false;
            'outer: for (i, &o) in movers.iter().enumerate() {
                let first = if o == mover { hash_move } else { None };
                let (short, full);
                let moves: &[Move] = match replies.get(i) {
                    Some(list) => {
                        short = hash_first(pos, o, list, first);
                        &short
                    }
                    None => {
                        full = self.ordered(pos, o, limit, first);
                        &full
                    }
                };
                for &mv in moves {
                    any = true;
                    let mut child = *pos;
                    child.set_to_move_unchecked(o);
                    child.play_unchecked(&Move::new(mv.from, mv.to));
                    // Who moved: the replier, and with BRS+ the others.
                    let mut moved = if plus {
                        play_the_others(&mut child, o, &movers, &first_moves)
                    } else {
                        ArrayVec::new()
                    };
                    moved.push(o);
                    let next = match self.mode {
                        Mode::BestReply => self.root,
                        Mode::Plain => self
                            .repliers(&child, o)
                            .first()
                            .copied()
                            .unwrap_or(self.root),
                    };
                    let score = if self.players == 2 && self.has_finished(&child, o) {
                        -(MATE - ply as i32 - 1)
                    } else if self.players == 2 && self.has_finished(&child, self.root) {
                        MATE - ply as i32 - 1
                    } else if let Some(draw) = self.repetition_draw(&child) {
                        draw
                    } else {
                        self.pass_costs(ply, &child, &moved);
                        self.search(&child, next, depth - 1, ply + 1, alpha, beta)
                    };
                    if self.stopped {
                        return 0;
                    }
                    if score < best {
                        best = score;
                        best_move = Some(mv);
                        self.update_pv(ply, mv);
                    }
                    beta = beta.min(score);
                    if alpha >= beta {
                        break 'outer;
                    }
                }
            }
            if !any {
                if self.no_move_loss {
                    return MATE - ply as i32;
                }
                // Nobody can answer: the turn comes back (or passes on).
                let next = match self.mode {
                    Mode::BestReply => self.root,
                    Mode::Plain => self
                        .repliers(pos, mover)
                        .first()
                        .copied()
                        .unwrap_or(self.root),
                };
                self.pass_costs(ply, pos, &[]);
                return self.search(pos, next, depth - 1, ply + 1, alpha, beta);
            }
        }
        if !self.stopped {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta0 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let mv = best_move.map_or((0, 0), |m| (m.from.index() as u8, m.to.index() as u8));
            self.tt.store(
                key,
                Entry {
                    mv,
                    score: to_tt(best, ply),
                    depth: depth.min(127) as i8,
                    bound,
                },
            );
        }
        best
    }

    /// The root's score of `child` when reaching it draws by threefold
    /// repetition (the game has seen it twice): 0, except under a seal
    /// plan, where the rival keeps its home base and only the root can
    /// win, and whose costs are no race measure: there a draw is as bad
    /// for the root as [`SEAL_PLAN_DRAW`] steps more than the root's own
    /// static score (`seal_plan_draw`): the plan's costs can be far larger
    /// than that, and a draw must still be worse than going on.
    fn repetition_draw(&self, child: &Position) -> Option<i32> {
        if self.drawn.is_empty() || !self.drawn.contains(&child.hash()) {
            return None;
        }
        Some(if self.seal_plan.is_some() {
            self.seal_plan_draw
        } else {
            0
        })
    }

    /// Follows `plan` for the root of `root` (a position of the root's
    /// turn): a draw by repetition then scores [`SEAL_PLAN_DRAW`] below
    /// the root's static score there.
    pub(crate) fn set_seal_plan(&mut self, plan: Option<SealPlan>, root: &Position) {
        self.seal_plan = plan;
        self.kept = [Mask::EMPTY; 2];
        if let Some(SealPlan::Hold(hold, None)) = &self.seal_plan {
            self.kept[self.root] = hold.ward();
            self.kept[1 - self.root] = hold.rival_ward();
        }
        if self.seal_plan.is_some() {
            self.seal_plan_draw = self.evaluate(root, 0) - SEAL_PLAN_DRAW;
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv.update(ply, mv);
    }

    /// The principal variation of the last search.
    pub fn pv(&self) -> &[Move] {
        self.pv.root()
    }

    /// The replies of each of `rivals` in `pos` (in the order of `rivals`,
    /// at most `limit` each, as [`Tree::ordered`] without a hash move) and
    /// each rival's first move, the head of its list. Not inlined: the
    /// ordering's scoring buffer stays out of the recursive frame.
    #[inline(never)]
    pub(super) fn reply_lists(
        &self,
        pos: &Position,
        rivals: &[usize],
        limit: usize,
    ) -> (ArrayVec<ShortList, 6>, FirstMoves) {
        let mut lists = ArrayVec::new();
        let mut first = [None; 6];
        for &q in rivals {
            let list: ShortList = self.ordered_into(pos, q, limit, None);
            first[q] = list.first().copied();
            lists.push(list);
        }
        (lists, first)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::super::geometry::Cell;
    use super::super::fixtures::middle_game;
    use super::*;

    /// Runs `f` on a 6-player best-reply tree for player 0 in `pos`, on a
    /// small table of its own.
    pub(in crate::chinese::search) fn with_tree(pos: &Position, f: impl FnOnce(&mut Tree<'_>)) {
        with_tree_of(pos, [true; 6], f);
    }

    /// Runs `f` on a best-reply tree for player 0 in `pos` with the
    /// players `active` still playing, on a small table of its own.
    fn with_tree_of(pos: &Position, active: [bool; 6], f: impl FnOnce(&mut Tree<'_>)) {
        let stop = AtomicBool::new(false);
        let tt = Table::new(1);
        let mut pv = PvTable::new(Move::new(Cell::from_u8(0), Cell::from_u8(0)));
        let mut tree = Tree::new(
            pos,
            0,
            active,
            true,
            Mode::BestReply,
            16,
            &stop,
            &tt,
            &mut pv,
        );
        f(&mut tree);
    }

    #[test]
    fn the_rival_costs_kept_per_ply_follow_the_rivals_moves() {
        let pos = middle_game();
        with_tree(&pos, |tree| {
            tree.keep_rival_costs(&pos);
            // A root move leaves the rivals' costs as they were; a rival's move
            // updates that rival's alone, to its cost recomputed in the child.
            let mut child = pos;
            let own = tree.ordered(&pos, 0, 1, None)[0];
            child.set_to_move_unchecked(0);
            child.play_unchecked(&own);
            tree.pass_costs(0, &child, &[0]);
            let reply = tree.ordered(&child, 3, 1, None)[0];
            let mut grandchild = child;
            grandchild.set_to_move_unchecked(3);
            grandchild.play_unchecked(&reply);
            tree.pass_costs(1, &grandchild, &[3]);
            let costs = tree.rival_costs.as_deref().expect("kept");
            for (p, (after_own, after_reply)) in costs[1].iter().zip(&costs[2]).enumerate().skip(1)
            {
                assert_eq!(*after_own, tree.army(p).cost_of_own_in(&child, p));
                assert_eq!(*after_reply, tree.army(p).cost_of_own_in(&grandchild, p));
            }
            assert_ne!(costs[2][3], costs[1][3]);
            // The leaf evaluation reads them: the best rival at half weight
            // (or as set) minus the root's own full cost.
            let best = (1..6).map(|p| costs[2][p]).min().expect("rivals");
            assert_eq!(
                tree.evaluate(&grandchild, 2),
                best * tree.rival_weight / 100 - tree.army(0).cost_in(&grandchild, 0)
            );
        });
    }

    #[test]
    fn a_siege_with_the_trappers_far_from_home_scores_within_the_finish_bound() {
        // The rival's seal stands, two of its pieces are locked in p1's
        // home triangle and one is out; all ten of p1's pieces are rows
        // away from home.
        let pos = *crate::chinese::Checkers::from_text_with_defaults(
            "I2 1 k10,j11,k11,m11,j12,k12,l12,m12,k13,m13/f2,e3,i9,j14,k14,l14,m14,k15,l15,m15",
            &crate::chinese::Rules::ccerl(),
        )
        .expect("valid")
        .position();
        with_tree(&pos, |tree| {
            let plan = SealPlan::of(&pos, 0, true, false);
            assert!(matches!(plan, Some(SealPlan::Siege(_))));
            let own = plan.expect("a plan").cost(&pos, 0, tree.army(0));
            assert!(
                own > MATE,
                "the plan's cost alone is past the finish scores"
            );
            tree.set_seal_plan(plan, &pos);
            let score = tree.evaluate(&pos, 0);
            assert!(score.abs() < crate::search::MATE_BOUND, "{score}");
            assert!(tree.seal_plan_draw < score);
        });
    }

    #[test]
    fn a_root_move_to_a_position_seen_twice_is_scored_a_draw() {
        let pos = *crate::chinese::Checkers::from_text_with_defaults(
            "I2 1 i9/h12",
            &crate::chinese::Rules::ccerl(),
        )
        .expect("valid")
        .position();
        let mut active = [false; 6];
        active[..2].fill(true);
        with_tree_of(&pos, active, |tree| {
            let best_of = |tree: &mut Tree<'_>| {
                tree.root_best = None;
                let score = tree.search(&pos, 0, 4, 0, -INF, INF);
                (tree.root_best.expect("a root move").0, score)
            };
            let (first, score) = best_of(tree);
            assert!(score > 0, "the lone piece is ahead: {score}");
            let mut after = pos;
            after.play_unchecked(&first);
            tree.drawn = vec![after.hash()];
            let (second, score) = best_of(tree);
            assert_ne!(second, first, "a third occurrence draws");
            assert!(score > 0, "another move keeps the lead: {score}");
        });
    }

    #[test]
    fn the_reply_lists_are_the_ordered_lists_with_the_hash_move_first() {
        let pos = middle_game();
        let rivals = [3, 1, 2, 4, 5];
        with_tree(&pos, |tree| {
            for limit in [1, 3, 4, 16, MAX_WIDTH] {
                let (lists, first) = tree.reply_lists(&pos, &rivals, limit);
                for (list, &q) in lists.iter().zip(&rivals) {
                    let all = tree.ordered(&pos, q, usize::MAX, None);
                    assert_eq!(first[q], all.first().copied());
                    let as_pair = |m: &Move| (m.from.index() as u8, m.to.index() as u8);
                    // Hash moves: none, the head, one inside the list, one
                    // beyond it, another rival's move, and the table's filler.
                    let other = pos.moves_of(if q == 1 { 2 } else { 1 })[0];
                    let hashes = [
                        None,
                        all.first().map(as_pair),
                        all.get(limit / 2).map(as_pair),
                        all.get(limit + 2).map(as_pair),
                        all.last().map(as_pair),
                        Some(as_pair(&other)),
                        Some((0, 0)),
                    ];
                    for hash in hashes {
                        assert_eq!(
                            &hash_first(&pos, q, list, hash)[..],
                            &tree.ordered(&pos, q, limit, hash)[..],
                            "rival {q}, limit {limit}, hash {hash:?}"
                        );
                    }
                }
            }
        });
    }
}
