//! Spanish draughts perft: the start position, a data-file suite
//! (`tests/data/spanish.perft`), and a cross-check of the bitboard move
//! generator against a slow, independent reference generator written here
//! with plain loops on an 8×8 array.

use std::collections::BTreeSet;

use damas::spanish::{
    divide, perft, perft_hashed, perft_keeping_duplicates, perft_parallel, Bitboard, Color, Move,
    PieceKind, Position,
};
use proptest::prelude::*;

/// Reference rules on an 8×8 array: `board[rank][file]`, rank 0 is White's
/// back row; 1 white man, 2 white king, -1 black man, -2 black king.
mod reference {
    use super::*;

    pub type Board = [[i8; 8]; 8];

    /// A reference move: from, to (PDN numbers) and captured numbers as a
    /// bit mask (bit n-1 for square n).
    pub type RMove = (u8, u8, u32);

    #[derive(Clone, Copy)]
    pub struct RPos {
        pub board: Board,
        /// 1 White, -1 Black.
        pub side: i8,
    }

    /// PDN number of a dark square, counted the long way: row by row from
    /// White's side, right to left.
    pub fn number(file: i32, rank: i32) -> u8 {
        let mut count = 0;
        for f in (0..8).rev() {
            if (f + rank) % 2 == 1 {
                if f == file {
                    return (4 * rank + count + 1) as u8;
                }
                count += 1;
            }
        }
        panic!("light square {file},{rank}");
    }

    pub fn coords(n: u8) -> (i32, i32) {
        for rank in 0..8 {
            for file in 0..8 {
                if (file + rank) % 2 == 1 && number(file, rank) == n {
                    return (file, rank);
                }
            }
        }
        panic!("no square {n}");
    }

    pub fn from_position(p: &Position) -> RPos {
        let mut board = [[0i8; 8]; 8];
        for n in 1..=32u8 {
            let sq = damas::spanish::Square::new(n).unwrap();
            if let Some(piece) = p.piece_at(sq) {
                let v = match piece.kind {
                    PieceKind::Man => 1,
                    PieceKind::King => 2,
                };
                let v = if piece.color == Color::White { v } else { -v };
                let (f, r) = coords(n);
                board[r as usize][f as usize] = v;
            }
        }
        RPos {
            board,
            side: if p.to_move() == Color::White { 1 } else { -1 },
        }
    }

    fn inside(f: i32, r: i32) -> bool {
        (0..8).contains(&f) && (0..8).contains(&r)
    }

    fn at(b: &Board, f: i32, r: i32) -> i8 {
        b[r as usize][f as usize]
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        b: &Board,
        f: i32,
        r: i32,
        king: bool,
        side: i8,
        from: u8,
        mask: u32,
        kings: u32,
        out: &mut Vec<(RMove, u32, u32)>,
    ) {
        let mut any = false;
        let dirs: Vec<(i32, i32)> = if king {
            vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
        } else {
            let d = side as i32;
            vec![(1, d), (-1, d)]
        };
        for (df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            if king {
                while inside(x, y) && at(b, x, y) == 0 {
                    x += df;
                    y += dr;
                }
            }
            if !inside(x, y) {
                continue;
            }
            let cell = at(b, x, y);
            let n = number(x, y);
            let bit = 1u32 << (n - 1);
            if cell * side >= 0 || mask & bit != 0 {
                continue;
            }
            let kbit = if cell.abs() == 2 { bit } else { 0 };
            let (mut lx, mut ly) = (x + df, y + dr);
            while inside(lx, ly) && at(b, lx, ly) == 0 {
                any = true;
                let last_row = if side == 1 { 7 } else { 0 };
                if !king && ly == last_row {
                    out.push(((from, number(lx, ly), mask | bit), mask | bit, kings | kbit));
                } else {
                    search(b, lx, ly, king, side, from, mask | bit, kings | kbit, out);
                }
                if !king {
                    break;
                }
                lx += df;
                ly += dr;
            }
        }
        if !any && mask != 0 {
            out.push(((from, number(f, r), mask), mask, kings));
        }
    }

