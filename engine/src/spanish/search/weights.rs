//! The evaluation's weights, written by `damas tune` (docs/SEARCH.md,
//! *Tuning*): rerun the pipeline rather than editing by hand.
//! Data: train.txt, 486748 positions.
//! K = 0.002033; 1500 epochs; mean squared error 0.068414 with the hand-set weights, 0.049410 tuned.

use super::features::FEATURES;

/// `(middle game, ending)` weight of each feature, in centi-men per count.
pub(crate) const WEIGHTS: [(i32, i32); FEATURES] = [
    // man
    (393, 167),
    // king
    (736, 215),
    // advance row 1
    (172, -84),
    // advance row 2
    (103, -77),
    // advance row 3
    (54, -26),
    // advance row 4
    (72, 45),
    // advance row 5
    (248, -54),
    // advance row 6
    (424, 40),
    // back-row guard
    (149, 51),
    // centre
    (76, -45),
    // edge
    (-27, -26),
    // man mobility
    (9, 29),
    // king mobility
    (65, -15),
    // low mobility
    (-125, -184),
    // runaway
    (482, 234),
    // runaway rows to go
    (-34, -137),
    // king on main diagonal
    (-425, 224),
    // drive: loser's mobility
    (-2, 135),
    // drive: trades
    (14, -4),
    // tempo
    (25, 12),
    // exchange when ahead
    (54, -21),
    // wing imbalance
    (28, -58),
    // backed man
    (1, -82),
    // back row ----
    (-122, -130),
    // back row 1---
    (-331, -49),
    // back row -2--
    (-135, -60),
    // back row 12--
    (-190, -64),
    // back row --3-
    (-112, -49),
    // back row 1-3-
    (-118, 8),
    // back row -23-
    (24, 14),
    // back row 123-
    (70, -171),
    // back row ---4
    (-20, -17),
    // back row 1--4
    (-184, 45),
    // back row -2-4
    (18, 96),
    // back row 12-4
    (-38, 77),
    // back row --34
    (216, -26),
    // back row 1-34
    (153, -113),
    // back row -234
    (258, 182),
    // back row 1234
    (149, 164),
];
