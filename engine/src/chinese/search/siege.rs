//! A goal sealed by the rival's home pieces, two players under goal lock
//! and the rule that a side without a legal move loses (CCERL).
//!
//! The rival keeps pieces on its home base (the root's goal) so that no
//! jump lands on the goal's last free points, and its other pieces are
//! locked in its own goal (the root's home triangle), where they can only
//! shuffle. The distance heuristic then sees nothing to gain and the game
//! is drawn by repetition or the move limit. The way through is zugzwang:
//! take every move away from the locked pieces, so that the rival must
//! move a home piece and open the goal (or, with no move at all, lose).
//!
//! While the position is such a siege, the root's own cost is replaced:
//! the pieces nearest the goal (the attackers, enough to fill the goal's
//! free points once it opens) keep their distance to the goal; the others
//! (the trappers) count their distance to the root's home triangle, and
//! each point a trapper must hold that is still free counts the distance
//! of the nearest trapper not yet on such a point; and every move the
//! locked rival pieces still have costs [`SIEGE_MOBILITY`].
//!
//! A rival that also keeps a piece behind its seal (on the goal's tip
//! points, with a tip point free) always has a move there that no piece
//! of the root can ever reach: every way onto a tip point lands on or
//! steps from a seal point. That fortress cannot be beaten; it has to be
//! prevented. While the rival still keeps most of its pieces at home with
//! a piece of its already deep in the root's half, and a seal point is
//! open, the search is a [`Breach`]: the root's piece nearest an open
//! seal point is pushed to it, so that the root holds a point of the seal
//! before the rival refills it (goal lock then keeps it there, and the
//! seal can never close).

use arrayvec::ArrayVec;

use super::super::geometry::{Cell, Dir, Mask, CELLS};
use super::super::moves::Move;
use super::super::position::Position;
use super::guard::{deep_points, Guard};
use super::heuristic::Army;
use super::hold::{seal_points, Hold};
use super::parameters::{
    BREACH_CLOSED, BREACH_MIN_HOME, BREACH_RIVAL_REACH, BREACH_RUNNER, GUARD_TAKEN,
    SIEGE_HOLE_REACH, SIEGE_LAST_HOLE, SIEGE_MIN_LOCKED, SIEGE_MIN_SEALERS, SIEGE_MOBILITY,
    SIEGE_STEP, SIEGE_TRAP_STEP,
};

/// The plan the root's own cost follows against a rival keeping its home
/// base: break into it before it is sealed, lay siege to it, or (where the
/// no-progress ranking decides) hold the root's own home base as well.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SealPlan {
    /// The seal is still open: reach it.
    Breach(Breach),
    /// The goal is sealed: take the rival's other moves away.
    Siege(Siege),
    /// The goal is sealed and the rival's other pieces are on their way:
    /// keep them off the deepest points of the root's home triangle.
    Guard(Guard),
    /// The no-progress ranking decides: keep the rival's pieces out of the
    /// root's home base, with the breach's runner while the seal is open.
    Hold(Hold, Option<Breach>),
}

impl SealPlan {
    /// The plan for `me` in `pos`, if any: a [`Siege`] (only when a side
    /// without a move loses), else a [`Hold`] (only when the game ends at
    /// a no-progress limit, `ranked`), else a [`Breach`].
    pub(crate) fn of(
        pos: &Position,
        me: usize,
        no_move_loss: bool,
        ranked: bool,
    ) -> Option<SealPlan> {
        if no_move_loss {
            if let Some(siege) = Siege::of(pos, me) {
                return Some(SealPlan::Siege(siege));
            }
            if let Some(guard) = Guard::of(pos, me) {
                return Some(SealPlan::Guard(guard));
            }
        }
        let breach = Breach::of(pos, me);
        if ranked {
            if let Some(hold) = Hold::of(pos, me, breach.is_some()) {
                return Some(SealPlan::Hold(hold, breach));
            }
        }
        breach.map(SealPlan::Breach)
    }

    /// What a root move `mv` in `pos` (`me` to move) is scored lower under the plan (see
    /// [`Hold::root_penalty`]; nothing under the others).
    pub(crate) fn root_penalty(&self, pos: &Position, me: usize, mv: &Move) -> i32 {
        match self {
            SealPlan::Hold(hold, None) => hold.root_penalty(pos, me, mv),
            _ => 0,
        }
    }

