//! Every tuning constant of the Chinese checkers search, in one place: the
//! distance heuristic's weights, the tree's widths and depth, the race
//! solver's budget, the solitaire beam, the 3–6 player settings
//! ([`multi`]) and the Monte Carlo tree search ([`mcts`]). The search
//! modules refer to them by name.
//!
//! Changing a value here changes the search, and so (except for the
//! Monte Carlo search, which `damas bench` does not run, and the protocol's
//! solitaire settings) the node signature of `damas bench --game chinese`.

use crate::search::MAX_PLY;

// The distance heuristic (module `heuristic`), in hundredths of a step.

/// Hundredths of a step per step of distance.
pub const STEP: i32 = 100;
/// Extra cost per row of spread beyond [`STRAGGLE_FREE`].
pub const STRAGGLE: i32 = 40;
/// Rows of spread between the front and the back piece that cost nothing.
pub const STRAGGLE_FREE: i32 = 6;
/// Extra cost of a piece outside the goal with no neighbour.
pub const ISOLATED: i32 = 30;
/// Cost of a piece in another player's goal (3–6 players). That player's
/// army walls such a piece in as it arrives, for good once it finishes:
/// without this cost, 6-player matches lost games to a straggler left in
/// a neighbour's camp (docs/HISTORY.md, "Walled-in stragglers").
pub const FOREIGN: i32 = 300;
/// Cost of an ordinary piece on the tip the Japanese king must reach.
pub const TIP_TAKEN: i32 = 250;

// Move ordering (module `ordering`).

/// The ordering key's units per step of tip distance gained (lower keys
/// are better).
pub const PROGRESS_KEY_STEP: i32 = 8;
/// The push for backward pieces: the key is lowered by the piece's tip
/// distance divided by this (they otherwise stay behind as stragglers).
pub const PROGRESS_KEY_BACKWARD_DIVISOR: i32 = 2;
/// The longest move list the tree's ordering selects by insertion (longer
/// ones are selected from the full move list).
pub const SHORT_LIST: usize = 32;

// The tree (modules `tree`, `deepening`).

