//! The games' fixed search benchmarks by [`GameKind`]: what `damas bench`
//! runs without naming a game's module.

use crate::game::GameKind;
use crate::search::BenchResult;
use crate::{chinese, spanish};

impl GameKind {
    /// The depth the game's fixed search benchmark
    /// ([`GameKind::bench_with`]) uses unless told.
    pub fn bench_depth(self) -> u32 {
        match self {
            GameKind::Spanish => spanish::BENCH_DEPTH,
            GameKind::Chinese | GameKind::Japanese => chinese::BENCH_DEPTH,
        }
    }

    /// Runs the game's fixed search benchmark to `depth`, calling
    /// `on_position` with each position's text and nodes; the total node
    /// count is the search's signature. The star's suite
    /// ([`chinese::bench_with`]) has positions of both variants, so
    /// [`GameKind::Chinese`] and [`GameKind::Japanese`] run the same suite.
    ///
    /// ```
    /// use damas::GameKind;
    /// let mut positions = 0;
    /// let result = GameKind::Spanish.bench_with(1, &mut |_, _| positions += 1);
    /// assert!(result.nodes > 0 && positions > 0);
    /// ```
    pub fn bench_with(self, depth: u32, on_position: &mut dyn FnMut(&str, u64)) -> BenchResult {
        match self {
            GameKind::Spanish => spanish::bench_with(depth, on_position),
            GameKind::Chinese | GameKind::Japanese => chinese::bench_with(depth, on_position),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_runs_its_games_suite() {
        assert_eq!(GameKind::Spanish.bench_depth(), spanish::BENCH_DEPTH);
        assert_eq!(GameKind::Japanese.bench_depth(), chinese::BENCH_DEPTH);
        let nodes = |kind: GameKind| kind.bench_with(2, &mut |_, _| {}).nodes;
        assert_eq!(
            nodes(GameKind::Spanish),
            spanish::bench_with(2, &mut |_, _| {}).nodes
        );
        assert_eq!(
            nodes(GameKind::Chinese),
            chinese::bench_with(2, &mut |_, _| {}).nodes
        );
        assert_eq!(nodes(GameKind::Japanese), nodes(GameKind::Chinese));
    }
}