    /// The root's cost in `pos` under the plan, in hundredths of a step
    /// (lower is better).
    pub(crate) fn cost(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        match self {
            SealPlan::Breach(breach) => breach.cost(pos, me, army),
            SealPlan::Siege(siege) => siege.cost(pos, me, army),
            SealPlan::Guard(guard) => guard.cost(pos, me, army),
            SealPlan::Hold(hold, Some(breach)) => {
                breach.cost(pos, me, army) + hold.terms(pos, me, army)
            }
            SealPlan::Hold(hold, None) => hold.cost(pos, me, army),
        }
    }
}

/// A seal still open: the rival keeps at least [`BREACH_MIN_HOME`] pieces
/// on its home base (the root's goal), one of its other pieces is already
/// within [`BREACH_RIVAL_REACH`] steps of its own goal (a rival that
/// simply has not left home yet is not one), a seal point is free and the
/// root has no piece in its goal yet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Breach {
    /// The goal's seal: its points at least two steps from the tip (the
    /// two rows nearest the centre), through which every way in passes.
    seal: Mask,
}

impl Breach {
    /// The breach of `pos` for `me`, if it is one (two players).
    pub(crate) fn of(pos: &Position, me: usize) -> Option<Breach> {
        if pos.players() != 2 {
            return None;
        }
        let rival = 1 - me;
        let goal = pos.goal(me);
        let theirs = pos.pieces(rival);
        if (theirs & goal).count() < BREACH_MIN_HOME || (pos.pieces(me) & goal).count() != 0 {
            return None;
        }
        let their_goal = pos.seat(me);
        if !(theirs & !goal)
            .iter()
            .any(|c| c.distance_to(their_goal) <= BREACH_RIVAL_REACH)
        {
            return None;
        }
        let seal = seal_points(pos.goal(me), pos.seat(me).opposite());
        ((seal & !pos.occupied()).count() != 0).then_some(Breach { seal })
    }

    /// The root's cost in `pos`: its ordinary cost plus [`BREACH_RUNNER`]
    /// for each step between its piece nearest an open seal point and that
    /// point (nothing once a piece of the root is in the goal, and
    /// [`BREACH_CLOSED`] once the seal is closed without one).
    pub(crate) fn cost(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        let base = army.cost_in(pos, me);
        let mine = pos.pieces(me);
        if (mine & army.goal).count() != 0 {
            return base;
        }
        let open = self.seal & !pos.occupied();
        let mut nearest = u32::MAX;
        for hole in open {
            for c in mine {
                nearest = nearest.min(c.hex_distance(hole));
            }
        }
        if nearest == u32::MAX {
            return base + BREACH_CLOSED;
        }
        base + nearest as i32 * BREACH_RUNNER
    }
}

/// What the siege evaluation needs, fixed for a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Siege {
    /// The root's home triangle: the rival's goal, where its other pieces
    /// are locked.
    home: Mask,
    /// Step distance of each cell to the root's home triangle.
    home_distance: &'static [u8; CELLS],
    /// How many of the root's pieces keep heading for the goal.
    attackers: usize,
    /// The two points next to the tip of the root's home triangle, which
    /// the rival's locked pieces must not both take.
    deep: Mask,
}

impl Siege {
    /// The siege of `pos` for `me`, if it is one: two players, goal lock,
    /// at least [`SIEGE_MIN_SEALERS`] rival pieces on the root's goal and
    /// every other rival piece locked in the rival's goal; or all but one
    /// of them, with at least [`SIEGE_MIN_LOCKED`] locked there: the one
    /// out is the piece that left the seal, or one still on its way to
    /// the rival's goal (the trappers take the others' moves meanwhile, so
    /// that it is the rival's only piece to move).
    pub(crate) fn of(pos: &Position, me: usize) -> Option<Siege> {
        if pos.players() != 2 || !pos.goal_lock() {
            return None;
        }
        let rival = 1 - me;
        let goal = pos.goal(me);
        let home = pos.goal(rival);
        let theirs = pos.pieces(rival);
        let sealers = (theirs & goal).count();
        if sealers < SIEGE_MIN_SEALERS {
            return None;
        }
        // One rival piece may be out of both triangles (the one that left
        // the seal, or one still on its way to the rival's goal) while
        // others are locked; two or more out is an ordinary game.
        let out = (theirs & !goal & !home).count();
        if out > 1 || out == 1 && (theirs & home).count() < SIEGE_MIN_LOCKED {
            return None;
        }
        let free_goal_points = (goal & !pos.occupied()).count() as usize;
        // The root's pieces already in the goal stay attackers: they are
        // the nearest to the tip, and a trapper must not take their place.
        let inside = (pos.pieces(me) & goal).count() as usize;
        // Those inside, enough to fill the free points, and one for the
        // point the rival opens; but never so many that too few trappers
        // are left to take the locked pieces' moves (a piece of the last
        // trappers then comes for the opened point once the siege ends).
        let trappers_needed = trap_points(theirs & home, home).count() as usize;
        let pieces = pos.pieces(me).count() as usize;
        let attackers = (inside + free_goal_points + 1)
            .min(pieces.saturating_sub(trappers_needed))
            .max(inside + free_goal_points);
        Some(Siege {
            home,
            home_distance: Cell::distance_table(pos.seat(me), false),
            attackers,
            deep: deep_points(pos, me),
        })
    }

