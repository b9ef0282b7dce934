//! A group: people playing together from several devices, a seat each,
//! game after game with the same settings, and the standings across the
//! games. Each game of a group is an ordinary [`WebGame`] of the store
//! whose seats are bound to the members ([`Binding`]).
//!
//! [`WebGame`]: super::session::WebGame

use std::sync::Arc;
use std::time::{Duration, Instant};

use damas::options::Options;
use damas::GameKind;
use serde_json::{Map, Value};

use super::error::ApiError;
use super::messages::Message;
use super::pulse::Pulse;
use super::session::Seat;
use super::tokens::Binding;

/// Longest name of a person, in characters.
pub const MAX_NAME: usize = 24;
/// Most players of a group's game (people and engines).
pub const MAX_PLAYERS: usize = 6;
/// Fewest players of a group's game.
pub const MIN_PLAYERS: usize = 2;

/// A name as a person gave it, trimmed: 1 to [`MAX_NAME`] characters, no
/// control characters.
pub fn name(text: &str) -> Result<String, ApiError> {
    let name = text.trim();
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(Message::BadName(MAX_NAME)));
    }
    Ok(name.to_string())
}

/// The players a group's game of `kind` takes: those of the game within
/// [`MIN_PLAYERS`]..=[`MAX_PLAYERS`].
pub fn player_range(kind: GameKind) -> (u8, u8) {
    let range = kind.players();
    (
        (*range.start()).max(MIN_PLAYERS as u8),
        (*range.end()).min(MAX_PLAYERS as u8),
    )
}

/// A person of the group.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: String,
    /// The seat token the member's device holds (never sent but as its
    /// cookie).
    pub token: String,
    /// Points across the games counted, in halves (exact).
    pub half_points: u32,
    /// Games counted in which the member had a seat.
    pub games: u32,
    /// Event streams open from a device holding the member's token.
    pub streams: usize,
    /// When a device holding the token last asked or had a stream open.
    pub last_seen: Instant,
    /// The member's device is gone: the engine plays their seat.
    pub away: bool,
    /// The creator freed the seat of this member, away: the next person
    /// to join takes it (no device holds its token).
    pub vacant: bool,
}

impl Member {
    /// A member who just came, with `token`.
    pub fn new(name: String, token: String, now: Instant) -> Member {
        Member {
            name,
            token,
            half_points: 0,
            games: 0,
            streams: 0,
            last_seen: now,
            away: false,
            vacant: false,
        }
    }

    /// Whether a device of the member is here: a stream open, or a
    /// request within `grace`.
    pub fn present(&self, now: Instant, grace: Duration) -> bool {
        !self.vacant && (self.streams > 0 || now.saturating_duration_since(self.last_seen) < grace)
    }
}

/// What the group's creator chose: the game and its rules, the engines
/// that fill seats, and the board's switches.
#[derive(Clone, Debug)]
pub struct GroupSettings {
    pub kind: GameKind,
    /// The engines' seats, after the people's.
    pub engines: Vec<Seat>,
    /// The rule options given by name, as given (checked).
    pub rules: Map<String, Value>,
    pub anti_blocking: Option<bool>,
    pub play_to_end: Option<bool>,
    /// The options the choices make (checked for the players at the time).
    pub options: Options,
    pub rotate_first: bool,
    pub show_legal_moves: bool,
    pub turn_seconds: u32,
}

/// A group.
pub struct Group {
    pub id: u64,
    /// The people, in the order they came; the creator first. Member `n`
    /// (from 1) is at `n - 1`.
    pub members: Vec<Member>,
    pub settings: GroupSettings,
    /// The game in play or last played.
    pub game: Option<u64>,
    /// Games begun in the group.
    pub games_played: u32,
    /// Whether the last game's result is in the standings.
    pub counted: bool,
    pub last_access: Instant,
    /// Bumped on every change of the group and of its games (they share
    /// it), for the event streams.
    pub pulse: Arc<Pulse>,
    /// The counter's value when the group was last stored.
    pub stored_pulse: u64,
}

