//! Prints Spanish draughts endgame positions for `damas match --openings`:
//! games of the engine against itself at a low depth from random openings,
//! cut when 6 to 8 pieces are left with material within one man of equal
//! and no capture pending. One FEN per line.
//!
//! `cargo run --release -p damas --example endgame_openings -- COUNT SEED`

use std::sync::atomic::AtomicBool;

use damas::search::SearchLimits;
use damas::spanish::{Color, Draughts, Engine};
use damas::{Game, Search};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let mut seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut engine = Engine::new(16);
    let limits = SearchLimits {
        depth: Some(4),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let mut found = std::collections::HashSet::new();
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    while found.len() < count {
        let mut game = Draughts::default();
        for _ in 0..6 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            game.play(mv).unwrap_or_default();
        }
        engine.clear();
        while !game.is_over() {
            let pos = *game.position();
            let pieces = pos.occupied().count();
            let value = |c: Color| pos.men(c).count() as i32 + 3 * pos.kings(c).count() as i32;
            let balanced = (value(Color::White) - value(Color::Black)).abs() <= 1;
            if (6..=8).contains(&pieces) && balanced && !pos.has_capture() {
                if found.insert(pos.to_fen()) {
                    println!("{}", pos.to_fen());
                }
                break;
            }
            if pieces < 6 {
                break;
            }
            let r = engine.search(&game, &limits, &stop, &mut |_| {});
            // Some variety: now and then a random move instead.
            let mv = if next() % 8 == 0 {
                let moves = game.legal_moves();
                moves[(next() % moves.len() as u64) as usize]
            } else {
                match r.best {
                    Some(mv) => mv,
                    None => break,
                }
            };
            if game.play(mv).is_err() {
                break;
            }
        }
    }
}