    /// The root's cost in `pos` under the siege, in hundredths of a step
    /// (lower is better).
    pub(crate) fn cost(&self, pos: &Position, me: usize, army: &Army) -> i32 {
        let mut pieces: ArrayVec<(u8, Cell), 15> = pos
            .pieces(me)
            .iter()
            .map(|c| (army.tip[c.index()], c))
            .collect();
        // The attackers are the pieces nearest the goal tip.
        pieces.sort_unstable_by_key(|&(to_goal, _)| to_goal);
        let rival = 1 - me;
        let trap = trap_points(pos.pieces(rival) & self.home, self.home);
        let mut cost = 0i32;
        let mut spare: ArrayVec<Cell, 15> = ArrayVec::new();
        for (rank, &(to_goal, c)) in pieces.iter().enumerate() {
            let steps = if rank < self.attackers {
                to_goal
            } else {
                if !trap.contains(c) {
                    spare.push(c);
                }
                self.home_distance[c.index()]
            };
            cost += i32::from(steps) * SIEGE_STEP;
        }
        cost += trap_steps(trap & !pos.occupied(), &spare) as i32 * SIEGE_TRAP_STEP;
        let travelling = pos.pieces(rival) & !self.home & !pos.goal(me);
        let holes = self.home & !pos.occupied();
        // Each travelling rival piece will take a hole of the home
        // triangle, and the last one filled finishes the rival: once one
        // is near, the holes must outnumber them.
        let last_hole = !travelling.is_empty()
            && holes.count() <= travelling.count()
            && holes.iter().any(|hole| {
                travelling
                    .iter()
                    .any(|t| t.hex_distance(hole) <= SIEGE_HOLE_REACH)
            });
        let deep_taken = (self.deep & pos.pieces(rival)).count() as i32;
        cost + locked_mobility(pos, rival, self.home) as i32 * SIEGE_MOBILITY
            + deep_taken * GUARD_TAKEN
            + if last_hole { SIEGE_LAST_HOLE } else { 0 }
    }
}

/// The points of `area` that trappers must hold so that the `locked`
/// pieces (kept in `area` by goal lock) have no move: every other point
/// of `area` a step reaches, and every one a jump lands on (the point
/// jumped over is then held or locked).
fn trap_points(locked: Mask, area: Mask) -> Mask {
    let mut held = Mask::EMPTY;
    for c in locked {
        for d in Dir::ALL {
            let Some(next) = c.neighbour(d).filter(|&n| area.contains(n)) else {
                continue;
            };
            held = held.with(next);
            if let Some(landing) = next.neighbour(d) {
                held = held.with(landing);
            }
        }
    }
    held & area & !locked
}

/// The steps between each of the `free` trap points and the nearest of
/// the `spare` trappers (those not on a trap point), summed; nothing
/// without a spare trapper.
fn trap_steps(free: Mask, spare: &[Cell]) -> u32 {
    free.iter()
        .filter_map(|point| spare.iter().map(|s| s.hex_distance(point)).min())
        .sum()
}

