//! A slow, obviously-correct move generator for Chinese checkers, written
//! from the rules with plain coordinates, loops and a recursive search (no
//! bitboards, no tables from the library), checked against the fast one on
//! thousands of random positions and by perft.

use damas::chinese::{perft, Cell, Checkers, Mask, Move, Position, Rules, Variant};
use damas::Game;
use proptest::prelude::*;
use std::collections::BTreeSet;

const DIRS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

fn on_star(x: i32, y: i32) -> bool {
    let (a, b) = (x - 8, y - 8);
    (0..17).contains(&x)
        && (0..17).contains(&y)
        && ((a >= -4 && b <= 4 && a - b <= 4) || (a <= 4 && b >= -4 && a - b >= -4))
}

/// Triangle `t` (clockwise from the bottom) or, with `camp`, the 15-point
/// camp, straight from the definitions.
fn in_region(x: i32, y: i32, t: usize, camp: bool) -> bool {
    if !on_star(x, y) {
        return false;
    }
    let (a, b) = (x - 8, y - 8);
    let k = if camp { 4 } else { 5 };
    match t {
        0 => b <= -k && a >= -4 && a - b <= 4,
        1 => a <= -k && b >= -4 && a - b >= -4,
        2 => a - b <= -k && a >= -4 && b <= 4,
        3 => b >= k && a <= 4 && a - b >= -4,
        4 => a >= k && b <= 4 && a - b <= 4,
        _ => a - b >= k && a <= 4 && b >= -4,
    }
}

fn seats(n: usize) -> Vec<usize> {
    match n {
        1 => vec![0],
        2 => vec![0, 3],
        3 => vec![0, 2, 4],
        4 => vec![0, 2, 3, 5],
        5 => vec![0, 1, 2, 3, 4],
        _ => vec![0, 1, 2, 3, 4, 5],
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Sq {
    Empty,
    Piece(usize, bool),
}

struct Board {
    sq: [[Sq; 17]; 17],
    n: usize,
    japanese: bool,
    lock: bool,
}

impl Board {
    fn from_position(pos: &Position) -> Board {
        let mut sq = [[Sq::Empty; 17]; 17];
        for c in Cell::all() {
            if let Some((p, k)) = pos.piece_at(c) {
                sq[c.y() as usize][c.x() as usize] = Sq::Piece(p, k);
            }
        }
        Board {
            sq,
            n: pos.players(),
            japanese: pos.variant() == Variant::Japanese,
            lock: pos.goal_lock(),
        }
    }

    fn at(&self, x: i32, y: i32) -> Sq {
        self.sq[y as usize][x as usize]
    }

    fn in_goal(&self, p: usize, x: i32, y: i32) -> bool {
        in_region(x, y, (seats(self.n)[p] + 3) % 6, self.japanese)
    }

    fn may_end(&self, p: usize, x: i32, y: i32) -> bool {
        if !self.japanese {
            return true;
        }
        let s = seats(self.n);
        let own = in_region(x, y, s[p], true) || self.in_goal(p, x, y);
        let other = (0..self.n).any(|o| o != p && in_region(x, y, s[o], true));
        own || !other
    }

    /// The landings of chains from (x, y) for a piece of `owner`; `locked`
    /// once the piece stands in its goal under the goal lock (from the start
    /// or from a landing of the chain), when it may land only in the goal.
    #[allow(clippy::too_many_arguments)]
    fn jumps(
        &self,
        owner: usize,
        x: i32,
        y: i32,
        king: bool,
        locked: Option<usize>,
        visited: &mut Vec<(i32, i32)>,
        out: &mut BTreeSet<(i32, i32)>,
    ) {
        for (dx, dy) in DIRS {
            // Walk over the line of pieces next to (x, y).
            let mut k = 1;
            let mut blocked = false;
            while on_star(x + k * dx, y + k * dy) {
                match self.at(x + k * dx, y + k * dy) {
                    Sq::Empty => break,
                    Sq::Piece(_, true) => {
                        blocked = true;
                        break;
                    }
                    Sq::Piece(_, false) => k += 1,
                }
            }
            if blocked || k == 1 || (!king && k > 2) {
                continue;
            }
            let (lx, ly) = (x + k * dx, y + k * dy);
            if !on_star(lx, ly) || visited.contains(&(lx, ly)) {
                continue;
            }
            if let Some(p) = locked {
                if !self.in_goal(p, lx, ly) {
                    continue;
                }
            }
            visited.push((lx, ly));
            out.insert((lx, ly));
            let landed_in_goal = self.lock && self.in_goal(owner, lx, ly);
            let next = locked.or(landed_in_goal.then_some(owner));
            self.jumps(owner, lx, ly, king, next, visited, out);
            // Keep (lx, ly) in `visited`: a point landed on once is never a
            // new destination, and leaving it in only prunes repeat visits.
        }
    }

    fn moves(&mut self, p: usize) -> BTreeSet<(Cell, Cell)> {
        let mut r = BTreeSet::new();
        for y in 0..17 {
            for x in 0..17 {
                if !on_star(x, y) {
                    continue;
                }
                let Sq::Piece(o, king) = self.at(x, y) else {
                    continue;
                };
                if o != p {
                    continue;
                }
                let locked = (self.lock && self.in_goal(p, x, y)).then_some(p);
                let mut dests = BTreeSet::new();
                for (dx, dy) in DIRS {
                    let (nx, ny) = (x + dx, y + dy);
                    if on_star(nx, ny)
                        && self.at(nx, ny) == Sq::Empty
                        && locked.is_none_or(|p| self.in_goal(p, nx, ny))
                    {
                        dests.insert((nx, ny));
                    }
                }
                self.sq[y as usize][x as usize] = Sq::Empty;
                let mut visited = vec![(x, y)];
                self.jumps(p, x, y, king, locked, &mut visited, &mut dests);
                self.sq[y as usize][x as usize] = Sq::Piece(o, king);
                for (tx, ty) in dests {
                    if (tx, ty) != (x, y) && self.may_end(p, tx, ty) {
                        r.insert((
                            Cell::from_coords(x, y).unwrap(),
                            Cell::from_coords(tx, ty).unwrap(),
                        ));
                    }
                }
            }
        }
        r
    }
}

fn fast_moves(pos: &Position) -> BTreeSet<(Cell, Cell)> {
    pos.legal_moves()
        .iter()
        .map(|m| (m.from(), m.to()))
        .collect()
}

fn ref_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = Board::from_position(pos).moves(pos.to_move());
    if moves.is_empty() {
        let mut c = *pos;
        c.pass_unchecked();
        return ref_perft(&c, depth - 1);
    }
    moves
        .iter()
        .map(|&(from, to)| {
            let mut c = *pos;
            c.play_unchecked(&Move::new(from, to));
            ref_perft(&c, depth - 1)
        })
        .sum()
}

/// A small deterministic generator (xorshift) for building positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn configs() -> Vec<(u8, Variant, bool)> {
    let mut v = Vec::new();
    for n in 1..=6u8 {
        for var in [Variant::International, Variant::Japanese] {
            if var == Variant::Japanese && n > 3 {
                continue;
            }
            for lock in [false, true] {
                v.push((n, var, lock));
            }
        }
    }
    v
}

