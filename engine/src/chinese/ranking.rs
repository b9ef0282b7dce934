//! Places: deciding places when the game ends without every player
//! finishing (the limits, the last player left, the referee's
//! adjudication), and the ranking.

use super::game::Checkers;
use super::record::PlayerState;
use crate::EndReason;

impl Checkers {
    /// Players and states, best place first, players still playing last.
    pub fn ranking(&self) -> Vec<(usize, PlayerState)> {
        let mut r: Vec<(usize, PlayerState)> = self.states.iter().copied().enumerate().collect();
        r.sort_by_key(|&(p, s)| (s.place().unwrap_or(u8::MAX), p));
        r
    }

    pub(super) fn count(&self, f: impl Fn(&PlayerState) -> bool) -> usize {
        self.states.iter().filter(|s| f(s)).count()
    }

    pub(super) fn playing(&self) -> Vec<usize> {
        (0..self.states.len())
            .filter(|&p| self.states[p] == PlayerState::Playing)
            .collect()
    }

    /// Lowest place not yet taken by finishers or placed players.
    pub(super) fn low_place(&self) -> u8 {
        1 + self.count(|s| matches!(s, PlayerState::Finished { .. } | PlayerState::Placed { .. }))
            as u8
    }

    /// When one player is left (or none in solitaire), close the game.
    pub(super) fn settle_last(&mut self, reason: EndReason) -> bool {
        let playing = self.playing();
        match playing.as_slice() {
            [] => {
                self.end = Some(reason);
                true
            }
            [p] if self.states.len() > 1 => {
                self.states[*p] = PlayerState::Placed {
                    place: self.low_place(),
                };
                self.end = Some(reason);
                true
            }
            _ => false,
        }
    }

    /// Ranks the players still playing by pieces in goal (more first), then
    /// total distance to the goal (less first); ties share a place.
    pub(super) fn rank_remaining(&mut self, reason: EndReason) {
        let low = self.low_place();
        let mut keys: Vec<(usize, (std::cmp::Reverse<u32>, u32))> = self
            .playing()
            .into_iter()
            .map(|p| {
                (
                    p,
                    (
                        std::cmp::Reverse(self.pos.pieces_in_goal(p)),
                        self.pos.goal_distance(p),
                    ),
                )
            })
            .collect();
        keys.sort_by_key(|&(p, k)| (k, p));
        for i in 0..keys.len() {
            let better = keys.iter().filter(|(_, k)| *k < keys[i].1).count();
            self.states[keys[i].0] = PlayerState::Placed {
                place: low + better as u8,
            };
        }
        self.end = Some(reason);
    }

    /// The remaining players share the next place.
    pub(super) fn draw_remaining(&mut self, reason: EndReason) {
        let low = self.low_place();
        for p in self.playing() {
            self.states[p] = PlayerState::Placed { place: low };
        }
        self.end = Some(reason);
    }
}
