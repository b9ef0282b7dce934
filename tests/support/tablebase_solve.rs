//! Independent checks of endgame tables: random positions of a material,
//! and two solvers that do not use the retrograde generator (a plain
//! minimax over the no-progress count reading the tables only after a
//! zeroing move, and a table-free proof to a fixed depth). Both take the
//! no-progress limit from the position's own rules, so they serve every
//! draughts variant.

#![allow(dead_code)]

use std::collections::HashMap;

use damas::spanish::tablebase::{GameValue, Material, Tablebase};
use damas::spanish::{Bitboard, Color, Position, Square};

/// A tiny deterministic generator for sampling.
pub struct Lcg(pub u64);
impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random legal Spanish position of `material` (men off their promotion
/// row); `with_rules` makes it another variant's.
pub fn sample(rng: &mut Lcg, m: Material) -> Position {
    loop {
        let mut taken = Bitboard::EMPTY;
        let mut sets = [Bitboard::EMPTY; 4];
        let counts = [m.white_kings, m.white_men, m.black_kings, m.black_men];
        for (k, &count) in counts.iter().enumerate() {
            for _ in 0..count {
                let sq = loop {
                    let s = Square::from_index(rng.below(32) as usize).unwrap();
                    if !taken.contains(s) {
                        break s;
                    }
                };
                taken.insert(sq);
                sets[k].insert(sq);
            }
        }
        let side = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let white = sets[0] | sets[1];
        let black = sets[2] | sets[3];
        if let Ok(p) = Position::from_pieces(white, black, sets[0] | sets[2], side) {
            return p;
        }
    }
}

pub fn opposite(v: GameValue) -> GameValue {
    match v {
        GameValue::Win => GameValue::Loss,
        GameValue::Loss => GameValue::Win,
        GameValue::Draw => GameValue::Draw,
    }
}

/// Plain minimax over the game with the no-progress count, memoised on
/// (position, count): it follows every king move itself and reads the
/// tables only for the position after a zeroing move (at count 0), so it
/// re-derives each slice's values and distances independently of the
/// retrograde generator.
pub fn solve(
    tb: &Tablebase,
    p: &Position,
    counter: u32,
    memo: &mut HashMap<(Position, u32), GameValue>,
) -> GameValue {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return GameValue::Loss;
    }
    if counter >= p.rules().no_progress_plies() {
        return GameValue::Draw;
    }
    if let Some(&v) = memo.get(&(*p, counter)) {
        return v;
    }
    let mut best = GameValue::Loss;
    for mv in &moves {
        let child = p.played_unchecked(mv);
        let v = if mv.is_capture() || p.moves_man(mv) {
            opposite(tb.probe(&child).unwrap().value_at(0))
        } else {
            opposite(solve(tb, &child, counter + 1, memo))
        };
        best = best.max(v);
        if best == GameValue::Win {
            break;
        }
    }
    memo.insert((*p, counter), best);
    best
}

/// Table-free depth-limited alpha-beta over the whole game (captures,
/// promotions, the no-progress count): `Some` when it proves a result within
/// `depth` plies.
pub fn prove(p: &Position, counter: u32, depth: u32) -> Option<GameValue> {
    if p.pieces(p.to_move()).is_empty() {
        return Some(GameValue::Loss);
    }
    let moves = p.legal_moves();
    if moves.is_empty() {
        return Some(GameValue::Loss);
    }
    if counter >= p.rules().no_progress_plies() {
        return Some(GameValue::Draw);
    }
    if depth == 0 {
        return None;
    }
    let mut all_lose = true;
    for mv in &moves {
        let child = p.played_unchecked(mv);
        let c = if mv.is_capture() || p.moves_man(mv) {
            0
        } else {
            counter + 1
        };
        match prove(&child, c, depth - 1) {
            Some(GameValue::Loss) => return Some(GameValue::Win),
            Some(GameValue::Win) => {}
            _ => all_lose = false,
        }
    }
    all_lose.then_some(GameValue::Loss)
}