/// A random position: random pieces anywhere (with kings in the Japanese
/// variant), a random player to move.
fn random_position(seed: u64, n: u8, var: Variant, lock: bool) -> Position {
    let mut rng = Rng(seed | 1);
    let per = if var == Variant::Japanese { 15 } else { 10 };
    let density = 1 + rng.below(per);
    let mut free: Vec<Cell> = Cell::all().collect();
    let mut pieces = vec![Mask::EMPTY; n as usize];
    let mut kings = Mask::EMPTY;
    for p in pieces.iter_mut() {
        let k = 1 + rng.below(density);
        for i in 0..k {
            let j = rng.below(free.len() as u64) as usize;
            let c = free.swap_remove(j);
            *p = p.with(c);
            if var == Variant::Japanese && i == 0 && rng.below(4) != 0 {
                kings = kings.with(c);
            }
        }
    }
    let stm = rng.below(u64::from(n)) as usize;
    Position::from_pieces(n, var, lock, &pieces, kings, stm).unwrap()
}

#[test]
fn reference_matches_on_random_positions() {
    let mut checked = 0;
    for (n, var, lock) in configs() {
        for i in 0..300u64 {
            let seed = 0x9E37_79B9 ^ (i * 7919 + u64::from(n) * 104_729 + lock as u64 * 13);
            let pos = random_position(seed, n, var, lock);
            let r = Board::from_position(&pos).moves(pos.to_move());
            assert_eq!(fast_moves(&pos), r, "{}", pos.diagram());
            assert_eq!(pos.count_legal_moves(), r.len() as u64);
            checked += 1;
        }
    }
    assert!(checked > 4000);
}

#[test]
fn reference_matches_along_random_games() {
    for (n, var, lock) in configs() {
        for g in 0..6u64 {
            let rules = Rules {
                players: n,
                variant: var,
                goal_lock: lock,
                ..Rules::default()
            };
            let mut pos = Position::start(&rules);
            let mut rng = Rng(0xDEAD_BEEF + g * 31 + u64::from(n));
            for _ in 0..120 {
                let r = Board::from_position(&pos).moves(pos.to_move());
                assert_eq!(fast_moves(&pos), r, "{}", pos.diagram());
                let ms = pos.legal_moves();
                if ms.is_empty() {
                    pos.pass_unchecked();
                } else {
                    pos.play_unchecked(&ms[rng.below(ms.len() as u64) as usize]);
                }
            }
        }
    }
}

#[test]
fn reference_perft_from_the_start() {
    for (n, var, lock) in configs() {
        let rules = Rules {
            players: n,
            variant: var,
            goal_lock: lock,
            ..Rules::default()
        };
        let pos = Position::start(&rules);
        let depth = if n >= 5 { 2 } else { 3 };
        assert_eq!(
            perft(&pos, depth),
            ref_perft(&pos, depth),
            "{n} {var:?} {lock}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prop_reference_matches(seed in any::<u64>(), k in 0usize..20) {
        let (n, var, lock) = configs()[k % configs().len()];
        let pos = random_position(seed, n, var, lock);
        let r = Board::from_position(&pos).moves(pos.to_move());
        prop_assert_eq!(fast_moves(&pos), r);
    }

    #[test]
    fn prop_paths_are_legal(seed in any::<u64>(), k in 0usize..20) {
        let (n, var, lock) = configs()[k % configs().len()];
        let pos = random_position(seed, n, var, lock);
        for mv in pos.legal_moves() {
            let path = pos.path(&mv).unwrap();
            prop_assert!(pos.is_legal_path(&path));
        }
    }
}

#[test]
fn game_sees_the_same_moves() {
    let g = Checkers::new(Rules::default());
    let r = Board::from_position(g.position()).moves(0);
    assert_eq!(g.legal_moves().len(), r.len());
}