impl Group {
    /// Players of the next game: the people and the engines.
    pub fn players(&self) -> usize {
        self.members.len() + self.settings.engines.len()
    }

    /// The members' tokens, member `n`'s at `n - 1`.
    pub fn tokens(&self) -> Vec<String> {
        self.members.iter().map(|m| m.token.clone()).collect()
    }

    /// The seats of the next game and their binding: the people in the
    /// order they came, then the engines.
    pub fn seating(&self) -> (Vec<Seat>, Binding) {
        let seats = self
            .members
            .iter()
            .map(|_| Seat::HUMAN)
            .chain(self.settings.engines.iter().copied())
            .collect();
        let owners = (1..=self.members.len())
            .map(Some)
            .chain(self.settings.engines.iter().map(|_| None))
            .collect();
        let binding = Binding {
            group: self.id,
            owners,
            names: self.members.iter().map(|m| m.name.clone()).collect(),
            tokens: self.tokens(),
            away: self.members.iter().map(|m| m.away).collect(),
        };
        (seats, binding)
    }

    /// The devices holding `members`' tokens are here now.
    pub fn seen(&mut self, members: &[usize], now: Instant) {
        for &member in members {
            if let Some(member) = self.members.get_mut(member.wrapping_sub(1)) {
                member.last_seen = now;
            }
        }
    }

    /// Counts a finished game into the standings: `places` of each seat
    /// (ties equal), `owners` the member of each seat.
    pub fn count(&mut self, places: &[u8], owners: &[Option<usize>]) {
        for (seat, half_points) in half_points(places).into_iter().enumerate() {
            let member = owners.get(seat).copied().flatten();
            if let Some(member) = member.and_then(|m| self.members.get_mut(m - 1)) {
                member.half_points += half_points;
                member.games += 1;
            }
        }
        self.counted = true;
    }
}

/// The points of each seat of a game of `places`, in halves: with `n`
/// players, place `k` is worth `n - k` points (a duel: a win 1, a loss 0),
/// and players tied share the points of the places they cover equally (a
/// drawn duel: a half point each).
pub fn half_points(places: &[u8]) -> Vec<u32> {
    let n = places.len() as u32;
    let mut order: Vec<usize> = (0..places.len()).collect();
    order.sort_by_key(|&seat| places[seat]);
    let mut points = vec![0; places.len()];
    let mut at = 0;
    while at < order.len() {
        let tied = order[at..]
            .iter()
            .take_while(|&&seat| places[seat] == places[order[at]])
            .count();
        // Positions at+1 ..= at+tied share (n - position) each: on
        // average (n - at - 1) - (tied - 1) / 2, twice that in halves.
        let position = at as u32 + 1;
        let halves = 2 * (n - position) - (tied as u32 - 1);
        for &seat in &order[at..at + tied] {
            points[seat] = halves;
        }
        at += tied;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_is_a_point_and_a_draw_a_half() {
        assert_eq!(half_points(&[1, 2]), vec![2, 0]);
        assert_eq!(half_points(&[2, 1]), vec![0, 2]);
        assert_eq!(half_points(&[1, 1]), vec![1, 1]);
    }

    #[test]
    fn more_players_score_by_place_sharing_ties() {
        assert_eq!(half_points(&[2, 1, 3]), vec![2, 4, 0]);
        assert_eq!(half_points(&[1, 1, 3]), vec![3, 3, 0]);
        assert_eq!(half_points(&[1, 2, 2, 2]), vec![6, 2, 2, 2]);
        assert_eq!(half_points(&[1, 1, 1]), vec![2, 2, 2]);
        // Places written densely are read the same way.
        assert_eq!(half_points(&[1, 1, 2]), vec![3, 3, 0]);
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(name("  Ana ").expect("a name"), "Ana");
        assert_eq!(name("José María").expect("a name"), "José María");
        assert!(name("").is_err());
        assert!(name("   ").is_err());
        assert!(name("a\u{7}b").is_err());
        assert!(name(&"ñ".repeat(24)).is_ok());
        assert!(name(&"ñ".repeat(25)).is_err());
    }
}
