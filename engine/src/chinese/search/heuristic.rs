//! The distance heuristic: how far a player's army is from being home, in
//! hundredths of a step (lower is better).
//!
//! The base is the step distance of every piece to the *tip* of its goal
//! triangle. Inside the goal that distance is the depth of the cell, so the
//! sum is smallest exactly when the goal is filled from the back with no
//! holes (20 steps for ten pieces in a triangle, 40 for the 15-point
//! Japanese camp); outside it is the distance to the goal plus the depth
//! still to go. On top of it:
//!
//! - *stragglers*: the spread between the most advanced and the most
//!   backward piece beyond a few rows costs extra, so that no piece is left
//!   behind without jump supports;
//! - *isolation*: a piece outside the goal with no neighbour at all (no
//!   support to jump over, nobody to jump over it) costs a little;
//! - the Japanese king counts its distance to the goal tip (where it must
//!   end) twice, and an ordinary piece on that tip costs 2.5 steps.
//!
//! Everything is table look-ups on the masks; nothing allocates.

use std::sync::LazyLock;

use super::super::geometry::Mask;
use super::super::geometry::{Cell, Triangle, CELLS, GEO};
use super::super::position::Position;
use super::super::rules::Variant;

// The weights: in the search's parameters module.
use super::parameters::{FOREIGN, ISOLATED, STEP, STRAGGLE, STRAGGLE_FREE, TIP_TAKEN};

/// `TIP[t][c]`: step distance from cell `c` to the tip of triangle `t`.
static TIP: LazyLock<[[u8; CELLS]; 6]> = LazyLock::new(|| {
    let mut t = [[0u8; CELLS]; 6];
    for tri in Triangle::ALL {
        let tip = tri.tip();
        for c in Cell::all() {
            t[tri.index()][c.index()] = c.hex_distance(tip) as u8;
        }
    }
    t
});

/// The table of step distances to the tip of `goal` (by cell index).
pub fn tip_table(goal: Triangle) -> &'static [u8; CELLS] {
    &TIP[goal.index()]
}

/// Everything the heuristic needs about one player, fixed for a search.
#[derive(Clone, Copy, Debug)]
pub struct Army {
    /// Distance to the goal tip by cell.
    pub tip: &'static [u8; CELLS],
    /// The goal points.
    pub goal: Mask,
    /// The cell where the king must end (Japanese), if any.
    pub king_goal: Option<Cell>,
    /// The smallest possible base cost: every goal point filled from the
    /// back (subtracted so that reported distances reach 0 when home).
    pub home: i32,
    /// The other players' goals (3–6 players): a piece left there is
    /// walled in for good once that player fills its goal and finishes.
    pub foreign: Mask,
}

impl Army {
    /// The army of every player of `pos`, by seat (`None` beyond the
    /// players).
    pub fn all_of(pos: &Position) -> [Option<Army>; 6] {
        let mut armies = [None; 6];
        for (p, a) in armies.iter_mut().enumerate().take(pos.players()) {
            *a = Some(Army::of(pos, p));
        }
        armies
    }

    /// The army of player `p` in `pos`.
    pub fn of(pos: &Position, p: usize) -> Army {
        let goal_t = pos.seat(p).opposite();
        let tip = tip_table(goal_t);
        let goal = pos.goal(p);
        let king_goal = (pos.variant() == Variant::Japanese).then(|| goal_t.tip());
        let n = pos.pieces(p).count() as usize;
        let mut depths: Vec<i32> = goal.iter().map(|c| i32::from(tip[c.index()])).collect();
        depths.sort_unstable();
        let home = depths.iter().take(n).sum::<i32>() * STEP;
        let mut foreign = Mask::EMPTY;
        if pos.players() >= 3 {
            for q in (0..pos.players()).filter(|&q| q != p) {
                foreign |= pos.goal(q);
            }
            foreign &= !goal;
        }
        Army {
            tip,
            goal,
            king_goal,
            home,
            foreign,
        }
    }

