//! Russian draughts (shashki): perft against two outside generators.
//!
//! - KestoG (Kestutis Gasaitis's engine, `perft.txt` of its Linux port)
//!   publishes depth-10 counts from the start and from twelve positions,
//!   written in its algebraic FEN (a1 dark, White below). Our board is its
//!   mirror image (a1 light), which perft does not see: [`from_algebraic`]
//!   maps each square to the mirrored one.
//! - dctl (Rein Halbersma's library) asserts the counts from the start,
//!   with and without duplicate captures, in its tests.
//!
//! Our `perft` counts each (from, to, captured set) once, as dctl's count
//! without duplicates does; KestoG's published figures count every path
//! its generator walks. A build of KestoG that merges its equal moves
//! gives the distinct counts asserted here from every position, and its
//! plain build gives the published figures (in the comments). Four of
//! KestoG's positions were counted with a stray black man its FEN reader
//! puts on the first row (`...,g5:H0:F1` sets g1): the counts below are
//! those of the positions as written, from the same build with the reader
//! fixed.

use damas::spanish::{perft, perft_keeping_duplicates, Position, Rules, Variant};

/// Our FEN of a position in KestoG's algebraic FEN (`W:Wa3,c3:Bb8`, `K`
/// before a king): the square on file `f`, rank `r` of the Russian board
/// is ours on rank `r` and the mirrored file, square number
/// `4 (r - 1) + f / 2 + 1` with `f` from 0.
fn from_algebraic(fen: &str) -> String {
    let mut parts = fen.split(':');
    let side = parts.next().expect("a side");
    let mut out = side.to_string();
    for list in parts {
        let (colour, items) = list.split_at(1);
        let squares: Vec<String> = items
            .split(',')
            .filter(|item| !item.is_empty())
            .map(|item| {
                let (king, sq) = match item.strip_prefix('K') {
                    Some(rest) => ("K", rest),
                    None => ("", item),
                };
                let b = sq.as_bytes();
                let file = u32::from(b[0] - b'a');
                let rank = u32::from(b[1] - b'0');
                format!("{king}{}", 4 * (rank - 1) + file / 2 + 1)
            })
            .collect();
        out.push_str(&format!(":{colour}{}", squares.join(",")));
    }
    out
}

fn russian(fen: &str) -> Position {
    let pos: Position = fen.parse().expect("a valid FEN");
    pos.with_rules(Rules::new(Variant::Russian).expect("Russian draughts is playable"))
}

fn check(algebraic: &str, counts: &[u64]) {
    let fen = from_algebraic(algebraic);
    let pos = russian(&fen);
    for (depth, &want) in (1..).zip(counts) {
        assert_eq!(
            perft(&pos, depth),
            want,
            "{algebraic} ({fen}) depth {depth}"
        );
    }
}

const START: &str = "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6";

#[test]
fn the_algebraic_squares_map_to_ours() {
    assert_eq!(
        from_algebraic(START),
        "W:W9,10,11,12,5,6,7,8,1,2,3,4:B29,30,31,32,25,26,27,28,21,22,23,24"
    );
    assert_eq!(russian(&from_algebraic(START)).to_fen(), "W:W1-12:B21-32");
    assert_eq!(from_algebraic("B:WKc5:Bh8"), "B:WK18:B32");
}

#[test]
fn from_the_start() {
    // The same as Spanish draughts up to 4 plies; dctl and KestoG agree.
    check(START, &[7, 49, 302, 1469, 7482, 37986, 190146]);
}

#[test]
fn duplicates_as_dctl_keeps_them() {
    let pos = russian(&from_algebraic(START));
    // dctl's count with duplicates, which first differs at 8.
    assert_eq!(perft_keeping_duplicates(&pos, 8, 1, 1), 929905);
    assert_eq!(perft(&pos, 8), 929899);
}

#[test]
#[ignore = "deep: run in release"]
fn from_the_start_deep() {
    // dctl without duplicates; KestoG merged. KestoG publishes 22,450,647
    // at 10 with its paths, dctl 22,450,628 with its capture orders.
    check(
        START,
        &[
            7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032,
        ],
    );
    let pos = russian(&from_algebraic(START));
    assert_eq!(perft_keeping_duplicates(&pos, 10, 2, 64), 22450628);
}

