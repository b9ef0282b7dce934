//! The hold: two players under rules that end a blocked game by the
//! no-progress ranking (the site rules, with or without anti-blocking), where
//! the rival keeps the root's goal sealed.
//!
//! A rival that keeps seven pieces on its home base's seal points (the two
//! rows nearest the centre) never lets the root in, and without goal lock
//! and the loss of a side without a move there is no zugzwang to open it
//! (docs/SEARCH.md, "The siege"). The game then ends at the no-progress
//! limit, where the players are ranked by pieces in their goals, then by
//! the smaller total distance to them. The rival's free pieces walk into
//! the root's home base, which the root's ordinary play has emptied, and the
//! rival is ranked first.
//!
//! The same seal works the other way. While the position is a hold, the
//! root's cost counts (on top of the breach's cost while the rival's seal
//! is still open; the plan is `siege::SealPlan`):
//!
//! - [`HOLD_INTRUDER`] for each rival piece in the root's home base (the
//!   rival's goal), less as much for each root piece in its own goal: the
//!   ranking's first key;
//! - [`HOLD_HOLE`] for each free seal point of the root's home base, and
//!   [`HOLD_EXPOSED`] more where a rival piece can enter it at once;
//!
//! and behind a closed seal the root's own cost is split like the siege's:
//! the [`HOLD_KEEPERS`] pieces nearest its home seal count [`HOLD_STEP`]
//! for each step to it (they walk back, and a keeper that leaves gains
//! nothing), the others race to the goal.
//!
//! With its seven seal points held, no rival piece can enter the root's home
//! base (every way onto a point behind them lands on or steps from a seal
//! point); the root's other pieces keep racing by the ordinary cost and
//! stand at the rival's seal, so that the ranking is level on pieces in goal
//! and the distances favour the root against a rival that also keeps a
//! piece behind its seal.

use arrayvec::ArrayVec;

use super::super::geometry::{Cell, Dir, Mask, Triangle, CELLS};
use super::super::moves::Move;
use super::super::position::Position;
use super::heuristic::{tip_table, Army};
use super::parameters::{
    HOLD_EXPOSED, HOLD_HOLE, HOLD_INTRUDER, HOLD_KEEPERS, HOLD_LEAVE, HOLD_STEP, STEP,
};

/// A goal the rival keeps sealed, under rules that rank the players at the
/// no-progress limit: a breach (the seal still open, the rival's pieces
/// already running), or the seal closed (every seal point of the root's
/// goal holding a rival piece) while a rival piece has left home.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hold {
    /// The root's home base: the rival's goal.
    home: Mask,
    /// The seal points of the root's home base, which the root holds.
    ward: Mask,
    /// Step distance of each cell to the nearest point of `ward`.
    ward_distance: [u8; CELLS],
}

/// The points of `area` (a triangle's points) at least two steps from the
/// tip of `triangle`: the two rows nearest the centre, through which every
/// way onto the others passes.
pub(crate) fn seal_points(area: Mask, triangle: Triangle) -> Mask {
    let tip = tip_table(triangle);
    area.iter()
        .filter(|c| tip[c.index()] >= 2)
        .fold(Mask::EMPTY, Mask::with)
}

impl Hold {
    /// The hold of `pos` for `me`, if it is one (two players), given
    /// whether the position is a breach.
    pub(crate) fn of(pos: &Position, me: usize, breach: bool) -> Option<Hold> {
        if pos.players() != 2 {
            return None;
        }
        let rival = 1 - me;
        let goal = pos.goal(me);
        let home = pos.goal(rival);
        if !breach {
            let theirs = pos.pieces(rival);
            let seal = seal_points(goal, pos.seat(rival));
            // At the start every seal point is held too: only a rival that
            // has moved a piece out and kept its seal full is sealing.
            if theirs & seal != seal || (theirs & !goal).is_empty() {
                return None;
            }
        }
        let ward = seal_points(home, pos.seat(me));
        let mut ward_distance = [0u8; CELLS];
        for c in Cell::all() {
            let nearest = ward.iter().map(|w| c.hex_distance(w)).min().unwrap_or(0);
            ward_distance[c.index()] = nearest as u8;
        }
        Some(Hold {
            home,
            ward,
            ward_distance,
        })
    }

    /// The root's whole cost in `pos` behind a closed seal (while it is
    /// open, the breach's cost plus [`Hold::terms`]), in hundredths of
    /// a step (lower is better): the [`HOLD_KEEPERS`] pieces nearest the
    /// root's home seal count [`HOLD_STEP`] for each step to it, the others
    /// race ([`STEP`] for each step to the goal tip), plus [`Hold::terms`].
    pub(crate) fn cost(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        let mut pieces: ArrayVec<(u8, u8), 15> = pos
            .pieces(me)
            .iter()
            .map(|c| (self.ward_distance[c.index()], army.tip[c.index()]))
            .collect();
        // The keepers are the pieces nearest the seal; of two as near, the
        // one further from the goal keeps, the other races.
        pieces.sort_unstable_by_key(|&(to_ward, to_goal)| (to_ward, std::cmp::Reverse(to_goal)));
        let mut cost = 0;
        for (rank, &(to_ward, to_goal)) in pieces.iter().enumerate() {
            cost += if rank < HOLD_KEEPERS {
                i32::from(to_ward) * HOLD_STEP
            } else {
                i32::from(to_goal) * STEP
            };
        }
        cost + self.terms(pos, me, army)
    }

