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
//! nothing), the others the ranking's distance to the goal, and
//! [`HOLD_BEHIND`] more while still at home. The rival is measured the
//! same way ([`Hold::rival_cost`]): the ranking's distance and the holes
//! of its own seal, not its race to the goal's tip.
//!
//! With its seven seal points held, no rival piece can enter the root's home
//! base (every way onto a point behind them lands on or steps from a seal
//! point); the root's other pieces stand at the rival's seal, so that the
//! ranking is level on pieces in goal and the root's distance is the least
//! either side can reach: the root wins the ranking whenever a rival piece
//! out is not at the root's seal when the limit comes.

use arrayvec::ArrayVec;

use super::super::geometry::{Cell, Dir, Mask, Triangle, CELLS};
use super::super::moves::Move;
use super::super::position::Position;
use super::super::rules::Variant;
use super::heuristic::{tip_table, Army};
use super::parameters::{
    HOLD_BEHIND, HOLD_DANGER, HOLD_EXPOSED, HOLD_HOLE, HOLD_INTRUDER, HOLD_KEEPERS, HOLD_LEAVE,
    HOLD_LEAVE_NEAR, HOLD_STEP, STEP,
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
    /// The seal points of the root's goal, which the rival holds.
    rival_ward: Mask,
    /// Step distance of each cell to the nearest point of `ward`.
    ward_distance: [u8; CELLS],
    /// Step distance of each cell to the nearest point of the root's goal:
    /// the ranking's distance for every piece but a Japanese king.
    goal_distance: &'static [u8; CELLS],
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
        let camp = pos.variant() != Variant::International;
        Some(Hold {
            home,
            ward,
            rival_ward: seal_points(goal, pos.seat(rival)),
            ward_distance,
            goal_distance: Cell::distance_table(pos.seat(me).opposite(), camp),
        })
    }

    /// The seal points of the root's home base, which the root keeps.
    pub(crate) fn ward(&self) -> Mask {
        self.ward
    }

    /// The seal points of the root's goal, which the rival keeps.
    pub(crate) fn rival_ward(&self) -> Mask {
        self.rival_ward
    }

    /// The root's whole cost in `pos` behind a closed seal (while it is
    /// open, the breach's cost plus [`Hold::terms`]), in hundredths of
    /// a step (lower is better): the [`HOLD_KEEPERS`] pieces nearest the
    /// root's home seal count [`HOLD_STEP`] for each step to it, the others
    /// [`STEP`] for each step to the nearest goal point (the distance the
    /// no-progress ranking counts: the goal's tip is out of reach behind the
    /// seal), plus [`Hold::terms`].
    pub(crate) fn cost(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        // The ranking measures a Japanese king by its distance to the tip.
        let goal_tip = pos.seat(me).opposite().tip();
        let kings = pos.kings();
        let mut pieces: ArrayVec<(u8, u8, bool), 15> = pos
            .pieces(me)
            .iter()
            .map(|c| {
                let to_goal = if kings.contains(c) {
                    c.hex_distance(goal_tip) as u8
                } else {
                    self.goal_distance[c.index()]
                };
                (
                    self.ward_distance[c.index()],
                    to_goal,
                    self.home.contains(c),
                )
            })
            .collect();
        // The keepers are the pieces nearest the seal; of two as near, the
        // one further from the goal keeps, the other races.
        pieces.sort_unstable_by_key(|&(to_ward, to_goal, _)| (to_ward, std::cmp::Reverse(to_goal)));
        let mut cost = 0;
        for (rank, &(to_ward, to_goal, at_home)) in pieces.iter().enumerate() {
            cost += if rank < HOLD_KEEPERS {
                i32::from(to_ward) * HOLD_STEP
            } else if at_home {
                i32::from(to_goal) * STEP + HOLD_BEHIND
            } else {
                i32::from(to_goal) * STEP
            };
        }
        cost + self.terms(pos, me, army)
    }

    /// The rival's cost behind a closed seal, on the scale of
    /// [`Hold::cost`]: [`STEP`] for each step between its pieces and the
    /// nearest point of its goal (the distance the no-progress ranking
    /// compares; its race to the goal's tip is no measure here), plus
    /// [`HOLD_HOLE`] for each free point of its seal and [`HOLD_EXPOSED`]
    /// more where a root piece can enter it at once. Without the seal's
    /// terms the rival of the tree walks its seal pieces out for the
    /// distance they gain, every line of the root loses that much, and the
    /// root's moves are chosen against a rival that does not exist.
    pub(crate) fn rival_cost(&self, pos: &Position, rival: usize) -> i32 {
        pos.goal_distance(rival) as i32 * STEP
            + seal_holes(self.rival_ward, pos.pieces(1 - rival), pos.occupied())
    }

    /// What a root move `mv` in `pos` (the root, `me`, to move) is scored
    /// lower: [`HOLD_LEAVE`] when it takes a keeper off a seal point of
    /// the home base to a point off the seal, and [`HOLD_LEAVE_NEAR`] when
    /// it frees a seal point (off the seal or to another seal point) with a
    /// rival piece within [`HOLD_DANGER`] steps of it, unless a piece
    /// behind the seal can refill it at once and no rival piece can enter
    /// it first (no [`HOLD_LEAVE`] either while a piece is behind: such a
    /// move lets it out). A hole opened and
    /// refilled within the horizon costs the leaf nothing, so without the
    /// first the search plays such a pair as a waiting move, and the refill
    /// waits while the rival's pieces come near; without the second it
    /// moves a hole next to a rival piece, trusting a reply list that
    /// holds the rival's race moves first and not the way in two moves on.
    pub(crate) fn root_penalty(&self, pos: &Position, me: usize, mv: &Move) -> i32 {
        let hole = mv.from();
        if !self.ward.contains(hole) {
            return 0;
        }
        let mine = pos.pieces(me);
        // Pieces behind the seal (home, off its points) get out only
        // through a point it frees: that is no waiting move.
        let behind = mine & self.home & !self.ward;
        let mut penalty = 0;
        if !self.ward.contains(mv.to()) && behind.is_empty() {
            penalty += HOLD_LEAVE;
        }
        let near = pos
            .pieces(1 - me)
            .iter()
            .any(|c| c.hex_distance(hole) <= HOLD_DANGER);
        if near {
            // Safe only when a piece behind can step or jump onto the
            // point at once and no rival piece can before it.
            let mut after = *pos;
            after.set_to_move_unchecked(me);
            after.play_unchecked(mv);
            let occupied = after.occupied();
            if enterable(hole, after.pieces(1 - me), occupied) || !enterable(hole, behind, occupied)
            {
                penalty += HOLD_LEAVE_NEAR;
            }
        }
        penalty
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
        (intruders - arrived) * HOLD_INTRUDER + seal_holes(self.ward, theirs, pos.occupied())
    }
}

