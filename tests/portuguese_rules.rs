//! Portuguese draughts: the Spanish moves, and the two shorter draws (40
//! plies without progress; three kings that have not beaten a lone king
//! within 24 plies), each on a concrete position.

#[path = "support/quiet_line.rs"]
mod quiet_line;

use damas::spanish::{perft, Draughts, DrawReason, GameStatus, Position, Rules, Variant};
use damas::{EndReason, Game};
use quiet_line::shuffle;

fn portuguese() -> Rules {
    Rules::new(Variant::Portuguese).expect("Portuguese draughts is playable")
}

/// A game from `fen` under `rules`.
fn game(fen: &str, rules: Rules) -> Draughts {
    let pos: Position = fen.parse().expect("a valid FEN");
    Draughts::new(pos.with_rules(rules))
}

#[test]
fn portuguese_perft_equals_spanish() {
    for fen in [
        damas::spanish::START_FEN,
        "W:WK1,9,10,K14:B18,19,K23,27",
        "B:W5,6,7,K12,21:B13,14,K20,26,28",
    ] {
        let spanish: Position = fen.parse().expect("a valid FEN");
        let port = spanish.with_rules(portuguese());
        for depth in 1..=6 {
            assert_eq!(
                perft(&port, depth),
                perft(&spanish, depth),
                "{fen} depth {depth}"
            );
        }
        assert_eq!(port.legal_moves(), spanish.legal_moves(), "{fen}");
    }
    // The Spanish counts from the start (tests/spanish_perft.rs).
    let start = Position::start().with_rules(portuguese());
    assert_eq!(perft(&start, 8), 828_783);
    assert_eq!(perft(&start, 9), 3_860_866);
}

#[test]
fn forty_plies_without_progress_draw_portuguese_draughts() {
    // Two kings each, far apart: king moves only, no capture on offer.
    let fen = "W:WK1,K3:BK30,K32";
    let mut port = game(fen, portuguese());
    let moves = shuffle(&mut port, 39);
    assert_eq!(port.plies_without_progress(), 39);
    assert_eq!(port.status(), GameStatus::Ongoing);
    let mut spanish = game(fen, Rules::default());
    for text in &moves {
        spanish.play_text(text).expect("the same moves");
    }
    let more = shuffle(&mut port, 1);
    assert_eq!(
        port.status(),
        GameStatus::Draw {
            reason: DrawReason::NoProgress
        }
    );
    let outcome = port.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::NoProgress { plies: 40 });
    assert_eq!(outcome.reason.code(), "no_progress");
    assert_eq!(
        outcome.reason.to_string(),
        "draw by 40 plies without capture or man move"
    );
    // The Spanish rules wait for 80.
    spanish.play_text(&more[0]).expect("the same move");
    assert_eq!(spanish.plies_without_progress(), 40);
    assert_eq!(spanish.status(), GameStatus::Ongoing);
}

#[test]
fn three_kings_must_beat_one_within_twelve_moves_each() {
    let fen = "W:WK1,K2,K3:BK26";
    let mut port = game(fen, portuguese());
    assert_eq!(port.three_kings_plies_played(), Some(0));
    let moves = shuffle(&mut port, 23);
    assert_eq!(port.three_kings_plies_played(), Some(23));
    assert_eq!(port.status(), GameStatus::Ongoing);
    shuffle(&mut port, 1);
    assert_eq!(
        port.status(),
        GameStatus::Draw {
            reason: DrawReason::ThreeKings
        }
    );
    let outcome = port.outcome().expect("over");
    assert_eq!(outcome.places, [1, 1]);
    assert_eq!(outcome.reason, EndReason::ThreeKings { plies: 24 });
    assert_eq!(outcome.reason.code(), "three_kings");
    assert_eq!(
        outcome.reason.to_string(),
        "draw: three kings did not beat a lone king within 24 plies"
    );
    // Spanish draughts has no such count.
    let mut spanish = game(fen, Rules::default());
    for text in &moves {
        spanish.play_text(text).expect("the same moves");
    }
    shuffle(&mut spanish, 1);
    assert_eq!(spanish.status(), GameStatus::Ongoing);
}

#[test]
fn the_three_kings_count_starts_when_the_ending_arises() {
    // Three white kings against a black man and king: the king on 3 must
    // take the man on 12 (3x16), and from then on it is three kings
    // against one.
    let mut port = game("W:WK1,K2,K3:B12,K26", portuguese());
    assert_eq!(port.three_kings_plies_played(), None);
    assert_eq!(port.play_text("3x16").expect("the only move"), "3x16");
    assert_eq!(port.three_kings_plies_played(), Some(0));
    shuffle(&mut port, 23);
    assert_eq!(port.status(), GameStatus::Ongoing);
    shuffle(&mut port, 1);
    assert_eq!(
        port.status(),
        GameStatus::Draw {
            reason: DrawReason::ThreeKings
        }
    );
}
