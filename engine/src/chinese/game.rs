//! [`Checkers`]: a position under the full rules — turns, automatic passes,
//! finishing, resignation, the limits and taking turns back. The places
//! and the outcome are in `ranking.rs`, the position text in `text.rs`.

use super::geometry::Cell;
use super::moves::Move;
use super::position::Position;
use super::record::{PlayerState, Turn};
use super::rules::Rules;
use crate::EndReason;

/// A game of Chinese checkers under [`Rules`].
///
/// The game-level operations (legal moves, playing, passing, resigning,
/// taking back, the outcome) are those of the [`crate::Game`] trait; the
/// player to move and the winner are [`Player`](crate::Player)s (`p1` is
/// seat 0).
///
/// ```
/// use damas::chinese::{Checkers, Rules};
/// use damas::{Game, Player};
/// let mut game = Checkers::new(Rules::default());
/// game.play_text("e4-e5").unwrap();
/// game.play_text("m14-m13").unwrap();
/// assert_eq!(game.move_text(&game.legal_moves()[0]).matches('-').count(), 1);
/// game.play_text("resign").unwrap();
/// assert_eq!(game.outcome().and_then(|o| o.winner()), Player::new(1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkers {
    pub(crate) rules: Rules,
    pub(crate) pos: Position,
    pub(crate) states: Vec<PlayerState>,
    pub(crate) first: usize,
    pub(crate) ply: u32,
    pub(crate) rounds: u32,
    pub(crate) last_progress: Option<u32>,
    pub(crate) best: Vec<(u32, u32)>,
    pub(crate) history: Vec<Turn>,
    pub(crate) end: Option<EndReason>,
    /// The hash of every position since the game (or its text) began, the
    /// current one last, for the repetition rule.
    pub(crate) seen: Vec<u64>,
    /// The state before each turn still on record, for
    /// [`undo`](crate::Game::undo).
    pub(crate) undo: Vec<Snapshot>,
}

/// What [`undo`](crate::Game::undo) restores: everything a turn changes
/// but the pieces (the history is truncated back to `history_len`). A turn
/// moves at most one piece, and a move of Chinese checkers takes nothing,
/// so the turn's move, read back from the history, is played in reverse
/// instead of keeping the whole position: a snapshot is a few dozen bytes,
/// not the position's several hundred, and a long game's memory stays
/// close to its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Snapshot {
    to_move: u8,
    states: [PlayerState; 6],
    ply: u32,
    rounds: u32,
    last_progress: Option<u32>,
    /// The best record of the player to move, the only one a turn changes.
    best: (u32, u32),
    history_len: u32,
    seen_len: u32,
    end: Option<EndReason>,
}

impl Checkers {
    /// A new game from the start position, player 0 first.
    ///
    /// # Panics
    /// If `rules.players` is not in `1..=6`.
    pub fn new(rules: Rules) -> Checkers {
        Checkers::with_first_player(rules, 0)
    }

    /// A new game where player `first` moves first (for a runner or a board
    /// that rotates the first turn between the games of a series).
    ///
    /// # Panics
    /// If `rules.players` is not in `1..=6` or `first` is not a player.
    pub fn with_first_player(rules: Rules, first: usize) -> Checkers {
        let mut pos = Position::start(&rules);
        pos.set_to_move_unchecked(first);
        Checkers::from_parts(rules, pos, first)
    }

    /// A game in progress from a position (counters at zero,
    /// `pos.to_move()` as the first player). Every player is playing except
    /// those whose goal is already full under `rules` (see
    /// [`Position::has_finished`]): they have finished, the player to move
    /// first, then the others in turn order, and the game may be over at
    /// once.
    pub fn from_position(rules: Rules, pos: Position) -> Checkers {
        let first = pos.to_move();
        let mut game = Checkers::from_parts(rules, pos, first);
        game.settle_loaded();
        game
    }

    /// After a position is read: the players whose goal is full finish,
    /// and the turn moves on if the player to move is one of them.
    pub(super) fn settle_loaded(&mut self) {
        if self.end.is_some() {
            return;
        }
        let p = self.pos.to_move();
        if self.settle_finishers(p) {
            return;
        }
        let stuck = self.rules.no_move_loss && self.pos.legal_moves().is_empty();
        if stuck && self.lose_for_no_move(p) {
            return;
        }
        if self.states[p] != PlayerState::Playing {
            self.next_turn(p);
        }
    }