/// The cost of the free points of `seal`: [`HOLD_HOLE`] each, and
/// [`HOLD_EXPOSED`] more where a piece of `attackers` can enter it at once.
fn seal_holes(seal: Mask, attackers: Mask, occupied: Mask) -> i32 {
    (seal & !occupied)
        .iter()
        .map(|hole| {
            if enterable(hole, attackers, occupied) {
                HOLD_HOLE + HOLD_EXPOSED
            } else {
                HOLD_HOLE
            }
        })
        .sum()
}

/// Whether a piece of `theirs` can move onto the free point `hole` at once
/// (also used for the root's own pieces that would refill it):
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
    use super::super::fixtures::site;
    use super::*;
    use crate::chinese::Rules;

    /// p2 keeps j14, k14, l14, m14, k15, l15, m15 (p1's goal's seal) with
    /// two pieces out; p1 still holds its own seal.
    const SEALED: &str =
        "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g4,h4/i7,j8,j14,k14,l14,m14,k15,l15,m15,m17 ply=12";

    #[test]
    fn a_seal_closed_after_a_piece_left_is_a_hold() {
        let pos = site(SEALED);
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
        let pos = site(SEALED);
        let hold = Hold::of(&pos, 0, false).expect("a hold");
        let army = Army::of(&pos, 0);
        assert_eq!(hold.terms(&pos, 0, &army), 0);
        // g4 leaves its seal point: a hole, out of the rival's reach.
        let open = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g5,h4/i7,j8,j14,k14,l14,m14,k15,l15,m15,m17";
        assert_eq!(hold.terms(&site(open), 0, &army), HOLD_HOLE);
        // The leaver keeps nothing it gained: a tip piece takes its place
        // among the keepers, one step from the seal, and the whole cost
        // rises.
        assert!(
            hold.cost(&site(open), 0, &army) > hold.cost(&pos, 0, &army),
            "a keeper leaving for the race costs"
        );
        // A rival piece next to the hole threatens it.
        let threatened = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g5,h4/h5,j8,j14,k14,l14,m14,k15,l15,m15,m17";
        assert_eq!(
            hold.terms(&site(threatened), 0, &army),
            HOLD_HOLE + HOLD_EXPOSED
        );
        // A rival piece on that point: no hole, one intruder.
        let entered = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g5,h4/g4,j8,j14,k14,l14,m14,k15,l15,m15,m17";
        assert_eq!(hold.terms(&site(entered), 0, &army), HOLD_INTRUDER);
    }

    fn at(name: &str) -> Cell {
        name.parse().expect("a point")
    }

    fn mv(from: &str, to: &str) -> Move {
        Move::new(at(from), at(to))
    }

    /// p1 keeps its seal (rows 3 and 4) with e2 still behind it and two
    /// pieces at p2's seal; p2 keeps its seal with h6 one step from p1's.
    const BEHIND: &str =
        "I2 1 e2,e3,f3,g3,e4,f4,g4,h4,j13,k13/h6,k8,l9,j14,k14,l14,m14,k15,l15,m15 ply=40";

    #[test]
    fn the_rival_is_measured_by_the_ranking_and_its_own_seal() {
        let pos = site(SEALED);
        let hold = Hold::of(&pos, 0, false).expect("a hold");
        let distance = pos.goal_distance(1) as i32 * STEP;
        assert_eq!(hold.rival_cost(&pos, 1), distance);
        // k15 walks out two steps: the rival gains them but opens its seal.
        let opened =
            site("I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g4,h4/i7,j8,j14,k14,l14,m14,k13,l15,m15,m17 ply=12");
        assert_eq!(hold.rival_cost(&opened, 1), distance - 2 * STEP + HOLD_HOLE);
    }

    #[test]
    fn a_piece_behind_the_full_seal_costs_until_it_is_let_out() {
        let pos = site(BEHIND);
        let hold = Hold::of(&pos, 0, false).expect("a hold");
        let army = Army::of(&pos, 0);
        // g4 steps out to g5 and e2 jumps over f3 onto g4: the seal is
        // whole again, and the piece that was behind it races from g5.
        let released =
            site("I2 1 g4,e3,f3,g3,e4,f4,g5,h4,j13,k13/h6,k8,l9,j14,k14,l14,m14,k15,l15,m15");
        let (e2, g5) = (at("e2"), at("g5"));
        let gained = i32::from(e2.distance_to(Triangle::North) - g5.distance_to(Triangle::North));
        assert_eq!(gained, 3);
        assert_eq!(
            hold.cost(&pos, 0, &army) - hold.cost(&released, 0, &army),
            gained * STEP + HOLD_BEHIND
        );
    }

    #[test]
    fn a_seal_point_is_freed_near_the_rival_only_for_a_refill_from_behind() {
        let pos = site(BEHIND);
        let hold = Hold::of(&pos, 0, false).expect("a hold");
        // g4-g5: h6 is two steps from g4 but cannot enter it at once, and
        // e2 refills it by a jump over f3; a move that lets e2 out.
        assert_eq!(hold.root_penalty(&pos, 0, &mv("g4", "g5")), 0);
        // h4-h5: h6 jumps over h5 onto h4 before any refill.
        assert_eq!(hold.root_penalty(&pos, 0, &mv("h4", "h5")), HOLD_LEAVE_NEAR);
        // f3-f2 into the home: e2 steps back onto f3 before h6 can.
        assert_eq!(hold.root_penalty(&pos, 0, &mv("f3", "f2")), 0);
        // Without a piece behind, g4-g5 is a waiting move near the rival.
        let none_behind = site(
            "I2 1 i12,e3,f3,g3,e4,f4,g4,h4,j13,k13/h6,k8,l9,j14,k14,l14,m14,k15,l15,m15 ply=40",
        );
        assert_eq!(
            hold.root_penalty(&none_behind, 0, &mv("g4", "g5")),
            HOLD_LEAVE + HOLD_LEAVE_NEAR
        );
        // Far from every rival piece only the waiting move's cost is left.
        let far = site(
            "I2 1 i12,e3,f3,g3,e4,f4,g4,h4,j13,k13/h10,k8,l9,j14,k14,l14,m14,k15,l15,m15 ply=40",
        );
        assert_eq!(hold.root_penalty(&far, 0, &mv("g4", "g5")), HOLD_LEAVE);
    }
}