/// KestoG's positions (`perft.txt`), each with its published depth-10
/// figure and the counts at depths 1 to 10 of its build with equal moves
/// merged, which ours equal. Where the published figure is `None`, KestoG
/// counted the position with its stray first-row man (see the module).
const KESTOG: [(&str, Option<u64>, [u64; 10]); 12] = [
    (
        "W:Wa7,a5,b4,c3,f2,h2,g1:Bb8,c7,e7,g7,g5,f4,h4",
        Some(644551),
        [6, 22, 96, 343, 1162, 4025, 13838, 48459, 177229, 644030],
    ),
    (
        "W:Wd6,a3,g3,f2,h2,c1,g1:Bb8,f8,h8,b6,f6,h6,h4",
        Some(12358541),
        [
            7, 46, 233, 1167, 6080, 27366, 138509, 601124, 2856734, 12357022,
        ],
    ),
    (
        "B:Wc5,e5,b4,a3,e3,f2,h2,g1:Bb8,h8,a7,c7,g7,h6,g5,h4",
        Some(436191),
        [6, 16, 51, 189, 572, 2276, 7773, 30294, 107747, 436149],
    ),
    (
        "W:Wc5,b4,d4,f4,a3,f2,h2,g1:Bd8,a7,e7,g7,d6,f6,h6,h4",
        Some(592027),
        [8, 19, 68, 202, 755, 2662, 10611, 38970, 160372, 591936],
    ),
    (
        "W:Wc5,e5,d4,g3,d2,f2,a1,c1,e1,g1:Bf8,h8,a7,c7,e7,g7,b6,h6,a5,g5",
        None,
        [
            11, 52, 211, 709, 3299, 12288, 60073, 246479, 1247792, 5523261,
        ],
    ),
    (
        "B:Wb4,d4,f4,a3,e3,g3,b2,d2,f2,a1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,b6,h6,c5,g5,h4",
        Some(1027500),
        [6, 17, 79, 307, 1305, 4788, 17695, 67613, 245115, 1027320],
    ),
    (
        "W:Wa5,d4,f4,a3,c3,e3,h2,c1:Bb8,a7,c7,b6,f6,h6,c5,g5",
        None,
        [7, 22, 64, 162, 473, 1340, 4377, 14564, 52056, 198678],
    ),
    (
        "W:Wg5,f4,h4,a3,e3,d2:Bf8,h8,e7,b6,d6,h6",
        Some(446400),
        [5, 24, 96, 354, 1058, 3267, 10692, 35659, 130740, 446380],
    ),
    (
        "W:Wd4,f4,h4,a3,c3:Bd8,e7,b6,h6,c5",
        None,
        [6, 14, 49, 121, 367, 1073, 3084, 9449, 28014, 91427],
    ),
    (
        "W:Wd4,f4,a3,c3,e3,d2,f2,h2,c1,e1,g1:Bb8,d8,f8,h8,a7,b6,d6,h6,c5,g5,h4",
        Some(4025158),
        [7, 41, 172, 801, 3450, 14597, 58366, 235622, 988717, 4021149],
    ),
    (
        "W:Wc5,d4,f4,h4,g3,h2,e1:Bf8,a7,e7,g7,d6,a5",
        None,
        [7, 9, 51, 270, 1251, 5535, 23703, 103197, 445937, 1965683],
    ),
    (
        "B:Wd4,f4,a3,e3,b2,f2,h2,e1,g1:Bb8,d8,h8,g7,b6,d6,h6,a5,c5,h4",
        Some(6055896),
        [
            10, 53, 255, 1072, 4669, 18993, 81440, 330829, 1432295, 5977029,
        ],
    ),
];

#[test]
fn from_kestogs_positions() {
    for (fen, _, counts) in KESTOG {
        let quick: Vec<u64> = counts.into_iter().take_while(|&n| n < 100_000).collect();
        check(fen, &quick);
    }
}

#[test]
#[ignore = "deep: run in release"]
fn from_kestogs_positions_deep() {
    for (fen, published, counts) in KESTOG {
        check(fen, &counts);
        // KestoG's figure counts more: every path it walks to the same
        // move. It is never below the distinct count.
        if let Some(published) = published {
            assert!(published >= counts[9], "{fen}");
        }
    }
}

#[test]
fn from_positions_with_kings() {
    // Random positions of kings and men (of a thousand checked against
    // KestoG's merged count to depth 6), with its counts.
    check(
        "W:WKd8,Ka5,e5,Kd2,h4,g5:BKf4,Kg7,f2,h8,b6",
        &[3, 14, 74, 426, 4268, 30549],
    );
    check(
        "B:Wa1,Ka5,Kc1,f2,g5,Kf4,d6:BKe7,Ke1,Kg7,h2,h8,Ke3",
        &[8, 16, 79, 700, 4848, 51648],
    );
    check(
        "B:WKd4,Kh8,Kb6,h4:Be7,b4,Ka5,Kd6",
        &[2, 32, 268, 2269, 20273, 179039],
    );
    check(
        "B:WKf6,d2,g5,f2,Ka7,b2,d6:BKb8,e3,Kf8,c7,Kg1,h2,Ke1",
        &[9, 16, 93, 580, 3487, 22170],
    );
}