    /// Cost of the pieces `own` (with the king on `king`, if any) among all
    /// occupied points `occ`: the full heuristic, in hundredths of a step,
    /// with [`Army::home`] subtracted (0 when home, never negative in
    /// practice).
    #[inline]
    pub fn cost(&self, own: Mask, king: Option<Cell>, occ: Mask) -> i32 {
        self.cost_with::<true, true>(own, king, occ)
    }

    /// [`Army::cost`] without the isolation term, so that it depends on the
    /// player's own pieces alone: a rival's cost changes only when that
    /// rival moves, which lets the multi-player search keep it per ply.
    #[inline]
    pub fn cost_of_own(&self, own: Mask, king: Option<Cell>) -> i32 {
        self.cost_with::<false, true>(own, king, Mask::EMPTY)
    }

    /// [`Army::cost_of_own`] without the stragglers' charge: the measure
    /// of the six-player Monte Carlo race. There a piece left behind still
    /// costs its full distance; weighing the back piece more made the
    /// search finish two own moves a game later, and without the charge it
    /// placed a little better against greedy rivals (docs/HISTORY.md, "Six
    /// players: the stragglers' charge").
    #[inline]
    pub fn race_cost_of_own(&self, own: Mask, king: Option<Cell>) -> i32 {
        self.cost_with::<false, false>(own, king, Mask::EMPTY)
    }

    #[inline(always)]
    fn cost_with<const ISOLATION: bool, const STRAGGLERS: bool>(
        &self,
        own: Mask,
        king: Option<Cell>,
        occ: Mask,
    ) -> i32 {
        let mut sum = 0i32;
        let mut lo = i32::MAX;
        let mut hi = 0i32;
        let mut isolated = 0i32;
        for c in own {
            let d = i32::from(self.tip[c.index()]);
            sum += d;
            lo = lo.min(d);
            hi = hi.max(d);
            if ISOLATION && !self.goal.contains(c) && GEO.nbr_mask[c.index()] & occ.0 == 0 {
                isolated += 1;
            }
        }
        let mut cost = sum * STEP - self.home + isolated * ISOLATED;
        cost += (own & self.foreign).count() as i32 * FOREIGN;
        let spread = hi - lo.min(hi);
        if STRAGGLERS && spread > STRAGGLE_FREE {
            cost += (spread - STRAGGLE_FREE) * STRAGGLE;
        }
        if let Some(tip) = self.king_goal {
            if let Some(k) = king {
                cost += i32::from(self.tip[k.index()]) * STEP;
            }
            // The tip is the king's: an ordinary piece there must leave.
            if own.contains(tip) && king != Some(tip) {
                cost += TIP_TAKEN;
            }
        }
        cost
    }

    /// Cost of player `p` in `pos` (see [`Army::cost`]).
    #[inline]
    pub fn cost_in(&self, pos: &Position, p: usize) -> i32 {
        let own = pos.pieces(p);
        self.cost(own, (own & pos.kings()).first(), pos.occupied())
    }

    /// [`Army::cost_of_own`] of player `p` in `pos`.
    #[inline]
    pub fn cost_of_own_in(&self, pos: &Position, p: usize) -> i32 {
        let own = pos.pieces(p);
        self.cost_of_own(own, (own & pos.kings()).first())
    }

    /// [`Army::race_cost_of_own`] of player `p` in `pos`.
    #[inline]
    pub fn race_cost_of_own_in(&self, pos: &Position, p: usize) -> i32 {
        let own = pos.pieces(p);
        self.race_cost_of_own(own, (own & pos.kings()).first())
    }
}

/// The plain evaluation: the summed step distance of the pieces to the
/// nearest goal point ([`Position::goal_distance`]), in hundredths.
#[inline]
pub fn plain_cost(pos: &Position, p: usize) -> i32 {
    pos.goal_distance(p) as i32 * STEP
}

