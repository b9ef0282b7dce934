//! Exact endgame races between two players who can no longer meet.
//!
//! When every piece of each player has passed every piece of the other (the
//! two armies are separated by at least two empty rows), neither can help
//! nor hinder the other any more, and the game is a race: each side needs a
//! fixed number of own moves to finish, and the side to move wins when it
//! needs no more than its rival. Those numbers are computed exactly by
//! iterative-deepening depth-first search with an admissible bound: every
//! move fills at most one hole of the goal, so the number of holes (plus one
//! when the Japanese king is not on the tip and the tip is taken) never
//! overestimates the moves still needed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::super::game::Checkers;
use super::super::moves::Move;
use super::super::position::Position;
use super::heuristic::{finished, Army};
use crate::Game;

/// The result of a race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Own moves the side to move needs, exactly.
    pub own: u32,
    /// Whether the side to move gets home first.
    pub wins: bool,
    /// Plies until the game ends (the winner's finishing move included).
    pub plies: u32,
    /// The first move of a fastest own plan.
    pub first: Move,
}

/// Whether the two armies of a 2-player position can no longer interact:
/// every piece of player 0 (moving up, from the South) stands at least
/// three rows above every piece of player 1.
pub fn separated(pos: &Position) -> bool {
    if pos.players() != 2 {
        return false;
    }
    let low0 = pos.pieces(0).iter().map(|c| c.y()).min().unwrap_or(0);
    let high1 = pos.pieces(1).iter().map(|c| c.y()).max().unwrap_or(16);
    i32::from(low0) >= i32::from(high1) + 3
}

/// Lower bound on the moves player `p` needs to finish (see the module).
fn holes(army: &Army, pos: &Position, p: usize, anti_blocking: bool) -> u32 {
    let g = army.goal;
    let own = pos.pieces(p);
    let mut h = if anti_blocking {
        (g & !pos.occupied()).count()
    } else {
        (g & !own).count()
    };
    if let Some(tip) = army.king_goal {
        if !(own & pos.kings()).contains(tip) && pos.occupied().contains(tip) {
            h += 1;
        }
    }
    h
}

/// What bounds a race search: a node budget, and the search's deadline
/// and stop flag (a node costs microseconds, so a budget alone can outlast
/// a short move time).
#[derive(Clone, Copy)]
pub struct RaceBudget<'a> {
    /// Most nodes searched per player.
    pub nodes: u64,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up when this is raised.
    pub stop: &'a AtomicBool,
}

use super::parameters::RACE_CHECK_EVERY;

struct Solver<'a> {
    army: Army,
    p: usize,
    anti_blocking: bool,
    nodes: u64,
    budget: RaceBudget<'a>,
    first: Option<Move>,
}

impl Solver<'_> {
    /// Whether `p` can finish within `left` moves; `None` when the node
    /// budget ran out.
    fn dfs(&mut self, pos: &Position, left: u32, root: bool) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget.nodes {
            return None;
        }
        if self.nodes % RACE_CHECK_EVERY == 0
            && (self.budget.stop.load(Ordering::Relaxed)
                || self.budget.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return None;
        }
        let own = pos.pieces(self.p);
        let king = (own & pos.kings()).first();
        if finished(&self.army, own, king, pos.occupied(), self.anti_blocking) {
            return Some(true);
        }
        if left == 0 || holes(&self.army, pos, self.p, self.anti_blocking) > left {
            return Some(false);
        }
        for mv in pos.moves_of(self.p) {
            let mut child = *pos;
            child.set_to_move_unchecked(self.p);
            child.play_unchecked(&Move::new(mv.from, mv.to));
            if holes(&self.army, &child, self.p, self.anti_blocking) > left - 1 {
                continue;
            }
            if self.dfs(&child, left - 1, false)? {
                if root {
                    self.first = Some(mv);
                }
                return Some(true);
            }
        }
        Some(false)
    }
}

/// How far from home a player is, as far as a bounded search can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// Exactly this many moves, starting with this move (none when already
    /// home).
    In(u32, Option<Move>),
    /// More than the bound asked for.
    Beyond,
    /// The budget (nodes, time or the stop flag) ran out first.
    Unknown,
}

/// The exact number of moves player `p` needs to finish alone from `pos`,
/// if it is at most `max`, within `budget`.
pub fn moves_home(
    pos: &Position,
    p: usize,
    anti_blocking: bool,
    max: u32,
    budget: RaceBudget<'_>,
) -> Home {
    let mut s = Solver {
        army: Army::of(pos, p),
        p,
        anti_blocking,
        nodes: 0,
        budget,
        first: None,
    };
    let own = pos.pieces(p);
    if finished(
        &s.army,
        own,
        (own & pos.kings()).first(),
        pos.occupied(),
        anti_blocking,
    ) {
        return Home::In(0, None);
    }
    let start = holes(&s.army, pos, p, anti_blocking).max(1);
    for bound in start..=max {
        match s.dfs(pos, bound, true) {
            None => return Home::Unknown,
            Some(true) => return Home::In(bound, s.first),
            Some(false) => {}
        }
    }
    Home::Beyond
}

/// Solves the race of a 2-player game whose armies are [`separated`]:
/// `None` when they are not, or when the side to move needs more than `max`
/// moves, or a search ran out of its `budget`.
pub fn solve(game: &Checkers, max: u32, budget: RaceBudget<'_>) -> Option<Race> {
    let pos = game.position();
    if game.player_count() != 2 || game.is_over() || !separated(pos) {
        return None;
    }
    let me = pos.to_move();
    let ab = game.rules().anti_blocking;
    let Home::In(own, Some(first)) = moves_home(pos, me, ab, max, budget) else {
        return None;
    };
    // The rival wins only if it needs fewer moves than we do.
    match moves_home(pos, 1 - me, ab, own - 1, budget) {
        Home::Unknown => None,
        Home::In(n, _) => Some(Race {
            own,
            wins: false,
            plies: 2 * n,
            first,
        }),
        Home::Beyond => Some(Race {
            own,
            wins: true,
            plies: 2 * own - 1,
            first,
        }),
    }
}