/// Deepest nominal depth of the tree's iterative deepening (and the
/// largest `go depth` it takes): below [`MAX_PLY`], which the tree's
/// per-ply buffers cover, so no line is ever cut by the bound.
pub const MAX_DEPTH: u32 = 60;
const _: () = assert!((MAX_DEPTH as usize) + 1 < MAX_PLY);
/// The widest own-move and reply selection at inner nodes.
pub const MAX_WIDTH: usize = 64;
/// The narrowest own-move selection of the tree itself.
pub const MIN_WIDTH: usize = 2;
/// Positions of the beam width per own move of the game searches: they
/// keep `beam_width / BEAM_PER_MOVE` own moves per node.
pub const BEAM_PER_MOVE: usize = 4;
/// The fewest own moves per node the game searches keep.
pub const MIN_GAME_WIDTH: usize = 4;
/// Two players: replies per node are the own-move width divided by this.
pub const REPLY_DIVISOR: usize = 2;
/// Two players: the fewest replies per node.
pub const MIN_REPLIES: usize = 2;
/// Penalty of a root move that repeats a recent position of the game.
pub const REPEAT: i32 = 60;
/// A siege (`siege.rs`): the fewest rival pieces on the root's goal.
pub const SIEGE_MIN_SEALERS: u32 = 5;
/// A siege with one rival piece out of both triangles (the one that left
/// the seal, or one still on its way): the fewest rival pieces already
/// locked in its goal (none are early in a game, when the rival's home is
/// simply not left yet).
pub const SIEGE_MIN_LOCKED: u32 = 2;
/// A siege: the cost of each move the rival's locked pieces still have.
pub const SIEGE_MOBILITY: i32 = 300;
/// A siege: the cost of each step between an attacker and the goal tip,
/// or between a trapper and the root's home triangle, more than a locked
/// rival move: an attacker that can go forward (through a seal point the
/// rival opened, or onto the goal's last free point) does so, and a
/// trapper still out comes home, before the trappers at home answer
/// another shuffle of the locked pieces.
pub const SIEGE_STEP: i32 = 400;
/// A siege: the cost of each step between a free point that the trappers
/// must hold and the nearest trapper not on such a point, so that the
/// trappers head for the points that take the locked pieces' moves, not
/// only for the home triangle.
pub const SIEGE_TRAP_STEP: i32 = 300;
/// A siege: the cost of leaving no more free points in the root's home
/// triangle than there are rival pieces travelling (out of it and of the
/// root's goal), once one of them is within [`SIEGE_HOLE_REACH`] of a free
/// point: each will take one, and the full triangle is that rival's goal,
/// finished under anti-blocking; a static leaf does not see the replies.
pub const SIEGE_LAST_HOLE: i32 = 5_000;
/// A siege: the hex distance within which a travelling rival piece counts
/// as near a hole of the root's home triangle, so that the trappers keep
/// more holes than there are travelling pieces (the last one filled
/// finishes the rival under anti-blocking). Far pieces do not count: the
/// trap must close meanwhile.
pub const SIEGE_HOLE_REACH: u32 = 3;
/// The score of a draw by repetition while a seal plan (siege, breach or
/// hold) runs: a hundred steps below the root's own static score at the
/// root (a fixed score was above the siege's cost with every trapper far
/// from home, so the root chose the draw), and far above a loss.
pub const SEAL_PLAN_DRAW: i32 = 10_000;
/// A siege: the static score is divided by this. Its costs weigh 4 a step
/// (`SIEGE_STEP`) against the rival's 1, and with every trapper far from
/// home their sum passed the finish scores (±30,000 less the plies): the
/// search then read every line as a forced loss, stopped deepening at
/// depth 1 and took a draw by repetition. Dividing keeps the weights and
/// the scores in range (lowering the siege's weights to 1 a step instead
/// lost 13 wins of 40 at seed 5858).
pub const SIEGE_SCORE_DIVISOR: i32 = 4;
/// The plies from the root within which the table's scores are not taken
/// while the game has positions seen twice (a shuffle's repetition comes
/// back within two or four plies).
pub const DRAWN_REACH: usize = 4;
/// A guard (`guard.rs`): the fewest rival pieces on the seal points of the
/// root's goal, with its three points behind them empty.
pub const GUARD_MIN_SEALERS: u32 = 6;
/// A guard: the cost of each of the two points next to the tip of the
/// root's home triangle left free (more than a move's gain: the root keeps
/// its pieces there, or brings one back).
pub const GUARD_OPEN: i32 = 1500;
/// A guard, and a siege: the cost of each of those points a rival piece
/// holds.
pub const GUARD_TAKEN: i32 = 3000;
/// A breach (`siege.rs`): the fewest rival pieces still on its home base.
pub const BREACH_MIN_HOME: u32 = 8;
/// A breach: a rival piece at most this many steps from its own goal
/// shows that the rival is not simply still at home.
pub const BREACH_RIVAL_REACH: u8 = 4;
/// A breach: the cost of each step between the root's piece nearest an
/// open seal point and that point (on top of the ordinary cost).
pub const BREACH_RUNNER: i32 = 200;
/// A breach: the cost of a seal closed with no piece of the root inside.
pub const BREACH_CLOSED: i32 = 3000;
/// A hold (`hold.rs`, where the no-progress ranking decides a sealed
/// game): the cost of each rival piece in the root's home base, less as
/// much for each root piece in its goal. Pieces in goal are the ranking's
/// first key, and a rival piece let in stays for good, so it outweighs any
/// hole ([`HOLD_HOLE`] and its [`HOLD_STEP`]s) and any race.
pub const HOLD_INTRUDER: i32 = 5000;
/// A hold: the cost of each free seal point of the root's home base, the
/// way in for the rival's free pieces; large enough that the root opens one
/// only where it sees the point refilled from behind.
pub const HOLD_HOLE: i32 = 1000;
/// A hold: the extra cost of a free seal point of the root's home base that
/// a rival piece can enter at once (a step, or a jump over a neighbour):
/// close to [`HOLD_INTRUDER`], so that the root neither opens one there nor
/// leaves one open.
pub const HOLD_EXPOSED: i32 = 3000;
/// A hold behind a closed seal: the score a root move loses for taking a
/// keeper off the home seal (a waiting move that opens a hole and plans
/// to refill it later; at 4 steps, a tip piece's release still pays).
pub const HOLD_LEAVE: i32 = 400;
/// A hold: the score a root move loses for freeing a seal point of the
/// home base with a rival piece within [`HOLD_DANGER`] steps of it, above
/// [`HOLD_EXPOSED`]: such a hole is one rival move from exposed.
pub const HOLD_LEAVE_NEAR: i32 = 4000;
/// A hold: how near (in steps) a rival piece makes freeing a seal point
/// cost [`HOLD_LEAVE_NEAR`].
pub const HOLD_DANGER: u32 = 3;
/// A hold behind a closed seal: the extra cost of a root piece left in its
/// home base beyond the keepers (behind a full seal it cannot get out: its
/// whole race is still to run, more than the leaf's few steps show).
pub const HOLD_BEHIND: i32 = 600;
/// A hold behind a closed seal: the root's pieces that keep its home seal,
/// one for each seal point.
pub const HOLD_KEEPERS: usize = 7;
/// A hold behind a closed seal: the cost of each step between a keeper and
/// the root's home seal, twice a step of the race, so that a keeper never
/// leaves for a race and the pieces out walk back.
pub const HOLD_STEP: i32 = 200;
/// The turns of the game's history whose positions count as recent for
/// [`REPEAT`].
pub const RECENT_PLIES: usize = 12;
/// Tree nodes between two looks at the stop flag and the clock:
/// `nodes & POLL_MASK == 0` (256 nodes: under 0.1 ms at the tree's 3 M
/// nodes a second).
pub const POLL_MASK: u64 = 255;
/// Stack size of a helper thread.
pub const HELPER_STACK: usize = 16 << 20;

