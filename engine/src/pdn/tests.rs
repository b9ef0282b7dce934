//! Tests of the PDN reader.

use super::capture::fits_landings;
use super::*;
use crate::spanish::{Draughts, Square};

#[test]
fn numbers_comments_variations_and_nags_are_skipped() {
    let text = "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n\
                1.11-14 22-19! 2. 10-13 {take (back)} ; rest of line 9-13\n\
                ( 2... 10-14 (3. 23-19) {x} ) $1 2... 19x10?! 3.5x14 1/2-1/2";
    let games = read_games(text).expect("reads");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("white"), Some("a \"b\""));
    assert_eq!(
        games[0].moves(),
        ["11-14", "22-19", "10-13", "19x10", "5x14"]
    );
    assert_eq!(games[0].result(), Some("1/2-1/2"));
    assert_eq!(games[0].move_lines, vec![4, 4, 4, 5, 5]);
    assert!(games[0].replay().is_ok());
}

#[test]
fn broken_input_is_an_error_with_its_line() {
    assert_eq!(read_games("1. 11-15 {open"), Err(PdnError::OpenComment(1)));
    assert_eq!(
        read_games("\n1. 11-15 (2. 9-13"),
        Err(PdnError::OpenVariation(2))
    );
    assert_eq!(read_games("1. 11-15 )"), Err(PdnError::StrayParenthesis(1)));
    assert!(matches!(
        read_games("[Event x]"),
        Err(PdnError::BadTag { line: 1, .. })
    ));
}

#[test]
fn the_first_illegal_move_is_named_with_ply_and_line() {
    let games = read_games("1. 11-15 22-18\n2. 1-5 23-19 1-0").expect("reads");
    let err = games[0].replay().expect_err("5 is occupied");
    assert!(
        matches!(&err, ReplayError::Move { ply: 3, line: 2, text, .. } if text == "1-5"),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("ply 3 (line 2): '1-5': "),
        "{err}"
    );
}

#[test]
fn landing_squares_of_a_long_capture_are_read() {
    // The man on 6 jumps 10 to land on 13, then 18 to land on 22.
    let fen = "W:W6:B10,18";
    let game: Draughts = fen.parse().expect("valid");
    let [capture] = game.legal_moves()[..] else {
        panic!("one capture expected");
    };
    let square = |n| Square::new(n).expect("square");
    assert_eq!(capture.captured().count(), 2);
    assert!(fits_landings(capture, &[square(6), square(13), square(22)]));
    assert!(!fits_landings(
        capture,
        &[square(6), square(15), square(22)]
    ));
    for text in [
        "6x13x22",
        "6x22",
        "6x22x10x18",
        "6x22x18x10",
        "6-22",
        "6-13-22",
    ] {
        let pdn = format!("[FEN \"{fen}\"]\n1. {text} *");
        let games = read_games(&pdn).expect("reads");
        let replayed = games[0]
            .replay()
            .unwrap_or_else(|err| panic!("{text}: {err}"));
        assert_eq!(replayed.moves(), [capture], "{text}");
    }
    let games = read_games(&format!("[FEN \"{fen}\"] 6x14x22 *")).expect("reads");
    let err = games[0].replay().expect_err("14 is not a landing square");
    // The error is the one for the text as written.
    assert!(err.to_string().contains("'6x14x22'"), "{err}");
    let quiet = read_games("1. 9x13 22-18 *").expect("reads");
    assert!(quiet[0].replay().is_ok(), "a quiet move written with x");
}

#[test]
fn other_game_types_and_bad_fens_are_refused() {
    let games = read_games("[GameType \"20\"]\n1. 32-28 *\n[FEN \"W:W33\"] *").expect("reads");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].replay().map(|_| ()),
        Err(ReplayError::GameType("20".into()))
    );
    assert!(matches!(games[1].replay(), Err(ReplayError::Fen(_))));
    let typed = read_games("[GameType \"24,W,8,8,N1,1\"] 1. 11-15 *").expect("reads");
    assert!(typed[0].replay().is_ok());
}

#[test]
fn games_split_at_results_and_at_tags() {
    let games = read_games("[Round \"1\"] 1. 11-15 [Round \"2\"] 1. 9-13 2-0 1. 10-14 0-2")
        .expect("reads");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].moves(), ["11-15"]);
    assert_eq!(games[0].result(), None);
    assert_eq!(games[1].tag("Round"), Some("2"));
    assert_eq!(games[1].result(), Some("2-0"));
    assert!(games[2].tags().is_empty());
    assert_eq!(games[2].moves(), ["10-14"]);
    assert_eq!(games[2].line(), 1);
}
