//! Russian draughts' draws, each on a concrete position: 15 moves by each
//! side with only kings moving and nothing taken (30 plies), and the
//! unchanged balance of forces with both sides having a king (5 moves by
//! each side with 2–3 pieces, 30 with 4–5, 60 with 6–7).

#[path = "support/quiet_line.rs"]
mod quiet_line;

use damas::spanish::{Draughts, DrawReason, GameStatus, Position, Rules, Variant};
use damas::{EndReason, Game};
use quiet_line::shuffle;

fn russian() -> Rules {
    Rules::new(Variant::Russian).expect("Russian draughts is playable")
}

/// A game from `fen` under `rules`.
fn game(fen: &str, rules: Rules) -> Draughts {
    let pos: Position = fen.parse().expect("a valid FEN");
    Draughts::new(pos.with_rules(rules))
}

#[test]
fn fifteen_king_moves_each_without_a_capture_draw() {
    // Two kings each, far apart: the balance rule would wait 60 plies.
    let fen = "W:WK29,K30:BK3,K4";
    let mut russian_game = game(fen, russian());
    shuffle(&mut russian_game, 29);
    assert_eq!(russian_game.plies_without_progress(), 29);
    assert_eq!(russian_game.status(), GameStatus::Ongoing);
    shuffle(&mut russian_game, 1);
    assert_eq!(
        russian_game.status(),
        GameStatus::Draw {
            reason: DrawReason::NoProgress
        }
    );
    let outcome = russian_game.outcome().expect("over");
    assert_eq!(outcome.places, [1, 1]);
    assert_eq!(outcome.reason, EndReason::NoProgress { plies: 30 });
    assert_eq!(
        outcome.reason.to_string(),
        "draw by 30 plies without capture or man move"
    );
    // The Spanish rules play on.
    let mut spanish = game(fen, Rules::default());
    shuffle(&mut spanish, 30);
    assert_eq!(spanish.plies_without_progress(), 30);
    assert_eq!(spanish.status(), GameStatus::Ongoing);
}

#[test]
fn three_pieces_with_kings_on_both_sides_draw_after_five_moves_each() {
    // White: a king and a man; Black: a king. A man's move restarts the
    // no-progress count but not the balance count.
    let fen = "W:WK29,2:BK16";
    let mut g = game(fen, russian());
    assert_eq!(g.unchanged_balance_plies_played(), Some(0));
    shuffle(&mut g, 9);
    assert_eq!(g.unchanged_balance_plies_played(), Some(9));
    assert_eq!(g.status(), GameStatus::Ongoing);
    shuffle(&mut g, 1);
    assert_eq!(
        g.status(),
        GameStatus::Draw {
            reason: DrawReason::UnchangedBalance
        }
    );
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::UnchangedBalance { plies: 10 });
    assert_eq!(outcome.reason.code(), "unchanged_balance");
    assert_eq!(outcome.reason.plies(), Some(10));
}

#[test]
fn the_balance_count_needs_a_king_on_both_sides() {
    // Black has only a man: the balance rule does not apply.
    let mut g = game("W:WK29,K30:B28", russian());
    assert_eq!(g.unchanged_balance_plies_played(), None);
    shuffle(&mut g, 10);
    assert_eq!(g.unchanged_balance_plies_played(), None);
    assert_eq!(g.status(), GameStatus::Ongoing);
}

#[test]
fn five_pieces_wait_thirty_moves_each() {
    // Five pieces, both sides with a king: 60 plies, counted through the
    // men's moves.
    let mut g = game("W:WK32,5,6:BK1,27", russian());
    assert_eq!(g.unchanged_balance_plies_played(), Some(0));
    shuffle(&mut g, 6);
    assert_eq!(g.unchanged_balance_plies_played(), Some(6));
    assert_eq!(g.status(), GameStatus::Ongoing);
    assert_eq!(
        Rules::new(Variant::Russian)
            .expect("playable")
            .unchanged_balance_plies(5),
        Some(60)
    );
}
