//! Plays a whole Chinese checkers game with a greedy one-ply player (each
//! player takes the move that most reduces its total distance to the goal)
//! and prints the moves, the final diagram, position text and ranking.
//!
//! ```text
//! cargo run --release -p damas --example chinese_game -- [players] [japanese]
//! ```

use damas::chinese::{Checkers, Rules, Variant};
use damas::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players: u8 = args.first().and_then(|s| s.parse().ok()).unwrap_or(2);
    let japanese = args.get(1).is_some_and(|s| s.starts_with('j'));
    let rules = Rules {
        players,
        variant: if japanese {
            Variant::Japanese
        } else {
            Variant::International
        },
        ..Rules::default()
    };
    if rules.variant_fallback() {
        eprintln!("note: the Japanese variant needs 1-3 players; international rules apply");
    }
    let mut game = Checkers::new(rules);
    println!("{}", game.diagram());
    println!("{game}\n");
    while let Some(player) = game.to_move() {
        let p = player.index();
        let pos = *game.position();
        let moves = game.legal_moves();
        // Greedy: least total distance, then most pieces in goal; ties by
        // a simple rotation so that games do not loop.
        let best = moves
            .iter()
            .enumerate()
            .min_by_key(|(i, mv)| {
                let mut next = pos;
                next.play_unchecked(mv);
                (
                    next.goal_distance(p),
                    std::cmp::Reverse(next.pieces_in_goal(p)),
                    (i + game.ply() as usize) % moves.len(),
                )
            })
            .map(|(_, mv)| *mv)
            .expect("to_move() guarantees a legal move");
        let text = game.move_text(&best);
        game.play(best).expect("legal");
        println!("{:>4}. player {}: {text}", game.ply(), p + 1);
    }
    println!("\n{}", game.diagram());
    println!("{game}");
    let winner = game
        .outcome()
        .and_then(|o| o.winner())
        .map_or_else(|| "none".to_string(), |p| p.to_string());
    println!("end: {:?}, winner: {winner}", game.end_reason());
    for (p, state) in game.ranking() {
        println!("player {}: {state:?}", p + 1);
    }
}