/// Whether the pieces `own` among `occ` (king on `king`) finish: the goal
/// full and holding at least one own piece (anti-blocking) or only own
/// pieces, and the Japanese king on the tip.
#[inline]
pub fn finished(
    army: &Army,
    own: Mask,
    king: Option<Cell>,
    occ: Mask,
    anti_blocking: bool,
) -> bool {
    let g = army.goal;
    let full = if anti_blocking {
        (occ & g) == g && !(own & g).is_empty()
    } else {
        (own & g) == g
    };
    full && army.king_goal.is_none_or(|t| king == Some(t))
}

/// [`finished`] for player `p` in `pos`.
#[inline]
pub fn finished_in(army: &Army, pos: &Position, p: usize, anti_blocking: bool) -> bool {
    let own = pos.pieces(p);
    finished(
        army,
        own,
        (own & pos.kings()).first(),
        pos.occupied(),
        anti_blocking,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese::Rules;

    #[test]
    fn home_is_zero_and_start_is_positive() {
        let pos = Position::start(&Rules::for_players(2));
        let a = Army::of(&pos, 0);
        assert_eq!(a.home, 20 * STEP);
        assert!(a.cost_in(&pos, 0) > 0);
        let home = pos.goal(0);
        assert_eq!(a.cost(home, None, home), 0);
    }

    #[test]
    fn pieces_in_other_players_goals_cost_extra_from_three_players_on() {
        let two = Position::start(&Rules::for_players(2));
        let six = Position::start(&Rules::for_players(6));
        let (a2, a6) = (Army::of(&two, 0), Army::of(&six, 0));
        assert!(a2.foreign.is_empty());
        // Every triangle but the own goal is some other player's goal.
        assert_eq!(a6.foreign.count(), 50);
        assert!((a6.foreign & six.goal(0)).is_empty());
        assert_eq!(a6.foreign & six.pieces(0), six.pieces(0));
        // The same ten pieces at the start: the only difference is that
        // the own camp is the opposite player's goal at six players.
        assert_eq!(a6.cost_in(&six, 0) - a2.cost_in(&two, 0), 10 * FOREIGN);
    }

    #[test]
    fn the_race_cost_leaves_out_only_the_stragglers_charge() {
        let pos = Position::start(&Rules::for_players(6));
        let a = Army::of(&pos, 0);
        let own = pos.pieces(0);
        // At the start the spread is within the free rows: both agree.
        assert_eq!(a.race_cost_of_own_in(&pos, 0), a.cost_of_own_in(&pos, 0));
        // One piece sent ahead to the goal's tip: the spread is now the
        // whole distance of the piece left furthest back.
        let tip = pos.seat(0).opposite().tip();
        let ahead = own.without(own.first().expect("pieces")).with(tip);
        let back = ahead
            .iter()
            .map(|c| i32::from(a.tip[c.index()]))
            .max()
            .expect("pieces");
        assert!(back > STRAGGLE_FREE);
        assert_eq!(
            a.cost_of_own(ahead, None) - a.race_cost_of_own(ahead, None),
            (back - STRAGGLE_FREE) * STRAGGLE
        );
    }

    #[test]
    fn the_own_pieces_cost_leaves_out_only_isolation() {
        let pos = Position::start(&Rules::for_players(3));
        let a = Army::of(&pos, 1);
        let own = pos.pieces(1);
        // At the start no piece is isolated: both costs agree.
        assert_eq!(a.cost_of_own_in(&pos, 1), a.cost_in(&pos, 1));
        // A piece alone in the middle of the board is isolated for the full
        // cost only.
        let lone = own
            .without(own.first().expect("pieces"))
            .with(Cell::from_coords(9, 9).expect("centre"));
        let occ = lone;
        assert_eq!(
            a.cost(lone, None, occ) - a.cost_of_own(lone, None),
            ISOLATED
        );
    }
}
