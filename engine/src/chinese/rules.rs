//! Checkers options ([`Rules`]), the [`Variant`] and the seat layouts.

use super::geometry::Triangle;

/// Which rule set is played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Ten pieces per player in their triangle, no king (2–6 players).
    #[default]
    International,
    /// The Japanese Diamond game: 15 pieces per player in a 15-point camp,
    /// one of them a king on the camp's tip (1–3 players; with 4 or more the
    /// international rules apply, see [`Rules::effective_variant`]).
    Japanese,
}

/// The options of a game. [`Rules::default`] gives the defaults of
/// `docs/RULES.md`.
///
/// ```
/// use damas::chinese::{Rules, Variant};
/// let rules = Rules { players: 3, variant: Variant::Japanese, ..Rules::default() };
/// assert_eq!(rules.effective_variant(), Variant::Japanese);
/// let big = Rules { players: 4, ..rules };
/// assert_eq!(big.effective_variant(), Variant::International);
/// assert!(big.variant_fallback());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Number of players, 1..=6 (1 is solitaire: one player, goal the
    /// opposite triangle, no rival). Default 2.
    pub players: u8,
    /// The rule set asked for. Default [`Variant::International`].
    pub variant: Variant,
    /// Anti-blocking: a player finishes when every goal point is occupied
    /// and at least one of them holds an own piece. Off: all goal points
    /// must hold own pieces. Default on.
    pub anti_blocking: bool,
    /// With 3 or more players, keep playing after the first finisher until
    /// every place is decided. Off: the game ends at the first finisher.
    /// Default on.
    pub play_to_end: bool,
    /// Move limit in rounds (one turn of every player still in the game).
    /// When that many rounds are complete, the players still playing share
    /// the next place (a draw when nobody has finished). Default 200.
    pub move_limit: Option<u32>,
    /// No-progress limit in full rounds: when no player has beaten their best
    /// count of own pieces in goal nor their best (smallest) total distance
    /// to the goal for that many rounds, the remaining places are decided by
    /// pieces in goal, then smaller distance. Default 30.
    pub no_progress_limit: Option<u32>,
    /// Goal lock (a house rule named by Ply Yard, and a CCERL rule): a piece
    /// that stands in its goal, or lands in it during a chain, may land only
    /// on goal points from then on, so it never leaves. Default off.
    pub goal_lock: bool,
    /// A player with no legal move loses (CCERL) instead of passing.
    /// Default off.
    pub no_move_loss: bool,
    /// The same position with the same player to move for the third time
    /// ends the game as a draw among the players still playing (CCERL).
    /// Default off.
    pub repetition_draw: bool,
    /// Two players: when the player who moved first finishes, the other
    /// plays one more move; finishing with it shares the first place, a
    /// draw (CCERL's equal-turn rule). Default off.
    pub equal_turns: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            players: 2,
            variant: Variant::International,
            anti_blocking: true,
            play_to_end: true,
            move_limit: Some(200),
            no_progress_limit: Some(30),
            goal_lock: false,
            no_move_loss: false,
            repetition_draw: false,
            equal_turns: false,
        }
    }
}

impl Rules {
    /// The rules of the CCERL-2P10-v2 benchmark (JumpStar's rating list):
    /// two players, ten pieces, goal lock from the landing, anti-blocking,
    /// a loss for a player with no legal move, threefold repetition drawn,
    /// the equal-turn rule and a draw at 240 plies (120 rounds); no
    /// no-progress limit.
    ///
    /// ```
    /// use damas::chinese::Rules;
    /// let rules = Rules::ccerl();
    /// assert_eq!(rules.players, 2);
    /// assert_eq!(rules.move_limit, Some(120));
    /// assert!(rules.goal_lock && rules.equal_turns && rules.is_ccerl());
    /// assert!(!Rules::default().is_ccerl());
    /// ```
    pub fn ccerl() -> Rules {
        Rules {
            players: 2,
            variant: Variant::International,
            anti_blocking: true,
            play_to_end: true,
            move_limit: Some(120),
            no_progress_limit: None,
            goal_lock: true,
            no_move_loss: true,
            repetition_draw: true,
            equal_turns: true,
        }
    }

    /// Whether these are exactly the CCERL-2P10-v2 rules ([`Rules::ccerl`]).
    pub fn is_ccerl(&self) -> bool {
        *self == Rules::ccerl()
    }

    /// Default rules for `players` players.
    pub fn for_players(players: u8) -> Rules {
        Rules {
            players,
            ..Rules::default()
        }
    }

    /// The variant actually played: the Japanese variant asked for with 4 or
    /// more players falls back to the international rules.
    pub fn effective_variant(&self) -> Variant {
        if self.variant == Variant::Japanese && self.players >= 4 {
            Variant::International
        } else {
            self.variant
        }
    }

    /// True when the Japanese variant was asked for but the international
    /// rules apply because there are 4 or more players.
    pub fn variant_fallback(&self) -> bool {
        self.effective_variant() != self.variant
    }

    /// The seats (starting triangles) of the players, in turn order
    /// (clockwise). See [`seats`].
    pub fn seats(&self) -> &'static [Triangle] {
        seats(self.players)
    }
}

/// The seats of `players` players in clockwise turn order; player `i` sits
/// on `seats(n)[i]` and aims at the opposite triangle.
///
/// - 1: South (solitaire); 2: South, North (opposite);
/// - 3: South, North-west, North-east (alternate points);
/// - 4: South, North-west, North, South-east (two opposite pairs);
/// - 5: every point but South-east (the North-west player has no rival
///   opposite); 6: all six.
///
/// # Panics
/// If `players` is not in `1..=6`.
pub fn seats(players: u8) -> &'static [Triangle] {
    use Triangle::*;
    match players {
        1 => &[South],
        2 => &[South, North],
        3 => &[South, NorthWest, NorthEast],
        4 => &[South, NorthWest, North, SouthEast],
        5 => &[South, SouthWest, NorthWest, North, NorthEast],
        6 => &[South, SouthWest, NorthWest, North, NorthEast, SouthEast],
        _ => panic!("Chinese checkers needs 1 to 6 players, got {players}"),
    }
}