    /// Legal moves, sorted, without duplicates.
    pub fn moves(p: &RPos) -> Vec<RMove> {
        let mut caps = Vec::new();
        let mut quiet = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let v = at(&p.board, f, r);
                if v * p.side <= 0 {
                    continue;
                }
                let king = v.abs() == 2;
                let from = number(f, r);
                let mut b = p.board;
                b[r as usize][f as usize] = 0;
                search(&b, f, r, king, p.side, from, 0, 0, &mut caps);
                let dirs: Vec<(i32, i32)> = if king {
                    vec![(1, 1), (-1, 1), (1, -1), (-1, -1)]
                } else {
                    vec![(1, p.side as i32), (-1, p.side as i32)]
                };
                for (df, dr) in dirs {
                    let (mut x, mut y) = (f + df, r + dr);
                    while inside(x, y) && at(&p.board, x, y) == 0 {
                        quiet.push((from, number(x, y), 0));
                        if !king {
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
        }
        let mut out: Vec<RMove> = if caps.is_empty() {
            quiet
        } else {
            let best = caps
                .iter()
                .map(|(_, m, k)| (m.count_ones(), k.count_ones()))
                .max()
                .unwrap();
            caps.iter()
                .filter(|(_, m, k)| (m.count_ones(), k.count_ones()) == best)
                .map(|(mv, _, _)| *mv)
                .collect()
        };
        out.sort_unstable();
        out.dedup();
        out
    }

    pub fn play(p: &RPos, mv: &RMove) -> RPos {
        let mut q = *p;
        let (ff, fr) = coords(mv.0);
        let (tf, tr) = coords(mv.1);
        let mut v = q.board[fr as usize][ff as usize];
        q.board[fr as usize][ff as usize] = 0;
        for n in 1..=32u8 {
            if mv.2 & (1 << (n - 1)) != 0 {
                let (cf, cr) = coords(n);
                q.board[cr as usize][cf as usize] = 0;
            }
        }
        if v.abs() == 1 && tr == if p.side == 1 { 7 } else { 0 } {
            v *= 2;
        }
        q.board[tr as usize][tf as usize] = v;
        q.side = -p.side;
        q
    }

    pub fn perft(p: &RPos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        moves(p).iter().map(|m| perft(&play(p, m), depth - 1)).sum()
    }
}

fn as_ref_moves(moves: &[Move]) -> Vec<reference::RMove> {
    let mut v: Vec<_> = moves
        .iter()
        .map(|m| (m.from().number(), m.to().number(), m.captured().bits()))
        .collect();
    v.sort_unstable();
    v
}

const START: [u64; 13] = [
    7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464, 81383200, 365728331,
    1637958247,
];

#[test]
fn start_position_to_depth_9() {
    let pos = Position::start();
    for (d, &want) in START.iter().enumerate().take(9) {
        assert_eq!(perft(&pos, d as u32 + 1), want, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "deep: depths 10-13 take a while (run in release)"]
fn start_position_deep() {
    let pos = Position::start();
    for d in 10..=13u32 {
        assert_eq!(
            perft_parallel(&pos, d, 2),
            START[d as usize - 1],
            "depth {d}"
        );
    }
}

#[test]
fn hashed_perft_equals_the_plain_counts_to_depth_11() {
    let pos = Position::start();
    for (d, &want) in START.iter().enumerate().take(11) {
        let d = d as u32 + 1;
        assert_eq!(perft_hashed(&pos, d, 1, 16), want, "depth {d}");
    }
    // The parallel split (a table per thread), and a 1 MiB table that
    // overwrites entries all the time.
    assert_eq!(perft_hashed(&pos, 11, 2, 16), START[10]);
    assert_eq!(perft_hashed(&pos, 10, 1, 1), START[9]);
    assert_eq!(perft_hashed(&pos, 0, 1, 1), 1);
}

#[test]
fn hashed_perft_equals_the_suite() {
    for c in &load_suite() {
        let pos = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        for &(d, n) in &c.counts {
            assert_eq!(perft_hashed(&pos, d, 2, 2), n, "{} depth {d}", c.id);
        }
    }
}

#[test]
fn keeping_duplicates_counts_each_capture_order() {
    // The king on 9 can go round the ring of 5, 15, 28 and 13 either way
    // and land back on 9: one move (9x9 taking the four), two orders.
    let ring = Position::from_fen("W:WK9:B5,13,15,28").expect("valid");
    assert_eq!(perft(&ring, 1), 1);
    assert_eq!(perft_keeping_duplicates(&ring, 1, 1, 1), 2);
    // A king on 1 taking 10 and 19 along one diagonal has several final
    // landing squares: each is its own move with one order.
    let choice = Position::from_fen("W:WK1:B10,19").expect("valid");
    assert_eq!(
        perft_keeping_duplicates(&choice, 1, 1, 1),
        perft(&choice, 1)
    );
    // From the start the counts agree up to depth 11 (dctl's keep mode
    // first differs at 12), on one thread and on two.
    let start = Position::start();
    for (d, &want) in START.iter().enumerate().take(11) {
        let d = d as u32 + 1;
        assert_eq!(
            perft_keeping_duplicates(&start, d, 1, 16),
            want,
            "depth {d}"
        );
    }
    assert_eq!(perft_keeping_duplicates(&start, 11, 2, 16), START[10]);
}

#[test]
#[ignore = "deep: run in release"]
fn keeping_duplicates_gives_dctls_counts() {
    let start = Position::start();
    assert_eq!(perft_keeping_duplicates(&start, 12, 1, 256), 365_734_003);
    assert_eq!(perft_keeping_duplicates(&start, 13, 2, 1024), 1_638_016_958);
}

#[test]
#[ignore = "deep: run in release"]
fn hashed_perft_deep() {
    let pos = Position::start();
    assert_eq!(perft_hashed(&pos, 12, 1, 256), START[11]);
    assert_eq!(perft_hashed(&pos, 13, 2, 512), START[12]);
}

#[test]
fn divide_and_parallel_agree() {
    let pos = Position::start();
    let d = divide(&pos, 6);
    assert_eq!(d.len(), 7);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), START[5]);
    assert_eq!(perft_parallel(&pos, 7, 2), START[6]);
    assert_eq!(perft(&pos, 0), 1);
}

#[test]
fn reference_agrees_from_start() {
    let p = reference::from_position(&Position::start());
    for d in 1..=5 {
        assert_eq!(reference::perft(&p, d), START[d as usize - 1]);
    }
}

/// A position of the suite with its expected counts.
struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load_suite() -> Vec<Case> {
    let text = include_str!("data/spanish.perft");
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(Case {
                id: rest.trim().to_string(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "fen" => cases.last_mut().expect("fen before id").fen = rest.trim().to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let d: u32 = it.next().and_then(|x| x.parse().ok()).expect("depth");
                let n: u64 = it.next().and_then(|x| x.parse().ok()).expect("count");
                cases
                    .last_mut()
                    .expect("perft before id")
                    .counts
                    .push((d, n));
            }
            _ => panic!("line {}: unknown key {key}", i + 1),
        }
    }
    cases
}

#[test]
fn perft_suite_from_data_file() {
    let cases = load_suite();
    assert!(cases.len() >= 8);
    for c in &cases {
        let pos = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        for &(d, n) in &c.counts {
            assert_eq!(perft(&pos, d), n, "{} depth {d}", c.id);
        }
    }
}

#[test]
fn reference_agrees_with_data_file_at_low_depth() {
    for c in &load_suite() {
        let pos = Position::from_fen(&c.fen).unwrap();
        let rp = reference::from_position(&pos);
        for &(d, n) in c.counts.iter().filter(|(_, n)| *n <= 60_000) {
            assert_eq!(reference::perft(&rp, d), n, "{} depth {d}", c.id);
        }
    }
}

/// Prints the reference counts for the suite positions (used to write the
/// data file): `cargo test --test spanish_perft -- --ignored --nocapture print_reference`.
#[test]
#[ignore = "tool for writing tests/data/spanish.perft"]
fn print_reference_counts() {
    for c in &load_suite() {
        let pos = Position::from_fen(&c.fen).unwrap();
        let rp = reference::from_position(&pos);
        println!("id {}\nfen {}", c.id, c.fen);
        for d in 1..=c.counts.iter().map(|x| x.0).max().unwrap_or(5) {
            println!("perft {d} {}", reference::perft(&rp, d));
        }
    }
}

/// Random positions: any mix of men and kings, men never on their own
/// promotion row.
fn arb_position() -> impl Strategy<Value = Position> {
    (
        proptest::collection::vec(0u8..10, 32),
        any::<bool>(),
        1u8..10,
    )
        .prop_map(|(cells, white, density)| {
            let (mut w, mut b, mut k) = (0u32, 0u32, 0u32);
            for (i, &c) in cells.iter().enumerate() {
                let bit = 1u32 << i;
                // density 1..9 out of 10 squares occupied on average
                if c >= density {
                    continue;
                }
                match c % 4 {
                    0 => w |= bit,
                    1 => b |= bit,
                    2 => {
                        w |= bit;
                        k |= bit
                    }
                    _ => {
                        b |= bit;
                        k |= bit
                    }
                }
            }
            k |= w & 0xF000_0000;
            k |= b & 0x0000_000F;
            let side = if white { Color::White } else { Color::Black };
            Position::from_pieces(
                Bitboard::from_bits(w).unwrap(),
                Bitboard::from_bits(b).unwrap(),
                Bitboard::from_bits(k).unwrap(),
                side,
            )
            .unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn movegen_matches_reference(pos in arb_position()) {
        let fast = pos.legal_moves();
        let fast_sorted = as_ref_moves(&fast);
        let mut dedup = fast_sorted.clone();
        dedup.dedup();
        prop_assert_eq!(&dedup, &fast_sorted, "duplicates in {}", pos);
        let want = reference::moves(&reference::from_position(&pos));
        prop_assert_eq!(fast_sorted, want, "position {}", pos);
        prop_assert_eq!(pos.count_legal_moves(), fast.len() as u64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn perft3_matches_reference(pos in arb_position()) {
        let rp = reference::from_position(&pos);
        prop_assert_eq!(perft(&pos, 3), reference::perft(&rp, 3), "position {}", pos);
    }

    #[test]
    fn moves_are_unique_sets(pos in arb_position()) {
        let set: BTreeSet<_> = pos.legal_moves().iter().map(|m| (m.from(), m.to(), m.captured().bits())).collect();
        prop_assert_eq!(set.len(), pos.legal_moves().len());
    }
}