    pub(super) fn from_parts(mut rules: Rules, pos: Position, first: usize) -> Checkers {
        rules.players = pos.players() as u8;
        rules.goal_lock = pos.goal_lock();
        if rules.effective_variant() != pos.variant() {
            rules.variant = pos.variant();
        }
        let n = pos.players();
        let best = (0..n)
            .map(|p| (pos.pieces_in_goal(p), pos.goal_distance(p)))
            .collect();
        Checkers {
            rules,
            pos,
            states: vec![PlayerState::Playing; n],
            first,
            ply: 0,
            rounds: 0,
            last_progress: None,
            best,
            history: Vec::new(),
            end: None,
            seen: vec![pos.hash()],
            undo: Vec::new(),
        }
    }

    /// The rules (with the effective variant).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Each player's state, in seat order.
    pub fn player_states(&self) -> &[PlayerState] {
        &self.states
    }

    /// Why the game ended.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end
    }

    /// Turns taken so far (moves, passes and resignations).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Completed rounds (the turn came back round past the first player).
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Full rounds since the last progress (see [`Rules::no_progress_limit`]).
    pub fn quiet_rounds(&self) -> u32 {
        self.rounds - self.last_progress.map_or(0, |r| r + 1).min(self.rounds)
    }

    /// The record of the game.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// Restores the state saved before the last turn (see
    /// [`undo`](crate::Game::undo)); `false` when there is none.
    pub(super) fn restore(&mut self) -> bool {
        let Some(s) = self.undo.pop() else {
            return false;
        };
        let moved = self.history[(s.history_len as usize).min(self.history.len())..]
            .iter()
            .find_map(|turn| match turn {
                Turn::Move { player, mv, .. } => Some((*player, *mv)),
                _ => None,
            });
        if let Some((player, mv)) = moved {
            // The piece goes back: the same squares toggled again.
            self.pos.set_to_move_unchecked(player);
            self.pos.play_unchecked(&Move::new(mv.to(), mv.from()));
        }
        let p = usize::from(s.to_move);
        self.pos.set_to_move_unchecked(p);
        let n = self.states.len();
        self.states.copy_from_slice(&s.states[..n]);
        self.ply = s.ply;
        self.rounds = s.rounds;
        self.last_progress = s.last_progress;
        self.best[p] = s.best;
        self.history.truncate(s.history_len as usize);
        self.seen.truncate(s.seen_len as usize);
        self.end = s.end;
        true
    }

    /// Records the state before a turn, for [`undo`](crate::Game::undo).
    pub(super) fn save(&mut self) {
        let mut states = [PlayerState::Playing; 6];
        states[..self.states.len()].copy_from_slice(&self.states);
        let p = self.pos.to_move();
        // A game is far shorter than 2^32 turns (a position text's counters
        // are u32 too).
        self.undo.push(Snapshot {
            to_move: p as u8,
            states,
            ply: self.ply,
            rounds: self.rounds,
            last_progress: self.last_progress,
            best: self.best[p],
            history_len: self.history.len() as u32,
            seen_len: self.seen.len() as u32,
            end: self.end,
        });
    }

    /// Plays `mv` along `path`, both known to be legal, then finishing,
    /// the limits and the turn.
    pub(super) fn apply(&mut self, mv: Move, path: Vec<Cell>) {
        let p = self.pos.to_move();
        let closing = self.closing_turn();
        self.pos.play_unchecked(&mv);
        self.pos.set_to_move_unchecked(p);
        self.history.push(Turn::Move {
            player: p,
            mv,
            path,
        });
        self.ply += 1;
        // Progress records.
        let (g, d) = (self.pos.pieces_in_goal(p), self.pos.goal_distance(p));
        let b = &mut self.best[p];
        if g > b.0 || d < b.1 {
            b.0 = b.0.max(g);
            b.1 = b.1.min(d);
            self.last_progress = Some(self.rounds);
        }
        if closing {
            // The equal turn: finishing with it shares the first place.
            self.states[p] = if self.pos.has_finished(p, self.rules.anti_blocking) {
                PlayerState::Finished { place: 1 }
            } else {
                PlayerState::Placed { place: 2 }
            };
            self.end = Some(EndReason::FirstFinisher);
            return;
        }
        if !self.settle_finishers(p) {
            self.next_turn(p);
        }
        if self.end.is_none() {
            self.seen.push(self.pos.hash());
            if self.rules.repetition_draw {
                let now = self.pos.hash();
                if self.seen.iter().filter(|&&h| h == now).count() >= 3 {
                    self.draw_remaining(EndReason::Repetition);
                }
            }
        }
    }

    /// Under [`Rules::no_move_loss`], player `q` (to move, without a legal
    /// move) is out like a resignation, on the last place still free. True
    /// when that ends the game.
    fn lose_for_no_move(&mut self, q: usize) -> bool {
        let out = self.count(|s| matches!(s, PlayerState::Resigned { .. }));
        self.states[q] = PlayerState::Resigned {
            place: (self.states.len() - out) as u8,
        };
        self.settle_last(EndReason::NoMoves)
    }

    /// Whether the player to move is taking the equal turn: two players
    /// under [`Rules::equal_turns`], the player who moved first has
    /// finished and the other one still plays.
    fn closing_turn(&self) -> bool {
        let n = self.states.len();
        self.rules.equal_turns
            && n == 2
            && self.end.is_none()
            && matches!(self.states[self.first], PlayerState::Finished { .. })
            && self.states[1 - self.first] == PlayerState::Playing
    }

    /// Marks finished every player still playing whose goal is full, `p`
    /// first, then the others in turn order, and ends the game when that
    /// decides it (or when the first finisher ends it). True when the game
    /// is over.
    fn settle_finishers(&mut self, p: usize) -> bool {
        let n = self.states.len();
        let mut finished_now = false;
        for k in 0..n {
            let q = (p + k) % n;
            if self.states[q] == PlayerState::Playing
                && self.pos.has_finished(q, self.rules.anti_blocking)
            {
                self.states[q] = PlayerState::Finished {
                    place: self.low_place(),
                };
                finished_now = true;
            }
        }
        if finished_now {
            if self.closing_turn() {
                // The other player still gets its equal turn.
                return false;
            }
            if self.settle_last(EndReason::AllPlaced) {
                if n == 2 {
                    self.end = Some(EndReason::FirstFinisher);
                }
                return true;
            }
            if !self.rules.play_to_end {
                self.rank_remaining(EndReason::FirstFinisher);
                return true;
            }
        }
        false
    }

    /// Hands the turn to the next player still playing after `p`, counting
    /// rounds, applying the limits and passing automatically for players
    /// without a legal move.
    pub(super) fn next_turn(&mut self, mut p: usize) {
        let n = self.states.len();
        let mut passes = 0;
        loop {
            let Some(q) = (1..=n)
                .map(|k| (p + k) % n)
                .find(|&q| self.states[q] == PlayerState::Playing)
            else {
                self.end.get_or_insert(EndReason::AllPlaced);
                return;
            };
            let rel = |x: usize| (x + n - self.first) % n;
            if rel(q) <= rel(p) {
                self.rounds += 1;
                if self.rules.move_limit.is_some_and(|l| self.rounds >= l) {
                    self.draw_remaining(EndReason::MoveLimit);
                    return;
                }
                if self
                    .rules
                    .no_progress_limit
                    .is_some_and(|l| self.quiet_rounds() >= l)
                {
                    self.rank_remaining(EndReason::NoProgressLimit);
                    return;
                }
            }
            self.pos.set_to_move_unchecked(q);
            if !self.pos.legal_moves().is_empty() {
                return;
            }
            if self.rules.no_move_loss {
                if self.lose_for_no_move(q) {
                    return;
                }
                p = q;
                continue;
            }
            passes += 1;
            if passes > n {
                self.rank_remaining(EndReason::Blocked);
                return;
            }
            self.history.push(Turn::Pass { player: q });
            self.ply += 1;
            p = q;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::Variant;
    use crate::Game;

    #[test]
    fn an_undo_snapshot_is_small() {
        // The whole position is several hundred bytes; a snapshot keeps
        // only the counters and the players' states.
        assert!(
            std::mem::size_of::<Snapshot>() <= 64,
            "{} bytes",
            std::mem::size_of::<Snapshot>()
        );
    }

    #[test]
    fn undo_restores_every_state_of_long_games() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let variants = [Variant::International, Variant::Japanese];
        for (players, variant) in (1..=6u8).flat_map(|n| variants.map(|v| (n, v))) {
            let rules = Rules {
                move_limit: None,
                no_progress_limit: None,
                variant,
                ..Rules::for_players(players)
            };
            let mut game = Checkers::new(rules);
            let mut states = vec![game.clone()];
            while !game.is_over() && states.len() < 400 {
                let moves = game.legal_moves();
                match next() % 50 {
                    0 if players > 2 => {
                        let who = game.to_move().expect("a player to move");
                        game.resign(who).expect("resigns");
                    }
                    _ if moves.is_empty() => game.pass().expect("passes"),
                    _ => {
                        let mv = moves[(next() % moves.len() as u64) as usize];
                        game.play(mv).expect("a legal move");
                    }
                }
                states.push(game.clone());
            }
            if !game.is_over() {
                game.adjudicate_draw();
                states.push(game.clone());
            }
            states.pop();
            while let Some(before) = states.pop() {
                assert!(game.undo(), "{players} players, {} left", states.len());
                assert_eq!(game, before, "{players} players, {} left", states.len());
                assert_eq!(game.position().hash(), game.position().compute_hash());
            }
            assert!(!game.undo());
        }
    }
}