// The exact race of two separated armies (module `race`).

/// The longest race (in own moves) the solver tries.
pub const RACE_MAX_MOVES: u32 = 6;
/// The race solver's node budget.
pub const RACE_NODES: u64 = 20_000;
/// The race solver gets at most the move's time divided by this (the tree
/// search gets the rest).
pub const RACE_TIME_DIVISOR: u32 = 4;
/// Race nodes between two looks at the clock and the stop flag (well
/// under a millisecond of work).
pub const RACE_CHECK_EVERY: u64 = 256;

// The solitaire beam (module `beam`, and the protocol's one-player search).

/// The candidates kept per ply before sorting: the beam width times this
/// (at least [`BEAM_MIN_CANDIDATES`]).
pub const BEAM_CANDIDATES_PER_SLOT: usize = 3;
/// See [`BEAM_CANDIDATES_PER_SLOT`].
pub const BEAM_MIN_CANDIDATES: usize = 16;
/// Parents of a beam ply between two looks at the clock and the stop
/// flag: at index `i % BEAM_POLL == BEAM_POLL - 1`. A parent has about 80
/// children of 50–100 ns each (the scoring and the transposition set's
/// look-up), so 64 parents are 0.3–0.5 ms of work.
pub const BEAM_POLL: usize = 16;
/// The most candidates of a ply sorted at once (a narrow beam's `keep`
/// fits, and is sorted in one go); a wider beam's are taken best first in
/// slices of this many, with a look at the clock before each slice:
/// selecting a slice out of 300,000 candidates, sorting it and building its
/// children is 2–5 ms, where the whole sort and build of a 100,000-wide
/// ply was 60–85 ms.
pub const BEAM_SORT_CHUNK: usize = 4096;
/// A ply's candidates are cut back to the best `keep` (the width times
/// [`BEAM_CANDIDATES_PER_SLOT`]) whenever they pass `keep` plus the larger
/// of `keep` and this: a 100,000-wide ply gathers 5–10 million children,
/// which one selection took 20–45 ms over, past any deadline.
pub const BEAM_COMPACT_MIN: usize = 1 << 17;
/// The widest beam the protocol's solitaire search grows to (memory: about
/// 80 scored children of 24 bytes per kept position and ply).
pub const MAX_PROTOCOL_BEAM: usize = 1 << 15;
/// The longest plan of the protocol's solitaire search, in plies.
pub const PROTOCOL_PLAN_PLIES: usize = 200;
/// The longest plan of [`solve_solitaire`](super::solve_solitaire).
pub const SOLITAIRE_PLAN_PLIES: usize = 300;
/// The instability the protocol's solitaire search hands the time manager
/// before widening the beam (a wider round takes about twice as long).
pub const SOLITAIRE_INSTABILITY: f64 = 0.5;

