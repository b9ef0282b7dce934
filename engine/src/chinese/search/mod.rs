//! The Chinese checkers search, for 1 to 6 players and both variants.
//!
//! - [`heuristic`]: the distance heuristic ([`Army::cost`]).
//! - [`beam`]: the beam search of one player alone ([`plan`]): the
//!   solitaire transfer ([`solve_solitaire`]).
//! - [`tree`]: alpha-beta over the beam's candidates (the best few own moves
//!   and replies by the heuristic) for two players, best-reply search for
//!   three to six, and the plain full-width baseline.
//! - [`race`]: exact two-player races once the armies are separated.
//! - [`time`]: the time budget of a `go`.
//!
//! [`search`] is the entry point the protocol calls: it dispatches on the
//! [`Style`] and the number of players, honours the [`SearchLimits`] and the
//! stop flag, reports [`SearchInfo`] at least once per iteration and always
//! returns a legal move (or none when the player to move must pass).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use damas::chinese::{search, Game, Rules};
//! use damas::search::SearchLimits;
//! let game = Game::new(Rules::default());
//! let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
//! let out = search::search(&game, &limits, &search::SearchOptions::default(),
//!                          &AtomicBool::new(false), &mut |_| {});
//! assert!(game.position().is_legal(&out.best.unwrap()));
//! ```

pub mod beam;
pub mod bench;
pub mod heuristic;
pub mod race;
pub mod time;
pub mod tree;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::geometry::Cell;
use super::moves::Move;
use super::notation::format_path;
use super::position::Position;
use super::{Game, PlayerState, Turn};
use crate::search::{Score, SearchInfo, SearchLimits, Style};

pub use crate::random::Rng;
pub use beam::{plan, BeamLimits, BeamPlan};
pub use heuristic::{plain_cost, Army};
pub use tree::{Mode, Tree, WIN, WIN_BOUND};

#[inline(always)]
pub(crate) fn cell(i: u8) -> Cell {
    Cell::from_u8(i)
}

