//! The guard: two players under goal lock and the loss of a side without
//! a move (CCERL), while the rival seals the root's goal and its other
//! pieces are still on their way to the root's home triangle.
//!
//! The siege (module `siege`) wins by taking every move away from the
//! rival's pieces locked in the root's home triangle, without filling it
//! (a full goal holding a rival piece finishes the rival under
//! anti-blocking). Whether that is possible depends on where the locked
//! pieces stand: two of them on the two points next to the triangle's
//! tip reach every other point of it by a step or a jump, so its last
//! free point is always theirs to move to, and the game is drawn. A
//! sealing rival's free pieces head for the deepest points they can reach.
//!
//! So from the moment the rival's seal stands with its tip points
//! emptied behind it (the shape of a seal, not of a game still leaving
//! home, whose tip pieces leave last), until the siege begins, the root
//! keeps its own pieces on those two points: each one free costs
//! [`GUARD_OPEN`] and each one a rival piece holds [`GUARD_TAKEN`], on
//! top of the ordinary cost. The siege keeps the second term.

use super::super::geometry::Mask;
use super::super::position::Position;
use super::heuristic::{tip_table, Army};
use super::hold::seal_points;
use super::parameters::{GUARD_MIN_SEALERS, GUARD_OPEN, GUARD_TAKEN};

/// A sealing rival whose free pieces are not yet locked in the root's
/// home triangle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard {
    /// The two points next to the tip of the root's home triangle
    /// ([`deep_points`]).
    deep: Mask,
}

impl Guard {
    /// The guard of `pos` for `me`, if it is one: two players, goal lock,
    /// at least [`GUARD_MIN_SEALERS`] rival pieces on the seal points of
    /// the root's goal (its two rows nearest the centre), none on the
    /// goal's three points behind them. (Once the rival's pieces are locked
    /// in, the siege takes over: `SealPlan::of` tries it first.)
    pub(crate) fn of(pos: &Position, me: usize) -> Option<Guard> {
        if pos.players() != 2 || !pos.goal_lock() {
            return None;
        }
        let rival = 1 - me;
        let theirs = pos.pieces(rival);
        let goal = pos.goal(me);
        let seal = seal_points(goal, pos.seat(me).opposite());
        let behind = goal & !seal;
        let sealers = (theirs & seal).count();
        if sealers < GUARD_MIN_SEALERS || !(theirs & behind).is_empty() {
            return None;
        }
        let deep = deep_points(pos, me);
        Some(Guard { deep })
    }

    /// The root's cost in `pos` under the guard: its ordinary cost and
    /// the deepest points' terms.
    pub(crate) fn cost(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        army.cost_in(pos, me) + self.terms(pos, me)
    }

    /// What the deepest points of the root's home triangle cost in `pos`.
    fn terms(&self, pos: &Position, me: usize) -> i32 {
        let free = self.deep & !pos.occupied();
        let taken = self.deep & pos.pieces(1 - me);
        free.count() as i32 * GUARD_OPEN + taken.count() as i32 * GUARD_TAKEN
    }
}

/// The two points one step from the tip of `me`'s home triangle: rival
/// pieces locked on both reach every other point of it.
pub(crate) fn deep_points(pos: &Position, me: usize) -> Mask {
    let home_tip = tip_table(pos.seat(me));
    pos.goal(1 - me)
        .iter()
        .filter(|c| home_tip[c.index()] == 1)
        .fold(Mask::EMPTY, Mask::with)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::ccerl;
    use super::*;
    use crate::chinese::{Checkers, Rules};

    /// p2 keeps the seven seal points of p1's goal with its tip points
    /// (l16, m16, m17) emptied; its three other pieces are on their way
    /// to p1's home triangle, where p1 still holds e1, e2 and f2.
    const SEALING: &str =
        "I2 1 e1,e2,f2,g5,h5,i5,f6,i12,i13,j13/g7,h8,i9,j14,k14,l14,m14,k15,l15,m15 ply=30";

    #[test]
    fn a_seal_with_its_tips_emptied_is_guarded_against() {
        let pos = ccerl(SEALING);
        let guard = Guard::of(&pos, 0).expect("a guard for p1");
        let deep = deep_points(&pos, 0);
        let names: Vec<String> = deep.iter().map(|c| c.to_string()).collect();
        assert_eq!(names, ["e2", "f2"]);
        assert_eq!(guard.terms(&pos, 0), 0, "both held by p1");
        // Not for p2 (p1 keeps no seal), not from the start (the tips are
        // still at home), not under the site rules (no goal lock).
        assert!(Guard::of(&pos, 1).is_none());
        let start = Position::start(&Rules::ccerl());
        assert!(Guard::of(&start, 0).is_none());
        let site = *Checkers::from_text_with_defaults(SEALING, &Rules::for_players(2))
            .expect("valid")
            .position();
        assert!(Guard::of(&site, 0).is_none());
    }

    #[test]
    fn a_deep_point_left_costs_and_one_taken_by_the_rival_costs_more() {
        let pos = ccerl(SEALING);
        let guard = Guard::of(&pos, 0).expect("a guard");
        let left = ccerl(
            "I2 1 e1,e3,f2,g5,h5,i5,f6,i12,i13,j13/g7,h8,i9,j14,k14,l14,m14,k15,l15,m15 ply=30",
        );
        assert_eq!(guard.terms(&left, 0), GUARD_OPEN);
        let taken = ccerl(
            "I2 1 e1,e3,f2,g5,h5,i5,f6,i12,i13,j13/e2,h8,i9,j14,k14,l14,m14,k15,l15,m15 ply=30",
        );
        assert_eq!(guard.terms(&taken, 0), GUARD_TAKEN);
        let army = Army::of(&left, 0);
        assert_eq!(
            guard.cost(&left, 0, &army),
            army.cost_in(&left, 0) + GUARD_OPEN
        );
    }
}