/// The tuned parameters of the 3–6 player best-reply search, measured in
/// 6-player matches at 100 ms per move (docs/PERFORMANCE.md, "Three to six
/// players"; the variants tried: docs/HISTORY.md).
pub mod multi {
    /// Percent of the leading rival's distance in the evaluation (two
    /// players: [`FULL_RIVAL_WEIGHT`], a zero-sum race). At a full table,
    /// hindering the leader costs tempo that the other rivals take: half
    /// weight places better.
    pub const RIVAL_WEIGHT: i32 = 50;
    /// The rival weight of two players (and the unit of
    /// [`RIVAL_WEIGHT`]): 100 percent.
    pub const FULL_RIVAL_WEIGHT: i32 = 100;
    /// BRS+ instead of plain best-reply search: the rivals who do not
    /// reply play their first move by the ordering. Measured at 6 players
    /// against greedy rivals (docs/HISTORY.md, "BRS+").
    pub const BRS_PLUS: bool = true;
    /// 3–6 players: replies per node are the own-move width divided by
    /// this.
    pub const REPLY_DIVISOR: usize = 4;
    /// 3–6 players: the fewest replies per node.
    pub const MIN_REPLIES: usize = 3;
    /// From this many seats on, a timed search (no depth limit) is Monte
    /// Carlo tree search (module `mcts`) instead of best-reply search.
    /// Measured at 6 players against greedy rivals (docs/PERFORMANCE.md,
    /// "Three to six players").
    pub const MCTS_SEATS: usize = 6;
}

/// The tuned parameters of the Monte Carlo tree search, measured at a
/// 6-player table against greedy rivals at 100 ms per move
/// (docs/PERFORMANCE.md, "Three to six players"; the variants tried:
/// docs/HISTORY.md).
pub mod mcts {
    /// Children per node: the best moves by the change of tip distance.
    pub const WIDTH: usize = 16;
    /// Rounds of the full table in a playout: `ROUNDS` × seats plies, the
    /// players still playing moving in turn.
    pub const ROUNDS: usize = 3;
    /// Per mille of playout moves chosen uniformly at random.
    pub const EPSILON_PERMILLE: usize = 100;
    /// The UCB exploration constant.
    pub const EXPLORATION: f64 = 0.3;
    /// The weight of progressive history.
    pub const HISTORY: f64 = 1.0;
    /// The weight the progressive-history table keeps from one search to
    /// the next (its averages are unchanged; the new position's results
    /// count double).
    pub const HISTORY_KEEP: f64 = 0.5;
    /// Hundredths of a step per unit of the race's logistic.
    pub const RACE_SCALE: f64 = 300.0;
    /// The race's logistic argument is clamped to ±`RACE_CLAMP` (its value
    /// is then 0 or 1 to within 1e-13; `exp` never overflows).
    pub const RACE_CLAMP: f64 = 30.0;
    /// The share of the reward given to the player's own progress. The
    /// race share is a mean over five rivals at six seats, of which
    /// usually one or two are close enough to move it, so the progress
    /// share is small beside it.
    pub const PROGRESS_SHARE: f64 = 0.05;
    /// Own progress per round (hundredths of a step) that earns the full
    /// progress share.
    pub const PROGRESS_PER_ROUND: f64 = 500.0;
    /// The ordering's charge for a move into another player's goal (in
    /// its units: 8 per step of tip distance, so three steps, the
    /// heuristic's `FOREIGN`).
    pub const FOREIGN_KEY: i32 = 24;
    /// Iterations between two looks at the stop flag and the clock: an
    /// iteration (a descent and a playout of [`ROUNDS`] rounds) takes
    /// about 11 µs at a 6-player table (89,000 a second, `go movetime 300`
    /// from the start), so 16 are under 0.2 ms of work, well within the
    /// millisecond a `movetime` may overrun by on a loaded machine.
    pub const POLL_ITERATIONS: u64 = 16;
    /// Bytes of `Hash` per node of the arena (24 bytes each): 2^20 nodes
    /// at the default 64 MiB.
    pub const BYTES_OF_HASH_PER_NODE: usize = 64;
    /// The fewest nodes the arena holds whatever `Hash` says (1.5 MiB).
    pub const MIN_NODES: usize = 1 << 16;
    /// The most nodes the arena holds (1.5 GiB, from a `Hash` of 4 GiB).
    pub const MAX_NODES: usize = 1 << 26;
    /// Mixed into the position hash to seed the playouts' generator (the
    /// search is reproducible for a position and a node limit).
    pub const SEED_SALT: u64 = 0x5DEE_CE66;
}