    /// What a root move `mv` is scored lower: [`HOLD_LEAVE`] when it takes
    /// a keeper off a seal point of the home base to a point off the seal.
    /// A hole opened and refilled within the horizon costs the leaf
    /// nothing, so without it the search plays such a pair as a waiting
    /// move, and the refill waits while the rival's pieces come near.
    pub(crate) fn root_penalty(&self, mv: &Move) -> i32 {
        if self.ward.contains(mv.from()) && !self.ward.contains(mv.to()) {
            HOLD_LEAVE
        } else {
            0
        }
    }

    /// The hold's terms in `pos`: [`HOLD_INTRUDER`] for each rival piece in
    /// the root's home base, less as much for each root piece in its goal;
    /// [`HOLD_HOLE`] for each free seal point of the home base, and
    /// [`HOLD_EXPOSED`] more where a rival piece can enter it at once.
    pub(crate) fn terms(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        let mine = pos.pieces(me);
        let theirs = pos.pieces(1 - me);
        let intruders = (theirs & self.home).count() as i32;
        let arrived = (mine & army.goal).count() as i32;
        let mut cost = (intruders - arrived) * HOLD_INTRUDER;
        let occupied = pos.occupied();
        for hole in self.ward & !occupied {
            cost += HOLD_HOLE;
            if enterable(hole, theirs, occupied) {
                cost += HOLD_EXPOSED;
            }
        }
        cost
    }
}

/// Whether a piece of `theirs` can move onto the free point `hole` at once:
/// a step from a neighbour, or a jump over an occupied neighbour.
fn enterable(hole: Cell, theirs: Mask, occupied: Mask) -> bool {
    Dir::ALL.iter().any(|&d| match hole.neighbour(d) {
        Some(next) if theirs.contains(next) => true,
        Some(next) if occupied.contains(next) => {
            next.neighbour(d).is_some_and(|far| theirs.contains(far))
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::{Checkers, Rules};

    fn position(text: &str) -> Position {
        *Checkers::from_text_with_defaults(text, &Rules::default())
            .expect("valid")
            .position()
    }

    /// p2 keeps j14, k14, l14, m14, k15, l15, m15 (p1's goal's seal) with
    /// two pieces out; p1 still holds its own seal.
    const SEALED: &str =
        "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g4,h4/i7,j8,j14,k14,l14,m14,k15,l15,m15,m17 ply=12";

    #[test]
    fn a_seal_closed_after_a_piece_left_is_a_hold() {
        let pos = position(SEALED);
        let hold = Hold::of(&pos, 0, false).expect("a hold for p1");
        assert_eq!(hold.ward.count(), 7);
        assert!(Hold::of(&pos, 1, false).is_none(), "p1 keeps no piece out");
        // The start: the seal is full, but nobody has left.
        let start = Position::start(&Rules::default());
        assert!(Hold::of(&start, 0, false).is_none());
        assert_eq!(seal_points(start.goal(0), start.seat(1)).count(), 7);
    }

    #[test]
    fn an_open_point_of_the_own_seal_and_an_intruder_cost() {
        let pos = position(SEALED);
        let hold = Hold::of(&pos, 0, false).expect("a hold");
        let army = Army::of(&pos, 0);
        assert_eq!(hold.terms(&pos, 0, &army), 0);
        // g4 leaves its seal point: a hole, out of the rival's reach.
        let open = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g5,h4/i7,j8,j14,k14,l14,m14,k15,l15,m15,m17";
        assert_eq!(hold.terms(&position(open), 0, &army), HOLD_HOLE);
        // The leaver keeps nothing it gained: a tip piece takes its place
        // among the keepers, one step from the seal, and the whole cost
        // rises.
        assert!(
            hold.cost(&position(open), 0, &army) > hold.cost(&pos, 0, &army),
            "a keeper leaving for the race costs"
        );
        // A rival piece next to the hole threatens it.
        let threatened = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g5,h4/h5,j8,j14,k14,l14,m14,k15,l15,m15,m17";
        assert_eq!(
            hold.terms(&position(threatened), 0, &army),
            HOLD_HOLE + HOLD_EXPOSED
        );
        // A rival piece on that point: no hole, one intruder.
        let entered = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g5,h4/g4,j8,j14,k14,l14,m14,k15,l15,m15,m17";
        assert_eq!(hold.terms(&position(entered), 0, &army), HOLD_INTRUDER);
    }
}