/// The single steps and first jumps of `player`'s pieces inside `area`
/// that end in `area`: zero exactly when none of them can move (a chain
/// starts with a jump, and goal lock keeps them in `area`).
fn locked_mobility(pos: &Position, player: usize, area: Mask) -> u32 {
    let occupied = pos.occupied();
    let mut moves = 0;
    for c in pos.pieces(player) & area {
        for d in Dir::ALL {
            let Some(next) = c.neighbour(d) else {
                continue;
            };
            if !occupied.contains(next) {
                moves += u32::from(area.contains(next));
            } else if let Some(landing) = next.neighbour(d) {
                moves += u32::from(area.contains(landing) && !occupied.contains(landing));
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::ccerl;
    use super::*;

    /// The sealed goal of a CCERL game (ply 60): seven rival pieces on p1's
    /// goal, three locked in the rival's goal.
    const SEALED: &str =
        "I2 1 k10,j11,k11,m11,j12,k12,l12,m12,k13,m13/f2,e3,f4,j14,k14,l14,m14,k15,l15,m15 ply=60";

    #[test]
    fn a_goal_held_by_home_pieces_with_the_rest_locked_is_a_siege() {
        let pos = ccerl(SEALED);
        let siege = Siege::of(&pos, 0).expect("a siege for p1");
        // Three free goal points (l16, m16, m17) and the one to open would
        // make four, but the rival's f2, e3 and f4 reach all seven other
        // points of p1's home triangle: seven trap, three attack.
        assert_eq!(siege.attackers, 3);
        assert!(Siege::of(&pos, 1).is_none(), "p2's goal holds none of p1");
        assert!(Siege::of(&ccerl("I2 1 e1/m17"), 0).is_none());
        // One rival piece still on its way with two locked: a siege, the
        // trappers taking the locked pieces' moves meanwhile.
        let free =
            "I2 1 k10,j11,k11,m11,j12,k12,l12,m12,k13,m13/f2,e3,i9,j14,k14,l14,m14,k15,l15,m15";
        assert!(Siege::of(&ccerl(free), 0).is_some());
        // With only one locked, or two out, it is an ordinary game (a
        // rival of JumpStar's CCERL suite, position 0000 at ply 32, that
        // has not left home yet).
        let one_locked =
            "I2 1 k10,j11,k11,m11,j12,k12,l12,m12,k13,m13/f2,i9,j14,k14,l14,m14,k15,l15,m15,l16";
        assert!(Siege::of(&ccerl(one_locked), 0).is_none());
        let two_out =
            "I2 1 g5,i6,i7,h9,i9,j11,h12,i12,j12,l12/e3,e4,i8,k11,j14,k14,l14,m14,l15,l16 ply=32";
        assert!(Siege::of(&ccerl(two_out), 0).is_none());
        // Once the rival has opened its seal (m15 left for k11, three
        // pieces locked), the siege goes on while that piece travels.
        let opened =
            "I2 1 f2,g3,f4,g5,h5,i6,k12,j13,k13,l13/e1,e3,h4,k11,j14,k14,l14,m14,k15,l15 ply=160";
        assert!(Siege::of(&ccerl(opened), 0).is_some());
        // And once an attacker holds the opened point (m15), while the
        // rival's piece is still out (k11).
        let held =
            "I2 1 f2,g3,f4,g5,h5,i6,k12,j13,k13,m15/e1,e3,h4,k11,j14,k14,l14,m14,k15,l15 ply=162";
        assert!(Siege::of(&ccerl(held), 0).is_some());
        // Early in a game nothing is locked yet: no siege.
        let early = "I2 1 e1,e2,f2,e3,f3,g3,e4,f4,g4,i5/j14,k14,l14,m14,k15,l15,i13,l16,m16,m17";
        assert!(Siege::of(&ccerl(early), 0).is_none());
    }

    #[test]
    fn a_locked_piece_next_to_the_home_tip_costs_the_guards_charge() {
        // The rival's f2 is one of the two points next to p1's home tip
        // (e2, f2): two locked there would reach every point.
        let pos = ccerl(SEALED);
        let siege = Siege::of(&pos, 0).expect("a siege");
        let names: Vec<String> = siege.deep.iter().map(|c| c.to_string()).collect();
        assert_eq!(names, ["e2", "f2"]);
        let army = Army::of(&pos, 0);
        let without = Siege {
            deep: Mask::EMPTY,
            ..siege
        };
        assert_eq!(
            siege.cost(&pos, 0, &army),
            without.cost(&pos, 0, &army) + GUARD_TAKEN
        );
    }

    #[test]
    fn locked_pieces_spread_over_the_home_triangle_leave_fewer_attackers() {
        // The rival's e1, e2 and g4 locked in p1's home triangle reach all
        // seven other points of it (g4 steps along the front row), so
        // seven trappers are needed and three pieces attack.
        let spread = ccerl(
            "I2 1 f2,e3,f3,g3,e4,f6,i12,i13,j13,k13/e1,e2,g4,j14,k14,l14,m14,k15,l15,m15 ply=140",
        );
        let home = spread.goal(1);
        assert_eq!(trap_points(spread.pieces(1) & home, home).count(), 7);
        assert_eq!(Siege::of(&spread, 0).expect("a siege").attackers, 3);
        // On the three corners (e1, e4, h4) they reach six points (not
        // f3, the middle): six trappers, four attackers.
        let cornered = ccerl(
            "I2 1 e2,f2,e3,g3,f4,g4,i12,i13,j13,k13/e1,e4,h4,j14,k14,l14,m14,k15,l15,m15 ply=140",
        );
        let home = cornered.goal(1);
        let points = trap_points(cornered.pieces(1) & home, home);
        assert_eq!(points.count(), 6, "{points:?}");
        assert!(!points.contains("f3".parse().expect("a point")));
        assert_eq!(Siege::of(&cornered, 0).expect("a siege").attackers, 4);
    }

    #[test]
    fn a_free_trap_point_calls_the_nearest_spare_trapper() {
        // The rival's e1, e4 and h4 are locked; five of their six trap
        // points are held, g4 is free.
        let pos = ccerl(
            "I2 1 e2,f2,e3,g3,f4,f3,i12,i13,j13,k13/e1,e4,h4,j14,k14,l14,m14,k15,l15,m15 ply=140",
        );
        let home = pos.goal(1);
        let trap = trap_points(pos.pieces(1) & home, home);
        let free = trap & !pos.occupied();
        let g4: Cell = "g4".parse().expect("a point");
        assert_eq!(free, Mask::EMPTY.with(g4));
        let at = |name: &str| -> Cell { name.parse().expect("a point") };
        // f3, next to g4, is the nearest of the two spare trappers.
        assert_eq!(trap_steps(free, &[at("f3"), at("i12")]), 1);
        assert_eq!(trap_steps(free, &[at("i12")]), at("i12").hex_distance(g4));
        assert!(at("i12").hex_distance(g4) > 5);
        assert_eq!(trap_steps(free, &[]), 0, "no spare trapper");
        assert_eq!(trap_steps(Mask::EMPTY, &[at("f3")]), 0, "nothing free");
        // Under the siege, the position with the spare trapper on g4 costs
        // less than with it on f3 by the step and the rival's lost moves.
        let siege = Siege::of(&pos, 0).expect("a siege");
        let army = Army::of(&pos, 0);
        let closed = ccerl(
            "I2 1 e2,f2,e3,g3,f4,g4,i12,i13,j13,k13/e1,e4,h4,j14,k14,l14,m14,k15,l15,m15 ply=140",
        );
        let lost = locked_mobility(&pos, 1, home) - locked_mobility(&closed, 1, home);
        assert!(lost > 0);
        assert_eq!(
            siege.cost(&pos, 0, &army) - siege.cost(&closed, 0, &army),
            SIEGE_TRAP_STEP + lost as i32 * SIEGE_MOBILITY
        );
    }

    #[test]
    fn a_travelling_rival_piece_near_the_home_triangle_s_last_hole_costs() {
        // A game against the blocking bot: the bot's l15, l16 and m17 are
        // locked in p2's home triangle, m14 is its only hole, and the bot's
        // last free piece walks towards it; entering would fill the
        // triangle and finish the bot under anti-blocking.
        let at = |name: &str| -> Cell { name.parse().expect("a point") };
        let with_traveller = |t: &str| {
            ccerl(&format!(
                "I2 2 f3,g3,e4,f4,g4,h4,{t},l15,l16,m17/e1,e2,f5,f6,j14,k14,l14,k15,m15,m16 ply=100"
            ))
        };
        let (near, far) = (with_traveller("l13"), with_traveller("h8"));
        assert!(at("l13").hex_distance(at("m14")) <= SIEGE_HOLE_REACH);
        assert!(at("h8").hex_distance(at("m14")) > SIEGE_HOLE_REACH);
        let siege = Siege::of(&near, 1).expect("a siege for p2");
        assert!(Siege::of(&far, 1).is_some());
        let army = Army::of(&near, 1);
        assert_eq!(
            siege.cost(&near, 1, &army) - siege.cost(&far, 1, &army),
            SIEGE_LAST_HOLE
        );
    }

    #[test]
    fn the_locked_pieces_lose_their_moves_when_surrounded() {
        let pos = ccerl(SEALED);
        assert!(locked_mobility(&pos, 1, pos.goal(1)) > 0);
        // Ply 151 of the test game: p1's e2, f2, e3, g3, f4, g4 round the
        // rival's e1, e4 and h4, which have no step and no jump left.
        let trapped = ccerl(
            "I2 2 e2,f2,e3,g3,f4,g4,m12,k13,l13,m13/e1,e4,h4,j14,k14,l14,m14,k15,l15,m15 ply=151",
        );
        assert_eq!(locked_mobility(&trapped, 1, trapped.goal(1)), 0);
        assert!(!trapped.legal_moves().is_empty(), "only home pieces move");
        for mv in trapped.legal_moves() {
            assert!(trapped.goal(0).contains(mv.from()), "{mv:?}");
        }
    }
}
