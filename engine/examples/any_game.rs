//! One generic function, written once against the [`damas::Game`]
//! interface, plays a complete engine-against-engine game of any game:
//! here Spanish draughts, 3-player Chinese checkers and 2-player Japanese.
//!
//! ```text
//! cargo run --release --example any_game
//! ```

use std::sync::atomic::AtomicBool;

use damas::chinese::{self, Rules, Variant};
use damas::search::SearchLimits;
use damas::{spanish, Game, Search};

/// Most turns before the example stops a game as a referee would.
const MAX_TURNS: usize = 1000;

/// Plays `game` to the end with one engine per seat searching `limits`,
/// then prints the record and the result.
fn play_out<G: Game>(name: &str, mut game: G, limits: &SearchLimits) {
    let mut engines: Vec<G::Engine> = (0..game.player_count())
        .map(|_| G::Engine::new(16))
        .collect();
    let stop = AtomicBool::new(false);
    let mut record = Vec::new();
    while let Some(player) = game.to_move() {
        if record.len() >= MAX_TURNS {
            game.adjudicate_draw();
            break;
        }
        let result = engines[player.index()].search(&game, limits, &stop, &mut |_| {});
        let text = match result.best {
            Some(mv) => {
                let text = game.move_text(&mv);
                game.play(mv).expect("the engine plays legal moves");
                text
            }
            None => {
                game.pass().expect("no move means a pass");
                "pass".to_string()
            }
        };
        record.push(format!("{player}:{text}"));
    }
    let outcome = game.outcome().expect("the game is over");
    println!("{name}: {} turns", record.len());
    println!("  {}", record.join(" "));
    let places: Vec<String> = outcome
        .places
        .iter()
        .enumerate()
        .map(|(seat, place)| format!("p{}={place}", seat + 1))
        .collect();
    println!("  places {} ({})", places.join(" "), outcome.reason);
}

fn main() {
    let quick = |depth| SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    play_out("Spanish draughts", spanish::Draughts::default(), &quick(6));
    play_out(
        "Chinese checkers, 3 players",
        chinese::Checkers::new(Rules::for_players(3)),
        &quick(2),
    );
    play_out(
        "Japanese, 2 players",
        chinese::Checkers::new(Rules {
            variant: Variant::Japanese,
            ..Rules::default()
        }),
        &quick(2),
    );
}
