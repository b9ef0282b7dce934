//! Random playouts through the game interface, the Rust side of the Python
//! package's playout benchmark (python/bench/playouts.py): from the start
//! position, a uniformly random legal move (checked `play`) or the forced
//! pass, to the end of the game; prints games, plies and the rates.
//!
//! ```text
//! cargo run --release -p damas --example random_playouts -- [spanish|chinese|japanese] [players] [seconds]
//! ```

use std::time::{Duration, Instant};

use damas::chinese::Rules;
use damas::{AnyGame, Game, GameKind, GameSpec};

/// xorshift64*: the benchmark's generator, as cheap as the Python side's.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize * n) >> 32
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind: GameKind = match args.first().map(|s| s.parse()) {
        None => GameKind::Spanish,
        Some(Ok(kind)) => kind,
        Some(Err(error)) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    };
    let players: u8 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seconds: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let spec = match GameSpec::from_kind(kind, players, &Rules::default()) {
        Ok(spec) => spec,
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(2);
        }
    };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let budget = Duration::from_secs_f64(seconds.clamp(0.1, 3600.0));
    let start = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while start.elapsed() < budget {
        let mut game = AnyGame::new(&spec);
        while game.to_move().is_some() {
            let moves = game.legal_moves();
            if moves.is_empty() {
                game.pass().expect("a player without moves passes");
            } else {
                game.play(moves[rng.below(moves.len())])
                    .expect("a legal move");
            }
            plies += 1;
        }
        games += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "games {games} plies {plies} seconds {elapsed:.3} plies/s {:.0} games/s {:.1}",
        plies as f64 / elapsed,
        games as f64 / elapsed
    );
}