/// Settings of a search that do not come from `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Beam width: positions per ply of the solitaire beam; the game
    /// searches keep `beam_width / 4` own moves (at least 4) per node.
    pub beam_width: usize,
    /// The engine or a baseline.
    pub style: Style,
    /// Seed of the random choices (Random style, Greedy tie-breaks); 0 takes
    /// one from the clock.
    pub seed: u64,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            beam_width: 64,
            style: Style::Best,
            seed: 0,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` when the player to move must pass or the
    /// game is over.
    pub best: Option<Move>,
    /// Its score for the player to move.
    pub score: Score,
    /// The best line, in move text.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Depth completed (plan length for the solitaire beam).
    pub depth: u32,
}

/// The move texts (full paths) of `moves` played in turn from `pos`, each by
/// the owner of its piece; stops at the first move that is not legal.
pub fn line_text(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let Some((owner, _)) = pos.piece_at(mv.from) else {
            break;
        };
        pos.set_to_move(owner);
        let Some(path) = pos.path(mv) else {
            break;
        };
        out.push(format_path(&path));
        pos.play_unchecked(&Move::new(mv.from, mv.to));
    }
    out
}

/// Score conversion from the tree's integers.
pub fn score_of(s: i32) -> Score {
    if s > WIN_BOUND {
        Score::Win((WIN - s) as u32)
    } else if s < -WIN_BOUND {
        Score::Loss((WIN + s) as u32)
    } else {
        Score::Centi(s)
    }
}

/// Searches the position of `game` for the player to move.
///
/// - 1 player ([`Style::Best`]): the solitaire beam, widened while time
///   remains; the move is the first of the shortest plan found.
/// - 2 players: beam-pruned alpha-beta with iterative deepening.
/// - 3–6 players: beam-pruned best-reply search.
/// - [`Style::Plain`]: full-width alpha-beta / paranoid on the summed
///   distance; [`Style::Greedy`]: best summed distance after one move;
///   [`Style::Random`]: a uniformly random legal move.
///
/// With `limits.infinite` it returns only once `stop` is set, even when the
/// search has nothing more to learn (the protocol's `go infinite`).
pub fn search(
    game: &Game,
    limits: &SearchLimits,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome {
    let out = search_once(game, limits, options, stop, on_info);
    if limits.infinite {
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
    out
}

fn search_once(
    game: &Game,
    limits: &SearchLimits,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome {
    let start = Instant::now();
    let pos = *game.position();
    let moves = game.legal_moves();
    let mut out = SearchOutcome {
        best: moves.first().copied(),
        score: Score::Centi(0),
        pv: Vec::new(),
        nodes: moves.len() as u64,
        depth: 0,
    };
    if moves.is_empty() {
        return out;
    }
    let me = pos.to_move();
    let mut rng = Rng::new(options.seed ^ pos.hash());
    let info = |out: &SearchOutcome, seldepth: u32, on_info: &mut dyn FnMut(&SearchInfo)| {
        on_info(&SearchInfo {
            depth: out.depth,
            seldepth: seldepth.max(out.depth),
            score: out.score,
            nodes: out.nodes,
            time: start.elapsed(),
            hashfull: None,
            pv: out.pv.clone(),
        });
    };
    match options.style {
        Style::Random => {
            let mv = moves[rng.below(moves.len())];
            out.best = Some(mv);
            out.depth = 1;
            out.pv = line_text(&pos, &[mv]);
            info(&out, 1, on_info);
            return out;
        }
        Style::Greedy => {
            let mut best = i32::MAX;
            let mut ties = 0usize;
            for mv in &moves {
                let mut child = pos;
                child.play_unchecked(&Move::new(mv.from, mv.to));
                let c = plain_cost(&child, me);
                if c < best {
                    best = c;
                    ties = 1;
                    out.best = Some(*mv);
                } else if c == best {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        out.best = Some(*mv);
                    }
                }
            }
            out.depth = 1;
            out.score = Score::Centi(-best);
            out.pv = line_text(&pos, &[out.best.expect("a move")]);
            info(&out, 1, on_info);
            return out;
        }
        Style::Best if game.players() == 1 => {
            return solitaire_go(game, limits, options, stop, on_info, start);
        }
        Style::Best | Style::Plain => {}
    }
    // A separated 2-player race is solved exactly.
    if options.style == Style::Best {
        if let Some(r) = race::solve(game, 6, limits.nodes.unwrap_or(u64::MAX).min(20_000)) {
            out.best = Some(r.first);
            out.score = if r.wins {
                Score::Win(r.plies)
            } else {
                Score::Loss(r.plies)
            };
            out.depth = r.plies;
            out.pv = line_text(&pos, &[r.first]);
            info(&out, r.plies, on_info);
            return out;
        }
    }
    // Tree search.
    let budget = time::budget(limits, start);
    let mut active = [false; 6];
    for (p, s) in game.status().iter().enumerate() {
        active[p] = *s == PlayerState::Playing;
    }
    let mode = if options.style == Style::Plain {
        Mode::Plain
    } else {
        Mode::BestReply
    };
    let width = (options.beam_width / 4).clamp(4, 64);
    let mut tree = Tree::new(
        &pos,
        me,
        active,
        game.rules().anti_blocking,
        mode,
        width,
        stop,
    );
    if game.players() >= 3 && mode == Mode::BestReply {
        tree.reply_width = (width / 4).max(3);
    }
    tree.recent = recent_positions(game, 12);
    tree.deadline = budget.hard;
    tree.node_limit = limits.nodes;
    tree.root_order = tree.ordered(&pos, me, usize::MAX, None);
    let max_depth = limits.depth.unwrap_or(60).clamp(1, 60);
    for depth in 1..=max_depth {
        tree.root_best = None;
        let score = tree.search(&pos, me, depth as i32, 0, -WIN - 1, WIN + 1);
        if tree.stopped {
            // A partial iteration: keep its best move when it beat the
            // previous best (which is searched first).
            if let Some((mv, s)) = tree.root_best {
                if out.depth == 0 || Some(mv) == out.best || s > tree_score(&out) {
                    out.best = Some(mv);
                }
            }
            break;
        }
        let Some((mv, _)) = tree.root_best else {
            break;
        };
        out.best = Some(mv);
        out.score = score_of(score);
        out.depth = depth;
        out.nodes = tree.nodes;
        out.pv = line_text(&pos, &tree.pv());
        if out.pv.is_empty() {
            out.pv = line_text(&pos, &[mv]);
        }
        info(&out, tree.seldepth, on_info);
        if let Some(i) = tree.root_order.iter().position(|m| *m == mv) {
            tree.root_order[..=i].rotate_right(1);
        }
        if score.abs() > WIN_BOUND || tree.root_order.len() == 1 && limits.depth.is_none() {
            break;
        }
        if budget.soft.is_some_and(|s| Instant::now() >= s) {
            break;
        }
    }
    out.nodes = tree.nodes;
    if out.depth == 0 {
        out.depth = 1;
        out.pv = line_text(&pos, &[out.best.expect("a move")]);
        info(&out, tree.seldepth, on_info);
    }
    out
}

/// The piece-placement hashes of the positions before the last `plies`
/// turns of `game` (undoing its recorded moves from the current position).
pub fn recent_positions(game: &Game, plies: usize) -> Vec<u64> {
    let mut pos = *game.position();
    let mut out = Vec::with_capacity(plies);
    for turn in game.history().iter().rev().take(plies) {
        if let Turn::Move { player, mv, .. } = turn {
            if !pos.pieces(*player).contains(mv.to) || pos.occupied().contains(mv.from) {
                break;
            }
            pos.set_to_move(*player);
            pos.play_unchecked(&Move::new(mv.to, mv.from));
            out.push(tree::piece_hash(&pos));
        }
    }
    out
}

fn tree_score(out: &SearchOutcome) -> i32 {
    match out.score {
        Score::Centi(c) => c,
        Score::Win(n) => WIN - n as i32,
        Score::Loss(n) => -WIN + n as i32,
    }
}

/// The widest beam the protocol's solitaire search grows to (memory: about
/// 80 scored children of 24 bytes per kept position and ply).
pub const MAX_PROTOCOL_BEAM: usize = 1 << 15;

/// The one-player search of the protocol: beam plans of growing width
/// while time remains; the first move of the shortest plan.
fn solitaire_go(
    game: &Game,
    limits: &SearchLimits,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
    start: Instant,
) -> SearchOutcome {
    let pos = *game.position();
    let me = pos.to_move();
    let budget = time::budget(limits, start);
    let mut width = options.beam_width.max(1);
    let mut out = SearchOutcome {
        best: game.legal_moves().first().copied(),
        score: Score::Centi(0),
        pv: Vec::new(),
        nodes: 0,
        depth: 0,
    };
    let mut best_len = usize::MAX;
    let mut rounds = 0;
    loop {
        let result = plan(
            &pos,
            me,
            game.rules().anti_blocking,
            BeamLimits {
                width,
                max_plies: 200,
                stop: Some(stop),
                deadline: budget.hard,
            },
        );
        out.nodes += result.nodes;
        rounds += 1;
        let complete = result.finished;
        if !result.moves.is_empty() && (complete && result.moves.len() < best_len || out.depth == 0)
        {
            if complete {
                best_len = result.moves.len();
                out.score = Score::Win(best_len as u32);
            }
            out.best = Some(result.moves[0]);
            out.pv = line_text(&pos, &result.moves);
            out.depth = result.moves.len() as u32;
        }
        on_info(&SearchInfo {
            depth: out.depth,
            seldepth: out.depth,
            score: out.score,
            nodes: out.nodes,
            time: start.elapsed(),
            hashfull: None,
            pv: out.pv.clone(),
        });
        let stopped = stop.load(std::sync::atomic::Ordering::Relaxed)
            || budget.hard.is_some_and(|h| Instant::now() >= h);
        let no_time = budget.soft.is_none() && !limits.infinite;
        if stopped
            || no_time
            || limits.depth.is_some_and(|d| rounds >= d)
            || limits.nodes.is_some_and(|n| out.nodes >= n)
            || budget
                .soft
                .is_some_and(|s| start + (Instant::now() - start) * 4 >= s)
            || width >= MAX_PROTOCOL_BEAM
        {
            break;
        }
        width = (width * 2).min(MAX_PROTOCOL_BEAM);
    }
    out
}

/// The solitaire transfer from the start position of `rules` (one player):
/// the beam plan with `width` positions per ply.
///
/// ```
/// use damas::chinese::{search, Rules};
/// let plan = search::solve_solitaire(&Rules::for_players(1), 64);
/// assert!(plan.finished && plan.moves.len() < 45);
/// ```
pub fn solve_solitaire(rules: &super::rules::Rules, width: usize) -> BeamPlan {
    let rules = super::rules::Rules {
        players: 1,
        ..*rules
    };
    let pos = Position::start(&rules);
    plan(
        &pos,
        0,
        rules.anti_blocking,
        BeamLimits {
            width,
            max_plies: 300,
            stop: None,
            deadline: None,
        },
    )
}
