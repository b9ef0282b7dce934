//! The evaluation's weights, written by `damas tune` (docs/SEARCH.md,
//! *Tuning*): rerun the pipeline rather than editing by hand.
//! Data: train.txt, 486748 positions.
//! K = 0.002033; 1500 epochs; mean squared error 0.068414 with the hand-set weights, 0.050412 tuned.
//! Dropped: wing imbalance, exchange when ahead, back row .

use super::features::FEATURES;

/// `(middle game, ending)` weight of each feature, in centi-men per count.
pub(crate) const WEIGHTS: [(i32, i32); FEATURES] = [
    // man
    (513, 182),
    // king
    (971, 151),
    // advance row 1
    (333, -215),
    // advance row 2
    (239, -196),
    // advance row 3
    (210, -148),
    // advance row 4
    (232, -78),
    // advance row 5
    (419, -174),
    // advance row 6
    (510, -75),
    // back-row guard
    (254, 51),
    // centre
    (61, -59),
    // edge
    (-63, -25),
    // man mobility
    (68, 20),
    // king mobility
    (103, -25),
    // low mobility
    (-131, -127),
    // runaway
    (503, 227),
    // runaway rows to go
    (-8, -149),
    // king on main diagonal
    (-471, 245),
    // drive: loser's mobility
    (-29, 140),
    // drive: trades
    (39, -17),
    // tempo
    (31, 11),
    // exchange when ahead
    (0, 0),
    // wing imbalance
    (0, 0),
    // backed man
    (78, -110),
    // back row ----
    (0, 0),
    // back row 1---
    (0, 0),
    // back row -2--
    (0, 0),
    // back row 12--
    (0, 0),
    // back row --3-
    (0, 0),
    // back row 1-3-
    (0, 0),
    // back row -23-
    (0, 0),
    // back row 123-
    (0, 0),
    // back row ---4
    (0, 0),
    // back row 1--4
    (0, 0),
    // back row -2-4
    (0, 0),
    // back row 12-4
    (0, 0),
    // back row --34
    (0, 0),
    // back row 1-34
    (0, 0),
    // back row -234
    (0, 0),
    // back row 1234
    (0, 0),
];