fn moves(fen: &str) -> Vec<String> {
    let pos = russian(fen);
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_text(m)).collect();
    texts.sort();
    texts
}

fn spanish_moves(fen: &str) -> Vec<String> {
    let pos: Position = fen.parse().expect("a valid FEN");
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| pos.move_text(m)).collect();
    texts.sort();
    texts
}

#[test]
fn a_man_captures_backward() {
    // White's man on 14 takes 10 behind it, onto 5; a Spanish man cannot,
    // and steps forward instead.
    assert_eq!(moves("W:W14:B10"), ["14x5"]);
    assert_eq!(spanish_moves("W:W14:B10"), ["14-18", "14-19"]);
}

#[test]
fn the_choice_among_captures_is_free() {
    // White's man on 14 takes one piece (18, onto 21) or two (19 and 28,
    // onto 32): both are moves. Spanish and Brazilian draughts make it
    // take two.
    let fen = "W:W14:B18,19,28";
    assert_eq!(moves(fen), ["14x21", "14x32"]);
    assert_eq!(spanish_moves(fen), ["14x32"]);
    let brazilian = fen
        .parse::<Position>()
        .unwrap()
        .with_rules(Rules::new(Variant::Brazilian).unwrap());
    assert_eq!(brazilian.legal_moves().len(), 1);
    // A capture is still compulsory: no step of the man on 6 either.
    assert_eq!(moves("W:W6,14:B18"), ["14x21"]);
}

#[test]
fn a_man_crowned_in_a_capture_goes_on_as_a_king() {
    // White's man on 23 takes 27 onto 30, on its last row, is crowned
    // there and flies on over 26 to take 21 from afar, onto 17, ending
    // the move a king off the last row.
    let fen = "W:W23:B27,21";
    let pos = russian(fen);
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    let mv = list[0];
    assert_eq!(pos.move_text(&mv), "23x17");
    assert_eq!(mv.capture_count(), 2);
    assert!(mv.crowned_on_the_way());
    assert!(pos.is_promotion(&mv));
    let after = pos.played_unchecked(&mv);
    assert_eq!(after.to_fen(), "B:WK17:B");
    assert_eq!(after.hash(), after.compute_hash());
    // Spanish draughts ends the move on 30; Brazilian draughts goes on as
    // a man, which has nothing more to take there.
    assert_eq!(spanish_moves(fen), ["23x30"]);
    let brazilian = fen
        .parse::<Position>()
        .unwrap()
        .with_rules(Rules::new(Variant::Brazilian).unwrap());
    assert_eq!(brazilian.move_text(&brazilian.legal_moves()[0]), "23x30");
    // Ending on the last row it is crowned by the square alone.
    let pos = russian("W:W23:B27");
    let mv = pos.legal_moves()[0];
    assert!(!mv.crowned_on_the_way());
    assert!(pos.is_promotion(&mv));
}

#[test]
fn a_capture_goes_on_while_it_can() {
    // A man may not stop on 23 after taking 19: it must take 28 too.
    assert_eq!(moves("W:W14:B19,28"), ["14x32"]);
    // A king taking 10 may land on 14, 19, 23, 28 or 32 when nothing more
    // can be taken...
    assert_eq!(moves("W:WK1:B10"), ["1x14", "1x19", "1x23", "1x28", "1x32"]);
    // ...but only on 19 when from there it can take 26: it must, and ends
    // on 29.
    assert_eq!(moves("W:WK1:B10,26"), ["1x29"]);
}

#[test]
fn landings_on_one_line_are_one_move() {
    // The king on 1 takes 10, then 23 further along the same diagonal,
    // from whichever of 14 and 19 it passes: two moves (onto 28 or 32),
    // as dctl counts them with or without duplicates. KestoG's generator
    // walks each of the two landings and lists four
    // (`W:WKa1:Bc3,f6`, the same position in its notation).
    let fen = "W:WK1:B10,23";
    assert_eq!(moves(fen), ["1x28", "1x32"]);
    let pos = russian(fen);
    assert_eq!(perft_keeping_duplicates(&pos, 1, 1, 1), 2);
    assert_eq!(from_algebraic("W:WKa1:Bc3,f6"), fen);
}
