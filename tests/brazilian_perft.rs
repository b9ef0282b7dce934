//! Brazilian draughts (the international rules on the 8×8 board): perft
//! against an independent count, `tests/data/brazilian_perft.py`, a plain
//! Python generator on (row, file) coordinates written apart from the
//! bitboard one (`python3 tests/data/brazilian_perft.py FEN DEPTH` prints
//! the counts below).

use damas::spanish::{perft, Position, Rules, Variant};

fn brazilian(fen: &str) -> Position {
    let pos: Position = fen.parse().expect("a valid FEN");
    pos.with_rules(Rules::new(Variant::Brazilian).expect("Brazilian draughts is playable"))
}

fn check(fen: &str, counts: &[u64]) {
    let pos = brazilian(fen);
    for (depth, &want) in (1..).zip(counts) {
        assert_eq!(perft(&pos, depth), want, "{fen} depth {depth}");
    }
}

#[test]
fn from_the_start() {
    // The same as Spanish draughts up to 4 plies: no capture of two, and
    // no backward capture, is possible before.
    check(
        damas::spanish::START_FEN,
        &[7, 49, 302, 1469, 7473, 37628, 187302, 907830],
    );
}

#[test]
fn with_kings_and_backward_captures() {
    check(
        "W:WK1,9,10,K14:B18,19,K23,27",
        &[2, 14, 146, 969, 6952, 41388],
    );
    check(
        "B:W5,6,7,K12,21:B13,14,K20,26,28",
        &[1, 2, 14, 145, 1061, 8632],
    );
    check("W:W18,22,26:B14,15,23,24,30,31", &[1, 2, 5, 19, 42, 126]);
    check(
        "W:W25,K3:B21,22,29,30,14,15,7,8",
        &[1, 6, 28, 132, 668, 3437],
    );
}

#[test]
fn a_man_crosses_its_last_row_and_goes_on_as_a_man() {
    // White's man on 22 takes 27 onto 31, on its last row, and must go
    // on backward over 28 to 24, uncrowned; in Spanish draughts the man
    // is crowned on 31 and the move ends there.
    let pos = brazilian("W:W22:B27,28");
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1);
    assert_eq!(pos.move_text(&moves[0]), "22x24");
    assert_eq!(moves[0].capture_count(), 2);
    assert!(!pos.is_promotion(&moves[0]));
    let spanish: Position = "W:W22:B27,28".parse().unwrap();
    assert_eq!(spanish.move_text(&spanish.legal_moves()[0]), "22x31");
    // Ending there, it is crowned.
    let pos = brazilian("W:W22:B27");
    assert!(pos.is_promotion(&pos.legal_moves()[0]));
}

#[test]
fn the_most_pieces_without_the_king_tie_break() {
    // One piece either way: Brazilian draughts leaves the choice, Spanish
    // draughts makes White take the king.
    let fen = "W:W22:B27,K26";
    assert_eq!(brazilian(fen).legal_moves().len(), 2);
    let spanish: Position = fen.parse().unwrap();
    assert_eq!(spanish.legal_moves().len(), 1);
}
