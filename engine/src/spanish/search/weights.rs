//! The evaluation's weights, written by `damas tune` (docs/SEARCH.md,
//! *Tuning*): rerun the pipeline rather than editing by hand.
//! Data: partial.txt, 193332 positions.
//! K = 0.002136; 200 epochs; mean squared error 0.069248 with the hand-set weights, 0.050120 tuned.

use super::features::FEATURES;

/// `(middle game, ending)` weight of each feature, in centi-men per count.
pub(crate) const WEIGHTS: [(i32, i32); FEATURES] = [
    (187, 159),   // man
    (349, 277),   // king
    (112, -39),   // advance row 1
    (42, -31),    // advance row 2
    (-20, 12),    // advance row 3
    (-12, 65),    // advance row 4
    (108, 3),     // advance row 5
    (140, 143),   // advance row 6
    (72, 68),     // back-row guard
    (76, -18),    // centre
    (29, -31),    // edge
    (56, 46),     // man mobility
    (25, -1),     // king mobility
    (-102, -126), // low mobility
    (210, 179),   // runaway
    (-3, -48),    // runaway rows to go
    (22, 103),    // king on main diagonal
    (77, 104),    // drive: loser's mobility
    (32, -8),     // drive: trades
    (20, 13),     // tempo
    (69, -25),    // exchange when ahead
    (35, -71),    // wing imbalance
    (36, 5),      // backed man
    (-32, -24),   // back row ----
    (-103, -61),  // back row 1---
    (-40, -60),   // back row -2--
    (-106, -125), // back row 12--
    (-64, 5),     // back row --3-
    (-29, -91),   // back row 1-3-
    (8, 38),      // back row -23-
    (-27, -82),   // back row 123-
    (31, 16),     // back row ---4
    (-73, 6),     // back row 1--4
    (67, 73),     // back row -2-4
    (-89, 93),    // back row 12-4
    (90, 65),     // back row --34
    (59, -80),    // back row 1-34
    (133, 119),   // back row -234
    (15, 49),     // back row 1234
];
